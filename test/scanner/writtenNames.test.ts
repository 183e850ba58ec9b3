// A hundred-and-thirteenth red team's (attackProjects142.ts, run by godot3-server): a String local written into
// (`m[0] = "p"`) is another String (3.x Variant::set on a String puts the character), so a name read from a constant
// table and changed so is none of the table's strings: not for the functions a dispatch may reach (whose parameters
// are followed from the calls in sight only where every dispatch's name is known), nor for a method that may read.
import { describe, expect, it } from "vitest"
import { hits3 } from "./support/analyze.ts"

/** The dispatch of CMDS["a"] after `body`; with `poke_x`, a function handing out what `get` reads by its parameter. */
const program = (poke: boolean, ...body: ReadonlyArray<string>): string =>
  [
    "extends Node",
    'const ACTIONS = {"a": "zoke_x", "b": "zet"}',
    'const CMDS = {"a": "get_name", "b": "get_ticks_msec"}',
    "func _ready():",
    ...body.map((l) => `\t${l}`),
    '\tOS.call(CMDS["a"], "touch", ["/tmp/x"])',
    ...(poke ? ["func poke_x(k):", "\tvar t = get(k)", "\tif t is Dictionary:", '\t\tt["a"] = "execute"'] : ["func jump(n):", "\tprint(n)"]),
    "",
  ].join("\n")

const dispatchErrors = (source: string): ReadonlyArray<string> => hits3(source).filter((h) => h.includes("error dynamic-dispatch OS.call")).map((h) => h.split(" ")[0] ?? "")

describe("a name read from a table, then written into", () => {
  it("may reach a function the calls in sight do not: its parameter is not theirs", () => {
    expect(dispatchErrors(program(true, "poke_x(3)", 'var m = ACTIONS["a"]', 'm[0] = "p"', 'call(m, "CM" + "DS")'))).toEqual(["9:2"])
  })

  it("may be a reader: what it hands out may be changed", () => {
    expect(dispatchErrors(program(false, 'var m = ACTIONS["b"]', 'm[0] = "g"', 'var t = call(m, "CM" + "DS")', 't["a"] = "execute"'))).toEqual(["9:2"])
    expect(dispatchErrors(program(false, 'var m = "zet"', 'm[0] = "g"', 'var t = call(m, "CM" + "DS")', 't["a"] = "execute"'))).toEqual(["9:2"])
  })

  it("not written into, is one of its strings: the tables stay followed", () => {
    expect(dispatchErrors(program(true, "poke_x(3)", 'var m = ACTIONS["a"]', 'call(m, "CM" + "DS")'))).toEqual([])
  })
})
