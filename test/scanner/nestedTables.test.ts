// A constant table of tables (`const ABILITIES = {"fire": {"method": "_cast_fire"}}`) is followed by its entries'
// strings (evaluate.ts #constantParts: `ABILITIES[id]["method"]`, a local given `POWERUPS[kind]`, a loop variable over
// a list of them), where every use of the table only reads it, its inner tables too: Godot 3 hands an inner
// Array or Dictionary out by reference, so `var a = T["a"]` then `a["m"] = "execute"` changes the constant
// (constantReads.ts partOnlyRead, nestedTables.ts). Each shape of change below is an error at the dispatch; each
// way of only reading keeps the dispatch clean.
import { describe, expect, it } from "vitest"
import { hits3 } from "./support/analyze.ts"

/** `policy-id: the line's code` of each error of the script. */
const errors = (lines: ReadonlyArray<string>): ReadonlyArray<string> =>
  hits3(`${lines.join("\n")}\n`)
    .filter((h) => h.includes(" error "))
    .map((h) => `${h.split(" ")[2]}: ${lines[Number(h.split(":")[0]) - 1]?.trim()}`)

/** An ability bar: buttons connect to the method the table names, powerups run through funcref, levels load by path. */
const GAME = [
  "extends Node",
  'const ABILITIES = {"fire": {"method": "_cast_fire", "cost": 3}, "ice": {"method": "_cast_ice", "cost": 2}}',
  'const POWERUPS = {"jump": {"apply": "_apply_jump"}, "speed": {"apply": "_apply_speed"}}',
  'const LEVELS = [{"name": "Caves", "scene": "res://levels/caves.tscn"}, {"name": "Peak", "scene": "res://levels/peak.tscn"}]',
  'const RECIPES = {"plank": {"needs": {"log": 1}, "station": "bench", "done": "_after_basic"}}',
  'const QUESTS = {"cat": {"check": "_talked_to", "args": ["hobb"]}}',
  'const LISTS = {"tiers": [10, 50], "tags": ["a", "b"], "done": "_after_basic"}',
  'const DIALOGUE = {"start": {"choices": [{"conditions": [["has_item", "lantern"]]}, {"conditions": [["gold_at_least", 3]]}]}}',
]

const HANDLERS = ["func _cast_fire():", "\tpass", "func _cast_ice():", "\tpass", "func _apply_jump():", "\tpass", "func _apply_speed():", "\tpass", "func _after_basic():", "\tpass"]

describe("a constant table of tables is followed by its entries", () => {
  it.each([
    ["a connection named by an entry of an entry", ["func _ready():", "\tfor id in ABILITIES:", '\t\t$Bar.connect("pressed", self, ABILITIES[id]["method"])']],
    ["funcref of a local given an entry", ["func power(kind):", "\tvar info = POWERUPS[kind]", '\tvar f = funcref(self, info["apply"])', "\tf.call_func()"]],
    ["Godot 3's member syntax on the entry", ["func power(kind):", '\tvar f = funcref(self, POWERUPS[kind].apply)', "\tf.call_func()"]],
    ["a loop over a list of tables", ["func _ready():", "\tfor level in LEVELS:", '\t\tvar scene = load(level["scene"])', '\t\tprint(level["name"], scene)']],
    ["an entry handed to functions that only read it", ["func craft(id):", "\tvar recipe = RECIPES[id]", "\tif can_craft(recipe):", '\t\tcall(recipe["done"])', "func can_craft(r):", '\tfor need in r["needs"]:', '\t\tif r["needs"][need] > 3:', "\t\t\treturn false", '\treturn r["station"] in ["bench"]']],
    // A sixty-ninth hunt's quest journal and menu pages: a list of strings handed on item by item.
    ["callv's arguments and connect's binds from an entry", ["func run(id):", "\tvar step = QUESTS[id]", '\tif callv(step["check"], step.get("args", [])):', '\t\t$B.connect("pressed", self, step["check"], step["args"])', "func _talked_to(who):", "\treturn true"]],
    // A seventieth hunt's achievements, audio cues and inventory tooltips: items of a list of numbers or strings.
    ["an item of a list of numbers or strings, and a pool array of them", ["func show(id):", '\tvar r = RECIPES[id]', '\tprint(LISTS["tiers"].max(), LISTS["tiers"].front(), LISTS["tags"].back(), PoolStringArray(LISTS["tags"]).join(", "))', '\tcall(r["done"])']],
    ["an entry handed to the constructor of a class of the pack that only reads it", ["func view(id):", "\tvar v = View.new(ABILITIES[id])", '\tcall(ABILITIES[id]["method"])', "class View:", "\tvar cost = 0", "\tfunc _init(entry):", '\t\tcost = entry["cost"]']],
    // A seventy-second hunt's dialogue: conditions as lists of a method's name and its arguments, walked in loops.
    ["loops over parts of a local given an entry, the name at index 0", ["func passes(id) -> bool:", "\tvar node: Dictionary = DIALOGUE[id]", '\tfor choice in node["choices"]:', '\t\tfor cond in choice["conditions"]:', "\t\t\tvar args: Array = cond.slice(1, cond.size() - 1)", "\t\t\tif not callv(cond[0], args):", "\t\t\t\treturn false", "\treturn true", "func has_item(what):", "\treturn true", "func gold_at_least(n):", "\treturn true"]],
    ["an entry shown, measured or written out as text", ["func show(id):", '\tprint(ABILITIES[id], " ", ABILITIES[id].size(), " ", to_json(ABILITIES[id]))', '\tvar copy = ABILITIES[id].duplicate(true)', '\tcopy["method"] = "x"', '\tcall(ABILITIES[id]["method"])']],
  ])("%s: no error", (_name, body) => {
    expect(errors([...GAME, ...body, ...HANDLERS])).toEqual([])
  })
})

