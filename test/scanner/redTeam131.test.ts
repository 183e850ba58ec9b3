// Red team 131 (attackProjects144.ts runs each in godot3-server): `set` named by a constant table's entry (`NAMES["w"]`,
// `NAMES.w`, `NAMES[0]`) or a loop's variable over a literal, handed to funcref, a tween's callback, a connection or
// propagate_call, is a write by name the pack-wide rules see (PackModel writesByName): the container member may then
// be self, so the constant table it hands out is not followed.
import { describe, expect, it } from "vitest"
import { hits3 } from "./support/analyze.ts"

const errors = (...source: ReadonlyArray<string>): ReadonlyArray<string> => hits3([...source, ""].join("\n")).filter((h) => h.includes(" error "))

const attack = (...trigger: ReadonlyArray<string>): ReadonlyArray<string> => {
  const source = ["extends Node", 'const TABLE = {"m": "get_name"}', 'const NAMES = {"w": "set", "x": ["set"]}', "var tbl = {}", "func trigger():", ...trigger.map((l) => `\t${l}`), "func _ready():", "\ttrigger()", '\tvar t = tbl.get("TAB" + "LE")', '\tt["m"] = "execute"', '\tfuncref(OS, TABLE["m"]).call_func("touch", ["/tmp/x"])']
  return errors(...source).filter((h) => h.startsWith(`${source.length}:`))
}

describe("a setter's name read from a constant table or walked by a loop", () => {
  it.each([
    ['funcref(self, NAMES["w"]).call_func("t" + "bl", self)'],
    ['funcref(self, NAMES.w).call_func("t" + "bl", self)'],
    ['funcref(self, NAMES.x[0]).call_func("t" + "bl", self)'],
    ['propagate_call(NAMES["w"], ["t" + "bl", self])'],
    ['connect("tree_exiting", self, NAMES.w, ["t" + "bl", self])'],
  ])("is a write by name (%s)", (trigger) => {
    expect(attack(trigger)).toEqual(["11:2 error dynamic-dispatch funcref(…)"])
  })

  it("over a literal, likewise; a table of other names is none", () => {
    expect(attack('for s in ["set"]:', '\tfuncref(self, s).call_func("t" + "bl", self)')).toEqual(["12:2 error dynamic-dispatch funcref(…)"])
    expect(attack('for s in ["hide"]:', "\tfuncref(self, s).call_func()")).toEqual([])
  })
})
