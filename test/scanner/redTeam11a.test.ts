// The analysis side of what an eleventh red team got past pckgate-scanner/11 (attackProjects22.ts holds the packs
// the engine ran): a class of the pack extending an engine class calls that class's methods (judged as on
// `Base.new()`, by every rule, in both grammars), paths read at run time reaching a function through `new`, a
// setter, `_set` or an inner class's name, and relative `extends`/`preload` paths the engine joins to the script's folder.
import { describe, expect, it } from "vitest"
import { analyzeScript } from "../../adapters/scanner/gdscript/analyzeScript.ts"
import { defaultPolicy } from "../../adapters/scanner/policy/defaultPolicy.ts"
import { hitsIn, modelOf, packOf } from "./support/analyze.ts"

const errors = (found: ReadonlyArray<string>): ReadonlyArray<string> => found.filter((h) => h.split(" ")[1] === "error").map((h) => `${h.split(":")[0]} ${h.split(" ")[2]}`)

describe("a class of the pack extending an engine class", () => {
  it.each([3, 4] as const)("Godot %i: a script extending ConfigFile saving outside user:// from its own code is an error", (grammar) => {
    const found = hitsIn(["extends ConfigFile", "func _init():", '\tset_value("x", "y", 2)', '\tsave("/tmp/x.cfg")', ""].join("\n"), {}, grammar)
    expect(errors(found)).toEqual(["4 filesystem-outside-sandbox"])
  })

  it.each([3, 4] as const)("Godot %i: an inner class extending ConfigFile loading user:// data is a config-file-objects error", (grammar) => {
    const found = hitsIn(["extends Node", "class Settings extends ConfigFile:", "\tpass", "func _ready():", '\tSettings.new().load("user://s.cfg")', ""].join("\n"), {}, grammar)
    expect(errors(found)).toEqual(["5 config-file-objects"])
  })

  it("a method the pack class defines itself stays the pack's", () => {
    const found = hitsIn(["extends Node", "class Settings extends ConfigFile:", "\tfunc save(p):", "\t\tprint(p)", "func _ready():", '\tSettings.new().save("/tmp/x")', ""].join("\n"), {}, 3)
    expect(errors(found)).toEqual([])
  })

  it("a bare global function in a class extending ConfigFile is the global one (load of the pack's scene)", () => {
    const found = hitsIn(["extends ConfigFile", "func _init():", '\tprint(load("res://main.gd"))', '\tsave("user://s.cfg")', ""].join("\n"), {}, 3)
    expect(errors(found)).toEqual([])
  })

  it("XMLParser.open of a file outside the game's folders, through an inner class, is an error", () => {
    const found = hitsIn(["extends Node", "class X extends XMLParser:", "\tpass", "func _ready():", '\tX.new().open("/etc/passwd")', ""].join("\n"), {}, 3)
    expect(errors(found)).toEqual(["5 filesystem-outside-sandbox"])
  })

  it("an inner class of another script extended by path counts", () => {
    const found = hitsIn(['extends "res://cfg.gd".Inner', "func go():", '\tsave("/tmp/x")', ""].join("\n"), { "res://cfg.gd": ["extends Reference", "class Inner extends ConfigFile:", "\tpass", ""].join("\n") }, 3)
    expect(errors(found)).toEqual(["3 filesystem-outside-sandbox"])
  })

  it("a settings class extending ConfigFile that saves to user:// stays clean, and lists the file write", () => {
    const scripts = packOf({ "res://main.gd": ["extends Node", "class Settings extends ConfigFile:", "\tpass", "func _ready():", "\tvar s = Settings.new()", '\ts.set_value("a", "b", 1)', '\ts.save("user://settings.cfg")', ""].join("\n") }, 3)
    const script = scripts[0]
    if (script === undefined) throw new Error("no script")
    const analysis = analyzeScript(script, modelOf(scripts, 3), defaultPolicy)
    expect(analysis.hits).toEqual([])
    expect(analysis.uses).toEqual([{ capability: "file-writes", api: "ConfigFile.save", line: 7, column: 2 }])
  })
})

