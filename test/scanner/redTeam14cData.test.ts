// False positives a fourteenth red team (c) found in ordinary Godot 3 jam-game code (attackProjects31.ts holds the
// look-alike godot3-server exports and the attacks run by the engine): a node member (`onready var player = $Player`)
// written by a name that is not constant, a loop over a constant Dictionary's keys, and a Dictionary member given JSON
// (`parse_json`, `JSON.parse(…).result`). Also the gaps found on the way: a loop variable's name reused by a loop over
// a constant array, JSON data written into, Godot 3's Lua-style dictionary keys.
import { describe, expect, it } from "vitest"
import { analyzeScript } from "../../adapters/scanner/gdscript/analyzeScript.ts"
import { engineNames } from "../../adapters/scanner/gdscript/engineClasses.ts"
import { indexPolicy } from "../../adapters/scanner/gdscript/PolicyIndex.ts"
import { PackModel } from "../../adapters/scanner/gdscript/packModel.ts"
import type { Grammar } from "../../adapters/scanner/gdscript/tokenizer.ts"
import { defaultPolicy } from "../../adapters/scanner/policy/defaultPolicy.ts"
import { hitsIn, modelOf, packOf } from "./support/analyze.ts"

/** `path:line policy-id` of every error in the pack (autoloads by name → path; data: properties the scenes set). */
const packErrors = (files: Readonly<Record<string, string>>, grammar: Grammar = 3, options: { readonly autoloads?: ReadonlyMap<string, string>; readonly sceneSets?: string } = {}): ReadonlyArray<string> => {
  const scripts = packOf(files, grammar)
  const model =
    options.autoloads === undefined && options.sceneSets === undefined
      ? modelOf(scripts, grammar)
      : new PackModel(scripts, new Map(), engineNames(grammar, indexPolicy(defaultPolicy)), {
          autoloads: options.autoloads ?? new Map(),
          dataProperties: { values: new Map(options.sceneSets === undefined ? [] : [[options.sceneSets, [{ script: null, value: null }]]]), written: new Set() },
        })
  return scripts.flatMap((s) => analyzeScript(s, model, defaultPolicy).hits.filter((h) => h.severity === "error").map((h) => `${s.path}:${h.line} ${h.entry.id}`))
}

const errorsIn = (main: string, grammar: Grammar = 3): ReadonlyArray<string> => hitsIn(main, {}, grammar).filter((h) => h.split(" ")[1] === "error")

const NODE_MEMBER = ["extends Node2D", "onready var player = $Player", "func upgrade(stat, amount):", "\tplayer.set(stat, player.get(stat) + amount)"]

describe("a member given only nodes of the scene tree", () => {
  it("is a node: a write of plain data by a name that is not constant is clean (red team 14c's m13_node_set_untyped)", () => {
    expect(packErrors({ "res://main.gd": [...NODE_MEMBER, ""].join("\n") })).toEqual([])
    // null and get_node(…) are such values too; the write's value is an operator's (plain data).
    const target = ["extends Node2D", "var target = null", "func _ready():", '\ttarget = get_node("Enemy")', "func nudge(stat, by):", "\ttarget.set(stat, target.get(stat) * by)", ""].join("\n")
    expect(packErrors({ "res://main.gd": target })).toEqual([])
  })

  it("stays of unknown class when its class also gives it a script, another script writes it, or a scene sets it", () => {
    const own = [...NODE_MEMBER, "func adopt():", '\tplayer = load("res://blank.gd").duplicate()', ""].join("\n")
    expect(packErrors({ "res://main.gd": own })).toContain("res://main.gd:4 script-source-code")
    const other = ["extends Node", "func _ready():", '\tget_node("/root/Main").player = load("res://blank.gd").duplicate()', ""].join("\n")
    expect(packErrors({ "res://main.gd": [...NODE_MEMBER, ""].join("\n"), "res://other.gd": other })).toContain("res://main.gd:4 script-source-code")
    expect(packErrors({ "res://main.gd": [...NODE_MEMBER, ""].join("\n") }, 3, { sceneSets: "player" })).toContain("res://main.gd:4 script-source-code")
    // `$Player` is get_node on self, and a script's get_node is called in the engine's place.
    const shadow = ["extends Node", "func get_node(path):", '\treturn load("res://blank.gd").duplicate()', ""].join("\n")
    expect(packErrors({ "res://main.gd": [...NODE_MEMBER, ""].join("\n"), "res://shadow.gd": shadow })).toContain("res://main.gd:4 script-source-code")
  })

  it("stays of unknown class beside a write by a name that is not constant whose value may be a script, on the node itself too", () => {
    // The node may carry this very script (the attack in attackProjects31.ts sets a child's `player` that way), so
    // a write on it is no write into a Dictionary (red team 14c's p13_upgrades `restore(saved)`).
    const restore = [...NODE_MEMBER, "func restore(saved):", "\tfor stat in saved:", "\t\tplayer.set(stat, saved[stat])", ""].join("\n")
    expect(packErrors({ "res://main.gd": restore })).toEqual(["res://main.gd:4 script-source-code", "res://main.gd:7 script-source-code"])
  })

  it("stays of unknown class when a Godot 4 lambda assigns it", () => {
    const lambda = ["extends Node2D", "@onready var player = $Player", "func swap(s):", "\tvar f = func(): player = s", "\tf.call()", "func upgrade(stat, amount):", "\tplayer.set(stat, amount)", ""].join("\n")
    expect(packErrors({ "res://main.gd": lambda }, 4)).toContain("res://main.gd:7 script-source-code")
  })
})

