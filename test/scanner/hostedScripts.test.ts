// A hundred-and-twenty-fifth red team's (attackProjects143.ts, run by godot3-server): a `.tres` whose `[resource]` is
// of an engine class (GDScript, Image) holding `script = ExtResource( … )` of a script that `extends Reference`. The
// engine attaches it (GDScript's instance_create checks only that the object descends from the script's base), so self
// is the GDScript: the helper's `call(n, src)` by a name out of sight reached set_source_code, and `new` ran the code.
// A call on self by such a name is judged as reaching the methods rules name for the classes the pack's data gives the
// script to, as for the class it extends.
import { describe, expect, it } from "vitest"
import { utf8 } from "./support/bytes.ts"
import { writePack } from "./support/packWriter.ts"
import { writeProjectBinary } from "./support/projectBinaryWriter.ts"
import { writeBinaryScene } from "./support/resourceWriter.ts"
import { hits3 } from "./support/analyze.ts"
import { scan3Files, scanBytes } from "./support/scan.ts"

const HELPER = "extends Reference\n\nfunc go(plan, src):\n\tcall(plan[0], src)\n\tcall(plan[1])\n\treturn call(plan[2])\n"
const host = (type: string): string => `[gd_resource type="${type}" load_steps=2 format=2]\n\n[ext_resource path="res://game/helper.gd" type="Script" id=1]\n\n[resource]\nscript = ExtResource( 1 )\n`
const USER = 'extends Node\n\nfunc _ready():\n\tvar plan = get_meta("plan")\n\tload("res://game/host.tres").go(plan, get_meta("src"))\n'

const helperErrors = async (type: string): Promise<ReadonlyArray<string>> =>
  (await scan3Files({ "res://game/helper.gd": HELPER, "res://game/host.tres": host(type), "res://game/user.gd": USER })).filter((f) => f.startsWith("res://game/helper.gd:") && f.includes(" error "))

describe("a script the pack's data gives an engine object", () => {
  it("held by a GDScript resource: a call on self by a name out of sight may be set_source_code", async () => {
    expect(await helperErrors("GDScript")).toEqual(["res://game/helper.gd:4 error script-source-code", "res://game/helper.gd:5 error script-source-code", "res://game/helper.gd:6 error script-source-code"])
  })

  it("held by a plain Resource: no engine method a rule names is in reach", async () => {
    expect(await helperErrors("Resource")).toEqual([])
  })
})

// A hundred-and-twenty-sixth red team's: the same host in binary form (a `.scn`/`.res` whose internal GDScript holds
// `script` = the helper's file), which the engine's loader sets as it does a text resource's property.
describe("a script a binary resource's internal object holds", () => {
  const MANIFEST = utf8(JSON.stringify({ id: "g", name: "G", version: "1.0.0", engine_sdk: "1.0", entry_scene: "res://game/main.tscn", min_players: 1, max_players: 4 }))
  const MAIN = utf8('[gd_scene load_steps=2 format=3]\n\n[ext_resource type="Script" path="res://game/main.gd" id="1_m"]\n\n[node name="Main" type="Node2D"]\nscript = ExtResource("1_m")\n')
  const HELPER4 = "extends RefCounted\n\nfunc go(plan, src):\n\tcall(plan[0], src)\n"
  const errors = async (attach: string | undefined): Promise<ReadonlyArray<string>> => {
    const host = writeBinaryScene({ scripts: [{ id: "1", source: "extends RefCounted\n", ...(attach === undefined ? {} : { attach }) }], nodes: [{ name: "Root", type: "Node", parent: -1 }] })
    const pack = writePack({
      format: 2,
      entries: [
        { path: "res://manifest.json", data: MANIFEST },
        { path: "res://project.binary", data: writeProjectBinary([["application/config/name", "G"], ["application/run/main_scene", "res://game/main.tscn"]]) },
        { path: "res://game/main.tscn", data: MAIN },
        { path: "res://game/main.gd", data: utf8('extends EngineGame\n\nfunc _ready():\n\tload("res://game/host.scn")\n') },
        { path: "res://game/helper.gd", data: utf8(HELPER4) },
        { path: "res://game/host.scn", data: host },
      ],
    })
    return (await scanBytes(pack)).findings.filter((f) => f.severity === "error" && f.file === "res://game/helper.gd").map((f) => `${f.line} ${/\(policy ([a-z0-9-]+)\)/.exec(f.message)?.[1] ?? f.rule}`)
  }

  it("gives the helper's self the GDScript's set_source_code", async () => {
    expect(await errors("res://game/helper.gd")).toEqual(["4 script-source-code"])
  })

  it("is nothing where no internal object holds the helper", async () => {
    expect(await errors(undefined)).toEqual([])
  })
})

// A hundred-and-twenty-seventh red team's: the helper given to a GDScript at run time, by an animation track writing
// `X:img:script` into a GDScript sub-resource a node holds, or by code on a script object or an exported member.
describe("a script given at run time to an object that may be a GDScript", () => {
  const TRACK = [
    "[gd_scene load_steps=4 format=2]",
    "",
    '[ext_resource path="res://game/helper.gd" type="Script" id=1]',
    "",
    '[sub_resource type="GDScript" id=1]',
    'script/source = "extends Reference\\n"',
    "",
    '[sub_resource type="Animation" id=2]',
    "length = 0.1",
    'tracks/0/type = "value"',
    'tracks/0/path = NodePath("X:img:script")',
    "tracks/0/keys = {",
    '"times": PoolRealArray( 0 ),',
    '"transitions": PoolRealArray( 1 ),',
    '"update": 1,',
    '"values": [ ExtResource( 1 ) ]',
    "}",
    "",
    '[node name="R" type="Node"]',
    "",
    '[node name="AP" type="AnimationPlayer" parent="."]',
    'autoplay = "a"',
    "anims/a = SubResource( 2 )",
    "",
  ].join("\n")

  it("by an animation track writing its script is the dangerous-object-escape error at the track", async () => {
    const found = (await scan3Files({ "res://game/helper.gd": HELPER, "res://game/anim.tscn": TRACK })).filter((f) => f.startsWith("res://game/anim.tscn"))
    expect(found).toEqual(["res://game/anim.tscn:11 error dangerous-object-escape"])
  })

  it("by code, on a script object or a member the analysis lost, is the error naming GDScript", () => {
    const code = (line: string): ReadonlyArray<string> =>
      hits3(["extends Node", "export(Resource) var img", "func _ready():", line, '\timg.call(get_meta("n"), get_meta("src"))', ""].join("\n"), { "res://game/helper.gd": HELPER }).filter((h) => h.includes(" error dangerous-object-escape"))
    expect(code('\timg.script = load("res://game/helper.gd")')).toEqual(["4:2 error dangerous-object-escape GDScript"])
    expect(code('\tload("res://game/z.gd").set_script(load("res://game/helper.gd"))')).toEqual(["4:2 error dangerous-object-escape GDScript"])
  })
})