describe("a path read at run time reaching a function of the pack", () => {
  const env = 'OS.get_environment("HOME") + "/x"'
  const writer = (head: ReadonlyArray<string>, reach: string): string => ["extends Node", ...head, "\t\tvar f = File.new()", "\t\tf.open(p, File.WRITE)", "func _ready():", `\t${reach}`, "func w(x):", "\tpass", ""].join("\n")
  it.each([
    ["_init through new", ["class I extends Reference:", "\tfunc _init(p):"], `I.new(${env})`],
    ["a static function by its class's name", ["class I extends Reference:", "\tstatic func w(p):"], `I.w(${env})`],
    ["a function by call", ["class I extends Reference:", "\tstatic func w(p):"], `I.call("w", ${env})`],
    ["a function by callv", ["class I extends Reference:", "\tfunc w(p):"], `I.new().callv("w", [${env}])`],
    ["a function by funcref", ["class I extends Reference:", "\tstatic func w(p):"], `funcref(I, "w").call_func(${env})`],
    ["_set", ["class I extends Reference:", "\tfunc _set(k, p):"], `I.new().anything = ${env}`],
    ["_set by set()", ["class I extends Reference:", "\tfunc _set(k, p):"], `I.new().set("anything", ${env})`],
  ] as const)("through %s: a write there is an error", (_how, head, reach) => {
    expect(errors(hitsIn(writer(head, reach), {}, 3))).toContain("5 filesystem-outside-sandbox")
  })

  it.each([
    [3, ["extends Node", "var target setget set_target", "func set_target(p):", "\tvar f = File.new()", "\tf.open(p, File.WRITE)", "func _ready():", '\tself.target = OS.get_environment("HOME")', ""]],
    [4, ["extends Node", "var target:", "\tset(p):", "\t\tvar f = FileAccess.open(p, FileAccess.WRITE)", "func _ready():", '\tself.target = OS.get_environment("HOME")', ""]],
  ] as const)("Godot %i: through a setter, a write there is an error", (grammar, text) => {
    const found = errors(hitsIn(text.join("\n"), {}, grammar))
    expect(found.some((h) => h.endsWith("filesystem-outside-sandbox"))).toBe(true)
  })

  it("a path the class is given only as a constant under user:// stays clean", () => {
    expect(errors(hitsIn(writer(["class I extends Reference:", "\tfunc _init(p):"], 'I.new("user://a.sav")'), {}, 3))).toEqual([])
  })
})

describe("relative extends and preload paths", () => {
  const files = { "res://game/base_enemy.gd": "extends Node2D\n", "res://game/common/defs.gd": "extends Reference\nclass Stats extends Reference:\n\tvar hp = 1\n", "res://lib/base_res.gd": "extends Reference\n" }
  /** Error findings of the script at `path` (not res://main.gd: a relative path is joined to its folder). */
  const at = (path: string, text: string): ReadonlyArray<string> => {
    const scripts = packOf({ ...files, [path]: text }, 3)
    const script = scripts.find((s) => s.path === path)
    if (script === undefined) return ["missing"]
    return analyzeScript(script, modelOf(scripts, 3), defaultPolicy).hits.filter((h) => h.severity === "error").map((h) => `${h.line} ${h.entry.id}`)
  }
  it.each([
    ["res://game/enemies/e4.gd", 'extends "../base_enemy.gd"'],
    ["res://game/e1.gd", 'extends "../game/base_enemy.gd"'],
    ["res://game/levels/boss.gd", 'extends "../common/defs.gd".Stats'],
    ["res://lib/fp/sub.gd", 'extends Reference\nconst B = preload("../base_res.gd")'],
  ])("%s: %s joined to the script's folder is the pack's file", (path, text) => {
    expect(at(path, `${text}\n`)).toEqual([])
  })

  it("a relative path that climbs above res:// and load() of a relative .. stay errors", () => {
    expect(errors(hitsIn('extends Reference\nconst B = preload("../../x.gd")\nfunc f():\n\tload("../game/base_enemy.gd")\n', files, 3))).toEqual(["2 runtime-code-loading", "4 runtime-code-loading"])
  })
})
