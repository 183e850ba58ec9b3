// An eighteenth red team's ordinary games (/tmp/rt18/b: g3_tres, wr/w_str, wr/w_format, g2_backup) that
// pckgate-scanner/14 gave an error they do not deserve: a write whose path `str()` or `String.format` built lost its
// end, a backup copy keeping the names it copies, and a level loaded through a member Array nothing changes. The Godot 3
// look-alikes and the attacks on each relaxation, run by godot3-server, are attackProjects48.ts; these are the shapes,
// as packs of the test's writer.
import { describe, expect, it } from "vitest"
import { utf8 } from "./support/bytes.ts"
import { writePack } from "./support/packWriter.ts"
import { scanBytes } from "./support/scan.ts"

const MANIFEST = utf8(JSON.stringify({ id: "g", name: "G", version: "1.0.0", engine_sdk: "1.0", entry_scene: "res://game/main.tscn", min_players: 1, max_players: 4 }))
const SCENE = utf8('[gd_scene load_steps=2 format=2]\n\n[ext_resource path="res://game/main.gd" type="Script" id=1]\n\n[node name="Main" type="Node2D"]\nscript = ExtResource( 1 )\n')
const LEVEL = utf8('[gd_scene format=2]\n\n[node name="Level" type="Node2D"]\n')

/** The runtime-code-loading findings of a pack of main.gd (`lines`) and `others`, as `file:line severity`. */
const loads = async (lines: ReadonlyArray<string>, others: Readonly<Record<string, string>> = {}): Promise<ReadonlyArray<string>> => {
  const scripts = Object.entries({ "res://game/main.gd": [...lines, ""].join("\n"), ...others }).map(([path, text]) => ({ path, data: utf8(text) }))
  const entries = [{ path: "res://manifest.json", data: MANIFEST }, { path: "res://game/main.tscn", data: SCENE }, { path: "res://levels/level_1.tscn", data: LEVEL }, { path: "res://levels/level_2.tscn", data: LEVEL }, ...scripts]
  const report = await scanBytes(writePack({ format: 1, entries }))
  return report.findings.filter((f) => f.message.includes("(policy runtime-code-loading)")).map((f) => `${f.file}:${f.line ?? ""} ${f.severity}`)
}

/** main.gd: a level loaded by a name not pinned down (line 6), after `members` (from line 8) and a function writing `write` (its path's expression). */
const saver = (write: string, members: ReadonlyArray<string> = ["var slot := 1"]): ReadonlyArray<string> => [
  "extends Node",
  "",
  "func _ready():",
  "\tsave_game()",
  "\tvar who = str(get_meta('who'))",
  '\tvar level = load("res://levels/" + who + ".tscn")',
  "",
  ...members,
  "",
  "func save_game():",
  "\tvar f = File.new()",
  `\tf.open(${write}, File.WRITE)`,
  "\tf.close()",
]

describe("a save path built by str() or String.format", () => {
  it.each([
    ['str("user://save", slot, ".json")', ["var slot := 1"]],
    ['str("user://save", slot, ".json")', ["var slot: int = 1"]],
    // Untyped but given no other value anywhere (evaluate.ts memberValue: a scalar nothing assigns), and a number an engine singleton hands back.
    ['str("user://save", slot, ".json")', ["var slot = 1"]],
    ['"user://shot_%s.png" % OS.get_unix_time()', []],
    ['str("user://slot_", slot, "_", 2.5, "_", true, ".json")', ["var slot := -1"]],
    ['str("user://save_", "%03d" % slot, ".json")', ["var slot = 1"]],
    ['"user://save_{s}.json".format({"s": slot})', ["var slot := 1"]],
    ['"user://save_{0}_{1}.json".format([slot, "auto"])', ["var slot := 0.5"]],
    // Typed by `:=`, the member holds an int whatever it is given (the engine converts the value or stops the script).
    ['str("user://save", slot, ".json")', ["var slot := 1", "var name", "func _init():", "\tslot = name"]],
  ])("keeps its end after number parts: %s stays a warning", async (write, members) => {
    expect(await loads(saver(write, members))).toEqual(["res://game/main.gd:6 warning"])
  })

  it.each([
    // Untyped and given other values: any of them.
    ['str("user://save", slot, ".json")', ["var slot = 1", "var name", "func _init():", "\tslot = name"]],
    ['str("user://", name, ".json")', ["var name = str(get_meta('who'))"]],
    ['str("user://save", slot, ".tscn")', ["var slot := 1"]],
    ['"user://{s}.json".format({"s": name})', ["var name = str(get_meta('who'))"]],
    ['"user://{s}.json".format(values)', ["var values = {\"s\": 1}"]],
    ['"user://save_{s}.json".format({"s": slot})', ["var slot = 1", "var name", "func _init():", "\tslot = name"]],
    ['"user://{s}.tres".format({"s": 1})', []],
    ['"user://save_{s}.json".format({"s": slot}, "{_}")', ["var slot := 1"]],
  ])("with a part that may be text (a NUL in it cuts the path), or another end, counts: %s with %j", async (write, members) => {
    expect(await loads(saver(write, members))).toEqual(["res://game/main.gd:6 error"])
  })
})

/** main.gd: a ResourceSaver write of settings and a level loaded by an element of member `level_names` (line 9), with `extra` lines after. */
const levels = (declaration: string, extra: ReadonlyArray<string> = []): ReadonlyArray<string> => [
  "extends Node",
  "",
  declaration,
  "var current := 0",
  "",
  "func _ready():",
  '\tResourceSaver.save("user://settings.tres", Resource.new())',
  "\tvar i = randi() % 2",
  '\tvar scene = load("res://levels/" + level_names[i] + ".tscn")',
  ...extra,
]

