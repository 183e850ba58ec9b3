// A hundred-and-third red team's: `Towers.ON_BUILD` reads an inner class named Towers (of the class, a base or an outer
// class) before an autoload or a global class of that name; the compiler finds inner classes among the class's constants.
// A hundred-and-fourth's: a name that is a constant at one level and an inner class at another may be either. A
// hundred-and-fifth's: `obj.NAME` and `self.NAME` read the object's class and bases only, never an outer class; and a
// type named like a constant of another script may be that constant's script.
import { describe, expect, it } from "vitest"
import { hits3 } from "./support/analyze.ts"

const GLOBAL = { "res://towers.gd": ["extends Node", "class_name Towers", "", 'const ON_BUILD = {"slime": "get_environment"}', ""].join("\n") }
const errors = (found: ReadonlyArray<string>): ReadonlyArray<string> => found.filter((h) => h.includes(" error "))

describe("an inner class named like a global class", () => {
  it("is what a constant read by that name reads", () => {
    const main = ["extends Node", "", "class Towers:", '\tconst ON_BUILD = {"slime": "execute"}', "", "func _ready():", '\tOS.call(Towers.ON_BUILD.slime, "touch", ["x"])', ""].join("\n")
    expect(errors(hits3(main, GLOBAL))).toEqual(['7:2 error os-process OS.call("execute")'])
  })

  it("of a base class, too", () => {
    const base = { "res://base.gd": ["extends Node", "", "class Towers:", '\tconst ON_BUILD = {"slime": "execute"}', ""].join("\n") }
    const main = ['extends "res://base.gd"', "", "func _ready():", '\tOS.call(Towers.ON_BUILD["slime"], "touch", ["x"])', ""].join("\n")
    expect(errors(hits3(main, { ...GLOBAL, ...base }))).toEqual(['4:2 error os-process OS.call("execute")'])
  })

  it("leaves the global class's table followed where no inner class has its name", () => {
    const main = ["extends Node", "", "func _ready():", '\tOS.call(Towers.ON_BUILD.slime, "x")', ""].join("\n")
    expect(errors(hits3(main, GLOBAL))).toEqual([])
  })
})

describe("a name that is an inner class at one level and a constant at another", () => {
  const BASE = { "res://base.gd": ["extends Node", "", 'const Towers = {"ON_BUILD": {"a": "get_name"}}', ""].join("\n") }
  it("is not known: an inner class beside a base's constant", () => {
    const main = ['extends "res://base.gd"', "", "class Towers:", '\tconst ON_BUILD = {"a": "execute"}', "", "func _ready():", '\tOS.callv(Towers.ON_BUILD["a"], ["x"])', ""].join("\n")
    expect(errors(hits3(main, BASE))).toEqual(["7:2 error dynamic-dispatch OS.callv(…)"])
  })

  it("is not known: `C.T` of a base's inner class beside an outer constant", () => {
    const cbase = { "res://cbase.gd": ["extends Reference", "", "class T:", '\tconst ON = {"a": "execute"}', ""].join("\n") }
    const main = ["extends Node", "", 'const T = {"ON": {"a": "get_name"}}', "", 'class C extends "res://cbase.gd":', "\tpass", "", "func _ready():", '\tOS.callv(C.T.ON["a"], ["x"])', ""].join("\n")
    expect(errors(hits3(main, cbase))).toEqual(["9:2 error dynamic-dispatch OS.callv(…)"])
  })

  it("leaves a base's constant followed where no inner class has its name", () => {
    const main = ['extends "res://base.gd"', "", "func _ready():", '\tOS.callv(Towers.ON_BUILD["a"], ["x"])', ""].join("\n")
    expect(errors(hits3(main, BASE))).toEqual([])
  })
})

