// BBCode built at run time whose [img]/[font] path may be a part not pinned down takes part in the pack-level
// judgement of checks/unpinnedLoads.ts, and a value that joins the pack's own JSON with a string built at run time is
// judged as both (docs/scanner.md, runtime-code-loading). The Godot 3 attacks and look-alikes godot3-server ran are
// attackProjects45.ts; these are the shapes, as packs of the test's writer.
import { describe, expect, inject, it } from "vitest"
import { fixturePackPath } from "../setup/godot.ts"
import { lineOf } from "./fixtures/attackProjects19.ts"
import { SKIN_PICKER } from "./fixtures/attackProjects45.ts"
import { utf8 } from "./support/bytes.ts"
import { writePack } from "./support/packWriter.ts"
import { scanBytes, scanFile } from "./support/scan.ts"

const MANIFEST = utf8(JSON.stringify({ id: "g", name: "G", version: "1.0.0", engine_sdk: "1.0", entry_scene: "res://game/main.tscn", min_players: 1, max_players: 4 }))
const SCENE = utf8('[gd_scene load_steps=2 format=2]\n\n[ext_resource path="res://game/main.gd" type="Script" id=1]\n\n[node name="Main" type="RichTextLabel"]\nscript = ExtResource( 1 )\n')
const ITEMS = { a: { name: "Sword", desc: "A [b]sharp[/b] blade [img]res://icons/sword.png[/img]" }, b: { name: "Potion", desc: "Heals you" } }

/** A script on a RichTextLabel that reads res://data/items.json into `items`, loses `p` in a project setting (line 8), then runs `body` from line 9. */
const script = (...body: ReadonlyArray<string>): string =>
  [
    "extends RichTextLabel",
    "",
    "func _ready():",
    "\tvar f = File.new()",
    '\tf.open("res://data/items.json", File.READ)',
    "\tvar items = parse_json(f.get_as_text())",
    '\tProjectSettings.set_setting("game/font", "res://fonts/main.tres")',
    '\tvar p = ProjectSettings.get("game/font")',
    ...body.map((l) => `\t${l}`),
    "",
  ].join("\n")

const WRITES_FONT = ['var w = File.new()', 'w.open("user://skin.tres", File.WRITE)']
const WRITES_JSON = ['var w = File.new()', 'w.open("user://save_%d.json" % 1, File.WRITE)']

/** The runtime-code-loading findings of the pack, as `line severity`. */
const findings = async (source: string): Promise<ReadonlyArray<string>> => {
  const files = [
    { path: "res://data/items.json", data: utf8(JSON.stringify(ITEMS)) },
    { path: "res://icons/sword.png", data: utf8("png") },
    { path: "res://fonts/main.tres", data: utf8('[gd_resource type="BitmapFont" format=2]\n\n[resource]\n') },
  ]
  const report = await scanBytes(writePack({ format: 1, entries: [{ path: "res://manifest.json", data: MANIFEST }, { path: "res://game/main.tscn", data: SCENE }, { path: "res://game/main.gd", data: utf8(source) }, ...files] }))
  return report.findings.filter((f) => f.message.includes("(policy runtime-code-loading)")).map((f) => `${f.line ?? ""} ${f.severity}`)
}

/** The message of the runtime-code-loading finding at `line`. */
const messageAt = async (source: string, line: number): Promise<string> => {
  const files = [{ path: "res://data/items.json", data: utf8(JSON.stringify(ITEMS)) }, { path: "res://icons/sword.png", data: utf8("png") }]
  const report = await scanBytes(writePack({ format: 1, entries: [{ path: "res://manifest.json", data: MANIFEST }, { path: "res://game/main.tscn", data: SCENE }, { path: "res://game/main.gd", data: utf8(source) }, ...files] }))
  return report.findings.find((f) => f.line === line && f.message.includes("(policy runtime-code-loading)"))?.message ?? ""
}

