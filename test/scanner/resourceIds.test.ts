// Resource ids as the engine reads them (a seventy-eighth red team's, run by godot3-server in attackProjects129.ts):
// Godot 3's text loader turns every id into a whole number (3.x scene/resources/resource_format_text.cpp,
// `int index = next_tag.fields["id"]`, `int id = token.value`), so `1.0`, `01`, `1e0` and the string "1" are id 1 and a
// number past 2^31 wraps round. Only ids written plainly, as the editor writes them, are read; any other spelling makes
// the file resource-unreadable.
import { describe, expect, it } from "vitest"
import { scan3Files } from "./support/scan.ts"

const GOOD = 'extends Node\nconst ON_BUILD = {"go": "get_name"}\n'
const EVIL = 'extends Node\nconst ON_BUILD = {"go": "execute"}\n'

/** A scene declaring the harmless script under `first`, the other under `second`, its root naming `used`. */
const scene = (first: string, second: string, used: string): string =>
  `[gd_scene load_steps=3 format=2]\n\n[ext_resource path="res://good.gd" type="Script" id=${first}]\n[ext_resource path="res://evil.gd" type="Script" id=${second}]\n\n[node name="T" type="Node"]\nscript = ExtResource( ${used} )\n`

const sceneFindings = async (text: string): Promise<ReadonlyArray<string>> =>
  (await scan3Files({ "res://t.tscn": text, "res://good.gd": GOOD, "res://evil.gd": EVIL })).filter((f) => f.startsWith("res://t.tscn"))

describe("resource ids written otherwise than as plain whole numbers", () => {
  it("an external id as a decimal, with a leading zero, an exponent, a sign, past 2^31 or as a string not a plain number: unreadable content", async () => {
    for (const [first, used] of [["1.0", "1.0"], ["01", "01"], ["1e0", "1e0"], ["-1", "-1"], ["4294967297", "4294967297"], ['"1x"', "1"]] as const) {
      expect(await sceneFindings(scene(first, "1", used)), `id=${first}`).toEqual(["res://t.tscn: error unreadable content"])
    }
  })

  it("a reference spelled so: unreadable content", async () => {
    expect(await sceneFindings(scene("2", "1", "1.0"))).toEqual(["res://t.tscn: error unreadable content"])
    const sub = `[gd_scene load_steps=2 format=2]\n\n[sub_resource type="GDScript" id=1]\nscript/source = ${JSON.stringify(GOOD)}\n\n[node name="T" type="Node"]\nscript = SubResource( 01 )\n`
    expect(await sceneFindings(sub)).toEqual(["res://t.tscn: error unreadable content"])
  })

  it("a built-in script's id as a decimal beside the same id: unreadable content", async () => {
    const sub = `[gd_scene load_steps=3 format=2]\n\n[sub_resource type="GDScript" id=1.0]\nscript/source = ${JSON.stringify(EVIL)}\n\n[sub_resource type="GDScript" id=1]\nscript/source = ${JSON.stringify(GOOD)}\n\n[node name="T" type="Node"]\nscript = SubResource( 1 )\n`
    expect(await sceneFindings(sub)).toEqual(["res://t.tscn: error unreadable content"])
  })

  it("ids as the editor writes them (0, 1, 12, the largest int) stay clean", async () => {
    for (const [first, second] of [["0", "1"], ["12", "3"], ["2147483647", "2"]] as const) {
      expect(await sceneFindings(scene(first, second, first)), `id=${first}`).toEqual([])
    }
  })
})
