// Writes and calls by a name that is not constant on an object that may be a RichTextLabel (docs/scanner.md,
// runtime-code-loading, "BBCode given to a RichTextLabel in code"): a script extending Node (or Control, CanvasItem,
// Object) may be attached to a RichTextLabel, so `set(k, v)`, `self[k] = v`, `set_indexed(k, v)` and `call(m, a)`
// may be `bbcode_text = v` or `append_bbcode(a)`, judged as those. attackProjects38.ts runs the shapes in
// godot3-server; these are the same shapes as packs of the test's writer.
import { describe, expect, it } from "vitest"
import { scan3Files } from "./support/scan.ts"

/** A level scene whose RichTextLabel node carries res://game/notes.gd. */
const LEVEL = '[gd_scene load_steps=2 format=2]\n\n[ext_resource path="res://game/notes.gd" type="Script" id=1]\n\n[node name="Level" type="RichTextLabel"]\nbbcode_enabled = true\nscript = ExtResource( 1 )\n'

/** notes.gd extending `base`: reads res://game/settings.json into `cfg` (lines 3-6), then `body` from line 7. */
const notes = (base: string, ...body: ReadonlyArray<string>): string =>
  [`extends ${base}`, "func _ready():", "\tvar f = File.new()", '\tf.open("res://game/settings.json", File.READ)', "\tvar cfg = parse_json(f.get_as_text())", "\tf.close()", ...body.map((l) => `\t${l}`), ""].join("\n")

const EVIL_FONT = { bbcode_text: "[font=user://evil.tres]hi[/font]" }
const EVIL_CALL = { action: "append_bbcode", arg: "[font=user://evil.tres]hi[/font]" }

/** The errors and warnings of notes.gd in a pack with the level scene and `settings` as res://game/settings.json. */
const found = async (script: string, settings: unknown): Promise<ReadonlyArray<string>> =>
  (await scan3Files({ "res://game/level.tscn": LEVEL, "res://game/notes.gd": script, "res://game/settings.json": JSON.stringify(settings) })).filter((f) => f.startsWith("res://game/notes.gd:"))

describe("a write by a name that is not constant on self, which may be a RichTextLabel", () => {
  it.each([
    ["set(k, cfg[k]) (the red team's p8)", "Node", ["for k in cfg:", "\tset(k, cfg[k])"], 8, EVIL_FONT],
    ["self[k] = cfg[k]", "Node", ["for k in cfg:", "\tself[k] = cfg[k]"], 8, EVIL_FONT],
    ["set_indexed(k, cfg[k])", "Node", ["for k in cfg:", "\tset_indexed(k, cfg[k])"], 8, EVIL_FONT],
    ["set on a Control base", "Control", ["for k in cfg:", "\tset(k, cfg[k])"], 8, EVIL_FONT],
    ["call(cfg.action, cfg.arg) (the red team's p9)", "Node", ["call(cfg.action, cfg.arg)"], 7, EVIL_CALL],
    ["callv(cfg.action, [cfg.arg])", "Node", ["callv(cfg.action, [cfg.arg])"], 7, EVIL_CALL],
    ["call on a CanvasItem base", "CanvasItem", ["call(cfg.action, cfg.arg)"], 7, EVIL_CALL],
  ])("%s: the font loaded from user:// is a runtime-code-loading error at that line", async (_name, base, body, line, settings) => {
    expect(await found(notes(base, ...body), settings)).toContain(`res://game/notes.gd:${line} error runtime-code-loading`)
  })

  it("a node fetched by path (`$Label.set(k, v)`) may be one too", async () => {
    expect(await found(notes("Node2D", "for k in cfg:", "\t$Label.set(k, cfg[k])"), EVIL_FONT)).toContain("res://game/notes.gd:8 error runtime-code-loading")
  })

  it("a constant name: set(\"bbcode_text\", v) and self[\"bbcode_text\"] = v are judged like bbcode_text = v", async () => {
    for (const write of ['set("bbcode_text", cfg.bbcode_text)', 'self["bbcode_text"] = cfg.bbcode_text', 'get_node("L").set("bbcode_text", cfg.bbcode_text)']) {
      expect(await found(notes("Node", write), EVIL_FONT), write).toContain("res://game/notes.gd:7 error runtime-code-loading")
    }
  })

  it("a base no RichTextLabel descends from (Node2D, Reference) gives no such finding", async () => {
    for (const base of ["Node2D", "Reference"]) {
      expect(await found(notes(base, "for k in cfg:", "\tset(k, cfg[k])", "call(cfg.action, cfg.arg)"), { ...EVIL_FONT, ...EVIL_CALL }), base).toEqual([])
    }
  })

  it("look-alike: data that loads nothing from outside the pack, and numbers, stay clean", async () => {
    const settings = { bbcode_text: "[b]Welcome[/b] [i]back[/i]", visible: true, rect_min_size_x: 10, name: "Notes" }
    expect(await found(notes("Node", "for k in cfg:", "\tset(k, cfg[k])", "\tself[k] = cfg[k]"), settings)).toEqual([])
    expect(await found(notes("Node", "for k in cfg:", "\tset(k, 0)", "\tset(str(k), 1.5)", "\tset(k, cfg[k] * 2)"), { speed: 10, jump: 4 })).toEqual([])
  })
})
