// A hundred-and-twelfth red team's (attackProjects142.ts, run by godot3-server): in 3.x `set` and `get` are no
// keywords, so `var y: set = value` types y with an inner class named `set` and runs the value; the scanner had read
// 4.x accessors after the colon and dropped the value. After the colon a name is the type in both grammars (4.x
// GDScriptParser::parse_variable reads accessors there only at the end of the line).
import { describe, expect, it } from "vitest"
import { hits3, hitsIn } from "./support/analyze.ts"

const at = (found: ReadonlyArray<string>): ReadonlyArray<string> => found.map((h) => h.split(" ").slice(0, 3).join(" "))

describe("a variable typed with a class named set or get", () => {
  it("keeps its value: a local and a member", () => {
    expect(at(hits3(["extends Node", "class set:", "\tvar a = 1", "func _ready():", '\tvar y: set = [OS.execute("touch", ["a"])][0]', ""].join("\n")))).toEqual(["5:16 error os-process"])
    expect(at(hits3(["extends Node", "class get:", "\tvar a = 1", 'var y: get = [OS.execute("touch", ["a"])][0]', ""].join("\n")))).toEqual(["4:15 error os-process"])
  })

  it("4.x accessors after the colon at the end of the line, or after the type, are still the property's", () => {
    const property = ["extends Node", "var hp: int = 3:", "\tset(v):", '\t\tOS.execute("touch", ["a"])', "var mp:", "\tget:", '\t\treturn OS.execute("touch", ["b"])', ""].join("\n")
    expect(at(hitsIn(property, {}, 4))).toEqual(["4:3 error os-process", "7:10 error os-process"])
  })
})
