// A scene reached through a `.remap` resolves its relative paths from the path it was asked for (ResourceFormatLoaderText
// takes the original path as its local path), not from the stored target's folder: an eighty-ninth red team's autoload
// scene, attackProjects134.ts, run by godot3-server.
import { describe, expect, it } from "vitest"
import { scan3Files } from "./support/scan.ts"

const GOOD = 'extends Node\nconst ON_BUILD = {"go": "get_name"}\n'
const EVIL = 'extends Node\nconst ON_BUILD = {"go": "execute"}\n'
const USE = 'extends Node\nfunc _ready():\n\tOS.callv(Towers.ON_BUILD["go"], ["touch", ["/tmp/x"]])\n'
const SCENE = '[gd_scene load_steps=2 format=2]\n\n[ext_resource path="t.gd" type="Script" id=1]\n\n[node name="Towers" type="Node"]\nscript = ExtResource( 1 )\n'
const SETTINGS = '[application]\n\nconfig/name="P"\n\n[autoload]\n\nTowers="*res://attack/t.tscn"\n'
const remapTo = (target: string): string => `[remap]\n\npath="${target}"\n`

const errorsOf = async (files: Readonly<Record<string, string>>): Promise<ReadonlyArray<string>> =>
  (await scan3Files({ "res://project.godot": SETTINGS, "res://use.gd": USE, "res://lib/t.tscn": SCENE, "res://attack/t.tscn.remap": remapTo("res://lib/t.tscn"), ...files })).filter((f) => f.split(" ")[1] === "error")

describe("relative paths of a remapped autoload scene", () => {
  it("the script beside the autoload's path is the one judged (two originals of one target; the original stored too)", async () => {
    for (const extra of [{ "res://other/a.tscn.remap": remapTo("res://lib/t.tscn") }, { "res://attack/t.tscn": SCENE.replace('path="t.gd"', 'path="res://lib/t.gd"') }]) {
      expect(await errorsOf({ "res://attack/t.gd": EVIL, "res://lib/t.gd": GOOD, ...extra })).toContain("res://use.gd:3 error os-process")
    }
  })

  it("the same layout the other way round (the harmless script beside the autoload's path): only the relative path itself", async () => {
    // A file the engine may load by paths in different folders names a different file by a relative path for each of
    // them (a ninetieth red team's): an error at the path, whichever file holds what.
    expect(await errorsOf({ "res://attack/t.gd": GOOD, "res://lib/t.gd": EVIL, "res://other/a.tscn.remap": remapTo("res://lib/t.tscn") })).toEqual(["res://lib/t.tscn:3 error [ext_resource] target"])
  })

  it("one original in the target's own folder (as a `.gdc` beside its `.gd`, a converted scene beside its text): no error", async () => {
    expect(await errorsOf({ "res://attack/t.gd": GOOD, "res://attack/t.tscn.remap": remapTo("res://attack/t.converted.tscn"), "res://attack/t.converted.tscn": SCENE, "res://lib/t.gd": EVIL })).toEqual([])
  })
})
