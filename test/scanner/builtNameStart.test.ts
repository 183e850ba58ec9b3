// A hundred-and-ninth hunt's settings menu: `call("_apply_" + diff)` names a method by a name built at run time, which
// could have been `get` (handing out a constant table by its name) and stopped every constant table of the pack being
// followed. A name that starts with text no such method starts with is none of them; a method of the pack it reaches
// that gives back a constant is still followed where what it gave is used.
import { describe, expect, it } from "vitest"
import { hits3 } from "./support/analyze.ts"

const pack = (dispatch: string, ...more: ReadonlyArray<string>): string =>
  ["extends Node", "", 'const KEYS = ["a", "b"]', "", "func _ready():", "\tfor key in KEYS:", "\t\tOS.call(key)", "", "func apply(diff):", `\t${dispatch}`, "", "func _apply_easy():", "\tpass", ...more, ""].join("\n")

describe("a method named by a built name with a known start", () => {
  it("that no method handing out a constant starts with leaves the tables followed", () => {
    expect(hits3(pack('call("_apply_" + diff)'))).toEqual([])
    expect(hits3(pack('call("_apply_%s" % diff)'))).toEqual([])
  })

  it("that such a method may start with, or none known, stops them where what it gives is changed", () => {
    expect(hits3(pack('var r = call("ge" + diff)\n\tr.clear()')).map((h) => h.split(" ").slice(0, 3).join(" "))).toEqual(["7:3 error dynamic-dispatch"])
    expect(hits3(pack("var r = call(diff)\n\tr.clear()")).map((h) => h.split(" ").slice(0, 3).join(" "))).toEqual(["7:3 error dynamic-dispatch"])
    // A statement drops the value: nothing read is handed on (a hundred-and-twelfth hunt's card game).
    expect(hits3(pack('call("ge" + diff)'))).toEqual([])
  })

  it("reaching a method of the pack that gives back a constant, changed where it is used, still counts", () => {
    const source = ["extends Node", "", 'const RUN = {"a": "queue_free"}', "", "func _give_x():", "\treturn RUN", "", "func _ready():", '\tvar r = call("_give_" + char(120))', '\tr["a"] = "execute"', '\tOS.call(RUN["a"], "touch", ["/tmp/x"])', ""].join("\n")
    expect(hits3(source).map((h) => h.split(" ").slice(0, 3).join(" "))).toEqual(["11:2 error dynamic-dispatch"])
  })

  it("a reader spelled in parts, or handed to a call that gives its value back later, stops them (a hundred-and-tenth red team's)", () => {
    const swap = (...reach: ReadonlyArray<string>): string =>
      ["extends Node", "", 'const PATHS = {"a": "res://game/main.tscn"}', "", "func _ready():", ...reach.map((l) => `\t${l}`), '\tvar s = load(PATHS["a"])', ""].join("\n")
    // The load is no longer folded to the table's path: a load not pinned down (a warning in a pack that writes nothing).
    const loadFinding = (source: string): ReadonlyArray<string> => hits3(source).filter((h) => h.includes("load(")).map((h) => h.split(" ").slice(0, 2).join(" "))
    expect(loadFinding(swap('var m = get_script().call("get_script_" + "constant_map")', "for d in m.values():", '\td["a"] = "user://x.gd"'))).toEqual(["9:15 warning"])
    expect(loadFinding(swap('var m = get_script().call("get_script_%s" % "constant_map")', "for d in m.values():", '\td["a"] = "user://x.gd"'))).toEqual(["9:15 warning"])
    expect(loadFinding(swap("var t = Thread.new()", 't.start(self, "g" + "et", "PATHS")', "var d = t.wait_to_finish()", 'd["a"] = "user://x.gd"'))).toEqual(["10:15 warning"])
    expect(loadFinding(swap("var r = FuncRef.new()", "r.set_instance(self)", 'r.set_function("g" + "et")', 'var d = r.call_func("PATHS")', 'd["a"] = "user://x.gd"'))).toEqual(["11:15 warning"])
    expect(loadFinding(swap("var t = Thread.new()", 't.start(self, "_work_" + str(1))', "t.wait_to_finish()"))).toEqual([])
    // Reached by a dispatch whose name is spelled in literal parts (a hundred-and-eleventh red team's).
    expect(loadFinding(swap("var t = Thread.new()", 't.callv("start", [self, "g" + "et", "PATHS"])', "var d = t.wait_to_finish()", 'd["a"] = "user://x.gd"'))).toEqual(["10:15 warning"])
    expect(loadFinding(swap("var t = Thread.new()", 't.call("st" + "art", self, "g" + "et", "PATHS")', "var d = t.wait_to_finish()", 'd["a"] = "user://x.gd"'))).toEqual(["10:15 warning"])
    expect(loadFinding(swap("var r = FuncRef.new()", "r.set_instance(self)", 'r.call("set_" + "function", "g" + "et")', 'var d = r.call_func("PATHS")', 'd["a"] = "user://x.gd"'))).toEqual(["11:15 warning"])
  })

  it("a reader reached one relay further stops them (a hundred-and-twelfth red team's); a relay to any other method does not", () => {
    const swap = (...reach: ReadonlyArray<string>): string =>
      ["extends Node", "", 'const PATHS = {"a": "res://game/main.tscn"}', "", "func _ready():", ...reach.map((l) => `\t${l}`), '\tvar s = load(PATHS["a"])', "", "func _apply_x(n = 0):", "\treturn n", ""].join("\n")
    const loadFinding = (source: string): ReadonlyArray<string> => hits3(source).filter((h) => h.includes("load(")).map((h) => h.split(" ").slice(0, 2).join(" "))
    const changed = 'd["a"] = "user://x.gd"'
    expect(loadFinding(swap('var d = call("callv", "g" + "et", ["PA" + "THS"])', changed))).toEqual(["8:15 warning"])
    expect(loadFinding(swap('var d = call("call", "callv", "g" + "et", ["PATHS"])', changed))).toEqual(["8:15 warning"])
    expect(loadFinding(swap('var d = call_deferred("call", "g" + "et", "PATHS")', changed))).toEqual(["8:15 warning"])
    expect(loadFinding(swap('var r = funcref(self, "call")', 'var d = r.call_func("g" + "et", "PATHS")', changed))).toEqual(["9:15 warning"])
    expect(loadFinding(swap('var d = callv("call", ["g" + "et", "PATHS"])', changed))).toEqual(["8:15 warning"])
    expect(loadFinding(swap("var t = Thread.new()", 'var m = "start"', 't.call(m, self, "g" + "et", "PATHS")', "var d = t.wait_to_finish()", changed))).toEqual(["11:15 warning"])
    expect(loadFinding(swap("var t = Thread.new()", 't.call("call", "start", self, "g" + "et", "PATHS")', "var d = t.wait_to_finish()", changed))).toEqual(["10:15 warning"])
    // The relayed method is none that reads: the table stays followed (its path is the pack's scene, no finding).
    expect(loadFinding(swap('var d = call("call", "_apply_" + "x", 1)'))).toEqual([])
    expect(loadFinding(swap('var d = call("callv", "_apply_x", [1])'))).toEqual([])
  })

  it("Thread.start called bare in a script extending Thread is judged like t.start; a script's own start is not", () => {
    const thread = (own: string): string =>
      ["extends Thread", "", 'const PATHS = {"a": "res://game/main.tscn"}', "", "func go():", '\tstart(self, "g" + "et", "PA" + "THS")', "\tvar d = wait_to_finish()", '\td["a"] = "user://x.gd"', '\tvar s = load(PATHS["a"])', own, ""].join("\n")
    const loadFinding = (source: string): ReadonlyArray<string> => hits3(source).filter((h) => h.includes("load(")).map((h) => h.split(" ").slice(0, 2).join(" "))
    expect(loadFinding(thread(""))).toEqual(["9:15 warning"])
    expect(loadFinding(thread("\nfunc start(a, b, c):\n\treturn null"))).toEqual([])
  })
})
