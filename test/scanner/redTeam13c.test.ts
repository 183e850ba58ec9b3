// A false positive a thirteenth red team (a) found in ordinary jam-game code (attackProjects27.ts holds the
// look-alike godot3-server exports): an Inventory class with a Dictionary member `items`, a dispatch on self by a
// name that is not constant (`call("use_" + effect)`) and a pickup's `body.call("pick", self)`. Two causes: the
// dispatch, which takes no argument after its name, was counted as a write by a name that is not constant that may
// give a member a script (no setter can run with fewer than a property and a value), so `items` was no longer plain
// data; and the dispatch names were folded in the evaluator that was evaluating one of them, so the name read its
// own unfinished placeholder, every function counted as open and `add_item`'s key came from anywhere.
import { describe, expect, it } from "vitest"
import { analyzeScript } from "../../adapters/scanner/gdscript/analyzeScript.ts"
import { defaultPolicy } from "../../adapters/scanner/policy/defaultPolicy.ts"
import { modelOf, packOf } from "./support/analyze.ts"

const INVENTORY = [
  "extends Reference",
  "class_name Inventory",
  "var items = {}",
  "func add_item(id, n = 1):",
  "\titems[id] = items.get(id, 0) + n",
  "func apply(effect):",
  '\tcall("use_" + effect)',
  "func use_potion():",
  '\tadd_item("potion", -1)',
  "",
].join("\n")
const COIN = ["extends Node2D", "func _on_body_entered(body):", '\tif body.has_method("pick"):', '\t\tbody.call("pick", self)', ""].join("\n")
const GAME = ["extends Node", "var inv = Inventory.new()", "func _ready():", '\tinv.add_item("potion", 2)', '\tinv.apply("potion")', ""].join("\n")

/** `path:line policy-id` of every error in the pack, its scripts analysed in order with one model (as scanPack does). */
const packErrors = (files: Readonly<Record<string, string>>): ReadonlyArray<string> => {
  const scripts = packOf(files, 3)
  const model = modelOf(scripts, 3)
  return scripts.flatMap((s) => analyzeScript(s, model, defaultPolicy).hits.filter((h) => h.severity === "error").map((h) => `${s.path}:${h.line} ${h.entry.id}`))
}

describe("a Dictionary member written by a key that is not constant beside dispatches by name", () => {
  it("stays a Dictionary write in every order the scripts are analysed in, with the pickup or without", () => {
    const inv = { "res://lib/inventory.gd": INVENTORY }
    const coin = { "res://lib/coin.gd": COIN }
    const game = { "res://attack/game.gd": GAME }
    for (const files of [{ ...inv, ...coin, ...game }, { ...coin, ...inv, ...game }, { ...game, ...coin, ...inv }, { ...inv, ...game }]) {
      expect(packErrors(files), Object.keys(files).join(" ")).toEqual([])
    }
  })

  it("the dispatch names are folded the same whichever script is analysed first: add_item's callers stay closed", () => {
    // A write of a script by a name that is not constant on another object turns the plain-data reading off
    // pack-wide, so only the closed callers of add_item (a constant key) keep its write from being judged.
    const stash = `${COIN}func _stash(o, k):\n\to.set(k, load("res://lib/coin.gd").duplicate())\n`
    const coin = { "res://lib/coin.gd": stash }
    const game = { "res://attack/game.gd": GAME }
    const open = { "res://lib/inventory.gd": INVENTORY.replace("func add_item(id, n = 1):", "func _input(id, n = 1):") }
    expect(packErrors({ ...open, ...coin, ...game })).toContain("res://lib/inventory.gd:5 script-source-code")
    const inv = { "res://lib/inventory.gd": INVENTORY }
    for (const files of [{ ...inv, ...coin, ...game }, { ...coin, ...inv, ...game }, { ...game, ...coin, ...inv }]) {
      expect(packErrors(files).filter((e) => e.startsWith("res://lib/inventory.gd")), Object.keys(files).join(" ")).toEqual([])
    }
  })

  it("stays one when the function writing it is open to any caller (a name that is not constant reaching it)", () => {
    // `_input` is an engine callback: the engine calls it, so its key and value come from anywhere.
    const open = INVENTORY.replace("func add_item(id, n = 1):", "func _input(id, n = 1):")
    expect(packErrors({ "res://lib/inventory.gd": open, "res://lib/coin.gd": COIN })).toEqual([])
  })

  it("is a script-source-code error once a dispatch by a run-time name with a property and a value may set the member", () => {
    // `_input` is open to any caller, so its key is not constant whatever the dispatch names.
    const text = (dispatch: string): string => `${INVENTORY.replace("func add_item(id, n = 1):", "func _input(id, n = 1):")}func restore(what, data):\n\t${dispatch}\n`
    for (const dispatch of ['call(what, "items", load("res://blank.gd").duplicate())', 'call_deferred(what, "items", data)', "callv(what, data)", 'set(what, load("res://blank.gd").duplicate())']) {
      expect(packErrors({ "res://lib/inventory.gd": text(dispatch), "res://lib/coin.gd": COIN }), dispatch).toContain("res://lib/inventory.gd:5 script-source-code")
    }
  })

  it("a dispatch that cannot reach a setter (no value after the name, or an array literal of one) keeps the member plain", () => {
    const text = (dispatch: string): string => `${INVENTORY.replace("func add_item(id, n = 1):", "func _input(id, n = 1):")}func restore(what, data):\n\t${dispatch}\n`
    for (const dispatch of ["call(what)", "call(what, data)", "call_deferred(what, data)", "callv(what, [data])", "callv(what, [])"]) {
      expect(packErrors({ "res://lib/inventory.gd": text(dispatch), "res://lib/coin.gd": COIN }), dispatch).toEqual([])
    }
  })

  it("an engine API handed a setter's name (connect with binds, funcref, call_group, Thread.start) may set the member: an error", () => {
    // The red team's fix noticed this older gap: `connect("s", self, "set", ["items", copy])` then `emit_signal("s")`
    // makes the engine call set("items", copy) (core/object.cpp emit_signal: the binds after the signal's arguments).
    const text = (line: string): string => `${INVENTORY.replace("func add_item(id, n = 1):", "func _input(id, n = 1):")}signal s\nfunc restore():\n\t${line}\n\temit_signal("s")\n`
    for (const line of ['connect("s", self, "set", ["items", load("res://blank.gd").duplicate()])', 'funcref(self, "set").call_func("items", load("res://blank.gd").duplicate())', 'get_tree().call_group("g", "set_deferred", "items", load("res://blank.gd").duplicate())']) {
      expect(packErrors({ "res://lib/inventory.gd": text(line), "res://lib/coin.gd": COIN }), line).toContain("res://lib/inventory.gd:5 script-source-code")
    }
    // A connection to a method of the class itself (no setter) keeps the member plain.
    expect(packErrors({ "res://lib/inventory.gd": text('connect("s", self, "use_potion")'), "res://lib/coin.gd": COIN })).toEqual([])
  })
})