describe("BBCode built at run time whose [img]/[font] path may be a part not pinned down", () => {
  const shapes = [
    'bbcode_text = "[font=" + p + "]x[/font]"',
    'append_bbcode("[img]%s[/img]" % p)',
    'bbcode_text = "[b]hi[/b] [img]" + p + "[/img] [i]bye[/i]"',
    'parse_bbcode("[img=16x16]res://icons/%s[/img]" % [p])',
  ]
  it.each(shapes)("%s: a warning, an error in a pack that writes a file a load reads as code", async (shape) => {
    expect(await findings(script(shape))).toEqual(["9 warning"])
    expect(await findings(script(shape, ...WRITES_FONT))).toEqual(["9 error"])
    expect(await findings(script(shape, ...WRITES_JSON))).toEqual(["9 warning"])
  })

  it("a tag's path whose known start is outside the pack is an error whatever the pack writes", async () => {
    expect(await findings(script('bbcode_text = "[font=/tmp/" + p + ".tres]x[/font]"'))).toEqual(["9 error"])
    expect(await findings(script('append_bbcode("[img]user://" + p)'))).toEqual(["9 error"])
  })

  it("also through a variable, and the error names the write", async () => {
    const source = script('var t = "[font=" + p + "]x[/font]"', "bbcode_text = t", ...WRITES_FONT)
    expect(await findings(source)).toEqual(["10 error"])
    expect(await messageAt(source, 10)).toContain('the pack writes files a load can read as code (res://game/main.gd:12 File.open("user://skin.tres"))')
  })

  it("the exported skin picker of a pack that writes only JSON saves (attackProjects45.ts) keeps its warning", async () => {
    const report = await scanFile(fixturePackPath(inject("godotFixtures"), "bbjoin17-lookalike-skin-json-saves"))
    const found = report.findings.filter((f) => f.message.includes("(policy runtime-code-loading)")).map((f) => `${f.file}:${f.line ?? ""} ${f.severity}`)
    expect(found).toEqual([`res://attack/skin.gd:${lineOf(SKIN_PICKER, "label.bbcode_text")} warning`])
  })

  it("BBCode with a part not pinned down, which may hold a whole tag, is the warning, and an error in a pack that writes a font", async () => {
    for (const shape of ['bbcode_text = "[b]%s[/b]" % p', 'bbcode_text = "[img]res://icons/sword.png[/img] " + p', "bbcode_text = p"]) {
      expect(await findings(script(shape)), shape).toEqual(["9 warning"])
      expect(await findings(script(shape, ...WRITES_FONT)), shape).toEqual(["9 error"])
      expect(await findings(script(shape, ...WRITES_JSON)), shape).toEqual(["9 warning"])
    }
  })

  it("data read at run time put in only with %d holds no tag (an eighteenth red team's save HUD); with %s it stays the error", async () => {
    const save = ['var s = File.new()', 's.open("user://save.json", File.READ)', "var d = parse_json(s.get_as_text())"]
    expect(await findings(script(...save, 'bbcode_text = "HP: [color=red]%d[/color]  Coins: [b]%d[/b]" % [d["hp"], d["coins"]]', ...WRITES_FONT))).toEqual([])
    expect(await findings(script(...save, 'bbcode_text = "HP: [color=red]%s[/color]" % d["hp"]'))).toEqual(["12 error"])
  })

  it("a vector or arithmetic given as BBCode holds no tag", async () => {
    expect(await findings(script("set(p, Vector2(1, 2))", "set(p, Vector2.ONE * 3)", ...WRITES_FONT))).toEqual([])
  })

  it("a number put in with % holds no tag: no finding, whatever the pack writes; inside a tag's path it is a part built at run time", async () => {
    expect(await findings(script('bbcode_text = "[b]%d[/b] [img]res://icons/sword.png[/img]" % p.length()', ...WRITES_FONT))).toEqual([])
    expect(await findings(script('bbcode_text = "Score: %05.1f" % randf()', ...WRITES_FONT))).toEqual([])
    expect(await findings(script('bbcode_text = "[img]user://shot_%d.png[/img]" % randi()'))).toEqual(["9 error"])
  })
})

