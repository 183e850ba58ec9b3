// A user:// write named by strings of the pack's own data files (`"user://best_" + level["id"] + ".json"`, a twenty-second
// red team's ordinary game: best times per level) was the climbing-write error whatever the strings were: they are now
// judged with the strings that can reach the write (gdscript/fileRules.ts WriteData, checks/writeData.ts), as the
// analysis follows the subscripts. These are the shapes, as packs of the test's writer; the Godot 3 look-alike and the
// attacks godot3-server ran are attackProjects63.ts.
import { describe, expect, it } from "vitest"
import { utf8 } from "./support/bytes.ts"
import { writePack } from "./support/packWriter.ts"
import { scanBytes } from "./support/scan.ts"

const MANIFEST = utf8(JSON.stringify({ id: "g", name: "G", version: "1.0.0", engine_sdk: "1.0", entry_scene: "res://game/main.tscn", min_players: 1, max_players: 4 }))
const SCENE = utf8('[gd_scene load_steps=2 format=2]\n\n[ext_resource path="res://game/main.gd" type="Script" id=1]\n\n[node name="Main" type="Node2D"]\nscript = ExtResource( 1 )\n')
const LEVELS = [{ id: "forest", par: 30 }, { id: "cave_2", par: 45 }, { id: 3, par: 60 }]

/** main.gd: reads res://data/levels.json into `levels`, then writes `write` for each `level` (line 12). */
const saver = (write: string, ...after: ReadonlyArray<string>): string =>
  ["extends Node2D", "", "var levels = []", "", "func _ready():", "\tvar f = File.new()", '\tf.open("res://data/levels.json", File.READ)', "\tlevels = parse_json(f.get_as_text())", "\tf.close()", "\tvar w = File.new()", "\tfor level in levels:", `\t\tw.open(${write}, File.WRITE)`, '\t\tw.store_string(to_json({"best": 12.5}))', "\t\tw.close()", ...after, ""].join("\n")

/** The filesystem-outside-sandbox findings of main.gd, as `line severity` and, for an error, what the message names. */
const writes = async (source: string, levels: unknown = LEVELS): Promise<ReadonlyArray<string>> => {
  const entries = [{ path: "res://manifest.json", data: MANIFEST }, { path: "res://game/main.tscn", data: SCENE }, { path: "res://game/main.gd", data: utf8(source) }, { path: "res://data/levels.json", data: utf8(JSON.stringify(levels)) }]
  const report = await scanBytes(writePack({ format: 1, entries }))
  return report.findings.filter((f) => f.message.includes("(policy filesystem-outside-sandbox)")).map((f) => `${f.line ?? ""} ${f.severity}${/: (".*?" of res:\/\/data\/levels\.json [^.;]*)/.exec(f.message)?.[1] === undefined ? "" : ` ${/: (".*?" of res:\/\/data\/levels\.json [^.;]*)/.exec(f.message)?.[1]}`}`)
}

describe("a save named by strings of the pack's data", () => {
  it.each([['"user://best_" + level["id"] + ".json"'], ['"user://best_" + level.id + ".json"'], ['"user://saves/" + level["id"]']])("is no finding when every string that can reach it is one name: %s", async (write) => {
    expect(await writes(saver(write))).toEqual([])
  })

  it.each([
    ["a folder separator", [{ id: "../../../x" }], '"../../../x" of res://data/levels.json holds a folder separator'],
    ["a backslash", [{ id: "..\\x" }], '"..\\\\x" of res://data/levels.json holds a folder separator'],
    ["a NUL", [{ id: "a.gd\u0000" }], '"a.gd\\u0000" of res://data/levels.json holds a NUL character, which ends the path the engine opens'],
    ["..", [{ id: ".." }], '".." of res://data/levels.json names a folder, not a file'],
  ])("is the error naming it when a string holds %s", async (_what, levels, named) => {
    expect(await writes(saver('"user://best_" + level["id"] + ".json"'), levels)).toEqual([`12 error ${named}`])
  })

  it("is the error when the data is changed in the game (no longer the pack's strings), or joined with another name", async () => {
    expect(await writes(saver('"user://best_" + level["id"] + ".json"', '\tlevels[0]["id"] = str(get_meta("x"))'))).toEqual(["12 error"])
    expect(await writes(saver('"user://best_" + level["id"] + "/" + level["id"]'))).toEqual(["12 error"])
    expect(await writes(saver('"user://best_" + level["id"] + "../x"'))).toEqual(["12 error"])
  })
})
