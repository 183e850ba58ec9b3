// A dispatch through a constant table that is not followed (some code may change the table: constantReads.ts) is a
// dynamic-dispatch error at the dispatch, often far from the line that stopped the table being followed. The
// finding names the table and that line (PackModel.whyNotOnlyRead), so a creator can see what to change; a table
// every use only reads is followed and gives no finding.
import { describe, expect, it } from "vitest"
import { analyzeScript } from "../../adapters/scanner/gdscript/analyzeScript.ts"
import { defaultPolicy } from "../../adapters/scanner/policy/defaultPolicy.ts"
import { modelOf, packOf } from "./support/analyze.ts"

/** The notes of the dynamic-dispatch hits of `res://main.gd` (Godot 3), with their lines. */
const dispatchNotes = (main: string, others: Readonly<Record<string, string>> = {}): ReadonlyArray<string> => {
  const scripts = packOf({ "res://main.gd": main, ...others }, 3)
  const script = scripts[0]
  if (script === undefined) return []
  return analyzeScript(script, modelOf(scripts, 3), defaultPolicy)
    .hits.filter((h) => h.entry.id === "dynamic-dispatch" && h.severity === "error")
    .map((h) => `${h.line} ${h.note ?? ""}`)
}

/** Lines of a function copying what it is given by keys built at run time (`entry` may be any object). */
const COPY: ReadonlyArray<string> = ["func copy(entry, out):", "\tfor field in entry:", "\t\tout[field] = entry[field]"]

/** A shop whose buttons call the handler a constant table names (line 7); `after` lines follow in `_ready`, then `more` functions (from line 13 + after). */
const shop = (after: ReadonlyArray<string> = [], more: ReadonlyArray<string> = []): string =>
  [
    "extends Node",
    'const ACTIONS = {"buy": "_on_buy", "sell": "_on_sell"}',
    "func _ready():",
    "\tfor action in ACTIONS:",
    "\t\tvar b = Button.new()",
    "\t\tadd_child(b)",
    '\t\tb.connect("pressed", self, ACTIONS[action])',
    ...after,
    "func _on_buy():",
    "\tpass",
    "func _on_sell():",
    "\tpass",
    ...more,
  ].join("\n") + "\n"

describe("a dispatch through a constant table that is not followed names why", () => {
  it("a table every use only reads is followed: no finding", () => {
    expect(dispatchNotes(shop())).toEqual([])
  })

  it("a read by a built name elsewhere that hands on what it read: the note names the table and that line", () => {
    const notes = dispatchNotes(shop(["\tcopy(get_parent(), {})"], COPY))
    expect(notes).toHaveLength(1)
    expect(notes[0]).toMatch(/^7 /)
    expect(notes[0]).toContain("the name comes from the constant ACTIONS, whose strings are not followed because code may change it: res://main.gd:15 reads by a name built at run time")
  })

  it("a use of the table itself that may change it: the note names that use", () => {
    const notes = dispatchNotes(shop(['\tACTIONS["buy"] = "_on_sell"']))
    expect(notes).toHaveLength(1)
    expect(notes[0]).toContain("the constant ACTIONS, whose strings are not followed because code may change it: res://main.gd:8 uses ACTIONS otherwise than reading it")
  })

  it("a string spelling the table's name in another script: the note names that script and line", () => {
    const notes = dispatchNotes(shop(), { "res://other.gd": ["extends Node", "func _ready():", '\tprint(get_node("/root/Main").get("ACTIONS"))'].join("\n") + "\n" })
    expect(notes).toHaveLength(1)
    expect(notes[0]).toContain('res://other.gd:3 spells "ACTIONS" in a string')
  })

  it("a call by such a name that may call another by name in turn (`call(handler, team, who)` of a typed local): the note names the table too", () => {
    const main = ["extends Node", 'const HANDLERS = {"goal": "_on_goal"}', "func event(kind, team, who):", "\tvar handler: String = HANDLERS[kind]", "\tcall(handler, team, who)", "\tcopy(get_parent(), {})", "func _on_goal(team, who):", "\tpass", ...COPY]
    const notes = dispatchNotes(`${main.join("\n")}\n`)
    expect(notes).toHaveLength(1)
    expect(notes[0]).toMatch(/^5 the method name is not a constant, nor is the method it may call by name in turn/)
    expect(notes[0]).toContain("the name comes from the constant HANDLERS, whose strings are not followed because code may change it: res://main.gd:11 reads by a name built at run time")
  })

  it("a name that comes from no table has no such note", () => {
    const notes = dispatchNotes(["extends Node", "func _ready():", "\tvar b = Button.new()", '\tb.connect("pressed", self, str(randi()))', "\tcopy(get_parent(), {})", ...COPY].join("\n") + "\n")
    expect(notes).toHaveLength(1)
    expect(notes[0]).not.toContain("the name comes from the constant")
  })
})