describe("a loop over a constant Dictionary", () => {
  const CONST = 'const UPGRADES = {"speed": 10, damage = 1}'

  it("walks its keys, exactly, when every use of it reads it (red team 14c's m13_node_set_const_keys on any object)", () => {
    for (const loop of ["UPGRADES", "UPGRADES.keys()"]) {
      const text = ["extends Node", CONST, "func apply(o):", `\tfor stat in ${loop}:`, "\t\to.set(stat, str(UPGRADES[stat]))", '\tprint(UPGRADES.has("x"), UPGRADES.size())', ""].join("\n")
      expect(errorsIn(text), loop).toEqual([])
    }
    const values = ["extends Node", 'const NAMES = {"a": "speed", "b": "damage"}', "func apply(o):", "\tfor stat in NAMES.values():", '\t\to.set(stat, "1")', ""].join("\n")
    expect(errorsIn(values)).toEqual([])
  })

  it("is not followed once the pack may change it: a subscript written, a method that puts, handed to a function", () => {
    for (const change of ['UPGRADES[key] = ""', 'UPGRADES["x"]["y"] = 1', "UPGRADES.merge(other)", "widen(UPGRADES)", "var u = UPGRADES"]) {
      const text = ["extends Node", CONST, "func apply(o):", "\tfor stat in UPGRADES:", '\t\to.set(stat, "text")', "func change(key, other):", `\t${change}`, "func widen(d):", "\tpass", ""].join("\n")
      expect(errorsIn(text), change).toContainEqual(expect.stringMatching(/^5:\d+ error script-source-code/))
    }
  })

  it("reads Godot 3's Lua-style keys as strings, as the engine does", () => {
    // godot3-server 3.2.3: `{speed = 10, "x": 2}.keys()` is `[speed, x]`, both Strings.
    const text = ["extends Node", "const D = {speed = 10, source_code = 2}", "func apply(s):", "\tfor k in D:", '\t\ts.set(k, "text")', ""].join("\n")
    expect(errorsIn(text).map((h) => `${h.split(":")[0]} ${h.split(" ").slice(1, 4).join(" ")}`)).toEqual(['5 error script-source-code set("source_code")'])
  })

  it("a loop variable's name used by several loops holds what each gives (a later loop over constants once decided it alone)", () => {
    const text = ["extends Node", "func f(o, data):", "\tfor k in data:", "\t\to.set(k, data[k])", '\tfor k in ["speed"]:', "\t\tprint(k)", ""].join("\n")
    expect(errorsIn(text)).toContainEqual(expect.stringMatching(/^4:\d+ error script-source-code/))
    const declared = ["extends Node", "func f(o, data):", '\tfor k in ["speed"]:', "\t\tprint(k)", '\tvar k = data["key"]', '\to.set(k, "text")', ""].join("\n")
    expect(errorsIn(declared)).toContainEqual(expect.stringMatching(/^6:\d+ error script-source-code/))
  })
})

