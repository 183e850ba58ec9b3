// What an operator gives with a number on one side (evaluate.ts operatorResult): Variant::evaluate of 3.x adds,
// subtracts, multiplies and divides no String, Array or Dictionary by a number (it stops the script), and the bitwise
// operators take only integers, so `saved + 1` is a number whatever `saved` was read from; `%` formats a String, so
// `saved % 1` may be any text. A thirty-fourth hunt's achievements counted progress so (`progress.get(id, 0) + amount`).
import { describe, expect, it } from "vitest"
import { utf8 } from "./support/bytes.ts"
import { writePack } from "./support/packWriter.ts"
import { scanBytes } from "./support/scan.ts"

const MANIFEST = utf8(JSON.stringify({ id: "g", name: "G", version: "1.0.0", engine_sdk: "1.0", entry_scene: "res://game/main.tscn", min_players: 1, max_players: 4 }))
const SCENE = utf8('[gd_scene load_steps=2 format=2]\n\n[ext_resource path="res://game/main.gd" type="Script" id=1]\n\n[node name="Main" type="Node2D"]\nscript = ExtResource( 1 )\n')

/** The filesystem-outside-sandbox findings of a save at `"user://save" + str(<expr>)`, `saved` read from user://. */
const saveFindings = async (expr: string): Promise<ReadonlyArray<string>> => {
  const text = [
    "extends EngineGame",
    "",
    "func _ready():",
    "\tvar f = File.new()",
    '\tf.open("user://slot.json", File.READ)',
    "\tvar saved = parse_json(f.get_as_text())",
    "\tf.close()",
    `\tf.open("user://save" + str(${expr}), File.WRITE)`,
    "\tf.close()",
    "",
  ].join("\n")
  const report = await scanBytes(writePack({ format: 1, entries: [{ path: "res://manifest.json", data: MANIFEST }, { path: "res://game/main.tscn", data: SCENE }, { path: "res://game/main.gd", data: utf8(text) }] }))
  return report.findings.filter((f) => f.message.includes("(policy filesystem-outside-sandbox)")).map((f) => `${f.line} ${f.severity}`)
}

describe("operators with a number on one side", () => {
  it.each(["saved + 1", "1 + saved", "saved - 2", "saved * 3", "saved / 4", "saved & 7", "saved << 1"])("%s is a number: no climbing write", async (expr) => {
    expect(await saveFindings(expr)).toEqual([])
  })

  it.each(["saved % 1", "saved", "saved + saved"])("%s may be text read at run time: the climbing-write error", async (expr) => {
    expect(await saveFindings(expr)).toEqual(["8 error"])
  })
})
