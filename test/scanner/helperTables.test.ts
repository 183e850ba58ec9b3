// Tables of tables followed through a game's helpers (the seventy-first and seventy-fourth hunts' shop, settings
// screen and farm, attackProjects125.ts): a parameter of a function only the pack's calls reach, each passing an
// entry (evaluate.ts #paramParts, with the dispatches' names worked out as a least fixpoint, #dispatchNames); loops of
// one name over a table and over a part of a local (valueNames.ts); a typed member of a class of the pack read by a
// number (`plot.durations[plot.stage]`: PackFacts.classMember); `[k] = v` into a typed Dictionary (packModel.ts
// #intoContainer); `+` of a list of strings and numbers (a new Array). Each attack shape beside them is an error, and
// so is `Name.new(entry)` where the pack has a function named `new` (a seventy-fourth red team's).
import { describe, expect, it } from "vitest"
import { SETTINGS, SHOP } from "./fixtures/attackProjects125.ts"
import { hits3 } from "./support/analyze.ts"

/** `policy-id: the line's code` of each error of the script. */
const errors = (lines: ReadonlyArray<string>): ReadonlyArray<string> =>
  hits3(`${lines.join("\n")}\n`)
    .filter((h) => h.includes(" error "))
    .map((h) => `${h.split(" ")[2]}: ${lines[Number(h.split(":")[0]) - 1]?.trim()}`)

const FARM = [
  "extends Node",
  'const CROPS = {"wheat": {"stages": [0.05, 0.1], "yield": 3, "on_harvest": "_store_grain"}, "carrot": {"stages": [0.05], "yield": 2, "on_harvest": "_store_veg"}}',
  "var silo: Dictionary = {}",
  "class Plot:",
  "\tvar crop: String",
  "\tvar stage := 0",
  "\tvar durations: Array",
  "\tfunc _init(id: String, entry: Dictionary):",
  "\t\tcrop = id",
  '\t\tdurations = entry["stages"].duplicate()',
  "func _ready():",
  '\tfor crop in ["wheat", "carrot"]:',
  "\t\tvar t := Timer.new()",
  "\t\tadd_child(t)",
  '\t\tt.connect("timeout", self, "_grow", [Plot.new(crop, CROPS[crop]), t])',
  "func _grow(plot: Plot, t: Timer):",
  "\tplot.stage += 1",
  "\tif plot.stage >= plot.durations.size():",
  "\t\tharvest(plot.crop)",
  "\t\treturn",
  "\tt.start(plot.durations[plot.stage])",
  "func harvest(crop: String):",
  "\tvar info = CROPS[crop]",
  '\tcall(info["on_harvest"], crop, info["yield"])',
  "func _store_grain(crop, amount):",
  "\tsilo[crop] = silo.get(crop, 0) + amount * 10",
  "func _store_veg(crop, amount):",
  "\tsilo[crop] = silo.get(crop, 0) + amount",
]

/** A seventy-fifth hunt's tactics game: helpers given each ability call and connect the method it names. */
const TACTICS = [
  "extends Node",
  'const CLASSES = {"knight": {"abilities": [{"label": "Slash", "method": "_slash", "cost": 0}]}, "archer": {"abilities": [{"label": "Shoot", "method": "_shoot", "cost": 1}]}}',
  "class Unit:",
  "\tvar ap := 3",
  "var log_lines: Dictionary = {}",
  "func _ready():",
  "\tfor cid in CLASSES:",
  "\t\tvar u := Unit.new()",
  '\t\tfor ab in CLASSES[cid]["abilities"]:',
  "\t\t\tuse_ability(u, ab)",
  '\tshow_buttons(Unit.new(), CLASSES["knight"])',
  "func show_buttons(unit: Unit, klass: Dictionary):",
  '\tfor ab in klass["abilities"]:',
  "\t\tvar b := Button.new()",
  "\t\tadd_child(b)",
  '\t\tb.connect("pressed", self, ab["method"], [unit])',
  "func use_ability(unit: Unit, ab: Dictionary):",
  '\tif unit.ap < ab["cost"]:',
  "\t\treturn",
  '\tunit.ap -= ab["cost"]',
  '\tcall(ab["method"], unit)',
  '\tlog_lines[ab["label"]] = unit.ap',
  "func _slash(u):",
  "\tprint(u)",
  "func _shoot(u):",
  "\tprint(u)",
]

