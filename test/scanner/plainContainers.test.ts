// A local Dictionary literal of plain data, given only numbers, holds no object: a write by a name not constant into
// one of its elements (a settings menu's `settings["keys"][action] = code`, the local shape of a twenty-ninth
// false-positive hunt's key rebinding) is a write into a Dictionary, not a Script's `source_code`. An element that is,
// or may be, something else keeps the error. So is a member Dictionary merged with saved JSON by its keys (a
// thirty-second hunt's settings menu): an edit in place keeps plain data plain.
import { describe, expect, it } from "vitest"
import { utf8 } from "./support/bytes.ts"
import { writePack } from "./support/packWriter.ts"
import { scanBytes } from "./support/scan.ts"

const MANIFEST = utf8(JSON.stringify({ id: "g", name: "G", version: "1.0.0", engine_sdk: "1.0", entry_scene: "res://game/main.tscn", min_players: 1, max_players: 4 }))
const SCENE = utf8('[gd_scene load_steps=2 format=2]\n\n[ext_resource path="res://game/main.gd" type="Script" id=1]\n\n[node name="Main" type="Node2D"]\nscript = ExtResource( 1 )\n')

/** The script-source-code findings of main.gd: `rebind(action, code: int)` runs `lines` (from line 7). */
const sourceWrites = async (...body: ReadonlyArray<string>): Promise<ReadonlyArray<string>> => {
  const text = ["extends Node2D", "", "func _ready():", '\trebind(str(get_meta("a")), KEY_W)', "", "func rebind(action, code: int):", ...body.map((l) => `\t${l}`), ""].join("\n")
  const report = await scanBytes(writePack({ format: 1, entries: [{ path: "res://manifest.json", data: MANIFEST }, { path: "res://game/main.tscn", data: SCENE }, { path: "res://game/main.gd", data: utf8(text) }] }))
  return report.findings.filter((f) => f.message.includes("(policy script-source-code)")).map((f) => `${f.line} ${f.severity}`)
}

describe("a literal container of plain data", () => {
  it("holds no Script: writes by a name not constant into its elements are no source_code write", async () => {
    expect(await sourceWrites('var settings = {"fullscreen": false, "keys": {"jump": KEY_SPACE, "left": KEY_A}}', "settings[action] = code", 'settings["keys"][action] = code')).toEqual([])
  })

  it.each([
    ["an element that is a script", ['var s = load("res://game/x.gd")', 'var box = {"a": s}', 'box["a"][action] = "extends Node"']],
    ["a script put into it", ['var s = load("res://game/x.gd")', 'var box = {"a": {}}', 'box["a"] = s', 'box["a"][action] = "extends Node"']],
    ["a value not known put into it by a name not constant", ['var box = {"a": {}}', "box[action] = get_meta(action)", 'box["a"][action] = "extends Node"']],
  ])("keeps the error for %s", async (_what, body) => {
    expect((await sourceWrites(...body)).filter((f) => f.endsWith("error")).length).toBe(1)
  })

  it("a member Dictionary merged with saved JSON by its keys holds no Script", async () => {
    const text = [
      "extends Node2D",
      "",
      'var settings = {"fullscreen": false, "music_volume": 0.8, "language": "en"}',
      "",
      "func _ready():",
      "\tvar f = File.new()",
      '\tif f.open("user://settings.json", File.READ) != OK:',
      "\t\treturn",
      "\tvar parsed = parse_json(f.get_as_text())",
      "\tfor k in parsed.keys():",
      "\t\tif settings.has(k):",
      "\t\t\tsettings[k] = parsed[k]",
      "",
    ].join("\n")
    const report = await scanBytes(writePack({ format: 1, entries: [{ path: "res://manifest.json", data: MANIFEST }, { path: "res://game/main.tscn", data: SCENE }, { path: "res://game/main.gd", data: utf8(text) }] }))
    expect(report.findings.filter((f) => f.message.includes("(policy script-source-code)")).map((f) => `${f.line} ${f.severity}`)).toEqual([])
  })
})
