// A hundred-and-first hunt's: `AI.slime.ai` reads a table of tables as `AI["slime"]["ai"]` does (Godot's named get on a
// Dictionary), so a handler named there is followed like the bracket form; a table that also holds preloaded scripts or
// scenes still names its handlers (a roguelike's enemy table); and a field of a built-in value
// (`cell.x` of a Vector2) is a number, which names no property (a hundredth hunt's match-3 `grid[a.x][a.y] = gem`).
import { describe, expect, it } from "vitest"
import { hits3 } from "./support/analyze.ts"

const HANDLERS = ["", "func wander(m):", "\tprint(m)", "", "func flee(m):", "\tprint(m)", ""]

describe("a key read with member syntax on a table of tables", () => {
  it.each([
    ["funcref", "\tvar f = funcref(self, AI.slime.ai)", "\tf.call_func(1)"],
    ["connect", '\tvar b = Button.new()', '\tb.connect("pressed", self, AI.slime.ai, [1])'],
    ["call", "\tcall(AI.bat.ai, 1)"],
  ])("names the entry's handler for %s", (_what, ...body) => {
    expect(hits3(["extends Node", "", 'const AI = {"slime": {"ai": "wander"}, "bat": {"ai": "flee"}}', "", "func _ready():", ...body, ...HANDLERS].join("\n"))).toEqual([])
  })

  it("keeps the error when the entry names an engine method", () => {
    const found = hits3(["extends Node", "", 'const AI = {"slime": {"ai": "execute"}}', "", "func _ready():", '\tOS.call(AI.slime.ai, "touch", ["x"])', ...HANDLERS].join("\n"))
    expect(found.filter((h) => h.includes(" error "))).toEqual(["6:2 error os-process OS.call(\"execute\")"])
  })
})

describe("a table that also holds preloaded scripts or scenes", () => {
  const enemies = (...extra: ReadonlyArray<string>): string =>
    ["extends Node", "", 'const E = {"slime": {"scene": preload("res://slime.tscn"), "brain": preload("res://brain.gd"), "ai": "wander"}}', "", "func _ready():", '\tvar f = funcref(self, E["slime"]["ai"])', "\tf.call_func(1)", ...extra, ...HANDLERS].join("\n")
  const others = { "res://brain.gd": "extends Reference\n" }

  it("names its handlers", () => {
    expect(hits3(enemies(), others)).toEqual([])
  })

  it("keeps the error where scripts may be swapped (a script attached to the preloaded Script gives its text)", () => {
    expect(hits3(enemies('\tload("res://brain.gd").set_script(null)'), others).filter((h) => h.includes(" error "))).toEqual(["6:10 error dynamic-dispatch funcref(…)"])
  })
})

describe("a table's get with a default string", () => {
  const combos = (fallback: string, ...extra: ReadonlyArray<string>): string =>
    ["extends Node", "", 'const COMBOS = {3: "wander", 4: "flee"}', "", "func on_combo(n):", `\tvar handler = COMBOS.get(n, ${fallback})`, "\tvar f = funcref(self, handler)", "\tf.call_func(1)", ...extra, ...HANDLERS].join("\n")

  it("names an entry or the default (a hundredth hunt's combo handlers)", () => {
    expect(hits3(combos('"wander"'))).toEqual([])
  })

  it("keeps the error where the default is not a constant string", () => {
    expect(hits3(combos('str(n)')).filter((h) => h.includes(" error "))).toEqual(["7:10 error dynamic-dispatch funcref(…)"])
  })

  it("judges the default as the name it may be", () => {
    const found = hits3(["extends Node", "", 'const T = {"a": "get_name"}', "", "func _ready():", '\tOS.call(T.get(str(get_meta("k")), "execute"), "touch", ["x"])', ""].join("\n"))
    expect(found.filter((h) => h.includes(" error "))).toEqual(['6:2 error os-process OS.call("execute")'])
  })
})

describe("a field of a built-in value as a key", () => {
  const grid = (param: string, ...calls: ReadonlyArray<string>): string =>
    ["extends Node2D", "", "var grid = []", "", "func _ready():", ...calls.map((c) => `\t${c}`), "", `func swap(${param}, b):`, "\tvar tmp = str(b)", "\tgrid[a.x][a.y] = tmp", ""].join("\n")

  it.each([
    ["given only Vector2s", grid("a", "swap(Vector2(1, 1), Vector2(1, 2))")],
    ["typed Vector2", grid("a: Vector2", "swap(Vector2(1, 1), 2)")],
    ["a sum with a Vector2 (a vector or an error)", grid("a", 'swap(get_meta("at") + Vector2(1, 0), 2)', 'swap(Vector2(0, 1) - get_meta("at"), 2)')],
  ])("names no property: %s", (_what, text) => {
    expect(hits3(text)).toEqual([])
  })

  it("names no property: a local that is null or a Vector2", () => {
    expect(hits3(["extends Node2D", "", "var grid = []", "", "func _ready():", "\tvar p = null", "\tif grid.size() > 2:", "\t\tp = Vector2(1, 1)", "\tgrid[p.x][p.y] = str(p)", ""].join("\n"))).toEqual([])
  })

  it("keeps the error where the value may be anything", () => {
    expect(hits3(grid("a", 'swap(get_meta("a"), 2)')).filter((h) => h.includes("script-source-code"))).toEqual(["10:2 error script-source-code …[…] ="])
  })
})