describe("tables of tables through a game's helpers are followed", () => {
  it.each([
    ["a shop's button helper given each item", SHOP.trimEnd().split("\n")],
    ["a settings screen's loops and control helper", SETTINGS.trimEnd().split("\n")],
    ["a farm's plots, typed members and harvest dispatch", FARM],
    ["a tactics game's ability helper calling the method an entry names", TACTICS],
    // A seventy-seventh hunt's card battler: a helper of the class named like a keeping engine method (`add_`).
    ["a helper named add_card given each entry", ["extends Node", 'const DECKS = {"warrior": [["Strike", 1, "_hit", [6]], ["Defend", 1, "_block", [5]]]}', "func _ready():", '\tfor card in DECKS["warrior"]:', "\t\tadd_card(card)", '\t\tcallv(card[2], card[3])', "func add_card(card):", "\tprint(card[0])", "func _hit(n):", "\tprint(n)", "func _block(n):", "\tprint(n)"]],
    // A seventy-seventh hunt's card battler: one string of an entry handed to a helper that dispatches by it.
    ["a helper's parameter given one string of an entry", ["extends Node", 'const DECKS = {"warrior": [["Strike", 1, "_hit", [6]], ["Defend", 1, "_block", [5]]]}', "func _ready():", '\tfor card in DECKS["warrior"]:', "\t\tplay_card(card)", "func play_card(card):", "\tapply_effect(card[2], card[3])", "func apply_effect(method, args):", "\tcallv(method, args)", "func _hit(n):", "\tprint(n)", "func _block(n):", "\tprint(n)"]],
    // A seventy-sixth hunt's cooking game: rows of a list read by position, one item a list itself.
    ["recipe rows read by position", ["extends Node", 'const R = {"a": {"steps": [["crack", "_crack", 1.0, ["egg", 2]], ["fry", "_fry", 3.0, ["pan"]]]}}', "func _ready():", '\tfor step in R["a"]["steps"]:', "\t\tcallv(step[1], [step[0]] + step[3])", "func _crack(what, item, n):", "\tprint(what, item, n)", "func _fry(what, pan):", "\tprint(what, pan)"]],
  ])("%s: no error", (_name, script) => {
    expect(errors(script)).toEqual([])
  })
})

/** A helper given `T`'s entries by a loop, dispatching its parameter's entry on OS; `change` in it, `after` below. */
const helper = (change: ReadonlyArray<string>, after: ReadonlyArray<string> = [], table = '{"a": {"m": "get_name"}}'): ReadonlyArray<string> =>
  errors(["extends Node", `const T = ${table}`, "func _ready():", "\tfor k in T:", "\t\tuse(T[k])", ...after, "func use(item):", ...change, '\tOS.callv(item["m"], ["touch", []])'])

const SINK = 'dynamic-dispatch: OS.callv(item["m"], ["touch", []])'

describe("a helper's parameter is an entry only while every call passes one and nothing else reaches it", () => {
  it("given entries alone, its dispatch is the entry's name (OS's get_name): no error", () => {
    expect(helper([])).toEqual([])
  })

  it.each([
    ["the parameter given another value", ['\titem = {"m": "execute"}']],
    ["the entry written into", ['\titem["m"] = "execute"']],
    ["another call passing a literal", [], ['\tuse({"m": "execute"})']],
    ["a call passing something not known", [], ["\tuse(get_meta(\"x\"))"]],
    ["the helper named by a string (a dispatch or a connection may pass anything)", [], ['\tcall("use", {"m": "execute"})']],
    ["the helper named by an entry of the table itself", [], ['\tcall(T["b"]["n"], {"m": "execute"})'], '{"a": {"m": "get_name"}, "b": {"n": "use", "m": "get_name"}}'],
    // Mine, run by godot3-server in attackProjects126.ts: the engine calls the key's method on the track's node.
    ["a method track keyed in code with a built name", [], ["\tvar a = Animation.new()", '\ta.track_insert_key(a.add_track(Animation.TYPE_METHOD), 0.0, {"method": "u" + get_meta("s"), "args": [{"m": "execute"}]})']],
    // A seventy-sixth red team's, run by godot3-server in attackProjects127.ts: a dispatch API named by a constant in another.
    ["call handing a built name to call", [], ['\tcall("call", "u" + get_meta("s"), {"m": "execute"})']],
    ["callv handing a built name to connect", [], ['\tcallv("connect", ["go", self, "u" + get_meta("s"), [{"m": "execute"}]])']],
    ["callv handing a track key to track_insert_key", [], ["\tvar a = Animation.new()", '\ta.callv("track_insert_key", [0, 0.0, get_meta("key")])']],
    ["a track key whose key is not written as \"method\"", [], ["\tvar a = Animation.new()", '\ta.track_insert_key(0, 0.0, {get_meta("k"): "u" + get_meta("s"), "args": [{"m": "execute"}]})']],
  ])("%s: the dispatch is an error", (_name, change, after = [], table = undefined) => {
    expect(helper(change, after, table)).toContain(SINK)
  })

  it("a list of tables joined with `+` holds the inner tables: handed on, they are not followed", () => {
    expect(errors(["extends Node", 'const L = [{"m": "get_name"}]', "var kept = []", "func _ready():", "\tkept = [1] + L", '\tkept[1]["m"] = "execute"', '\tOS.callv(L[0]["m"], ["touch", []])'])).toContain('dynamic-dispatch: OS.callv(L[0]["m"], ["touch", []])')
  })
})