describe("obj.NAME and self.NAME on an object of an inner class", () => {
  const lib = (...helper: ReadonlyArray<string>): string => ["extends Reference", 'const name = "get_name"', "", "class Helper extends Node:", ...helper, ""].join("\n")

  it("never read an outer class's constant (the node's name, or _get, answers)", () => {
    expect(errors(hits3(lib("\tfunc go():", '\t\tOS.call(self.name, "x")')))).toEqual(["6:3 error dynamic-dispatch OS.call(…)"])
    const main = ["extends Node", 'const Lib = preload("res://lib.gd")', "", "func _ready():", "\tvar h = Lib.Helper.new()", '\tOS.call(h.name, "x")', ""].join("\n")
    expect(errors(hits3(main, { "res://lib.gd": lib("\tpass") }))).toEqual(["6:2 error dynamic-dispatch OS.call(…)"])
  })

  it("read the class's and its bases' constants", () => {
    const main = ["extends Node", "", "class Base:", '\tconst M = "get_name"', "", "class Helper extends Base:", "\tfunc go():", '\t\tOS.call(self.M, "x")', ""].join("\n")
    expect(errors(hits3(main))).toEqual([])
  })
})

describe("a type named like a constant of another script", () => {
  it("is no class of the pack holding no table: reads by a name not constant on it may reach the table", () => {
    const holder = ["extends Node", 'const T = {"a": {"m": "get_name"}}', "", "class Plain:", "\textends Node", "", "func _ready():", '\tOS.callv(T["a"]["m"], ["x"])', ""].join("\n")
    const writer = ["extends Node", 'const Plain = preload("res://main.gd")', "", "func _ready():", '\tvar c: Plain = get_node("/root/H")', "\tvar d = c.get(char(84))", '\td["a"]["m"] = "execute"', ""].join("\n")
    expect(errors(hits3(holder, { "res://writer.gd": writer }))).toEqual(["8:2 error dynamic-dispatch OS.callv(…)"])
  })
})

describe("a hundred-and-sixth red team's names", () => {
  it("an inner class named alike in the outer script and in an inner class's base is not known", () => {
    const lib = { "res://lib.gd": ["class Holder:", '\tconst N = "get_name"', ""].join("\n") }
    const main = ["extends Node", "class Holder:", '\tconst N = "execute"', 'class In extends "res://lib.gd":', "\tfunc go():", '\t\tOS.call(Holder.N, "x")', ""].join("\n")
    expect(errors(hits3(main, lib))).toEqual(["6:3 error dynamic-dispatch OS.call(…)"])
  })

  it("a table's strings are those of every constant of its name; one folded at compile time leaves the name out", () => {
    const main = ["extends Node", "", 'const MOVES = {"a": "g" + "et"}', 'const SAVES = {"slot": "user://slot.save"}', "", "func _ready():", '\tvar saves = call(MOVES["a"], "SA" + "VES")', '\tsaves["slot"] = str(get_meta("p"))', "\tvar f = File.new()", '\tf.open(SAVES["slot"], File.WRITE)', "", "class Moves:", '\tconst MOVES = {"a": "wander"}', ""].join("\n")
    expect(errors(hits3(main)).map((h) => h.split(" ").slice(0, 3).join(" "))).toContain("10:2 error filesystem-outside-sandbox")
  })
})

// The autoload form (a hundred-and-seventh red team's) needs project settings: attackProjects140.ts runs it.
describe("a constant named like a global class", () => {
  it("gives no table's strings to a class that declares no such constant: the dispatch stays an error", () => {
    const keys = { "res://keys.gd": ["extends Node", "class_name KEYS", "", 'const a = "ACT" + "IONS"', ""].join("\n"), "res://table.gd": ["extends Reference", "", 'const KEYS = {"a": "hp"}', ""].join("\n") }
    const main = ["extends Node", "", 'const ACTIONS = {"m": "get_name"}', "", "func _ready():", '\tvar d = get(KEYS["a"])', '\td["m"] = "execute"', '\tOS.call(ACTIONS["m"], "x")', ""].join("\n")
    expect(errors(hits3(main, keys))).toContain("8:2 error dynamic-dispatch OS.call(…)")
  })
})
