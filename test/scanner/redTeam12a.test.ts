// The analysis side of what a twelfth red team (a) got past the scanner (attackProjects24.ts holds the packs
// godot3-server ran): propagate_call reaching a SpinBox's internal LineEdit below its receiver
// (scene/main/node.cpp Node::propagate_call walks every child; the LineEdit is a plain child in 3.x, an internal
// one in 4.x, which the walk includes too).
import { describe, expect, it } from "vitest"
import { hitsIn } from "./support/analyze.ts"

const script = (...body: ReadonlyArray<string>): string => ["extends Node", "func _ready():", ...body.map((l) => `\t${l}`), ""].join("\n")
const errors = (found: ReadonlyArray<string>): ReadonlyArray<string> => found.filter((h) => h.split(" ")[1] === "error").map((h) => `${h.split(":")[0]} ${h.split(" ")[2]}`)
const withSpinBox = (...body: ReadonlyArray<string>): string => script("var sb = SpinBox.new()", "add_child(sb)", 'var f = File.new()', ...body)

describe("propagate_call reaching a SpinBox's LineEdit", () => {
  const edits = (grammar: 3 | 4): ReadonlyArray<string> => [
    'sb.propagate_call("set_text", [f.get_as_text()])',
    'propagate_call("set", ["text", f.get_as_text()])',
    '$Panel.propagate_call("call", ["set_text", f.get_as_text()])',
    'get_parent().propagate_call("set_" + "text", [f.get_as_text()])',
    `sb.propagate_call("${grammar === 3 ? "append_at_cursor" : "insert_text_at_caret"}", ["2"])`,
    'sb.propagate_call("menu_option", [LineEdit.MENU_PASTE])',
    "sb.propagate_call(f.get_line(), [\"x\"])",
  ]
  it("a text set or edited through propagate_call, on any node, is an expression error; without a SpinBox in the pack it is not", () => {
    for (const grammar of [3, 4] as const) {
      for (const line of edits(grammar)) {
        expect(errors(hitsIn(withSpinBox(line), {}, grammar)), line).toContain("6 expression")
        const without = errors(hitsIn(withSpinBox(line).replace("SpinBox.new()", "Control.new()"), {}, grammar))
        expect(without.filter((e) => e.endsWith(" expression")), line).toEqual([])
      }
    }
  })

  it("a number set through propagate_call and calls that write no text stay clean", () => {
    for (const grammar of [3, 4] as const) {
      for (const line of ['sb.propagate_call("set_text", ["42"])', 'propagate_call("queue_free")', 'sb.propagate_call("set_process", [false])', 'propagate_call("menu_option", [LineEdit.MENU_CLEAR])']) {
        expect(errors(hitsIn(withSpinBox(line), {}, grammar)), line).toEqual([])
      }
    }
  })
})