describe("a member Array of names that nothing changes", () => {
  it("is its items, so a level loaded by one is a file of the pack: no finding", async () => {
    expect(await loads(levels('var level_names := ["level_1", "level_2"]'))).toEqual([])
    expect(await loads(levels('var level_names = ["level_1", "level_2"]'))).toEqual([])
  })

  it.each([
    ["exported (a scene or resource can set it)", 'export var level_names = ["level_1", "level_2"]', []],
    ["with a setter", 'var level_names = ["level_1", "level_2"] setget set_names', ["", "func set_names(v):", "\tlevel_names = v"]],
    ["assigned in its class", 'var level_names = ["level_1", "level_2"]', ['\tlevel_names = ["../../x"]']],
    ["an element written", 'var level_names = ["level_1", "level_2"]', ['\tlevel_names[0] = "x"']],
    ["appended to", 'var level_names = ["level_1", "level_2"]', ['\tlevel_names.append("x")']],
    ["through a local alias", 'var level_names = ["level_1", "level_2"]', ["\tvar l = level_names", '\tl[0] = "x"']],
    ["passed to a function", 'var level_names = ["level_1", "level_2"]', ["\tfill(level_names)", "", "func fill(a):", '\ta[0] = "x"']],
    ["set by its name", 'var level_names = ["level_1", "level_2"]', ['\tset("level_names", ["x"])']],
    ["set by a name built at run time", 'var level_names = ["level_1", "level_2"]', ['\tset("level" + "_names", ["x"])']],
    ["read by a name built at run time and changed", 'var level_names = ["level_1", "level_2"]', ['\tget("level" + "_names").append("x")']],
    ["set through a dispatch by a name built at run time", 'var level_names = ["level_1", "level_2"]', ['\tcallv("set", [str(get_meta("who")), ["x"]])']],
  ])("is not followed when %s: the load is an error", async (_name, declaration, extra) => {
    expect(await loads(levels(declaration, extra))).toEqual(["res://game/main.gd:9 error"])
  })

  it("is not followed when another script writes it or into it", async () => {
    const other = (line: string): Record<string, string> => ({ "res://game/other.gd": ["extends Node", "", "func _ready():", '\tvar m = get_node("/root/Main")', `\t${line}`, ""].join("\n") })
    const decl = 'var level_names = ["level_1", "level_2"]'
    expect(await loads(levels(decl), other('m.level_names = ["x"]'))).toEqual(["res://game/main.gd:9 error"])
    expect(await loads(levels(decl), other('m.level_names[1] = "x"'))).toEqual(["res://game/main.gd:9 error"])
    expect(await loads(levels(decl), other('m.set(str(get_meta("who")), ["x"])'))).toEqual(["res://game/main.gd:9 error"])
  })
})

/** main.gd: a BBCode line with a name put in (line 5) and a backup copying `from` to `to` in a loop over a listing. */
const backup = (from: string, to: string, writes: ReadonlyArray<string> = []): ReadonlyArray<string> => [
  "extends RichTextLabel",
  "",
  "func _ready():",
  "\tbackup_saves()",
  '\tbbcode_text = "[b]%s[/b] score" % str(get_meta("who"))',
  "",
  "func backup_saves():",
  '\tvar d = Directory.new()',
  '\tif d.open("user://saves/") != OK:',
  "\t\treturn",
  "\td.list_dir_begin(true, true)",
  "\tvar fn = d.get_next()",
  '\twhile fn != "":',
  `\t\td.copy(${from}, ${to})`,
  "\t\tfn = d.get_next()",
  ...writes,
]

describe("a copy that keeps the name of the file it copies", () => {
  it.each([
    ['"user://saves/" + fn', '"user://saves/backup/" + fn'],
    ['"user://" + fn', '"user://old/" + fn'],
  ])("between user:// folders makes no file a load reads as code: %s → %s stays a warning", async (from, to) => {
    expect(await loads(backup(from, to))).toEqual(["res://game/main.gd:5 warning"])
  })

  it.each([
    ["to another name", '"user://saves/" + fn', '"user://saves/backup/" + fn + ".tscn"'],
    ["from a folder not spelled out as one", '"user://saves" + fn', '"user://saves/backup/" + fn'],
    ["from res://", '"res://" + fn', '"user://backup/" + fn'],
    ["with two names", '"user://saves/" + fn', '"user://saves/backup/" + str(get_meta("who"))'],
    ["of a member, which a getter may give anew each read", '"user://saves/" + name', '"user://saves/backup/" + name'],
    // A `..` in the name takes a copy shallower than its source out of user:// while the source stays in (red team 20a).
    ["to a shallower folder", '"user://saves/backup/" + fn', '"user://saves/" + fn'],
  ])("%s counts", async (_name, from, to) => {
    expect(await loads([...backup(from, to), "", "var name = str(get_meta('who'))"])).toEqual(["res://game/main.gd:5 error"])
  })

  it("a file the pack writes a script into the copied folder is still the pack's write", async () => {
    const writes = ["", "func plant():", "\tvar f = File.new()", '\tf.open("user://saves/evil.gd", File.WRITE)']
    expect(await loads(backup('"user://saves/" + fn', '"user://saves/backup/" + fn', writes))).toEqual(["res://game/main.gd:5 error"])
  })
})
