// A property of `$Path` has no type the 3.x parser knows (it types `$Path` as Node), so a typed variable given it is
// checked at run time (a fortieth red team's `var slot: int = $SlotPicker.value`: a script's `_get` returning text
// stopped the game with "Trying to assign value of type 'String' to a variable of type 'int'"). The slot is a number.
import { describe, expect, it } from "vitest"
import { utf8 } from "./support/bytes.ts"
import { writePack } from "./support/packWriter.ts"
import { scanBytes } from "./support/scan.ts"

const MANIFEST = utf8(JSON.stringify({ id: "g", name: "G", version: "1.0.0", engine_sdk: "1.0", entry_scene: "res://game/main.tscn", min_players: 1, max_players: 4 }))
const SCENE = utf8('[gd_scene load_steps=2 format=2]\n\n[ext_resource path="res://game/main.gd" type="Script" id=1]\n\n[node name="Main" type="Node2D"]\nscript = ExtResource( 1 )\n\n[node name="SlotPicker" type="SpinBox" parent="."]\n')

const saveErrors = async (declaration: string): Promise<ReadonlyArray<string>> => {
  const text = ["extends EngineGame", "", "func _ready():", `\t${declaration}`, "\tvar f = File.new()", '\tf.open("user://save_" + str(slot) + ".json", File.WRITE)', "\tf.close()", ""].join("\n")
  const report = await scanBytes(writePack({ format: 1, entries: [{ path: "res://manifest.json", data: MANIFEST }, { path: "res://game/main.tscn", data: SCENE }, { path: "res://game/main.gd", data: utf8(text) }] }))
  return report.findings.filter((f) => f.severity === "error" && f.message.includes("(policy filesystem-outside-sandbox)")).map((f) => `${f.line}`)
}

describe("a typed variable given a property of a node by its path", () => {
  it("holds a number: the engine checks the assignment", async () => {
    expect(await saveErrors("var slot: int = $SlotPicker.value")).toEqual([])
  })

  it("an untyped variable given the same property may hold anything: the climbing-write error", async () => {
    expect(await saveErrors("var slot = $SlotPicker.get_meta(\"slot\")")).toEqual(["6"])
  })
})
