// A hundred-and-twentieth red team's (attackProjects143.ts, run by godot3-server): Godot 3's tokenizer makes `load`
// and the other @GDScript functions built-in function tokens, which the parser calls as such whatever the class
// defines (Godot 4's analyzer looks utility functions up first too): `func load(path): return null` beside `load("user://mod.gd")` loads the script the game wrote. The
// script's method is reached only as `self.load(…)` or by name.
import { describe, expect, it } from "vitest"
import { hits3, hitsIn } from "./support/analyze.ts"

const shadowed = (call: string): string =>
  ["extends Node", "func load(path):", "\treturn null", "func str2var(t):", "\treturn t", "func _ready():", `\tvar s = ${call}`, ""].join("\n")

describe("a bare call of a Godot 3 built-in function the class also defines", () => {
  it("is the built-in function", () => {
    expect(hits3(shadowed('load("user://mod.gd")'))).toEqual(['7:15 error runtime-code-loading load("user://mod.gd")'])
    expect(hits3(shadowed("str2var(OS.get_environment(\"X\"))")).some((h) => h.startsWith("7:") && h.includes(" error "))).toBe(true)
  })

  it("is the class's method through self or by name", () => {
    expect(hits3(shadowed('self.load("user://mod.gd")'))).toEqual([])
    expect(hits3(shadowed('call("load", "user://mod.gd")'))).toEqual([])
  })

  it("is the utility function in Godot 4 too, whose analyzer looks utility functions up before the class's methods", () => {
    expect(hitsIn(shadowed('load("user://mod.gd")').replace("str2var", "str_to_var"), {}, 4)).toEqual(['7:15 error runtime-code-loading load("user://mod.gd")'])
    expect(hitsIn(shadowed('self.load("user://mod.gd")').replace("str2var", "str_to_var"), {}, 4)).toEqual([])
  })

  // A hundred-and-twenty-first red team's: `deep_equal` joined @GDScript after 3.2.3 (godot3Builtins.ts), so there a
  // script defines it and a bare call runs the script's method.
  it("is the class's method where Godot 3.2.3 has no such built-in (`deep_equal`)", () => {
    const source = ["extends Node", "func deep_equal(a, b):", '\treturn "exe" + "cute"', "func _ready():", '\tOS.call(deep_equal(1, 2), "touch", ["/tmp/x"])', ""].join("\n")
    expect(hits3(source)).toEqual(['5:2 error os-process OS.call("execute")'])
  })
})