describe("`Name.new(entry)` runs an `_init` only where the pack has no function named `new` (a seventy-fourth red team's)", () => {
  const newOf = (before: ReadonlyArray<string>, after: ReadonlyArray<string>): ReadonlyArray<string> =>
    errors(["extends Node", 'const T = {"a": {"m": "get_name"}}', "func _ready():", ...before, '\tOS.callv(T["a"]["m"], ["touch", []])', ...after, "class Reader:", "\tfunc _init(x):", "\t\tprint(x)"])
  const NEW_SINK = 'dynamic-dispatch: OS.callv(T["a"]["m"], ["touch", []])'

  it("an `_init` that only reads: no error", () => {
    expect(newOf(['\tReader.new(T["a"])'], [])).toEqual([])
  })

  it.each([
    ["a class's static `new`", ['\tStat.new(T["a"])'], ["class Stat:", "\tstatic func new(x):", '\t\tx["m"] = "execute"']],
    ["a local named like a class, holding self, whose script has `new`", ["\tvar Reader = self", '\tReader.new(T["a"])'], ["func new(x):", '\tx["m"] = "execute"']],
  ])("%s: the dispatch is an error", (_name, before, after) => {
    expect(newOf(before, after)).toContain(NEW_SINK)
  })
})

describe("a vector, colour or transform of numbers, or such a type's constant, in a table is a plain value (a seventy-ninth hunt's sokoban moves, an eighty-third's `Vector2.ZERO`)", () => {
  const moves = (dir: string): ReadonlyArray<string> =>
    errors([
      "extends Node",
      `const MOVES = {"up": {"dir": ${dir}, "do": "_do_step"}, "push": {"dir": Vector2(1, 0), "do": "_do_push"}}`,
      "var player := Vector2()",
      "func _ready():",
      '\tfor m in ["up", "push"]:',
      "\t\tapply_move(m, MOVES[m])",
      "func apply_move(move_id, entry):",
      // Its value handed back: a method that may read a constant by name (`get`) would hand the constant out.
      '\treturn call(entry["do"], entry["dir"], move_id)',
      "func _do_step(d, id):",
      "\tplayer += d",
      "func _do_push(d, id):",
      "\tplayer += 2 * d",
    ])
  const SINK = 'dynamic-dispatch: return call(entry["do"], entry["dir"], move_id)'

  it("Vector2, Color, Rect2 of numbers, Vector2.ZERO, Color.white: the table's names stand, no error", () => {
    for (const dir of ["Vector2(0, -1)", "Color(1, 0.5, 0)", "Rect2(0, 0, 1, -1)", "Vector2.ZERO", "Color.white"]) expect(moves(dir), dir).toEqual([])
  })

  it("one built of what is not a number (a meta, a member): not a plain value", () => {
    expect(moves('Vector2(get_meta("x"), 0)')).toContain(SINK)
    expect(moves("Vector2(player.x, 0)")).toContain(SINK)
    // A member of a name the pack declares is the pack's.
    expect(errors(["extends Node", "class Vector2:", "\tconst ZERO = {}", 'const T = {"a": {"v": Vector2.ZERO, "m": "get_name"}}', "func _ready():", '\tT["a"]["v"]["m"] = 1', '\tOS.callv(T["a"]["m"], ["touch", []])'])).toContain('dynamic-dispatch: OS.callv(T["a"]["m"], ["touch", []])')
  })
})
