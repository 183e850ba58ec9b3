// Self may be a RichTextLabel only where the script may be attached to one ([bbcode-by-name] in docs/scanner.md, red
// team 17b's options menu, attackProjects47.ts): a scene node of class RichTextLabel (text or binary, nested scenes
// included) or of a class the data does not name (an instanced node) carrying it or a script extending it, or code or
// data that may attach scripts at run time. An autoload or `new()` makes an object of the script's own engine base.
import { describe, expect, it } from "vitest"
import { lines } from "./fixtures/godotProjects.ts"
import { variant3, writeProjectBinaryVariants } from "./support/projectBinaryWriter.ts"
import { writeBinaryScene } from "./support/resourceWriter.ts"
import { scan3Files } from "./support/scan.ts"

/** The red team's options menu (`extends Control`): restores its settings from user:// JSON by name at line 10. */
const OPTIONS = lines(
  "extends Control",
  "class_name Opts",
  "func _ready():",
  "\tvar f = File.new()",
  '\tif f.open("user://settings.json", File.READ) == OK:',
  "\t\tvar d = parse_json(f.get_as_text())",
  "\t\tf.close()",
  "\t\tfor k in d:",
  "\t\t\tif k in self:",
  "\t\t\t\tset(k, d[k])",
)
const AT_SET = "res://game/options.gd:10 error runtime-code-loading"

/** A scene whose root is a Node2D with a `Help` RichTextLabel, and `options` (node header lines and properties) as a child carrying options.gd. */
const scene = (...options: ReadonlyArray<string>): string =>
  lines(
    "[gd_scene load_steps=3 format=2]",
    "",
    '[ext_resource path="res://game/options.gd" type="Script" id=1]',
    '[ext_resource path="res://game/panel.tscn" type="PackedScene" id=2]',
    "",
    '[node name="Level" type="Node2D"]',
    "",
    '[node name="Help" type="RichTextLabel" parent="."]',
    "bbcode_enabled = true",
    "",
    ...options,
  )

const PANEL = lines("[gd_scene format=2]", "", '[node name="Panel" type="Panel"]')

/** Errors and warnings of options.gd in a pack with `files` beside it (the level scene, options.gd and panel.tscn by default). */
const found = async (files: Readonly<Record<string, string | Uint8Array>>): Promise<ReadonlyArray<string>> =>
  (await scan3Files({ "res://game/options.gd": OPTIONS, "res://game/panel.tscn": PANEL, ...files })).filter((f) => f.startsWith("res://game/options.gd:"))

const ON_CONTROL = scene('[node name="Options" type="Control" parent="."]', "script = ExtResource( 1 )")

