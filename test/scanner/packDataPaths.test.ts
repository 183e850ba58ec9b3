// A hundred-and-eighth red team's (attackProjects141.ts, run by godot3-server): a write path kept in the pack's own
// data. `ProjectSettings.get_setting(k)` gives what the pack's settings file sets (every feature override's value too),
// while no code changes settings; a property of a `.tres` of the pack gives what its class's member may hold with the
// values the pack's resources set. Such a path is judged with those values, no longer as a path not known (a warning).
import { describe, expect, it } from "vitest"
import { scan3Files } from "./support/scan.ts"

const WRITE = (path: string): string => `extends Node\nfunc _ready():\n\tvar f = File.new()\n\tf.open(${path}, File.WRITE)\n`
const settings = (...lines: ReadonlyArray<string>): string => `[application]\n\nconfig/name="P"\n\n[game]\n\n${lines.join("\n")}\n`
const onWrite = async (files: Readonly<Record<string, string>>): Promise<ReadonlyArray<string>> =>
  (await scan3Files(files)).filter((f) => f.startsWith("res://main.gd:4 ")).map((f) => f.split(" ").slice(1, 3).join(" "))

describe("a project setting as a write path", () => {
  it("is judged with the settings' values: outside user:// an error, a feature override's too", async () => {
    expect(await onWrite({ "res://project.godot": settings('save="payload"'), "res://main.gd": WRITE('ProjectSettings.get_setting("game/save")') })).toEqual(["error filesystem-outside-sandbox"])
    expect(await onWrite({ "res://project.godot": settings('save="user://a.save"', 'save.pc="user://../../x"'), "res://main.gd": WRITE('ProjectSettings.get("game/save")') })).toEqual(["error filesystem-outside-sandbox"])
  })

  it("a setting under user:// is no finding, nor the game's name joined into a save path", async () => {
    expect(await onWrite({ "res://project.godot": settings('save="user://a.save"'), "res://main.gd": WRITE('ProjectSettings.get_setting("game/save")') })).toEqual([])
    expect(await onWrite({ "res://project.godot": settings(), "res://main.gd": WRITE('"user://" + ProjectSettings.get_setting("application/config/name") + ".save"') })).toEqual([])
  })

  it("once code may change it, or read by a name not constant, it is data not known: an error", async () => {
    const changes = (key: string): string => `extends Node\nfunc _init():\n\tProjectSettings.set_setting(${key}, "user://b.save")\n`
    const file = { "res://project.godot": settings('save="user://a.save"'), "res://main.gd": WRITE('ProjectSettings.get_setting("game/save")') }
    expect(await onWrite({ ...file, "res://other.gd": changes('"game/save"') })).toEqual(["error filesystem-outside-sandbox"])
    expect(await onWrite({ ...file, "res://other.gd": changes('"game/" + str(randi())') })).toEqual(["error filesystem-outside-sandbox"])
    expect(await onWrite({ ...file, "res://other.gd": 'extends Node\nfunc _init():\n\tvar s = ProjectSettings\n' })).toEqual(["error filesystem-outside-sandbox"])
    expect(await onWrite({ "res://project.godot": settings('save="user://a.save"'), "res://main.gd": WRITE('ProjectSettings.get_setting("game/" + str(randi()))') })).toEqual(["error filesystem-outside-sandbox"])
  })

  it("a key with a dot is a setting of its own, read by its whole name (a hundred-and-ninth red team's)", async () => {
    expect(await onWrite({ "res://project.godot": settings('save.x="payload"'), "res://main.gd": WRITE('ProjectSettings.get_setting("game/save.x")') })).toEqual(["error filesystem-outside-sandbox"])
    expect(await onWrite({ "res://project.godot": `${settings()}\n[game.v2]\n\nsave="payload"\n`, "res://main.gd": WRITE('ProjectSettings.get_setting("game.v2/save")') })).toEqual(["error filesystem-outside-sandbox"])
  })

  it("reaching any engine object (instance_from_id) may change any setting: an error", async () => {
    const byId = 'extends Node\nfunc _init():\n\tinstance_from_id(19).set("game/save", "payload")\n'
    expect(await onWrite({ "res://project.godot": settings('save="user://a.save"'), "res://main.gd": WRITE('ProjectSettings.get_setting("game/save")'), "res://other.gd": byId })).toEqual(["error filesystem-outside-sandbox"])
  })

  it("a settings helper's key is read as any value: called with another setting's name it leaves this one the file's, with this one's it does not", async () => {
    const helper = (key: string): string => `extends Node\nfunc _init():\n\tset_option(${key}, 1)\n\nfunc set_option(key, value):\n\tProjectSettings.set_setting(key, value)\n`
    const file = { "res://project.godot": settings('save="user://a.save"'), "res://main.gd": WRITE('ProjectSettings.get_setting("game/save")') }
    expect(await onWrite({ ...file, "res://other.gd": helper('"game/volume"') })).toEqual([])
    expect(await onWrite({ ...file, "res://other.gd": helper('"game/save"') })).toEqual(["error filesystem-outside-sandbox"])
  })

  it("code changing another setting by its name leaves this one the file's", async () => {
    const other = 'extends Node\nfunc _init():\n\tProjectSettings.set_setting("game/volume", 1)\n'
    expect(await onWrite({ "res://project.godot": settings('save="user://a.save"'), "res://main.gd": WRITE('ProjectSettings.get_setting("game/save")'), "res://other.gd": other })).toEqual([])
  })

  it("a setting the pack does not set keeps the engine's default: a path not known, a warning", async () => {
    expect(await onWrite({ "res://project.godot": settings(), "res://main.gd": WRITE('ProjectSettings.get_setting("game/missing")') })).toEqual(["warning filesystem-outside-sandbox"])
  })
})

