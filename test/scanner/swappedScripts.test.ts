// A hundred-and-eighteenth red team's (attackProjects143.ts, run by godot3-server): an object made of one class of the
// pack and given another script (`o.set_script(B)`) answers `o.M` from the script attached then (Object::get asks
// GDScriptInstance::get of the current script), also when set_script is reached by a name built at run time
// (`o.call("set_" + s, B)`, `callv`, a connection's bind) that never spells `set_script` or `script`.
import { describe, expect, it } from "vitest"
import { hits3 } from "./support/analyze.ts"

const SCRIPTS = {
  "res://attack/a.gd": 'extends Reference\nconst M = "get_name"\n',
  "res://attack/b.gd": 'extends Reference\nconst M = "execute"\n',
}
const swapped = (...swap: ReadonlyArray<string>): string =>
  [
    "extends Node",
    'const A = preload("res://attack/a.gd")',
    'const B = preload("res://attack/b.gd")',
    "signal go",
    "func _ready():",
    "\tvar o: A = A.new()",
    '\tvar s = char(115) + "cript"',
    ...swap.map((l) => `\t${l}`),
    "\tvar m = o.M",
    "\tOS.call(m)",
    "",
  ].join("\n")
const line = (swap: ReadonlyArray<string>): number => 9 + swap.length - 1

describe("an object of the pack given another script", () => {
  it.each([
    [["o.set_script(B)"]],
    [['o.call("set_" + s, B)']],
    [['o.call_deferred("set_" + s, B)']],
    [['o.callv("set_" + s, [B])']],
    [['connect("go", o, "set_" + s, [B])', 'emit_signal("go")']],
  ])("answers its members from any script of the pack after %j", (swap) => {
    expect(hits3(swapped(...swap), SCRIPTS)).toContain(`${line(swap) + 1}:2 error os-process OS.call("execute")`)
  })

  it("keeps its own class's members where nothing can attach a script (the argument handed on is no script)", () => {
    expect(hits3(swapped("pass"), SCRIPTS)).toEqual([])
    expect(hits3(swapped('o.call("set_" + s, "x")'), SCRIPTS)).toEqual([])
    expect(hits3(swapped('connect("go", o, "set_" + s, [1])'), SCRIPTS).filter((h) => h.includes(" error "))).toEqual([])
  })

  it("attaches nothing through a dispatch whose name is known not to be a setter's (a hundred-and-twentieth red team's control)", () => {
    const main = ["extends Node", "func _ready():", '\tvar holder = preload("res://attack/a.gd").new()', '\tOS.call(holder.M, "touch", ["/tmp/x"])', ""].join("\n")
    expect(hits3(main, SCRIPTS)).toEqual([])
    expect(hits3(main.replace("holder.M", "holder.M + str(randi())"), SCRIPTS)).toEqual(["4:2 error dynamic-dispatch OS.call(…)"])
  })
})
