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

// B3: scene/main/node.cpp set_meta/get_meta keep the object given; core/os/os.cpp get_environment gives any text of
// the machine's environment, which FileAccess and DirAccess take as an absolute path (godot3-server 3.2.3 wrote
// ConfigFile.save and Directory.make_dir there, beside a pack class with save(path) and make_dir(name)).
describe("file writes on receivers the analysis lost, beside a pack class's namesake methods", () => {
  const saveGame = ["extends Reference", "class_name SaveGame", "func save(path):", "\tpass", "func make_dir(name):", "\tpass", "func remove(i):", "\tpass", ""].join("\n")
  const main = (...body: ReadonlyArray<string>): string => ["extends Node", "var slots = []", "var by = {}", "func _ready():", "\tvar f = File.new()", ...body.map((l) => `\t${l}`), ""].join("\n")
  const found = (...body: ReadonlyArray<string>): ReadonlyArray<string> => hitsIn(main(...body), { "res://save_game.gd": saveGame }, 3).map((h) => h.split(" ").slice(0, 3).join(" "))

  it("a path from the environment or the command line is an error on a receiver of unknown class, a namesake notwithstanding", () => {
    for (const path of ['OS.get_environment("HOME") + "/x"', 'OS.get_cmdline_args()[0]', '"saves/".plus_file(OS.get_environment("SLOT"))', '"%s/x" % OS.get_environment("HOME")']) {
      expect(found('var c = get_meta("lost")', `c.save(${path})`), path).toEqual(["7:2 error filesystem-outside-sandbox"])
    }
    // Directory.remove fixes a relative path against its open folder: only a path that may be absolute is outside.
    for (const path of ['OS.get_environment("HOME") + "/x"', "OS.get_cmdline_args()[0]"]) {
      expect(found('var c = get_meta("lost")', `c.remove(${path})`), path).toEqual(["7:2 error filesystem-outside-sandbox"])
    }
    // A path read from a file keeps the namesake's warning; a user:// path on the pack's class is clean.
    expect(found('var c = get_meta("lost")', "c.save(f.get_line())")).toEqual(["7:2 warning filesystem-outside-sandbox"])
    expect(found('set_meta("g", SaveGame.new())', 'get_meta("g").save("user://s.json")')).toEqual([])
  })

  it("set_meta/get_meta with a constant key on self and a container's elements carry the engine class put there", () => {
    expect(found('set_meta("cfg", ConfigFile.new())', 'get_meta("cfg").save(f.get_line())')).toEqual(["7:2 error filesystem-outside-sandbox"])
    expect(found('set_meta("cfg", ConfigFile.new())', 'self.get_meta("cfg").save(f.get_line())')).toEqual(["7:2 error filesystem-outside-sandbox"])
    expect(found("var d = Directory.new()", "slots.append(d)", "slots[0].make_dir(f.get_line())")).toEqual(["8:2 error filesystem-outside-sandbox"])
    expect(found('by["d"] = Directory.new()', 'by["d"].make_dir(f.get_line())')).toEqual(["7:2 error filesystem-outside-sandbox"])
    expect(found("var a = []", "a.push_back(Directory.new())", "a[0].make_dir(f.get_line())")).toEqual(["8:2 error filesystem-outside-sandbox"])
    // Another key, or a meta of another object, is not followed: the namesake's warning.
    expect(found('set_meta("cfg", ConfigFile.new())', 'get_meta("other").save(f.get_line())')).toEqual(["7:2 warning filesystem-outside-sandbox"])
  })
})
