// Red team 129 (attackProjects144.ts runs each in godot3-server): a copy of a constant table handed to a parameter or
// walked by a loop, then written through a helper; and a member given self by `set()` with a name built at run time,
// in a member initialiser, a parameter's default or a function, which a container member or a sealed one then is.
import { describe, expect, it } from "vitest"
import { hits3 } from "./support/analyze.ts"

const errors = (...source: ReadonlyArray<string>): ReadonlyArray<string> => hits3([...source, ""].join("\n")).filter((h) => h.includes(" error "))

describe("a copy of a constant table", () => {
  it("handed to a parameter is followed only where the parameter's every use reads it", () => {
    const run = (use: string): ReadonlyArray<string> =>
      errors("extends Node", 'const ACTIONS = {"a": ["get_name"]}', "func fix(l):", '\tl[0] = "exe" + "cute"', "func run(list):", `\t${use}`, '\tOS.call(list[0], "touch", ["/tmp/x"])', "func _ready():", '\trun(ACTIONS["a"].duplicate())')
    expect(run("fix(list)")).toEqual(["7:2 error dynamic-dispatch OS.call(…)"])
    expect(run("print(list.size())")).toEqual([])
  })

  it("walked by a loop is followed only where the loop's variable only reads leaves", () => {
    const loop = (use: string): ReadonlyArray<string> =>
      errors("extends Node", 'const T = [["get_name"]]', "func fix(c):", '\tc[0] = "exe" + "cute"', "func _ready():", "\tfor l in T.duplicate(true):", `\t\t${use}`, '\t\tOS.call(l[0], "touch", ["/tmp/x"])')
    expect(loop("fix(l)")).toEqual(["8:3 error dynamic-dispatch OS.call(…)"])
    expect(loop("print(l.size())")).toEqual([])
  })
})

describe("a member given self by a name built at run time", () => {
  const BUILT = 'set(PoolStringArray(["t", "bl"]).join(""), self)'
  const throughTable = (...prep: ReadonlyArray<string>): ReadonlyArray<string> =>
    errors("extends Node", 'var m = "get_name"', "var tbl = {}", ...prep, "func _ready():", "\tprep()", '\ttbl.m = "execute"', '\tfuncref(OS, m).call_func("touch", ["/tmp/x"])')

  it("is no sealed Dictionary: a write through it is a write of self's member", () => {
    expect(throughTable("func prep():", `\t${BUILT}`)).toEqual(['9:2 error os-process funcref("execute")'])
    expect(throughTable(`func prep(_w = ${BUILT}):`, "\tpass")).toEqual(['9:2 error os-process funcref("execute")'])
    expect(throughTable(`var _w = ${BUILT}`, "func prep():", "\tpass")).toEqual(['10:2 error os-process funcref("execute")'])
    expect(throughTable("func prep():", "\tpass")).toEqual([])
  })

  it("in a member initialiser is a write by name the container members see: the constant table is not followed", () => {
    const source = ["extends Node", 'const TABLE = {"m": "get_name"}', "var tbl = {}", `var _w = ${BUILT}`, "func _ready():", '\tvar t = tbl.get(PoolStringArray(["TA", "BLE"]).join(""))', '\tt["m"] = "execute"', '\tfuncref(OS, TABLE["m"]).call_func("touch", ["/tmp/x"])']
    expect(errors(...source)).toEqual(["8:2 error dynamic-dispatch funcref(…)"])
  })
})