/** A table of tables, a change through `change`, then the dispatches of entries of T and L on OS. */
const changed = (change: ReadonlyArray<string>, after: ReadonlyArray<string> = []): ReadonlyArray<string> =>
  errors(["extends Node", 'const T = {"a": {"m": "get_name"}, "b": {"m": "get_name"}}', 'const L = [{"m": "get_name"}]', "var arr = []", "func _ready():", ...change, "\tpass", '\tOS.callv(T["a"]["m"], ["touch", []])', '\tOS.callv(L[0]["m"], ["touch", []])', ...after])

const T_DISPATCH = 'dynamic-dispatch: OS.callv(T["a"]["m"], ["touch", []])'

describe("an inner table changed through a reference is not followed", () => {
  it.each([
    ["a local given the entry", ['\tvar x = T["a"]', '\tx["m"] = "execute"']],
    ["a local given a local given the entry", ['\tvar x = T["a"]', "\tvar y = x", '\ty.m = "execute"']],
    ["a loop over the table's values", ['\tfor v in T.values():', '\t\tv["m"] = "execute"']],
    ["a shallow copy", ["\tvar c = T.duplicate()", '\tc["a"]["m"] = "execute"']],
    ["get() of the entry", ['\tT.get("a")["m"] = "execute"']],
    ["an Array literal holding the entry", ['\tvar z = [T["a"]]', '\tz[0]["m"] = "execute"']],
    ["an entry kept by an engine method", ['\tarr.append(T["a"])', '\tarr[0]["m"] = "execute"']],
    ["an entry kept as a meta", ['\tset_meta("k", T["a"])', '\tget_meta("k")["m"] = "execute"']],
    ["a default handed back by Dictionary.get", ['\tvar y = {}.get("z", T["a"])', '\ty["m"] = "execute"']],
    ["a member given the entry", ['\theld = T["a"]', '\theld["m"] = "execute"'], ["var held"]],
    ["a function of the pack changing its parameter", ['\tf(T["a"])'], ["func f(d):", '\td["m"] = "execute"']],
    ["a function of the pack keeping its parameter", ['\tf(T["a"])', '\tarr[0]["m"] = "execute"'], ["func f(d):", "\tarr.append(d)"]],
    ["a constructor changing its parameter", ['\tvar s = Stack.new(T["a"])'], ["class Stack:", "\tfunc _init(d):", '\t\td["m"] = "execute"']],
    ["a FuncRef called with the entry", ['\tfuncref(self, "g").call_func(T["a"])'], ["func g(d):", '\td["m"] = "execute"']],
    ["a function returning the entry", ['\tg()["m"] = "execute"'], ["func g():", '\treturn T["a"]']],
    ["a match binding the entry", ['\tmatch T["a"]:', "\t\tvar q:", '\t\t\tq["m"] = "execute"']],
    // A sixty-ninth red team's (attackProjects120.ts): engine calls keeping it, reached past the old rule.
    ["set_meta through a singleton's call", ['\tEngine.call("set_meta", "k", T["a"])', '\tEngine.get_meta("k")["m"] = "execute"']],
    ["a parameter named like a singleton", ["\thold(self)", '\tarr["m"] = "execute"'], ["func keep(d):", "\tarr = d", "func hold(Performance):", '\tPerformance.call("keep", T["a"])']],
    ["a coroutine resumed with the entry", ["\tvar st = waiter()", '\tst.resume(T["a"])'], ["func waiter():", "\tvar got = yield()", '\tgot["m"] = "execute"']],
    ["a drag's data", ["\tvar c = Control.new()", "\tadd_child(c)", '\tc.force_drag(T["a"], null)', '\tget_viewport().gui_get_drag_data()["m"] = "execute"']],
    ["a physics server's shape metadata", ['\tPhysics2DServer.body_set_shape_metadata(RID(), 0, T["a"])']],
    ["callv handing on a list holding the entry", ['\tOS.callv("set_meta", ["k", T["a"]])']],
    // A seventy-first red team's: the engine's method, whatever the pack's classes define under its name.
    // A seventy-second red team's: 3.x's super-constructor arguments, and a call on self reaching the engine base's method.
    ["a constructor handing it to its base's constructor", ['\tvar c = Kid.new(T["a"])', '\tc.kept["m"] = "execute"'], ["class Base:", "\tvar kept", "\tfunc _init(z, k):", "\t\tkept = k", "class Kid extends Base:", "\tfunc _init(a).(0, a):", "\t\tprint(a)"]],
    ["a call on self reaching the engine base's method", ["\tRpc.new().go()"], ["class Rpc extends JSONRPC:", "\tfunc go():", '\t\tmake_notification("x", T["a"])["params"]["m"] = "execute"', "class Decoy:", "\tfunc make_notification(a, b):", "\t\tprint(b)"]],
    // A seventy-third red team's: self may be of a class overriding the function.
    ["a call on self reaching a subclass's override", ["\tKid.new().go()"], ["class Base:", "\tfunc go():", '\t\tf(T["a"])', "\tfunc f(x):", "\t\tprint(x)", "class Kid extends Base:", "\tfunc f(x):", '\t\tx["m"] = "execute"']],
    ["an engine method named like a function of the pack", ['\tvar n = JSONRPC.new().make_notification("x", T["a"])', '\tn["params"]["m"] = "execute"'], ["func make_notification(a, b):", "\tprint(b)"]],
  ])("%s: the dispatch through it is an error", (_name, change, after = []) => {
    expect(changed(change, after)).toContain(T_DISPATCH)
  })

  it("a loop over a list of tables changing its variable stops that list being followed, not the other table", () => {
    expect(changed(["\tfor x in L:", '\t\tx["m"] = "execute"'])).toEqual(['dynamic-dispatch: OS.callv(L[0]["m"], ["touch", []])'])
  })

  it("with nothing changed, neither dispatch is an error (the names are OS's get_name)", () => {
    expect(changed([])).toEqual([])
  })
})