describe("a value joining the pack's JSON with a string built at run time", () => {
  it("is judged as both: the data's strings and the part built at run time", async () => {
    const join = ['var t = items["a"]["desc"] if randi() % 2 else "[font=res://fonts/" + p + "]x[/font]"', "bbcode_text = t"]
    expect(await findings(script(...join))).toEqual(["10 warning"])
    expect(await findings(script(...join, ...WRITES_FONT))).toEqual(["10 error"])
    expect(await findings(script(...join, ...WRITES_JSON))).toEqual(["10 warning"])
    // A start outside the pack is an error at once, as a load of it is.
    expect(await findings(script('var t = items["a"]["desc"] if randi() % 2 else "[font=/tmp/" + p + ".tres]x[/font]"', "bbcode_text = t"))).toEqual(["10 error"])
    // In either order, and in branches.
    expect(await findings(script("var t", "if randi() % 2:", '\tt = "[img]" + p + "[/img]"', "else:", '\tt = items["b"]["desc"]', "append_bbcode(t)", ...WRITES_FONT))).toEqual(["14 error"])
  })

  it("the data's own strings are still judged", async () => {
    const bad = { ...ITEMS, c: { desc: "[img]user://x.tres[/img]" } }
    const source = script('var t = items["c"]["desc"] if randi() % 2 else "[b]" + p + "[/b]"', "bbcode_text = t")
    const files = [{ path: "res://data/items.json", data: utf8(JSON.stringify(bad)) }]
    const report = await scanBytes(writePack({ format: 1, entries: [{ path: "res://manifest.json", data: MANIFEST }, { path: "res://game/main.tscn", data: SCENE }, { path: "res://game/main.gd", data: utf8(source) }, ...files] }))
    expect(report.findings.filter((f) => f.message.includes("(policy runtime-code-loading)")).map((f) => `${f.line ?? ""} ${f.severity}`)).toContain("10 error")
  })

  it("a load path from the data joined with a path built at run time is not judged on the data alone", async () => {
    const join = ['var icon = items["a"]["icon"] if randi() % 2 else "res://icons/" + p', "var tex = load(icon)"]
    const data = { a: { icon: "res://icons/sword.png" } }
    const loads = async (...body: ReadonlyArray<string>): Promise<ReadonlyArray<string>> => {
      const files = [{ path: "res://data/items.json", data: utf8(JSON.stringify(data)) }, { path: "res://icons/sword.png", data: utf8("png") }]
      const report = await scanBytes(writePack({ format: 1, entries: [{ path: "res://manifest.json", data: MANIFEST }, { path: "res://game/main.tscn", data: SCENE }, { path: "res://game/main.gd", data: utf8(script(...body)) }, ...files] }))
      return report.findings.filter((f) => f.message.includes("(policy runtime-code-loading)")).map((f) => `${f.line ?? ""} ${f.severity}`)
    }
    // Two findings at the load: the data's strings (all files of the pack) and the path built under res://icons/.
    expect(await loads(...join, ...WRITES_JSON)).toEqual(["10 warning", "10 warning"])
    expect([...(await loads(...join, ...WRITES_FONT))].sort()).toEqual(["10 error", "10 warning"])
  })

  it("the look-alikes stay clean: data joined with constants, get() defaults, null", async () => {
    for (const body of [
      ['var t = items["a"]["desc"] if randi() % 2 else ""', "bbcode_text = t"],
      ['bbcode_text = "[b]%s[/b]\\n%s" % [items["a"].get("name", ""), items["a"].get("desc", "")]'],
      ["var t = null", "if items.has(\"a\"):", '\tt = items["a"]["desc"]', "if t != null:", "\tappend_bbcode(t)"],
    ]) {
      expect(await findings(script(...body, ...WRITES_FONT)), body.join("; ")).toEqual([])
    }
  })
})
