// The analysis side of what a ninth red team got past pckgate-scanner/11 (attackProjects19.ts holds the packs the
// engine ran): signals the engine wires to a FileDialog's or SpinBox's internal methods emitted from code, and
// synthesized input, in a pack that creates one; Godot 4's spellings and what stays clean.
import { describe, expect, it } from "vitest"
import { hitsIn } from "./support/analyze.ts"

const script = (...body: ReadonlyArray<string>): string => ["extends Node", "func _ready():", ...body.map((l) => `\t${l}`), ""].join("\n")
const errors = (found: ReadonlyArray<string>): ReadonlyArray<string> => found.filter((h) => h.split(" ")[1] === "error").map((h) => `${h.split(":")[0]} ${h.split(" ")[2]}`)

describe("driving an engine control's internal methods", () => {
  it.each([
    [3, 'c.emit_signal("text_entered", "/tmp/x")', "SpinBox"],
    [3, 'c.emit_signal("focus_exited")', "ColorPicker"],
    [3, "Input.parse_input_event(ev)", "FileDialog"],
    [3, "get_viewport().input(ev)", "FileDialog"],
    [3, "c._gui_input(ev)", "FileDialog"],
    [4, "c.text_submitted.emit(\"/tmp/x\")", "FileDialog"],
    [4, 'c.emit_signal("id_pressed", 0)', "FileDialog"],
    [4, "Input.parse_input_event(ev)", "SpinBox"],
    [4, "get_viewport().push_input(ev)", "FileDialog"],
  ] as const)("Godot %i: %s with a %s in the pack is an error", (grammar, call, cls) => {
    const found = hitsIn(script(`var d = ${cls}.new()`, "add_child(d)", "var ev = InputEventKey.new()", "for c in d.get_children():", `\t${call}`), {}, grammar)
    expect(errors(found)).toContain("7 engine-internal-method")
  })

  it("a control made by ClassDB.instance of a folded name counts", () => {
    const found = hitsIn(script('var d = ClassDB.instance("Spin" + "Box")', "for c in d.get_children():", '\tc.emit_signal("text_entered", "x")'), {}, 3)
    expect(errors(found)).toContain("5 engine-internal-method")
  })

  it("a script that extends FileDialog emitting its own confirmed is an error", () => {
    const found = hitsIn(["extends FileDialog", "func _ready():", '\temit_signal("confirmed")', ""].join("\n"), {}, 3)
    expect(errors(found)).toEqual(["3 engine-internal-method"])
  })

  it.each([3, 4] as const)("Godot %i: without such a control, the same code and the game's own signals stay clean", (grammar) => {
    const found = hitsIn(script("var b = $Button", 'b.emit_signal("pressed")', "for c in get_children():", '\tc.emit_signal("confirmed")', "\tc.emit_signal(\"text_entered\", \"x\")", "Input.parse_input_event(InputEventAction.new())"), {}, grammar)
    expect(errors(found)).toEqual([])
  })

  it("with a FileDialog, the game's own signals on self and its own objects stay clean", () => {
    const found = hitsIn(
      ["extends Node", "signal confirmed", "var fd = FileDialog.new()", "func _ready():", '\temit_signal("confirmed")', '\tfd.connect("file_selected", self, "_on_file")', "\tfd.popup_centered()", "func _on_file(p):", "\tprint(p)", ""].join("\n"),
      {},
      3,
    )
    expect(errors(found)).toEqual([])
  })
})
