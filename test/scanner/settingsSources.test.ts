// Which settings files name the autoloads and global classes (a seventy-eighth red team's, run by godot3-server in
// attackProjects129.ts). The engine starts from project.binary, or project.godot where there is none
// (ProjectSettings::_load_settings_text_or_binary); it reads `res://override.cfg` over them only where the pack is the
// resource folder (Android, iOS: ProjectSettings::_setup), and Godot 3 never reads Godot 4's class cache. A decoy
// autoload in a file the engine does not start from must not stand for the autoload's script, and an autoload or a
// class list in the pack's override.cfg is an error of its own.
import { describe, expect, it } from "vitest"
import { writeProjectBinary } from "./support/projectBinaryWriter.ts"
import { scan3Files } from "./support/scan.ts"

const GOOD = 'extends Node\nconst ON_BUILD = {"go": "get_name"}\n'
const EVIL = 'extends Node\nconst ON_BUILD = {"go": "execute"}\n'
const USE = 'extends Node\nfunc _ready():\n\tOS.callv(Towers.ON_BUILD["go"], ["touch", ["/tmp/x"]])\n'
const settings = (towers: string): string => `[application]\n\nconfig/name="P"\n\n[autoload]\n\nTowers="*${towers}"\n`

const errorsOf = async (files: Readonly<Record<string, string | Uint8Array>>): Promise<ReadonlyArray<string>> =>
  (await scan3Files({ "res://good.gd": GOOD, "res://evil.gd": EVIL, "res://use.gd": USE, ...files })).filter((f) => f.split(" ")[1] === "error")

describe("settings files the engine may not read", () => {
  it("an autoload in the pack's override.cfg: pack-hostile-path there, and the project's own autoload judged", async () => {
    const found = await errorsOf({ "res://project.godot": settings("res://evil.gd"), "res://override.cfg": "[autoload]\n\nTowers=\"*res://good.gd\"\n" })
    expect(found).toContain("res://override.cfg:3 error project setting autoload/Towers")
    expect(found).toContain("res://use.gd:3 error os-process")
  })

  it("a class list in the pack's override.cfg: pack-hostile-path", async () => {
    const list = '_global_script_classes=[ {\n"base": "Node",\n"class": "Towers",\n"language": "GDScript",\n"path": "res://good.gd"\n} ]\n'
    expect(await errorsOf({ "res://project.godot": settings("res://evil.gd"), "res://override.cfg": list })).toContain("res://override.cfg:1 error project setting _global_script_classes")
  })

  it("an autoload in Godot 4's class cache of a Godot 3 pack is not the autoload", async () => {
    const found = await errorsOf({ "res://project.godot": settings("res://evil.gd"), "res://.godot/global_script_class_cache.cfg": "[autoload]\n\nTowers=\"*res://good.gd\"\n" })
    expect(found).toContain("res://use.gd:3 error os-process")
  })

  it("project.godot beside a project.binary names no autoload", async () => {
    const binary = writeProjectBinary([["application/config/name", "P"], ["autoload/Towers", "*res://evil.gd"]])
    expect(await errorsOf({ "res://project.binary": binary, "res://project.godot": settings("res://good.gd") })).toContain("res://use.gd:3 error os-process")
  })

  it("settings text the engine reads otherwise than a line reader (a seventy-ninth red team's): resource-unreadable", async () => {
    const base = settings("res://good.gd")
    for (const tail of [
      '\n[autoload] ; more\nTowers="*res://evil.gd"\n',
      '\n[autoload]\nTowers="*res://good.gd" ; [\nTowers="*res://evil.gd" ; ]\n',
      '\n[autoload]\nTowers="*res://good.gd" Towers="*res://evil.gd"\n',
      '\n[autoload]\nTowers= ; "*res://good.gd"\n"*res://evil.gd"\n',
      '\n[autoload] Towers="*res://evil.gd"\n',
    ]) {
      expect(await errorsOf({ "res://project.godot": `${base}${tail}` }), tail).toContain("res://project.godot: error unreadable content")
    }
  })

  it("settings as the editor writes them, comments on lines of their own and values over several lines: read alike", async () => {
    const list = '_global_script_classes=[ {\n"base": "Node",\n"class": "Towers2",\n"language": "GDScript",\n"path": "res://good.gd"\n} ]\n_global_script_class_icons={\n"Towers2": ""\n}\n'
    const text = `; Engine configuration file.\n; It's best edited using the editor UI and not directly,\n\nconfig_version=4\n\n${list}\n${settings("res://good.gd")}\n[input]\n\njump={\n"deadzone": 0.5,\n"events": [  ]\n}\n`
    expect(await errorsOf({ "res://project.godot": text })).toEqual([])
  })

  it("the same autoload in the settings the engine starts from, and no override.cfg: the table read, no error", async () => {
    expect(await errorsOf({ "res://project.godot": settings("res://good.gd") })).toEqual([])
    expect(await errorsOf({ "res://project.binary": writeProjectBinary([["application/config/name", "P"], ["autoload/Towers", "*res://good.gd"]]) })).toEqual([])
  })
})
