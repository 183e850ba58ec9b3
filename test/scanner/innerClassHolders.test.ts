// A hundred-and-third red team's: `Towers.ON_BUILD` reads an inner class named Towers (of the class, a base or an outer
// class) before an autoload or a global class of that name; the compiler finds inner classes among the class's constants.
// A hundred-and-fourth's: a name that is a constant at one level and an inner class at another may be either.
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
