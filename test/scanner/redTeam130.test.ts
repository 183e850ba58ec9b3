// Red team 130 (attackProjects144.ts runs each in godot3-server): a loop's variable over a literal or a constant
// table's strings, edited in place (`n.erase(0, 5)`, `n[0] = "e"`: Godot 3 changes the variable's own String, as for
// any local: PackModel.mutatedInPlace) before it names the method, is no item of the table; a setter's name held in a
// local (`var s = "set"`) handed to funcref, connect, propagate_call or UndoRedo is a write by name (PackModel
// writesByName). Its hunt: a product or a quotient is never text (Variant::evaluate multiplies no String).
import { describe, expect, it } from "vitest"
import { hits3 } from "./support/analyze.ts"

const errors = (...source: ReadonlyArray<string>): ReadonlyArray<string> => hits3([...source, ""].join("\n")).filter((h) => h.includes(" error "))

describe("a loop's variable over strings, edited in place", () => {
  it.each([
    ["a local literal's", ['\tvar names = ["game_execute"]', "\tfor n in names:"]],
    ["an inline literal's", ['\tfor n in ["game_execute"]:']],
    ["a constant Dictionary's keys", ["\tfor n in ACTIONS:"]],
  ])("over %s items is not followed", (_what, loop) => {
    const source = ["extends Node", 'const ACTIONS = {"game_execute": "touch"}', "func _ready():", ...loop, "\t\tn.erase(0, 5)", '\t\tOS.call(n, "touch", ["/tmp/x"])']
    expect(errors(...source)).toEqual([`${source.length}:3 error dynamic-dispatch OS.call(…)`])
    expect(errors(...source.filter((l) => !l.includes("erase")))).toEqual([])
  })

  it("by an index write, or through nested loops, likewise", () => {
    expect(errors("extends Node", "func _ready():", '\tfor n in ["axecute"]:', '\t\tn[0] = "e"', '\t\tOS.call(n, "touch", ["/tmp/x"])')).toEqual(["5:3 error dynamic-dispatch OS.call(…)"])
    expect(errors("extends Node", 'const STEPS = [["game_execute"]]', "func _ready():", "\tfor step in STEPS:", "\t\tfor n in step:", "\t\t\tn.erase(0, 5)", '\t\t\tfuncref(OS, n).call_func("touch", ["/tmp/x"])')).toEqual(["7:4 error dynamic-dispatch funcref(…)"])
  })
})

describe("a setter's name held in a local and handed to an engine API", () => {
  it.each([
    ["funcref", ["\tfuncref(self, s).call_func(PoolStringArray([\"t\", \"bl\"]).join(\"\"), self)"]],
    ["propagate_call", ["\tpropagate_call(s, [PoolStringArray([\"t\", \"bl\"]).join(\"\"), self])"]],
    ["connect with binds", ["\tconnect(\"go\", self, s, [PoolStringArray([\"t\", \"bl\"]).join(\"\"), self])", "\temit_signal(\"go\")"]],
  ])("is a write by name (%s): the member may then be self, and the constant table is not followed", (_api, write) => {
    const source = ["extends Node", "signal go", 'const TABLE = {"m": "get_name"}', "var tbl = {}", "func _ready():", '\tvar s = "se" + "t"', ...write, '\tvar t = tbl.get("TAB" + "LE")', '\tt["m"] = "execute"', '\tfuncref(OS, TABLE["m"]).call_func("touch", ["/tmp/x"])']
    expect(errors(...source)).toEqual([`${source.length}:2 error dynamic-dispatch funcref(…)`])
  })
})

describe("a product or a quotient (the hunt's tower upgrades)", () => {
  it("is no text: a write of it by a name out of sight on an element of a member Array is no script's source", () => {
    const towers = (op: string): ReadonlyArray<string> =>
      errors("extends Node", "var towers = []", 'var upgrades = {"scale": 1.5}', "func _ready():", "\ttowers.append(Node2D.new())", "\tfor stat in upgrades:", "\t\tfor t in towers:", `\t\t\tt.set(stat, t.get(stat) ${op} upgrades[stat])`)
    expect(towers("*")).toEqual([])
    expect(towers("/")).toEqual([])
    expect(towers("+")).toEqual(["8:4 error script-source-code set(…)"])
  })
})
