// A hundred-and-twenty-third hunt's tower defense: tower scenes loaded by paths from the pack's JSON, each tower kept
// in `var placed = []`, in a pack that attaches scripts at run time (`e.set_script(Enemy)`). A member that always holds
// the Array its class built is no container of the pack's data: appending a tower to it leaves the JSON the pack's,
// so the load is the warning a path from the pack's data is.
import { describe, expect, it } from "vitest"
import { scan3Files } from "./support/scan.ts"

const TOWERS = '{"basic": {"scene": "res://game/towers/basic.tscn"}, "ice": {"scene": "res://game/towers/ice.tscn"}}'
const game = (keep: string): string =>
  [
    "extends Node",
    'const Enemy = preload("res://game/enemy.gd")',
    "var tower_data = {}",
    `var placed = ${keep}`,
    "func _ready():",
    '\tplace_tower("basic")',
    "func load_towers():",
    "\tvar f = File.new()",
    '\tf.open("res://game/data/towers.json", File.READ)',
    "\ttower_data = parse_json(f.get_as_text())",
    "\tf.close()",
    "func place_tower(kind):",
    "\tif tower_data.empty():",
    "\t\tload_towers()",
    '\tvar t = load(tower_data[kind]["scene"]).instance()',
    "\tadd_child(t)",
    "\tplaced.append(t)",
    "func make_grunt():",
    "\tvar e = Node2D.new()",
    "\te.set_script(Enemy)",
    "\treturn e",
    "",
  ].join("\n")

const tower = (name: string): string => `[gd_scene load_steps=2 format=2]\n\n[ext_resource path="res://game/towers/tower.gd" type="Script" id=1]\n\n[node name="${name}" type="Node2D"]\nscript = ExtResource( 1 )\n`
const PACK = { "res://game/data/towers.json": TOWERS, "res://game/towers/basic.tscn": tower("Basic"), "res://game/towers/ice.tscn": tower("Ice"), "res://game/towers/tower.gd": "extends Node2D\nvar level = 1\n", "res://game/enemy.gd": "extends Node2D\nvar speed = 60\n" }

/** The findings on the load's line. */
const loads = async (keep: string, line = 15): Promise<ReadonlyArray<string>> => (await scan3Files({ ...PACK, "res://game/towers.gd": game(keep) })).filter((f) => f.startsWith(`res://game/towers.gd:${line} `))

describe("a member holding the Array its class built", () => {
  it("written into leaves the pack's JSON the pack's: the load by its path is a warning", async () => {
    expect(await loads("[]")).toEqual(["res://game/towers.gd:15 warning runtime-code-loading"])
  })

  it("given an Array of the pack's data is no such member: appending to it writes into the data, and the load is an error", async () => {
    expect(await loads('[]\nfunc upgrades():\n\tplaced = tower_data["basic"]["upgrades"]', 17)).toEqual(["res://game/towers.gd:17 error runtime-code-loading"])
  })
})