describe("a property of a resource of the pack as a write path", () => {
  const config = (value: string): Record<string, string> => ({
    "res://config.gd": 'extends Resource\nexport var save_path = "user://a.save"\n',
    "res://config.tres": `[gd_resource type="Resource" load_steps=2 format=2]\n\n[ext_resource path="res://config.gd" type="Script" id=1]\n\n[resource]\nscript = ExtResource( 1 )\nsave_path = "${value}"\n`,
    "res://main.gd": WRITE('preload("res://config.tres").save_path'),
  })

  it("is judged with the values the member may hold: one the resource sets outside user:// is an error", async () => {
    expect(await onWrite(config("payload"))).toEqual(["error filesystem-outside-sandbox"])
  })

  it("under user:// is no finding", async () => {
    expect(await onWrite(config("user://b.save"))).toEqual([])
  })

  it("of an engine class other than a scripted Resource is the pack's data not known: an ArrayMesh answers `surfaces…` itself", async () => {
    const mesh = '[gd_resource type="ArrayMesh" format=2]\n\n[resource]\nsurfaces/0 = {\n"name": "payload"\n}\n'
    expect(await onWrite({ "res://holder.gd": 'extends Node\nvar surfaces_x = "user://a.save"\n', "res://mesh.tres": mesh, "res://main.gd": WRITE('preload("res://mesh.tres").surfaces_x') })).toEqual(["error filesystem-outside-sandbox"])
  })

  it("a path a `.remap` or the settings' path remap send elsewhere loads what the scanner did not type: the pack's data not known", async () => {
    const decoy = '[gd_resource type="Resource" load_steps=2 format=2]\n\n[ext_resource path="res://holder.gd" type="Script" id=1]\n\n[resource]\nscript = ExtResource( 1 )\n'
    const files = { "res://holder.gd": 'extends Resource\nexport var surfaces_x = "user://a.save"\n', "res://cfg.tres": decoy, "res://mesh.tres": '[gd_resource type="ArrayMesh" format=2]\n\n[resource]\n', "res://main.gd": WRITE('preload("res://cfg.tres").surfaces_x') }
    expect(await onWrite(files)).toEqual([])
    expect(await onWrite({ ...files, "res://cfg.tres.remap": '[remap]\n\npath="res://mesh.tres"\n' })).toEqual(["error filesystem-outside-sandbox"])
    expect(await onWrite({ ...files, "res://project.godot": `${settings()}\n[path_remap]\n\nremapped_paths=PoolStringArray( "res://cfg.tres", "res://mesh.tres" )\n` })).toEqual(["error filesystem-outside-sandbox"])
  })
})
