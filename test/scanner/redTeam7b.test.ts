// The analysis side of what a seventh red team got past pckgate-scanner/9 (attackProjects12.ts holds the packs
// the engine ran): engine-internal bound methods, FileDialog access to the whole disk, nodes of a group and
// children being nodes. Pure analysis on source text: no engine runs here.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { hitsIn } from "./support/analyze.ts"

const script = (...body: ReadonlyArray<string>): string => ["extends Node", "func _ready():", ...body.map((l) => `\t${l}`), ""].join("\n")
const withSeverity = (found: ReadonlyArray<string>, severity: string): ReadonlyArray<string> => found.filter((h) => h.split(" ")[1] === severity).map((h) => `${h.split(":")[0]} ${h.split(" ")[2]}`)

describe("engine-internal-method", () => {
  it.each([3, 4] as const)("an engine class's internal bound method on an engine object is an error, also by a constant name (Godot %i)", (grammar) => {
    const name = grammar === 3 ? "_make_dir_confirm" : "_set_data"
    const cls = grammar === 3 ? "FileDialog" : "Resource"
    const found = hitsIn(script(`var o = ${cls}.new()`, `o.${name}()`, `o.call("${name}")`, `o.callv("${"_"}" + "${name.slice(1)}", [])`), {}, grammar)
    expect(withSeverity(found, "error")).toEqual(["4 engine-internal-method", "5 engine-internal-method", "6 engine-internal-method"])
  })

  it("bare in a script of an engine class, or on self, it is the engine's method", () => {
    const found = hitsIn(["extends FileDialog", "func _ready():", "\t_make_dir_confirm()", "\tself._make_dir_confirm()", ""].join("\n"), {}, 3)
    expect(withSeverity(found, "error")).toEqual(["3 engine-internal-method", "4 engine-internal-method"])
  })

  it("the creator's own `_` functions, handlers, callbacks and super calls stay clean; a name the pack also defines on a node is a warning", () => {
    const own = ["extends Control", "func _ready():", "\t._ready()", "\t_closed()", "\tself._refresh()", '\tconnect("resized", self, "_on_resized")', '\tcall_deferred("_closed")', "\t$Child._on_hit()", "\tget_parent()._timeout()", "func _closed():", "\tpass", "func _refresh():", "\tpass", "func _on_resized():", "\tpass", ""].join("\n")
    const found = hitsIn(own, { "res://spawner.gd": "extends Node\nfunc _timeout():\n\tpass\n" }, 3)
    expect(withSeverity(found, "error")).toEqual([])
    expect(withSeverity(found, "warning")).toEqual(["9 engine-internal-method"])
  })

  it("any creator method named with a leading `_` that no engine class binds stays clean on any receiver (property)", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^_on_[a-z]{1,8}$/), fc.constantFrom("$Child", "get_parent()", "get_node(path)", "get_children()[0]"), (name, recv) => {
        expect(withSeverity(hitsIn(script("var path = 'A'", `${recv}.${name}()`), {}, 3), "error")).toEqual([])
      }),
    )
  })
})

describe("FileDialog access to the whole file system", () => {
  it("is a filesystem-outside-sandbox warning, however it is written; the user folder and res:// are not", () => {
    const found = hitsIn(
      script("var fd = FileDialog.new()", "fd.access = FileDialog.ACCESS_FILESYSTEM", "fd.access = 2", "fd.set_access(2)", 'fd.set("access", 2)', "fd.access = FileDialog.ACCESS_USERDATA", "fd.access = 0", "$Picker.access = FileDialog.ACCESS_RESOURCES"),
      {},
      3,
    )
    expect(withSeverity(found, "warning")).toEqual(["4 filesystem-outside-sandbox", "5 filesystem-outside-sandbox", "6 filesystem-outside-sandbox", "7 filesystem-outside-sandbox"])
    expect(withSeverity(found, "error")).toEqual([])
  })

  it("Godot 4's FileDialog.ACCESS_FILESYSTEM, and `access =` in a script that extends FileDialog", () => {
    expect(withSeverity(hitsIn(script("var fd := FileDialog.new()", "fd.access = FileDialog.ACCESS_FILESYSTEM"), {}, 4), "warning")).toEqual(["4 filesystem-outside-sandbox"])
    expect(withSeverity(hitsIn(["extends FileDialog", "func _ready():", "\taccess = ACCESS_FILESYSTEM", ""].join("\n"), {}, 3), "warning")).toEqual(["3 filesystem-outside-sandbox"])
  })
})

describe("nodes of a group and children are nodes, never scripts", () => {
  it.each([
    ['var player = get_tree().get_nodes_in_group("player")', "player[0].set(stat, player[0].get(stat) + 1)"],
    ["", 'get_tree().get_nodes_in_group("player")[0].set(stat, "x")'],
    ["", "get_children()[0].set(stat, text)"],
    ["", "get_children().front().set(stat, text)"],
    ["var kids = get_children()", "for k in kids:\n\t\tk.set(stat, text)"],
    ["", 'for n in get_tree().get_nodes_in_group("g"):\n\t\tn[stat] = text'],
  ])("%s / %s: no script-source-code", (setup, write) => {
    const found = hitsIn(script("var stat = str(randi())", "var text = str(randi())", ...(setup === "" ? [] : [setup]), write), {}, 3)
    expect(withSeverity(found, "error")).toEqual([])
  })

  it("a list of nodes that gets something else put in it, or handed on, is not one any more", () => {
    const copy = 'load("res://blank.gd").duplicate()'
    for (const change of [`a.append(${copy})`, `a[0] = ${copy}`, "fill(a)", `a = [${copy}]`, "var b = a"]) {
      const found = hitsIn(script("var stat = str(randi())", 'var a = get_tree().get_nodes_in_group("g")', change, 'a[0].set(stat, "x")', "a[0].reload()"), { "res://blank.gd": "extends Reference\n" }, 3)
      expect(withSeverity(found, "error").map((h) => h.split(" ")[1]), change).toContain("script-source-code")
    }
  })
})
