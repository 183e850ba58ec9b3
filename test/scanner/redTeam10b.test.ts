// The analysis side of what a tenth red team (b) got past pckgate-scanner/12 (attackProjects20.ts holds the packs
// godot3-server ran): what exists only in Godot 4 or on Android, built with the test's pack writer or analysed as
// source, each test naming the engine source that shows the behaviour; and the SpinBox text rule's shapes.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { evaluatedTexts } from "../../adapters/scanner/gdscript/spinBoxText.ts"
import { hitsIn } from "./support/analyze.ts"
import { scan4 } from "./support/scan.ts"

const script = (...body: ReadonlyArray<string>): string => ["extends Node", "func _ready():", ...body.map((l) => `\t${l}`), ""].join("\n")
const errors = (found: ReadonlyArray<string>): ReadonlyArray<string> => found.filter((h) => h.split(" ")[1] === "error").map((h) => `${h.split(":")[0]} ${h.split(" ")[2]}`)

describe("Godot 4: restarting the engine with any arguments", () => {
  // core/core_bind.cpp:691 binds OS.set_restart_on_exit(restart, arguments); main/main.cpp:4679-4681, at exit,
  // `if (OS::get_singleton()->is_restart_on_exit_set())` starts OS::create_instance(get_restart_on_exit_arguments()):
  // a new engine with `--main-pack user://…`, `--script …`. OS.open_with_program (Godot 4.5, godotengine/godot#107113)
  // defers to create_process.
  it("set_restart_on_exit and open_with_program are os-process, by name, by dispatch and on an object of any class", async () => {
    const source = script(
      'OS.set_restart_on_exit(true, ["--main-pack", OS.get_user_data_dir() + "/update.pck"])', // 3
      'OS.open_with_program("/bin/sh", ["-c", "x"])', // 4
      'OS.call("set_restart_on_exit", true)', // 5
      "instance_from_id(n).set_restart_on_exit(true)", // 6
      "print(OS.get_name(), OS.is_restart_on_exit_set(), OS.get_restart_on_exit_arguments())", // 7
      "get_tree().quit()", // 8
    ).replace("extends Node", "extends EngineGame")
    expect(await scan4(source)).toEqual(["res://main.gd:3 error os-process", "res://main.gd:4 error os-process", "res://main.gd:5 error os-process", "res://main.gd:6 error os-process"])
  })
})

describe("Android's Java bridge", () => {
  // platform/android/api/api.cpp registers JNISingleton, JavaClass, JavaObject, JavaClassWrapper and the
  // JavaClassWrapper singleton (3.5 and 4.x); java_class_wrapper.cpp calls any method of the wrapped Java class
  // (`JavaClassWrapper.wrap("java.lang.Runtime").getRuntime().exec(…)`). 4.x's built-in AndroidRuntime plugin
  // (platform/android/java/lib/src/…/plugin/AndroidRuntimePlugin.kt) hands out the activity and the context.
  it.each([3, 4] as const)("Godot %i: every name of it is java-bridge, also fetched by name", (grammar) => {
    const found = hitsIn(
      script(
        'var rt = JavaClassWrapper.wrap("java.lang.Runtime")', // 3
        'rt.getRuntime().exec("touch /sdcard/x")', // 4
        'var w = Engine.get_singleton("JavaClass" + "Wrapper")', // 5
        'var a = Engine.get_singleton("AndroidRuntime")', // 6
        "if a is JavaObject or a is JNISingleton or a is JavaClass:", // 7
        "\tpass",
      ),
      {},
      grammar,
    )
    expect(errors(found)).toEqual(["3 java-bridge", "5 java-bridge", "6 java-bridge", "7 java-bridge", "7 java-bridge", "7 java-bridge"])
  })

  it("an Android plugin's singleton by a constant name is an object of that class: its own calls are not judged, a name that is not constant is dynamic-dispatch", () => {
    const found = hitsIn(script('var billing = Engine.get_singleton("GodotGooglePlayBilling")', "billing.startConnection()", "billing.call(action)"), {}, 4)
    expect(errors(found)).toEqual(["5 dynamic-dispatch"])
  })
})

describe("Godot 3.5 BakedLightmap saves where it is told", () => {
  // scene/3d/baked_lightmap.cpp of 3.5.1: bake(from_node, data_save_path) ends with ResourceSaver::save(p_data_save_path,
  // data) (~1110) and, without one, saves into image_path ("BakedLightmap.lmbake", ~597-603).
  it("bake's data_save_path and image_path outside user:// are errors, user:// is fine", () => {
    const found = hitsIn(
      script(
        "var bl = BakedLightmap.new()", // 3
        'bl.image_path = "res://../../../tmp"', // 4
        'bl.bake(self, "/tmp/x.lmbake")', // 5
        'bl.bake(self, "user://light.lmbake")', // 6
        'bl.image_path = "user://lightmaps"', // 7
        'get_meta("baker").bake(self, "res://../x.lmbake")', // 8
      ),
      {},
      3,
    )
    expect(errors(found)).toEqual(["4 filesystem-outside-sandbox", "5 filesystem-outside-sandbox", "8 filesystem-outside-sandbox"])
  })
})

