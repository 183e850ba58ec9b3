// A path the pack lacks that the settings' `path_remap/remapped_paths` sends to a file of the pack is served by the pack:
// ResourceLoader::_path_remap applies a path remap whatever the path's own file (a ninety-fourth hunt's legacy
// `preload("res://old_ui/hud_font.tres")` after the font moved). Only where every key the engine may read sends it there,
// and only to a target the engine finds without a second remap.
import { describe, expect, it } from "vitest"
import { scan3Files } from "./support/scan.ts"

const USE = 'extends Node\nconst FONT = preload("res://old_ui/hud_font.tres")\n'
const FONT = '[gd_resource type="DynamicFont" format=2]\n\n[resource]\nsize = 18\n'
const settings = (...lines: ReadonlyArray<string>): string => ['[application]', "", 'config/name="P"', "", "[path_remap]", "", ...lines, ""].join("\n")
const REMAP = 'remapped_paths=PoolStringArray( "res://old_ui/hud_font.tres", "res://ui/hud_font.tres" )'

const errorsOf = async (files: Readonly<Record<string, string>>): Promise<ReadonlyArray<string>> =>
  (await scan3Files({ "res://use.gd": USE, ...files })).filter((f) => f.split(" ")[1] === "error")

describe("a path the settings remap to a file of the pack", () => {
  it("is served by the pack: the preload of the old path is no error", async () => {
    expect(await errorsOf({ "res://project.godot": settings(REMAP), "res://ui/hud_font.tres": FONT })).toEqual([])
  })

  it("guard: without the remap, or with its target missing, the old path is read from the disk (an error)", async () => {
    expect(await errorsOf({ "res://project.godot": settings(), "res://ui/hud_font.tres": FONT })).toContain("res://use.gd:2 error runtime-code-loading")
    const missing = await errorsOf({ "res://project.godot": settings(REMAP) })
    expect(missing).toContain("res://use.gd:2 error runtime-code-loading")
    expect(missing).toContain("res://project.godot:7 error project setting path_remap/remapped_paths")
  })

  it("a key with a feature tag, or override.cfg, that does not send the path there leaves it read from the disk", async () => {
    const tagged = settings(REMAP, 'remapped_paths.X11=PoolStringArray(  )')
    expect(await errorsOf({ "res://project.godot": tagged, "res://ui/hud_font.tres": FONT })).toContain("res://use.gd:2 error runtime-code-loading")
    const overridden = { "res://project.godot": settings(REMAP), "res://override.cfg": settings('remapped_paths=PoolStringArray( "res://a.tres", "res://ui/hud_font.tres" )'), "res://ui/hud_font.tres": FONT }
    expect(await errorsOf(overridden)).toContain("res://use.gd:2 error runtime-code-loading")
    // Every key sending it to a file of the pack serves it.
    const both = settings(REMAP, 'remapped_paths.X11=PoolStringArray( "res://old_ui/hud_font.tres", "res://ui/hud_font.tres" )')
    expect(await errorsOf({ "res://project.godot": both, "res://ui/hud_font.tres": FONT })).toEqual([])
  })

  it("a target the engine reaches only by a second remap (another path remap, a `.remap` stub) is read from the disk", async () => {
    const chained = settings('remapped_paths=PoolStringArray( "res://old_ui/hud_font.tres", "res://mid/hud_font.tres", "res://mid/hud_font.tres", "res://ui/hud_font.tres" )')
    const errors = await errorsOf({ "res://project.godot": chained, "res://ui/hud_font.tres": FONT })
    expect(errors).toContain("res://use.gd:2 error runtime-code-loading")
    expect(errors).toContain("res://project.godot:7 error project setting path_remap/remapped_paths")
    const stub = await errorsOf({ "res://project.godot": settings(REMAP), "res://ui/hud_font.tres.remap": '[remap]\n\npath="res://ui/hud_font.res"\n', "res://ui/hud_font.res": FONT })
    expect(stub).toContain("res://use.gd:2 error runtime-code-loading")
  })
})
