// A resource taking another file's path in the engine's resource cache (a seventy-seventh red team's, run by
// godot3-server in attackProjects128.ts): `resource_path = "res://…"` written on an object of a text resource
// (Resource::set_path), and an internal resource of a binary one listed under a path that is not `local://N` (3.x
// ResourceLoaderBinary::poll sets that path on it and caches it there). A later load of the path gets the object,
// not the file the scanner read: each is resource-unreadable, and no editor saves either.
import { describe, expect, it } from "vitest"
import { godot3Scene } from "./fixtures/godot3BinaryScene.ts"
import { scan3Files } from "./support/scan.ts"

const GOOD = 'extends Node\nconst ON_BUILD = {"go": "get_name"}\n'
const EVIL = 'extends Node\nconst ON_BUILD = {"go": "execute"}\n'

describe("a resource claiming another file's path", () => {
  it("resource_path on a text scene's built-in script: resource-unreadable (pattern resource_path) at that line", async () => {
    const scene = `[gd_scene load_steps=2 format=2]\n\n[sub_resource type="GDScript" id=1]\nscript/source = ${JSON.stringify(EVIL)}\nresource_path = "res://good.gd"\n\n[node name="H" type="Node"]\nscript = SubResource( 1 )\n`
    expect(await scan3Files({ "res://hijack.tscn": scene, "res://good.gd": GOOD })).toContain("res://hijack.tscn:5 error resource_path")
  })

  it("an internal resource of a binary scene under a res:// path: resource-unreadable (unreadable content)", async () => {
    const scene = Uint8Array.from(godot3Scene([["res://good.gd", EVIL]], "H", 1))
    expect((await scan3Files({ "res://hijack.scn": scene, "res://good.gd": GOOD })).filter((f) => f.startsWith("res://hijack.scn"))).toEqual(["res://hijack.scn: error unreadable content"])
  })

  it("the same scenes with local paths and no resource_path: no finding", async () => {
    const text = `[gd_scene load_steps=2 format=2]\n\n[sub_resource type="GDScript" id=1]\nscript/source = ${JSON.stringify(GOOD)}\n\n[node name="H" type="Node"]\nscript = SubResource( 1 )\n`
    const binary = Uint8Array.from(godot3Scene([["local://1", GOOD]], "H", 1))
    expect((await scan3Files({ "res://a.tscn": text, "res://b.scn": binary })).filter((f) => f.startsWith("res://a.tscn") || f.startsWith("res://b.scn"))).toEqual([])
  })
})
