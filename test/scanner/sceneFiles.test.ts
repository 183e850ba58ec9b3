// A node's scene file (`filename`, 4.x `scene_file_path`) is loaded as a scene by the node's duplicate(), a pack() of
// its scene and reload_current_scene() (a fifty-sixth red team's, attackProjects103.ts, run by godot3-server with the
// scenes exported as binary): in a text scene and in code it is judged as a load path.
import { describe, expect, it } from "vitest"
import { levelWithSceneFile } from "./fixtures/attackProjects103.ts"
import { lines } from "./fixtures/godotProjects.ts"
import { scan3Files } from "./support/scan.ts"

const errors = async (files: Readonly<Record<string, string>>): Promise<ReadonlyArray<string>> => (await scan3Files(files)).filter((f) => f.includes(" error "))

describe("a node's scene file", () => {
  it("is a load path in a text scene: outside the pack an error, a scene of the pack fine", async () => {
    expect((await errors({ "res://game/level.tscn": levelWithSceneFile("x") })).some((f) => f.startsWith("res://game/level.tscn:6 error"))).toBe(true)
    expect(await errors({ "res://game/level.tscn": levelWithSceneFile("x").replace("user://x.tscn", "res://main.tscn") })).toEqual([])
  })

  it("is a load path where a text scene's value track sets it (a hundredth red team's): each key", async () => {
    const tracked = (value: string): string =>
      lines("[gd_scene load_steps=2 format=2]", "", '[sub_resource type="Animation" id=1]', 'tracks/0/type = "value"', 'tracks/0/path = NodePath("N:filename")', "tracks/0/keys = {", `"values": [ ${value} ]`, "}", "", '[node name="S" type="Node"]', "", '[node name="N" type="Node" parent="."]')
    expect((await errors({ "res://game/s.tscn": tracked('"res://main.tscn", "user://x.tscn"') })).some((f) => f.startsWith("res://game/s.tscn:6 error"))).toBe(true)
    expect(await errors({ "res://game/s.tscn": tracked('"res://main.tscn"') })).toEqual([])
    expect(await errors({ "res://game/s.tscn": tracked('"res://main.tscn"').replace("N:filename", "N:editor_description") })).toEqual([])
  })

  it("is a load path where code sets it", async () => {
    const set = async (line: string): Promise<ReadonlyArray<string>> => errors({ "res://game/a.gd": lines("extends Node", "func _ready():", "\tvar n = Node2D.new()", `\t${line}`, "\tadd_child(n.duplicate())") })
    expect(await set('n.filename = "user://x.tscn"')).toContain("res://game/a.gd:4 error runtime-code-loading")
    expect(await set('n.set_filename("user://x.tscn")')).toContain("res://game/a.gd:4 error runtime-code-loading")
    expect(await set('n.filename = "res://main.tscn"')).toEqual([])
  })
})