describe("text written into a SpinBox's LineEdit", () => {
  const withSpinBox = (...body: ReadonlyArray<string>): string => script("var sb = SpinBox.new()", "add_child(sb)", "var le = sb.get_line_edit()", "var f = FileAccess.open(\"user://t.txt\", FileAccess.READ)", ...body)

  // scene/gui/spin_box.cpp of 4.x: _text_submitted evaluates the text with Expression (utility functions such as
  // str_to_var run whatever const_calls_only says: core/math/expression.cpp TYPE_BUILTIN_FUNC), on apply(), on
  // editing_toggled off, and on text_changed when update_on_text_changed is on.
  it("Godot 4: insert_text_at_caret, delete_text and a pasting menu_option are errors, emitting text_changed drives the box", () => {
    const found = hitsIn(withSpinBox('le.insert_text_at_caret("2")', "le.delete_char_at_caret()", "le.menu_option(LineEdit.MENU_PASTE)", "le.menu_option(LineEdit.MENU_UNDO)", 'le.text_changed.emit("x")', "sb.apply()"), {}, 4)
    expect(errors(found)).toEqual(["7 expression", "8 expression", "9 expression", "11 engine-internal-method"])
  })

  it("Godot 4: a constant text is judged as the Expression it is, with the decimal-comma form the box evaluates", async () => {
    const source = withSpinBox('le.text = "str_to_var(\\"Resource(\\\\\\"user://x.tres\\\\\\")\\")"', 'le.text = "1,5"', "sb.apply()").replace("extends Node", "extends EngineGame")
    expect((await scan4(source)).filter((l) => l.includes("error"))).toEqual(["res://main.gd:7 error object-deserialization"])
    expect(evaluatedTexts("max(1,5;2)", 4)).toEqual(["max(1,5;2)", "max(1.5,2)"])
    expect(evaluatedTexts("max(1,5;2)", 3)).toEqual(["max(1,5;2)"])
  })

  // What may be the box's internal LineEdit (spinBoxText.ts reachesLineEdit): scene/gui/spin_box.cpp adds it as a
  // child (4.x an internal one), scene/main/node.cpp names it `@@<n>` (3.x) / `@LineEdit@<n>` (4.x) and finds it
  // by find_node / find_child only when `owned` is false (the engine gives it no owner).
  const reaching = (grammar: 3 | 4): ReadonlyArray<string> => [
    "sb.get_line_edit()",
    "le",
    "get_node(path)",
    '$"Box/@@4"',
    grammar === 3 ? "sb.get_child(0)" : "sb.get_child(0, true)",
    grammar === 3 ? "sb.get_children()[0]" : "sb.get_children(true)[0]",
    'sb.find_node("E*", true, false)',
    grammar === 3 ? "get_focus_owner()" : "get_viewport().gui_get_focus_owner()",
    "[le, 1][0]",
    "weakref(le).get_ref()",
    "(le as LineEdit)",
  ]
  // What cannot be: a constant path without @, a group, the box's parent, owned nodes only, 4.x's children without
  // the internal ones (3.x `get_child(0)` on self may be: a script extending Node may be on a SpinBox).
  const clean = (grammar: 3 | 4): ReadonlyArray<string> => [
    "$Box/Edit",
    'get_node("HUD/Label")',
    'get_tree().get_nodes_in_group("labels")[0]',
    "sb.get_parent()",
    'find_node("Score")',
    ...(grammar === 4 ? ["get_child(0)", "sb.get_child(0)", "sb.get_children()[0]"] : []),
  ]
  const writes = [(r: string, v: string) => `${r}.text = ${v}`, (r: string, v: string) => `${r}.set_text(${v})`, (r: string, v: string) => `${r}.set("text", ${v})`, (r: string, v: string) => `${r}.call("set_text", ${v})`, (r: string, v: string) => `${r}["text"] = ${v}`] as const
  /** Checks `check` on a write of text read from a file, in any of the ways, to any receiver of `receivers` for the grammar. */
  const everyWrite = (receivers: (grammar: 3 | 4) => ReadonlyArray<string>, check: (grammar: 3 | 4, line: string) => void): void => {
    const cases = fc.constantFrom(3 as const, 4 as const).chain((g) => fc.tuple(fc.constant(g), fc.constantFrom(...receivers(g))))
    fc.assert(
      fc.property(cases, fc.constantFrom(...writes), ([grammar, recv], write) => {
        check(grammar, write(recv, "f.get_as_text()"))
      }),
      { numRuns: 80 },
    )
  }

  it("text that is not constant, written any way to what may be the box's LineEdit, is an expression error; without a SpinBox in the pack it is not", () => {
    everyWrite(reaching, (grammar, line) => {
      expect(errors(hitsIn(withSpinBox(line), {}, grammar))).toContain("7 expression")
      const without = errors(hitsIn(withSpinBox(line).replace("SpinBox.new()", "Control.new()"), {}, grammar))
      expect(without.filter((e) => e.endsWith(" expression"))).toEqual([])
    })
  })

  it("a string of the script that happens to read \"*\" does not stand for ClassDB.instance: the pack still has no SpinBox", () => {
    everyWrite(reaching, (grammar, line) => {
      const withoutBox = withSpinBox(line).replace("SpinBox.new()", "Control.new()")
      expect(errors(hitsIn(`${withoutBox}\tprint(find_node("*"))\n`, {}, grammar)).filter((e) => e.endsWith(" expression"))).toEqual([])
      expect(errors(hitsIn(`${withoutBox}\tprint(ClassDB.instance(str(1)))\n`, {}, grammar))).toContain("7 expression")
    })
  })

  it("text written to a node that cannot be the box's LineEdit stays clean in a pack with a SpinBox", () => {
    everyWrite(clean, (grammar, line) => {
      expect(errors(hitsIn(withSpinBox(line), {}, grammar))).toEqual([])
    })
  })

  it("the LineEdit is followed through containers, members, parameters and typed variables; a helper given only constant paths stays clean", () => {
    for (const grammar of [3, 4] as const) {
      const source = [
        "extends Node",
        "var edits = []", // 2
        "var kept",
        "func _ready():", // 4
        "	var sb = SpinBox.new()",
        "	add_child(sb)",
        '	var f = FileAccess.open("user://t.txt", FileAccess.READ)',
        "	var t = f.get_as_text()", // 8
        "	edits.append(sb.get_line_edit())",
        "	for e in edits:", // 10
        "		e.text = t",
        "	var d = {}", // 12
        '	d["e"] = sb.get_line_edit()',
        '	d["e"].text = t', // 14
        "	kept = sb.get_line_edit()",
        "	kept.insert_text_at_caret(t)", // 16
        "	var typed: LineEdit = sb.get_line_edit()",
        "	typed.text = t", // 18
        "	put(sb.get_line_edit(), t)",
        "	show($Score, t)", // 20
        '	show(get_node("HUD/Label"), tr("KEY") % 3)',
        "	$Score.text = str(t)", // 22
        "",
        "func put(target, msg):", // 24
        "	target.text = msg",
        "",
        "func show(label, msg):", // 27
        "	label.text = msg",
        "",
      ].join("\n")
      expect(errors(hitsIn(source, {}, grammar))).toEqual(["11 expression", "14 expression", ...(grammar === 4 ? ["16 expression"] : []), "18 expression", "25 expression"])
    }
  })

  it("renaming or re-homing what may be the box's LineEdit is an error; renaming a node by a constant path is not", () => {
    for (const grammar of [3, 4] as const) {
      const found = hitsIn(withSpinBox('le.name = "Edit"', 'sb.get_line_edit().set_name("Edit")', "le.owner = self", 'le.add_to_group("edits")', "$Box.add_child(le)", '$Label.name = "Score"', "add_child(sb)"), {}, grammar)
      expect(errors(found)).toEqual(["7 expression", "8 expression", "9 expression", "10 expression", "11 expression"])
    }
  })

  it("children walks: an error on what may be a SpinBox (3.x; 4.x only with include_internal), clean on a typed container", () => {
    const walk = (recv: string, args = "") => `for b in ${recv}.get_children(${args}):\n\t\tb.text = tr(b.name)`
    const typed = 'var buttons: VBoxContainer = $Buttons'
    expect(errors(hitsIn(withSpinBox(walk("$Buttons")), {}, 3))).toEqual(["8 expression"])
    expect(errors(hitsIn(withSpinBox(walk("$Buttons")), {}, 4))).toEqual([])
    expect(errors(hitsIn(withSpinBox(walk("$Buttons", "true")), {}, 4))).toEqual(["8 expression"])
    for (const grammar of [3, 4] as const) expect(errors(hitsIn(withSpinBox(typed, walk("buttons", grammar === 4 ? "true" : "")), {}, grammar))).toEqual([])
  })

  it("numbers, a cleared box, apply() and typed labels stay clean", () => {
    for (const grammar of [3, 4] as const) {
      const found = hitsIn(withSpinBox('le.text = "42"', 'le.set_text("-7.5")', "le.clear()", "sb.value = 3", "sb.apply()", "var l: Label = $Score", 'l.text = "Score: %d" % score', "l.text = f.get_as_text()", "print(OS.get_name())"), {}, grammar)
      expect(errors(found)).toEqual([])
    }
  })
})
