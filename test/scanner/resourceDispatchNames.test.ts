// A hundred-and-eleventh and a hundred-and-thirteenth hunt's farm and city builder: `funcref(self, DEF.build_method)`
// with DEF a scripted Resource of the pack (`preload("res://h.tres")`) whose `.tres` sets the method's name. Such a read
// names the members of that name, closed to the values the pack's code and resources give them (memberWrites.ts):
// the dispatch is judged by them; a value naming a method that writes or calls by name keeps it an error.
import { describe, expect, it } from "vitest"
import { scan3Files } from "./support/scan.ts"

const CITY = (method: string, use: string): Readonly<Record<string, string>> => ({
  "res://def.gd": 'extends Resource\nexport var id = ""\nexport var build_method = ""\n',
  "res://h.tres": `[gd_resource type="Resource" load_steps=2 format=2]\n\n[ext_resource path="res://def.gd" type="Script" id=1]\n\n[resource]\nscript = ExtResource( 1 )\nid = "house"\nbuild_method = "${method}"\n`,
  "res://main.gd": `extends Node\nconst DEF = preload("res://h.tres")\nfunc _ready():\n\t${use}\nfunc _build_house(c):\n\tpass\n`,
})

const atUse = async (files: Readonly<Record<string, string>>): Promise<ReadonlyArray<string>> =>
  (await scan3Files(files)).filter((f) => f.startsWith("res://main.gd:4 ")).map((f) => f.split(" ").slice(1, 3).join(" "))

describe("a method named by a property of a scripted resource of the pack", () => {
  it("named by the values the resources and code give it: a funcref or connection on self is no finding", async () => {
    expect(await atUse(CITY("_build_house", "funcref(self, DEF.build_method).call_func(Vector2())"))).toEqual([])
    expect(await atUse(CITY("_build_house", 'connect("ready", self, DEF.build_method)'))).toEqual([])
  })

  it("a value naming a method that writes or calls by name, or code giving it a value not known, is an error", async () => {
    expect(await atUse(CITY("set", 'funcref(self, DEF.build_method).call_func("id", "x")'))).toEqual(["error dynamic-dispatch"])
    const changed = { ...CITY("_build_house", "funcref(self, DEF.build_method).call_func(Vector2())"), "res://other.gd": "extends Node\nfunc _init():\n\tpreload(\"res://h.tres\").build_method = OS.get_environment(\"X\")\n" }
    expect(await atUse(changed)).toEqual(["error dynamic-dispatch"])
  })
})