describe("a script whose base RichTextLabel descends from, writing itself by names from user:// JSON", () => {
  it("look-alike (red team 17b): attached only to a Control, beside a RichTextLabel, it is no RichTextLabel", async () => {
    expect(await found({ "res://game/level.tscn": ON_CONTROL })).toEqual([])
  })

  it("an autoload of the script, or `new()` of it, makes an object of its engine base (a Control): still clean", async () => {
    const settings = writeProjectBinaryVariants([
      ["application/config/name", variant3("P")],
      ["autoload/Options", variant3("*res://game/options.gd")],
      ["_global_script_classes", variant3([{ dict: [["base", "Control"], ["class", "Opts"], ["language", "GDScript"], ["path", "res://game/options.gd"]] }])],
    ])
    const maker = (make: string) => ({ "res://game/level.tscn": ON_CONTROL, "res://project.binary": settings, "res://game/maker.gd": lines("extends Node", "func _ready():", `\tadd_child(${make})`) })
    expect(await found(maker("Opts.new()"))).toEqual([])
    expect(await found(maker("Options.duplicate()"))).toEqual([])
    // Holding the script itself (the class as a value, a load) with a write by a name out of sight may attach it.
    expect(await found({ ...maker("Opts.new()"), "res://game/w.gd": lines("extends Node", "func w(o, k):", "\to.set(k, Opts)") })).toContain(AT_SET)
  })

  it("attached in a scene to a RichTextLabel, or to an instanced node (its class not known), it is an error", async () => {
    expect(await found({ "res://game/level.tscn": scene('[node name="Options" type="RichTextLabel" parent="."]', "script = ExtResource( 1 )") })).toContain(AT_SET)
    expect(await found({ "res://game/level.tscn": scene('[node name="Options" parent="." instance=ExtResource( 2 )]', "script = ExtResource( 1 )") })).toContain(AT_SET)
  })

  it("a script extending it on a RichTextLabel makes its own self one", async () => {
    const sub = lines("[gd_scene load_steps=2 format=2]", "", '[ext_resource path="res://game/sub.gd" type="Script" id=1]', "", '[node name="Sub" type="RichTextLabel"]', "script = ExtResource( 1 )")
    expect(await found({ "res://game/level.tscn": ON_CONTROL, "res://game/sub.gd": 'extends "res://game/options.gd"\n', "res://game/sub.tscn": sub })).toContain(AT_SET)
  })

  it("an `Object(RichTextLabel, \"script\": …)` value of a resource carries it: an error", async () => {
    const held = lines('[gd_resource type="Resource" load_steps=2 format=2]', "", '[ext_resource path="res://game/options.gd" type="Script" id=1]', "", "[resource]", '__meta__ = { "l": Object(RichTextLabel,"script":ExtResource( 1 )) }')
    expect(await found({ "res://game/level.tscn": ON_CONTROL, "res://game/held.tres": held })).toContain(AT_SET)
  })

  it("a binary scene's RichTextLabel carrying it, also nested in a resource, is an error", async () => {
    for (const holder of [false, true]) {
      const data = writeBinaryScene({ engineMajor: 3, holder, scripts: [], nodes: [{ name: "Root", type: "Node", parent: -1 }, { name: "L", type: "RichTextLabel", parent: 0, script: { external: "res://game/options.gd" } }] })
      expect(await found({ "res://game/level.scn": data }), `holder ${holder}`).toContain(AT_SET)
    }
  })

  it("code that may attach scripts at run time makes it an error: set_script, a write of `script`, or a script held and written by a name out of sight", async () => {
    const attaching = [
      'RichTextLabel.new().set_script(load("res://game/options.gd"))',
      'RichTextLabel.new().script = load("res://game/options.gd")',
      'RichTextLabel.new().set("script", load("res://game/options.gd"))',
      'var s = load("res://game/options.gd")\n\tvar l = RichTextLabel.new()\n\tfor k in [s]:\n\t\tl.set(str(k), s)',
    ]
    for (const body of attaching) {
      expect(await found({ "res://game/level.tscn": ON_CONTROL, "res://game/attach.gd": lines("extends Node", "func _ready():", `\t${body}`) }), body).toContain(AT_SET)
    }
  })

  it("a call by a name from data that may be set_script is a dynamic-dispatch error where it is made", async () => {
    const attach = lines("extends Node", "func _ready():", "\tvar f = File.new()", '\tf.open("user://a.json", File.READ)', "\tvar d = parse_json(f.get_as_text())", '\tRichTextLabel.new().call(d.m, load("res://game/options.gd"))')
    const all = await scan3Files({ "res://game/options.gd": OPTIONS, "res://game/panel.tscn": PANEL, "res://game/level.tscn": ON_CONTROL, "res://game/attach.gd": attach })
    expect(all).toContain("res://game/attach.gd:6 error dynamic-dispatch")
  })

  it("a scene connection to set_script may attach it: an error", async () => {
    const connected = scene('[node name="Options" type="Control" parent="."]', "script = ExtResource( 1 )", "", '[connection signal="ready" from="Help" to="Help" method="set_script" binds= [ ExtResource( 1 ) ]]')
    expect(await found({ "res://game/level.tscn": connected })).toContain(AT_SET)
  })

  it("a read of self by a known name of a member its class declares holds no Script (red team 18b's menu saving by name); any other read does", async () => {
    const saver = (read: string) => ({ "res://game/level.tscn": ON_CONTROL, "res://game/saver.gd": lines("extends Node", "var music_volume = 0.8", "var fullscreen = false", "func save(o):", "\tvar d = {}", read, "\tfor k in d:", "\t\to.set(k, d[k])") })
    for (const read of ['\tfor k in ["music_volume", "fullscreen"]:\n\t\td[k] = get(k)', '\td["v"] = get("music_volume")', '\td["v"] = self.get_indexed("fullscreen")']) {
      expect(await found(saver(read)), read).toEqual([])
    }
    const holding = [
      '\tfor k in ["music_volume", "script"]:\n\t\td[k] = get(k)',
      '\td["v"] = get("__meta__")',
      '\td["v"] = get("_bundled")',
      '\td["v"] = get_indexed("rect_size:x")',
      '\td["v"] = get_indexed("script:source_code")',
      '\tfor k in ["music_volume"]:\n\t\tk = "script"\n\t\td[k] = get(k)',
      '\tfor k in ["music_volume"]:\n\t\tfor k in ["script"]:\n\t\t\td[k] = get(k)',
      '\tfor k in ["music_volume"]:\n\t\td[k] = o.get(k)',
      '\tfor k in d.keys():\n\t\td[k] = get(k)',
      // Scripts in hand without a load: a preload of one, a scene's stored values (red team 19b: a PackedScene's own `_bundled`).
      '\td["v"] = preload("res://game/options.gd")',
      '\td["v"] = preload("res://game/level.tscn")._bundled',
      '\td["v"] = _bundled',
      '\td["v"] = preload("res://game/level.tscn").get_state().get_node_property_value(0, 0)',
      '\td["v"] = $Preloader.resources',
    ]
    for (const read of holding) expect(await found(saver(read)), read).toContain(AT_SET)
  })

  it("a write by a name out of sight attaches only a value that may be a Script: JSON data or a Dictionary's entry is none", async () => {
    // A pack holding scripts (a preload of one, ordinary in Godot 3 games) beside the menu's restore from user:// JSON.
    const holder = { "res://game/level.tscn": ON_CONTROL, "res://game/spawner.gd": lines("extends Node", 'const Enemy = preload("res://game/options.gd")', "func spawn():", "\tadd_child(Enemy.new())") }
    expect(await found(holder)).toEqual([])
    const copied = lines("extends Node", "func copy(from, to):", "\tvar d = {}", "\tfor k in from:", "\t\td[k] = from[k]")
    expect(await found({ ...holder, "res://game/copy.gd": copied })).toEqual([])
    // The held script written by a name out of sight, or a value out of sight, may attach it.
    for (const body of ['var l = RichTextLabel.new()\n\tfor k in [Enemy]:\n\t\tl.set(str(k), Enemy)', "var l = RichTextLabel.new()\n\tfor k in o.get_property_list():\n\t\tl.set(k.name, o.get(k.name))"]) {
      const writer = lines("extends Node", 'const Enemy = preload("res://game/options.gd")', "func w(o):", `\t${body}`)
      expect(await found({ ...holder, "res://game/writer.gd": writer }), body).toContain(AT_SET)
    }
  })
})
