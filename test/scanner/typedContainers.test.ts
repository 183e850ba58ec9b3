// A variable typed as a container (`: Dictionary`, `: Array`) still holds what it was given: data read at run time
// stays that through the type (a fourteenth red team's fixer found `var items: Dictionary = parse_json(text from
// user://)` then `load(items["icon"])` only a warning, where the untyped variable is an error). attackProjects35.ts
// runs the typed local in godot3-server.
import { describe, expect, it } from "vitest"
import { hits3 } from "./support/analyze.ts"

const READ = ["extends Node", "func read():", "\tvar f = File.new()", '\tf.open("user://save.json", File.READ)']
const loadsOf = (source: ReadonlyArray<string>): ReadonlyArray<string> => hits3(`${source.join("\n")}\n`).filter((h) => h.includes("runtime-code-loading"))

describe("typed containers keep the run-time data they are given", () => {
  it.each([
    ["a typed Dictionary local", [...READ, "\tvar items: Dictionary = parse_json(f.get_as_text())", '\tload(items["a"]["icon"])']],
    ["a typed Array local", [...READ, "\tvar items: Array = parse_json(f.get_as_text())", "\tload(items[0])"]],
    ["a JSON.parse result typed Dictionary", [...READ, "\tvar items: Dictionary = JSON.parse(f.get_as_text()).result", '\tload(items["a"])']],
    ["a split line typed PoolStringArray", [...READ, '\tvar parts: PoolStringArray = f.get_line().split(",")', "\tload(parts[1])"]],
  ])("%s: the load is an error", (_name, source) => {
    expect(loadsOf(source)).toEqual([`${source.length}:7 error runtime-code-loading load(…)`])
  })

  it("a member typed Dictionary given JSON from user:// in its class: the load elsewhere is an error", () => {
    const source = ["extends Node", "var items: Dictionary", "func read():", "\tvar f = File.new()", '\tf.open("user://save.json", File.READ)', "\titems = parse_json(f.get_as_text())", "func use():", '\tload(items["a"])']
    expect(loadsOf(source)).toEqual(["8:7 error runtime-code-loading load(…)"])
  })

  it("a typed Dictionary of the game's own constants stays a warning, and writing into a typed parameter is no script write", () => {
    const own = ["extends Node", "func use(k):", '\tvar items: Dictionary = {"a": "res://a.png"}', "\tload(items[k])"]
    expect(loadsOf(own).every((h) => h.includes(" warning "))).toBe(true)
    const param = ["extends Node", "func add(d: Dictionary, k, v):", "\td[k] = v"]
    expect(hits3(`${param.join("\n")}\n`).filter((h) => h.includes(" error "))).toEqual([])
  })
})