describe("JSON data", () => {
  const SAVE_MANAGER = ["extends Node", "func load_game():", "\tvar file = File.new()", '\tfile.open("user://save.json", File.READ)', "\tvar result = JSON.parse(file.get_as_text())", "\tif result.error != OK:", "\t\treturn null", "\treturn result.result", ""].join("\n")

  it("a Dictionary member given parse_json or a save manager's JSON.parse(…).result is plain data (red team 14c's m02 and p02)", () => {
    const m02 = ["extends Node", "var inventory = {}", "func _ready():", "\tvar f = File.new()", '\tif f.open("user://save.json", File.READ) == OK:', "\t\tinventory = parse_json(f.get_as_text())", "func add_item(name, n):", "\tinventory[name] = n", ""].join("\n")
    expect(packErrors({ "res://main.gd": m02 })).toEqual([])
    const p02 = ["extends Node", 'var inventory = {"potion": 3}', "func _ready():", "\tvar data = SaveManager.load_game()", "\tif data:", '\t\tinventory = data.get("inventory", inventory)', '\t\tfor key in data.get("player", {}).keys():', '\t\t\tset(key, data["player"][key])', "func add_item(name, n):", "\tinventory[name] = n", ""].join("\n")
    expect(packErrors({ "res://main.gd": p02, "res://save_manager.gd": SAVE_MANAGER }, 3, { autoloads: new Map([["SaveManager", "res://save_manager.gd"]]) })).toEqual([])
  })

  it("Godot 4's JSON.parse_string and a JSON object's data are plain data too", () => {
    for (const read of ["inventory = JSON.parse_string(text)", "var j = JSON.new()\n\tif j.parse(text) == OK:\n\t\tinventory = j.data", "var j = JSON.new()\n\tj.parse(text)\n\tinventory = j.get_data()"]) {
      const text = ["extends Node", "var inventory = {}", "func load_from(text):", `\t${read}`, "func add_item(name, n):", "\tinventory[name] = n", ""].join("\n")
      expect(packErrors({ "res://main.gd": text }, 4), read).toEqual([])
    }
  })

  it("is no longer JSON's once the result's data is set or written into, or something else is put into it", () => {
    const cases: ReadonlyArray<readonly [Grammar, string]> = [
      [3, 'var r = JSON.parse(t)\n\tr.result = lost\n\tvar data = r.result\n\tdata[k] = "x"'],
      [3, 'var r = JSON.parse(t)\n\tr.set_result(lost)\n\tvar data = r.result\n\tdata[k] = "x"'],
      [3, 'var r = JSON.parse(t)\n\tr.result["a"] = lost\n\tvar data = r.result["a"]\n\tdata[k] = "x"'],
      [3, 'var d = parse_json(t)\n\td["s"] = lost\n\td["s"][k] = "x"'],
      [3, 'var d = parse_json(t)\n\td["a"]["s"] = lost\n\td["a"]["s"][k] = "x"'],
      [3, 'var d = parse_json(t)\n\td["a"].append(lost)\n\td["a"][0][k] = "x"'],
      [4, 'var j = JSON.new()\n\tj.parse(t)\n\tj.data = lost\n\tvar data = j.data\n\tdata[k] = "x"'],
      [4, 'var j = JSON.new()\n\tj.parse(t)\n\tj.set_data(lost)\n\tvar data = j.get_data()\n\tdata[k] = "x"'],
    ]
    for (const [grammar, body] of cases) {
      const text = ["extends Node", "func f(t, k, lost):", `\t${body}`, ""].join("\n")
      expect(errorsIn(text, grammar), body).toContainEqual(expect.stringMatching(/error script-source-code/))
    }
  })

  it("a function returning null or JSON gives JSON, and what is put into it afterwards is not", () => {
    const text = ["extends Node", "func read(t):", '\tif t == "":', "\t\treturn null", "\treturn parse_json(t)", "func f(t, k, lost):", "\tvar d = read(t)", '\td[k] = "x"', '\td["s"] = lost', '\td["s"][k] = "x"', ""].join("\n")
    expect(errorsIn(text).map((h) => h.split(":")[0])).toEqual(["10"])
  })

  it("keeps object decoding and paths read from JSON errors (dict2inst, str2var, bytes2var with objects, load)", () => {
    const text = ["extends Node", "var cfg = {}", "func f(t, b):", "\tcfg = parse_json(t)", "\tdict2inst(parse_json(t))", "\tstr2var(t)", "\tbytes2var(b, true)", "\tvar f = File.new()", '\tf.open("user://cfg.json", File.READ)', "\tvar c = parse_json(f.get_as_text())", '\tload(c["mod"])', '\tload(JSON.parse(f.get_as_text()).result["mod"])', "\tcfg = parse_json(f.get_as_text())", '\tload(cfg["mod"])', ""].join("\n")
    const lines = errorsIn(text).map((h) => `${h.split(":")[0]} ${h.split(" ")[2]}`)
    for (const expected of ["5 runtime-code-loading", "6 object-deserialization", "7 decode-var-objects", "11 runtime-code-loading", "12 runtime-code-loading", "14 runtime-code-loading"]) expect(lines).toContain(expected)
  })
})
