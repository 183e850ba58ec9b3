// A hundred-and-twelfth and a hundred-and-thirteenth hunt's state machines: a helper holding its owner in an untyped
// member calls `owner.call("_state_" + s)`. In 3.x no engine class has a method starting `_state_` (every `_` method
// of the engine binary is in engine-script-names.json), so the call reaches only the pack's own methods, which are
// judged where they are written; a start some engine method has stays an error.
import { describe, expect, it } from "vitest"
import { hits3, hitsIn } from "./support/analyze.ts"

const machine = (name: string): string =>
  ["extends Node", "class SM:", "\tvar o", "\tfunc _init(x):", "\t\to = x", "\tfunc go(s):", `\t\to.call(${name})`, "func _ready():", "\tvar f = File.new()", '\tf.open("user://s.txt", File.READ)', "\tSM.new(self).go(f.get_line())", "func _on_state_idle():", "\tpass", ""].join("\n")

const errorsAt = (found: ReadonlyArray<string>): ReadonlyArray<string> => found.filter((h) => h.includes(" error ")).map((h) => h.split(" ").slice(0, 3).join(" "))

describe("a method named after a start no engine method has, on an object of unknown class", () => {
  it("reaches only the pack's methods in 3.x: no error", () => {
    expect(errorsAt(hits3(machine('"_on_state_" + s')))).toEqual([])
    expect(errorsAt(hits3(machine('"_on_state_%s" % s')))).toEqual([])
  })

  it("a start an engine method has, no start, or one without `_`, stays an error", () => {
    for (const name of ['"_" + s', '"_ge" + s', '"_ready" + s', "s", '"on_state_" + s']) expect(errorsAt(hits3(machine(name)))).toEqual(["7:3 error dynamic-dispatch"])
  })

  it("in 4.x, whose engine methods the table does not list, stays an error", () => {
    expect(errorsAt(hitsIn(machine('"_on_state_" + s'), {}, 4))).toEqual(["7:3 error dynamic-dispatch"])
  })

  it("reaches, of the pack's functions, only those with that start: the others keep what their calls give", () => {
    // hit_brick(0) alone calls it: its `bricks[i]` reads by a number, not by a name, so the table stays followed.
    const both = [
      "extends Node",
      'const HANDLERS = {0: "_power_wide"}',
      "var bricks = []",
      "var host",
      "func _ready():",
      "\thost = self",
      "\thit_brick(0)",
      "func tick(s):",
      '\thost.call("_state_" + s)',
      "func hit_brick(i):",
      "\tvar b = bricks[i]",
      "\tb.hp -= 1",
      "func apply(kind):",
      "\tvar method = HANDLERS[kind]",
      '\tget_tree().create_timer(1.0).connect("timeout", self, method + "_end")',
      "func _power_wide_end():",
      "\tpass",
      "func _state_idle():",
      "\tpass",
      "",
    ].join("\n")
    expect(errorsAt(hits3(both))).toEqual([])
    // A start that hit_brick has may reach it with any key, on a member that may be an object (untyped, no literal start).
    const hit = both.replace('"_state_" + s', '"hit_" + s')
    expect(errorsAt(hits3(hit.replace("var bricks = []", "var bricks")))).toEqual(["9:2 error dynamic-dispatch", "15:2 error dynamic-dispatch"])
    // Since /59 a member only ever holding an Array is no object: any key reads an element (containerMembers.ts).
    expect(errorsAt(hits3(hit))).toEqual([])
  })
})
