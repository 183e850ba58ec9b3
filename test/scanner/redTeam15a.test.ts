// A fifteenth red team (a): a constant Dictionary reached by its name (`get("ACTIONS")`,
// `get_script_constant_map()["ACTIONS"]`, a name built at run time) can be changed in Godot 3, so its literal keys
// are no longer followed exactly then (gdscript/constantReads.ts); attackProjects37.ts runs the shapes in
// godot3-server. A read by the variable of a loop over a constant names only that constant's strings.
import { describe, expect, it } from "vitest"
import { hits3 } from "./support/analyze.ts"

const errorsOf = (body: ReadonlyArray<string>): ReadonlyArray<string> =>
  hits3(`${["extends Node", 'const ACTIONS = {"get_name": [], "get_ticks_msec": []}', "func _ready():", ...body, "\tfor action in ACTIONS:", "\t\tOS.callv(action, ACTIONS[action])"].join("\n")}\n`).filter((h) => h.includes(" error "))

describe("a constant reached by its name (red team 15a)", () => {
  it.each([
    ["get by its name", ['\tvar table = get("ACTIONS")', '\ttable["execute"] = []']],
    ["self subscript", ['\tvar table = self["ACTIONS"]', '\ttable["execute"] = []']],
    ["the script's constant map", ['\tvar table = get_script().get_script_constant_map()["ACTIONS"]', '\ttable["execute"] = []']],
    ["a name built at run time", ['\tvar n = "ACT" + "IONS"', '\tget(n)["execute"] = []']],
    ["a loop over a constant that holds the name", ['\tfor k in ["ACTIONS"]:', '\t\tget(k)["execute"] = []']],
  ])("%s: the dispatch on OS is an error", (_name, body) => {
    expect(errorsOf(body).map((h) => h.split(" ")[2])).toContain("dynamic-dispatch")
  })

  it("nothing reads it by name: the constant's keys are followed, no error", () => {
    expect(errorsOf(['\tprint(ACTIONS.size())'])).toEqual([])
  })

  it("a read by the variable of a loop over another constant of plain names keeps the keys followed", () => {
    const source = ["extends Node", 'const STATS = ["scale", "rotation"]', 'const ACTIONS = {"get_name": [], "get_ticks_msec": []}', "func _ready():", "\tvar p = Node2D.new()", "\tfor s in STATS:", "\t\tprint(p.get(s))", "\tfor action in ACTIONS:", "\t\tOS.callv(action, ACTIONS[action])"]
    expect(hits3(`${source.join("\n")}\n`).filter((h) => h.includes(" error "))).toEqual([])
  })
})

describe("a read by a built name whose value is kept (red team 15a)", () => {
  it.each([
    ["stored in an array", ["\tvar n = str(randi())", "\tvar a = []", "\ta.append(get(n))", '\ta[0]["execute"] = []']],
    ["handed to a function of the pack", ["\tvar n = str(randi())", "\tadd_to(get(n))"]],
    ["kept in a variable", ["\tvar n = str(randi())", "\tvar t = get(n)", '\tt["execute"] = []']],
  ])("%s: the constant is no longer followed", (_name, body) => {
    const source = ["extends Node", 'const ACTIONS = {"get_name": []}', "func add_to(d):", '\td["execute"] = []', "func _ready():", ...body, "\tfor action in ACTIONS:", "\t\tOS.callv(action, ACTIONS[action])"]
    expect(hits3(`${source.join("\n")}\n`).filter((h) => h.includes(" error ")).map((h) => h.split(" ")[2])).toContain("dynamic-dispatch")
  })

  it("a read by a built name that only goes into arithmetic or an engine method keeps the constant followed", () => {
    const source = ["extends Node", 'const ACTIONS = {"get_name": []}', "func _ready():", '\tvar p = "modulate"', "\tvar t = Tween.new()", "\tt.interpolate_property(self, p, get(p), 1.0, 0.3)", "\tprint(get(p) + 1)", "\tfor action in ACTIONS:", "\t\tOS.callv(action, ACTIONS[action])"]
    expect(hits3(`${source.join("\n")}\n`).filter((h) => h.includes(" error "))).toEqual([])
  })
})

describe("Dictionary reads beside a constant walked by its keys", () => {
  it("`d.get(k, default)` kept in a variable is a Dictionary's read (Object.get takes one argument): the constant stays followed", () => {
    const source = ["extends Node", 'const ACTIONS = {"get_name": []}', "var inventory = {}", "func count(item):", "\tvar n = inventory.get(item, 0)", "\treturn n", "func _ready():", "\tfor action in ACTIONS:", "\t\tOS.callv(action, ACTIONS[action])"]
    expect(hits3(`${source.join("\n")}\n`).filter((h) => h.includes(" error "))).toEqual([])
  })
})