describe("a Dictionary whose keys are tables (a seventieth red team's): its walks are not followed into them", () => {
  it.each([
    ["a walk changing a key", 'const K = {{"m": "get_name"}: 1}', ["\tfor j in K:", '\t\tj["m"] = "execute"']],
    ["keys() changing a key", 'const K = {{"m": "get_name"}: {"n": 1}}', ["\tvar ks = K.keys()", '\tks[0]["m"] = "execute"']],
  ])("%s: the dispatch through a key is an error", (_name, decl, change) => {
    expect(errors(["extends Node", decl, "func _ready():", ...change, "\tfor k in K:", '\t\tOS.callv(k["m"], ["touch", []])'])).toContain('dynamic-dispatch: OS.callv(k["m"], ["touch", []])')
  })
})

describe("a property path built at run time may write into any constant (Object::set_indexed gets its first segment)", () => {
  const table = ["extends Node", 'const TY = {"op": "get_name"}', "func _ready():"]
  it.each([
    ["set_indexed of a concatenation", ['\tset_indexed("T" + "Y:op", "execute")']],
    ["set_indexed named by a string", ['\tcall("set_indexed", NodePath("T" + "Y:op"), "execute")']],
    ["an animation track's path", ["\tvar a = Animation.new()", '\ta.track_set_path(0, "T" + "Y:op")']],
    ["an animation track's path set as a property (a seventieth red team's)", ["\tvar a = Animation.new()", '\ta.set("tracks/0/path", "T" + "Y:op")']],
    ["a track path property named by a format", ["\tvar a = Animation.new()", '\ta["tracks/%d/path" % 0] = "T" + "Y:op"']],
  ])("%s: the dispatch is an error", (_name, change) => {
    expect(errors([...table, ...change, '\tOS.callv(TY["op"], ["touch", []])'])).toContain('dynamic-dispatch: OS.callv(TY["op"], ["touch", []])')
  })

  it("paths that are the code's own strings, and a 3.x Tween's (numbers only), keep the constant followed", () => {
    const body = ['\tfor p in ["position:x", "position:y"]:', "\t\t$Node.set_indexed(p, 0.0)", "\tvar t = Tween.new()", '\tt.interpolate_property($Node, "modulate:a" if randi() % 2 else "scale:x", 0.0, 1.0, 0.3)', '\tOS.callv(TY["op"], [])']
    expect(errors([...table, ...body])).toEqual([])
  })
})
