// An autoload scene whose root instances (or inherits) another scene: the engine's node has the instanced scene's root
// script, so `Towers.ON_BUILD` is that script's table. A seventy-fourth red team (attackProjects125.ts, run by
// godot3-server) put a registered class `Towers` beside it holding a decoy table, which the scanner read instead:
// the instanced scenes are followed now (checks/contentScan.ts autoloadScripts), and an autoload whose node's script is
// not pinned down is never a registered class of its name (PackModel.autoloadUnknown).
import { describe, expect, it } from "vitest"
import { globalClass } from "./fixtures/attackKit.ts"
import { scan3Files } from "./support/scan.ts"

const lines = (...l: ReadonlyArray<string>): string => `${l.join("\n")}\n`
const table = (method: string): string => lines("extends Node", `const ON_BUILD = {"go": "${method}"}`)
const CALLER = lines("extends Node", "func _ready():", '\tOS.callv(Towers.ON_BUILD["go"], ["touch", ["x"]])')
const settings = (towers: string): string =>
  lines("config_version=4", "", globalClass("Towers", "Node", "res://decoy.gd"), "[application]", "", 'run/main_scene="res://main.tscn"', "", "[autoload]", "", `Towers="*${towers}"`, 'Caller="*res://caller.gd"')
const scene = (root: string, ext: string): string => lines(`[gd_scene load_steps=${ext.split("\n").length + 1} format=2]`, "", ext, "", root)
const scripted = (path: string): string => scene('[node name="Towers" type="Node"]\nscript = ExtResource( 1 )', `[ext_resource path="${path}" type="Script" id=1]`)
const instancing = (path: string): string => scene('[node name="Towers" instance=ExtResource( 1 )]', `[ext_resource path="${path}" type="PackedScene" id=1]`)

/** The caller's findings in a pack where `towers` is the autoload's path, with `files` beside the decoy and the live script. */
const callerFindings = async (towers: string, files: Readonly<Record<string, string>>): Promise<ReadonlyArray<string>> =>
  (await scan3Files({ "res://project.godot": settings(towers), "res://caller.gd": CALLER, "res://decoy.gd": table("get_name"), "res://live.gd": table("execute"), ...files })).filter((f) => f.startsWith("res://caller.gd"))

describe("an autoload scene's root script, through instanced scenes", () => {
  it("a root naming its script: that script's table (OS's execute, an error)", async () => {
    expect(await callerFindings("res://towers.tscn", { "res://towers.tscn": scripted("res://live.gd") })).toEqual(["res://caller.gd:3 error os-process"])
  })

  it.each([
    ["one level", { "res://towers.tscn": instancing("res://base.tscn"), "res://base.tscn": scripted("res://live.gd") }],
    ["two levels", { "res://towers.tscn": instancing("res://mid.tscn"), "res://mid.tscn": instancing("res://base.tscn"), "res://base.tscn": scripted("res://live.gd") }],
  ])("a root instancing a scene whose root has the script (%s): that script's table, not the decoy's", async (_name, files) => {
    expect(await callerFindings("res://towers.tscn", files)).toEqual(["res://caller.gd:3 error os-process"])
  })

  it("a root instancing a scene and setting its script by `Resource(\"…\")` (a seventy-fifth red team's): that script's table", async () => {
    const towers = scene('[node name="Towers" instance=ExtResource( 1 )]\nscript = Resource( "res://live.gd" )', '[ext_resource path="res://base.tscn" type="PackedScene" id=1]')
    expect(await callerFindings("res://towers.tscn", { "res://towers.tscn": towers, "res://base.tscn": scripted("res://decoy.gd") })).toEqual(["res://caller.gd:3 error os-process"])
  })

  it("a root instancing a scene and setting its script to null: the instanced scene's script does not stand (not known)", async () => {
    const towers = scene('[node name="Towers" instance=ExtResource( 1 )]\nscript = null', '[ext_resource path="res://base.tscn" type="PackedScene" id=1]')
    expect(await callerFindings("res://towers.tscn", { "res://towers.tscn": towers, "res://base.tscn": scripted("res://decoy.gd") })).toEqual(["res://caller.gd:3 error dynamic-dispatch"])
  })

  it("a root instancing a scene the pack lacks: not the registered class's table (the name is not known)", async () => {
    expect(await callerFindings("res://towers.tscn", { "res://towers.tscn": instancing("res://gone.tscn") })).toEqual(["res://caller.gd:3 error dynamic-dispatch"])
  })

  it("the root's own script wins over the instanced scene's: a decoy-free root reading get_name is clean", async () => {
    const own = scene('[node name="Towers" instance=ExtResource( 1 )]\nscript = ExtResource( 2 )', '[ext_resource path="res://base.tscn" type="PackedScene" id=1]\n[ext_resource path="res://plain.gd" type="Script" id=2]')
    expect(await callerFindings("res://towers.tscn", { "res://towers.tscn": own, "res://base.tscn": scripted("res://live.gd"), "res://plain.gd": table("get_name") })).toEqual([])
  })
})
