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
