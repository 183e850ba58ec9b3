// A hundred-and-thirteenth red team's (attackProjects142.ts, run by godot3-server): 3.x reads the right of `is` as any
// expression, checked to be a type only where its type is known when the script compiles; `n is arr[OS.execute(…)]`
// (an untyped Array's element) passes and runs the call. The scanner had read a type there and dropped the rest.
import { describe, expect, it } from "vitest"
import { hits3 } from "./support/analyze.ts"

const at = (found: ReadonlyArray<string>): ReadonlyArray<string> => found.map((h) => h.split(" ").slice(0, 3).join(" "))

describe("the right of `is` in 3.x", () => {
  it("is an expression whose calls are judged: in a test, a member's value, a ternary", () => {
    const source = [
      "extends Node",
      "var arr = [Node]",
      'var v = (self is arr[OS.execute("touch", ["a"])])',
      "func _ready():",
      '\tif self is arr[OS.execute("touch", ["b"])]:',
      "\t\tpass",
      '\tvar ok = true if self is arr[OS.execute("touch", ["c"])] else false',
      "",
    ].join("\n")
    expect(at(hits3(source))).toEqual(["3:22 error os-process", "5:17 error os-process", "7:31 error os-process"])
  })

  it("names a type where it is a dotted name: a class of the pack, an engine class", () => {
    const source = ["extends Node", "class Enemy:", "\tvar hp = 1", "func hit(n):", "\tif n is Enemy or n is Node2D:", "\t\treturn n is Sprite", "\treturn false", ""].join("\n")
    expect(hits3(source)).toEqual([])
  })
})
