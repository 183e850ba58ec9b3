// A built-in script's relative `extends "…"` or `preload("…")` is joined to the folder of the path its scene was loaded
// by (GDScript::reload takes its base dir from the script's path, `scene.tscn::1`): a ninetieth red team's scene naming
// a script the pack lacks, which the engine read from the disk (attackProjects135.ts, run by godot3-server).
import { describe, expect, it } from "vitest"
import { scan3Files } from "./support/scan.ts"

const GOOD = 'extends Node\nconst ON_BUILD = {"go": "get_name"}\n'
const EVIL = 'extends Node\nconst ON_BUILD = {"go": "execute"}\n'
const SETTINGS = '[application]\n\nconfig/name="P"\n\n[autoload]\n\nTowers="*res://lib/s.tscn"\n'

/** A scene with a built-in script of these lines; the first line is the scene's line 4. */
const scene = (...source: ReadonlyArray<string>): string =>
  `[gd_scene load_steps=2 format=2]\n\n[sub_resource type="GDScript" id=1]\nscript/source = "${source.join("\n").replaceAll('"', '\\"')}\n"\n\n[node name="Towers" type="Node"]\nscript = SubResource( 1 )\n`

const errorsOf = async (files: Readonly<Record<string, string>>): Promise<ReadonlyArray<string>> =>
  (await scan3Files({ "res://project.godot": SETTINGS, ...files })).filter((f) => f.split(" ")[1] === "error")

const USES_BASE = scene('extends "k.gd"', "func _ready():", '\tOS.callv(ON_BUILD["go"], ["touch", ["/tmp/x"]])')

describe("relative paths of a built-in script", () => {
  it("naming a script the scene's folder lacks: an error at the path (extends, preload)", async () => {
    expect(await errorsOf({ "res://lib/s.tscn": scene('extends "k.gd"'), "res://k.gd": GOOD })).toContain("res://lib/s.tscn:4 error runtime-code-loading")
    expect(await errorsOf({ "res://lib/s.tscn": scene("extends Node", 'const K = preload("k.gd")'), "res://k.gd": GOOD })).toContain("res://lib/s.tscn:5 error runtime-code-loading")
  })

  it("are read from the scene's folder: its base's constants are the ones judged", async () => {
    expect(await errorsOf({ "res://lib/s.tscn": USES_BASE, "res://lib/k.gd": EVIL, "res://k.gd": GOOD })).toContain("res://lib/s.tscn:6 error os-process")
    expect(await errorsOf({ "res://lib/s.tscn": USES_BASE, "res://lib/k.gd": GOOD, "res://k.gd": EVIL })).toEqual([])
  })

  it("of a scene the engine may load by paths in different folders (a `.remap` from another): an error at the path", async () => {
    const remap = '[remap]\n\npath="res://lib/s.tscn"\n'
    expect(await errorsOf({ "res://lib/s.tscn": USES_BASE, "res://lib/k.gd": GOOD, "res://attack/s.tscn.remap": remap })).toContain("res://attack/s.tscn:4 error runtime-code-loading")
    // A `.remap` from the scene's own folder (a converted scene beside its text) names the same file: no error.
    expect(await errorsOf({ "res://lib/s.tscn": USES_BASE, "res://lib/k.gd": GOOD, "res://lib/t.tscn.remap": remap })).toEqual([])
  })

  it("of a file a settings remap loads under a path in another folder: an error at the path (a ninety-second red team's)", async () => {
    const remapped = (from: string): string => `${SETTINGS}\n[path_remap]\n\nremapped_paths=PoolStringArray( "${from}", "res://lib/s.tscn" )\n`
    const translated = `${SETTINGS}\n[locale]\n\ntranslation_remaps={\n"res://attack/s.tscn": PoolStringArray( "res://lib/s.tscn:ja" )\n}\n`
    // Keyed by a NodePath: the engine keys the remaps by String(key) (a ninety-fourth red team's).
    const byNodePath = `${SETTINGS}\n[locale]\n\ntranslation_remaps={\nNodePath("res://attack/s.tscn"): [ "res://lib/s.tscn:ja" ]\n}\n`
    for (const settings of [remapped("res://attack/s.tscn"), translated, byNodePath]) {
      expect(await errorsOf({ "res://project.godot": settings, "res://lib/s.tscn": USES_BASE, "res://lib/k.gd": GOOD })).toContain("res://lib/s.tscn:4 error runtime-code-loading")
    }
    expect(await errorsOf({ "res://project.godot": remapped("res://lib/t.tscn"), "res://lib/s.tscn": USES_BASE, "res://lib/k.gd": GOOD })).not.toContain("res://lib/s.tscn:4 error runtime-code-loading")
  })

  it("down a chain of remaps: a translation remap to a path remap's original (a ninety-third red team's)", async () => {
    const chained = `${SETTINGS}\n[locale]\n\ntranslation_remaps={\n"res://attack/s.tscn": PoolStringArray( "res://lib/m.tscn:en" )\n}\n\n[path_remap]\n\nremapped_paths=PoolStringArray( "res://lib/m.tscn", "res://lib/s.tscn" )\n`
    expect(await errorsOf({ "res://project.godot": chained, "res://lib/s.tscn": USES_BASE, "res://lib/m.tscn": USES_BASE, "res://lib/k.gd": GOOD })).toContain("res://lib/s.tscn:4 error runtime-code-loading")
  })
})
