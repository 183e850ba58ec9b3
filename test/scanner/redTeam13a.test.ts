// The analysis side of what a thirteenth red team (a) got past the scanner (attackProjects25.ts holds the packs
// godot3-server ran): a method name that is not constant, on the pack's own object whose class extends an engine
// class, may be any method of that class a rule names (ConfigFile.save and load, Image.save_png, File.open).
import { describe, expect, it } from "vitest"
import { hitsIn } from "./support/analyze.ts"

const errors = (found: ReadonlyArray<string>): ReadonlyArray<string> => found.filter((h) => h.split(" ")[1] === "error").map((h) => `${h.split(":")[0]} ${h.split(" ")[2]}`)
/** A class extending `base` whose line 4 calls on itself by a name read from a file, with `args`. */
const dispatcher = (base: string, args: string, grammar: 3 | 4): string =>
  [`extends ${base}`, "func go(where):", `\tvar f = ${grammar === 3 ? "File.new()" : "FileAccess.open(\"user://k.txt\", FileAccess.READ)"}`, `\tcall(f.get_line()${args})`, ""].join("\n")

describe("a method name that is not constant on a pack class extending an engine class", () => {
  it("is judged as that class's own methods a rule names, with the call's arguments", () => {
    const cases: ReadonlyArray<readonly [string, string, string]> = [
      ["ConfigFile", ', "/tmp/x"', "4 filesystem-outside-sandbox"],
      ["ConfigFile", ', "user://settings.cfg"', "4 config-file-objects"],
      ["ConfigFile", ", where", "4 config-file-objects"],
      ["Image", ', "/tmp/x.png"', "4 filesystem-outside-sandbox"],
    ]
    for (const grammar of [3, 4] as const) {
      for (const [base, args, expected] of cases) expect(errors(hitsIn(dispatcher(base, args, grammar), {}, grammar)), `${grammar} ${base}${args}`).toContain(expected)
    }
  })

  it("a class extending Reference or Node with a user:// path, and constant names on a ConfigFile, stay as before", () => {
    for (const grammar of [3, 4] as const) {
      for (const base of ["Reference", "Node", "Resource"]) {
        if (grammar === 4 && base === "Reference") continue
        expect(errors(hitsIn(dispatcher(base, ', "user://settings.cfg"', grammar), {}, grammar)), `${grammar} ${base}`).toEqual([])
      }
      const constant = ["extends ConfigFile", 'const SAVE = "save"', "func keep():", '\tcall(SAVE, "user://settings.cfg")', '\tcall("clear")', ""].join("\n")
      expect(errors(hitsIn(constant, {}, grammar)), `${grammar} constant`).toEqual([])
    }
  })
})

describe("arguments the engine's calls by name hand to the pack's own function", () => {
  /** Reads a path from user://, hands it to h by `hand`; h loads it (line 7). */
  const handing = (hand: string, grammar: 3 | 4): string =>
    ["extends Node", "func _ready():", `\tvar f = ${grammar === 3 ? 'File.new()\n\tf.open("user://p.txt", File.READ)' : 'FileAccess.open("user://p.txt", FileAccess.READ)'}`, "\tvar txt = f.get_line()", `\t${hand}`, "func h(p):", "\tload(p).new()", ""].join("\n")
  const lineOfLoad = (text: string): string => String(text.split("\n").findIndex((l) => l.includes("load(p)")) + 1)

  it("a path read at run time passed on by Thread.start, UndoRedo, a Tween, groups, propagate_call or a connection's binds is a runtime-code-loading error in the function", () => {
    const godot3 = [
      'Thread.new().start(self, "h", txt)',
      'UndoRedo.new().add_do_method(self, "h", txt)',
      'Tween.new().interpolate_callback(self, 0.05, "h", txt)',
      'get_tree().call_group("g", "h", txt)',
      'get_tree().call_group_flags(0, "g", "h", txt)',
      'propagate_call("h", [txt])',
      'get_tree().create_timer(0.05).connect("timeout", self, "h", [txt])',
    ]
    const godot4 = ['get_tree().call_group("g", "h", txt)', 'get_tree().call_group_flags(0, "g", "h", txt)', 'propagate_call("h", [txt])']
    for (const [grammar, lines] of [[3, godot3], [4, godot4]] as const) {
      for (const hand of lines) {
        const text = handing(hand, grammar)
        expect(errors(hitsIn(text, {}, grammar)), `${grammar} ${hand}`).toContain(`${lineOfLoad(text)} runtime-code-loading`)
      }
    }
  })

  it("a res:// path of the pack handed the same way is no error", () => {
    for (const hand of ['Thread.new().start(self, "h", "res://main.gd")', 'get_tree().create_timer(0.05).connect("timeout", self, "h", ["res://main.gd"])']) {
      expect(errors(hitsIn(handing(hand, 3), {}, 3)), hand).toEqual([])
    }
  })
})

describe("a 3.x connection to an engine method by a constant name", () => {
  const cfg = (...body: ReadonlyArray<string>): string => ["extends ConfigFile", "signal s", "func go(t):", ...body.map((l) => `\t${l}`), ""].join("\n")

  it("is judged with its binds after the emitted arguments, and at each emission with the emitted arguments", () => {
    expect(errors(hitsIn(cfg('connect("s", self, "save", ["/tmp/x"])', 'emit_signal("s")'), {}, 3))).toContain("4 filesystem-outside-sandbox")
    expect(errors(hitsIn(cfg('connect("s", self, "save")', 'emit_signal("s", "/tmp/x")'), {}, 3))).toContain("5 filesystem-outside-sandbox")
    const local = ["extends Node", "func _ready():", "\tvar c = ConfigFile.new()", '\tc.connect("s", c, "save", ["/tmp/x"])', '\tc.emit_signal("s")', ""].join("\n")
    expect(errors(hitsIn(local, {}, 3))).toContain("4 filesystem-outside-sandbox")
  })

  it("a bind after an emitted argument is judged in its place; user:// paths and the pack's own handlers stay clean", () => {
    // emit_signal("s", t) puts t first: the bound "/tmp/x" is save's second argument, no path.
    expect(errors(hitsIn(cfg('connect("s", self, "save", ["/tmp/x"])', 'emit_signal("s", "user://a.cfg")'), {}, 3)).filter((e) => e.startsWith("5 "))).toEqual([])
    const own = `${cfg('connect("s", self, "save", ["user://a.cfg"])', 'emit_signal("s")', 'connect("s", self, "on_s", ["/tmp/x"])')}func on_s(p):\n\tprint(p)\n`
    expect(errors(hitsIn(own, {}, 3))).toEqual([])
  })
})
