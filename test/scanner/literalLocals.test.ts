// Round 125's hunt (a monster game): `var names = ["attack", "flee"]` then `for n in names: m.call(n)`. A local given
// only an Array or Dictionary literal is its own container: where every use of it reads an entry, reorders it or walks
// it, and what is read out of it is a string or a number, it holds the literal's strings (evaluate.ts #localParts,
// copiedContainers.ts). Any other use (a write, an append, handing it on, another name for it) may change it.
import { describe, expect, it } from "vitest"
import { hits3 } from "./support/analyze.ts"

const local = (literal: string, ...use: ReadonlyArray<string>): ReadonlyArray<string> =>
  hits3(["extends Node", "func keep(a):", "\tpass", "func _ready():", `\tvar names = ${literal}`, ...use.map((l) => `\t${l}`), "\tfor n in names:", '\t\tOS.call(n, "touch", ["/tmp/x"])', ""].join("\n"))

describe("a local given an Array literal and walked by a loop", () => {
  it("gives the literal's strings: the dispatch is judged by them", () => {
    expect(local('["get_name", "get_locale"]')).toEqual([])
    expect(local('["get_name", "execute"]')).toEqual(['7:3 error os-process OS.call("execute")'])
    expect(local('["get_name"]', "names.shuffle()", "print(names.size())")).toEqual([])
    expect(local('["get_name"]', "print(names.size(), names[0])")).toEqual([])
  })

  it("reordered and read by an index gives any item there (a hundred-and-twenty-ninth red team's `sort()` then `names[0]`)", () => {
    const sorted = (reorder: string): ReadonlyArray<string> =>
      hits3(["extends Node", "func _ready():", '\tvar names = ["get_name", "execute"]', `\tnames.${reorder}()`, '\tOS.call(names[0], "touch", ["/tmp/x"])', ""].join("\n")).filter((h) => h.includes(" error "))
    for (const reorder of ["sort", "invert", "shuffle"]) expect(sorted(reorder)).toEqual(["5:2 error dynamic-dispatch OS.call(…)"])
  })

  it.each([
    ['names.append("execute")'],
    ['names.push_back("execute")'],
    ['names.insert(0, "execute")'],
    ['names[0] = "execute"'],
    ['names[0] += "x"'],
    ["keep(names)"],
    ["var other = names"],
    ['set_meta("n", names)'],
    ['names = ["execute"]'],
  ])("gives no known string once code may change it (%j)", (change) => {
    expect(local('["get_name"]', change).filter((h) => h.includes(" error "))).toContainEqual("8:3 error dynamic-dispatch OS.call(…)")
  })

  it("whose items are containers gives their entries only where nothing reaches them", () => {
    const nested = (...use: ReadonlyArray<string>): ReadonlyArray<string> =>
      hits3(["extends Node", "func _ready():", '\tvar names = [["get_name"]]', ...use.map((l) => `\t${l}`), "\tfor row in names:", "\t\tfor n in row:", '\t\t\tOS.call(n, "touch", ["/tmp/x"])', ""].join("\n"))
    expect(nested('names[0].append("execute")')).toEqual(["7:4 error dynamic-dispatch OS.call(…)"])
    expect(nested("var row0 = names[0]", 'row0.append("execute")')).toEqual(["8:4 error dynamic-dispatch OS.call(…)"])
  })

  it("on an element of a member Array given only instances of the pack's class is clean (the hunt's game)", () => {
    const game = ["extends Node", "class Monster:", "\tfunc attack(t):", '\t\treturn "hit"', "\tfunc flee(t):", '\t\treturn "flee"', "var monsters = []", "func _ready():", "\tmonsters.append(Monster.new())", "\tvar m = monsters[0]", '\tvar names = ["attack", "flee"]', "\tfor n in names:", "\t\tprint(m.call(n, self))", ""].join("\n")
    expect(hits3(game)).toEqual([])
    expect(hits3(game.replace("\tfor n in names:", "\tnames.append(str(randi()))\n\tfor n in names:"))).toEqual(["14:9 error dynamic-dispatch call(…)"])
  })
})

describe("a copy of a constant table walked by a loop whose items are strings", () => {
  it("gives the table's strings whatever the loop's variable is handed to", () => {
    const copy = (...use: ReadonlyArray<string>): ReadonlyArray<string> =>
      hits3(["extends Node", 'const NAMES = ["get_name", "get_locale"]', "func _ready():", "\tvar names = NAMES.duplicate()", ...use.map((l) => `\t${l}`), "\tfor n in names:", '\t\tOS.call(n, "touch", ["/tmp/x"])', ""].join("\n"))
    expect(copy()).toEqual([])
    expect(copy('names.append("execute")')).toEqual(["7:3 error dynamic-dispatch OS.call(…)"])
  })
})
