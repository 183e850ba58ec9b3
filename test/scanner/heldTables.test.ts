// A constant table of an autoload read by the autoload's name (`Towers.ON_BUILD[kind]`, a sixty-fifth hunt's tower
// defence) is followed as the same table read in its own script is (evaluate.ts #namedClassConstant, constantReads.ts
// `held`): only where the autoload's class itself has that constant, no class of the pack has a member or constant of
// the autoload's name, and one class alone declares a constant of the table's name.
import { describe, expect, it } from "vitest"
import { analyzeScript } from "../../adapters/scanner/gdscript/analyzeScript.ts"
import { engineNames } from "../../adapters/scanner/gdscript/engineClasses.ts"
import { indexPolicy } from "../../adapters/scanner/gdscript/PolicyIndex.ts"
import { PackModel } from "../../adapters/scanner/gdscript/packModel.ts"
import { defaultPolicy } from "../../adapters/scanner/policy/defaultPolicy.ts"
import { packOf, registrationsOf } from "./support/analyze.ts"

/** Error hits (`file:line policy`) of every script, `res://towers.gd` being the autoload `Towers`. */
const errors = (files: Readonly<Record<string, string>>): ReadonlyArray<string> => {
  const scripts = packOf(files, 3)
  const model = new PackModel(scripts, registrationsOf(scripts), engineNames(3, indexPolicy(defaultPolicy)), { autoloads: new Map([["Towers", "res://towers.gd"]]) })
  return scripts.flatMap((script) => analyzeScript(script, model, defaultPolicy).hits.filter((h) => h.severity === "error").map((h) => `${script.path}:${h.line} ${h.entry.id}`))
}

const lines = (...l: ReadonlyArray<string>): string => `${l.join("\n")}\n`

/** A tower defence: the autoload's table names each build's handler, called through funcref. */
const MAIN = lines("extends Node", "func build(kind: String):", "\tif Towers.ON_BUILD.has(kind):", "\t\tvar cb = funcref(self, Towers.ON_BUILD[kind])", "\t\tcb.call_func()", "func _arrow_built():", "\tpass")

describe("an autoload's constant table read by the autoload's name", () => {
  it("is followed: the funcref names one of its strings, no finding", () => {
    expect(errors({ "res://main.gd": MAIN, "res://towers.gd": lines("extends Node", 'const ON_BUILD = {"arrow": "_arrow_built"}') })).toEqual([])
  })

  it("is judged by its strings: OS.callv of an entry is the call it names", () => {
    const main = lines("extends Node", "func build(kind: String):", '\tOS.callv(Towers.ON_BUILD[kind], ["touch", []])')
    expect(errors({ "res://main.gd": main, "res://towers.gd": lines("extends Node", 'const ON_BUILD = {"arrow": "get_name"}') })).toEqual([])
    expect(errors({ "res://main.gd": main, "res://towers.gd": lines("extends Node", 'const ON_BUILD = {"arrow": "execute"}') })).toEqual(["res://main.gd:3 os-process"])
  })

  // An attacker's shape: the autoload holds itself under that name (a member), another class declares the constant.
  it("is not followed where the autoload's class has no such constant (a member of that name may hold any object)", () => {
    const towers = lines("extends Node", "var ON_BUILD = self", 'const ACTIONS = {"go": "get_name"}', "func run(m):", '\tOS.callv(ACTIONS["go"], ["touch", [m]])')
    const main = lines("extends Node", "func _ready():", '\tvar k = "AC" + str(randi())', '\tTowers.ON_BUILD[k]["go"] = "execute"', '\tTowers.run("x")')
    const found = errors({ "res://main.gd": main, "res://towers.gd": towers, "res://decoy.gd": lines("extends Node", 'const ON_BUILD = {"x": "y"}') })
    expect(found).toContain("res://towers.gd:5 dynamic-dispatch")
  })

  it("is not followed where a class of the pack has a member of the autoload's name", () => {
    const main = lines("extends Node", "var Towers = null", "func build(kind: String):", "\tvar cb = funcref(self, Towers.ON_BUILD[kind])", "\tcb.call_func()")
    expect(errors({ "res://main.gd": main, "res://towers.gd": lines("extends Node", 'const ON_BUILD = {"arrow": "_arrow_built"}') })).not.toEqual([])
  })
})

describe("an autoload whose node may get another script (PackModel.tableHolder)", () => {
  const towers = lines("extends Node", 'const ON_BUILD = {"go": "get_name"}')
  const dispatch = '\tOS.callv(Towers.ON_BUILD["go"], ["touch", []])'

  it("code giving the autoload's node a script stops its table being followed (a sixty-eighth review's)", () => {
    const main = lines("extends Node", "func _ready():", '\tget_node("/root/Towers").set_script(load("res://live.gd"))', dispatch)
    expect(errors({ "res://main.gd": main, "res://towers.gd": towers, "res://live.gd": lines("extends Node", 'var ON_BUILD = {"go": "execute"}') })).toContain("res://main.gd:4 dynamic-dispatch")
  })

  it("writes by a name that cannot reach the node (on an engine singleton, on self of another class, through the class's own handler table) leave it followed", () => {
    const holder = lines(
      "extends Node",
      'const ON_BUILD = {"go": "get_name"}',
      'const HANDLERS = {"goal": "_on_goal"}',
      "func event(kind, a, b):",
      "\tvar handler: String = HANDLERS[kind]",
      "\tcall(handler, a, b)",
      "func _on_goal(a, b):",
      "\tpass",
      "class Player:",
      "\tfunc _init(stats: Dictionary):",
      "\t\tfor s in stats:",
      "\t\t\tset(s, stats[s])",
    )
    const main = lines("extends Node", "func _ready():", '\tTowers.event("goal", 1, 2)', '\tvar p = Towers.Player.new({"hp": 3})', dispatch)
    expect(errors({ "res://main.gd": main, "res://towers.gd": holder })).toEqual([])
  })
})

describe("an autoload's typed member read by the autoload's name (a sixty-eighth hunt's league table)", () => {
  const league = (member: string): string =>
    lines("extends Node", 'const EVENT_HANDLERS = {"goal": "_on_goal"}', member, "func event(kind, team, who):", "\tcall(EVENT_HANDLERS[kind], team, who)", "func _on_goal(team, who):", "\tpass")
  const main = lines("extends Node", "func _ready():", "\tfor tn in Towers.teams:", "\t\tvar t = Towers.teams[tn]", "\t\tprint(t.score)")

  it.each([["typed", "var teams: Dictionary = {}"], ["inferred", "var teams := {}"]])("%s Dictionary: an element read by a key is no read by name, the table stays followed", (_name, member) => {
    expect(errors({ "res://main.gd": main, "res://towers.gd": league(member) })).toEqual([])
  })

  it("untyped, it may hold any object: the read by a built name stops the table being followed", () => {
    expect(errors({ "res://main.gd": main, "res://towers.gd": league("var teams = {}") })).toContain("res://towers.gd:5 dynamic-dispatch")
  })
})
