// The classes a second red team got past pckgate-scanner/4, on source text and in both grammars (the
// engine-run proofs are the attack-rt2-* projects of attackCorpus.test.ts), and the benign code shaped
// like them that must stay free of errors.
import { describe, expect, it } from "vitest"
import { analyzeScript } from "../../adapters/scanner/gdscript/analyzeScript.ts"
import { parseScript } from "../../adapters/scanner/gdscript/parser.ts"
import { defaultPolicy } from "../../adapters/scanner/policy/defaultPolicy.ts"
import { hitsIn, ids, modelOf, packOf } from "./support/analyze.ts"

const errors = (found: ReadonlyArray<string>): ReadonlyArray<string> => found.filter((h) => h.split(" ")[1] === "error")
const fn = (...body: ReadonlyArray<string>): string => `extends Node\nfunc _ready():\n${body.map((l) => `\t${l}`).join("\n")}\n`

describe("a class_name never stands for an engine class or singleton", () => {
  const shadows = { "res://unused/shadow.gd": "extends Reference\nclass_name OS\n", "res://unused/gd.gd": "extends Reference\nclass_name GDScript\n" }

  it("OS and GDScript stay the engine's, registered or not, and the declarations are errors", () => {
    for (const grammar of [3, 4] as const) {
      expect(ids(hitsIn(fn('OS.execute("touch", [])', "var s = GDScript.new()", 's.source_code = "x"'), shadows, grammar))).toEqual(["os-process", "gdscript-new", "script-source-code"])
      const scripts = packOf(shadows, grammar)
      for (const s of scripts) expect(analyzeScript(s, modelOf(scripts, grammar), defaultPolicy).hits.map((h) => `${h.line} ${h.entry.id}`)).toEqual(["2 class-name-shadows-engine"])
    }
  })

  it("only registered classes are global: an unregistered class_name names nothing", () => {
    const scripts = packOf({ "res://main.gd": fn("Helper.go()"), "res://helper.gd": "extends Reference\nclass_name Helper\nstatic func go():\n\treturn OS\n" }, 3)
    const main = scripts[0] as (typeof scripts)[number]
    const registered = analyzeScript(main, modelOf(scripts, 3), defaultPolicy).hits.map((h) => h.entry.id)
    const unregistered = analyzeScript(main, modelOf(scripts, 3, defaultPolicy, new Map()), defaultPolicy).hits.map((h) => h.entry.id)
    expect([registered, unregistered]).toEqual([[], []])
  })
})

describe("values the engine computes", () => {
  it("Godot 3 and 4 string methods, math constants, number literals", () => {
    expect(ids(errors(hitsIn(fn('Engine.get_singleton("abcOS".right(3)).execute("t", [])', 'OS.call("\\u0001execute".strip_edges(), "t", [])', 'Engine.get_singleton("".plus_file("OS")).kill(1)'), {}, 3)))).toEqual([
      "os-process",
      "os-process",
      "os-kill",
    ])
    expect(ids(errors(hitsIn(fn('Engine.get_singleton("abcOS".right(2)).execute("t", [])', 'OS.call("xexecute".right(-1), "t", [])'), {}, 4)))).toEqual(["os-process", "os-process"])
    for (const flag of ["PI", "INF", "NAN", "TAU", "1_0", "0x1", "0b1", "1.5", "-1"]) expect(ids(hitsIn(fn(`var o = bytes2var(PoolByteArray(), ${flag})`), {}, 3)), flag).toEqual(["decode-var-objects"])
    for (const flag of ["0", "0.0", "0x0", "false", "null", "not PI"]) expect(hitsIn(fn(`var o = bytes2var(PoolByteArray(), ${flag})`), {}, 3), flag).toEqual([])
  })

  it("a path whose known start can still become user:// is user://; a joined array of strings is folded", () => {
    expect(errors(hitsIn(fn('load(PoolStringArray(["user:", "", "evil.gd"]).join("/"))', 'load("/".join(["user:", "", "e.gd"]))'), {}, 3)).map((h) => h.split(" ").slice(0, 3).join(" "))).toEqual([
      "3:7 error runtime-code-loading",
      "4:7 error runtime-code-loading",
    ])
    expect(errors(hitsIn(`${fn('go("")')}func go(x):\n\tload("user:/" + x + "/e.gd")\n`, {}, 3))).toEqual(['5:7 error runtime-code-loading load("user://e.gd")'])
    // Reached by a name that is not constant, x may be anything.
    expect(errors(hitsIn(`${fn('go("")', "call(n)")}func go(x):\n\tload("user:/" + x + "/e.gd")\n`, {}, 3))).toEqual(['6:7 error runtime-code-loading load("user:/" …)'])
    // A start without a complete first segment proves nothing: a warning, not "stays under res://".
    expect(hitsIn(`${fn('go("")', "call(n)")}func go(x):\n\tload("lev" + x)\n\tload("levels/" + x)\n`, {}, 3).map((h) => h.split(" ").slice(0, 3).join(" "))).toEqual([
      "6:7 warning runtime-code-loading",
      "7:7 warning runtime-code-loading",
    ])
  })

  it("a method's value is any of its overrides' in the pack's subclasses", () => {
    const base = 'extends Reference\nfunc run(m):\n\tEngine.get_singleton(single()).call(meth(), "touch", [m])\nfunc single():\n\treturn "Engine"\nfunc meth():\n\treturn "get_name"\n'
    const sub = 'extends "res://main.gd"\nfunc single():\n\treturn "OS"\nfunc meth():\n\treturn "execute"\n'
    expect(errors(hitsIn(base, { "res://sub.gd": sub }, 3))).toEqual(['3:2 error os-process call("execute")'])
    expect(errors(hitsIn(base, {}, 3))).toEqual([])
    // An override that is not constant makes the name not constant.
    expect(ids(errors(hitsIn(base, { "res://sub.gd": 'extends "res://main.gd"\nfunc meth():\n\treturn str(randi())\n' }, 3)))).toEqual(["dynamic-dispatch"])
  })
})

describe("property paths write their last part", () => {
  it("set_indexed, a tween's property, dispatch to set_indexed: source_code on a script is an error", () => {
    const holder = (...body: ReadonlyArray<string>) => `extends Node\nvar s\nfunc _ready():\n\ts = load("res://b.gd").duplicate()\n${body.map((l) => `\t${l}`).join("\n")}\n`
    for (const write of ['set_indexed("s:source_code", "x")', 'call("set_indexed", "s:source_code", "x")', 'get_tree().create_tween().tween_property(self, "s:source_code", "x", 1.0)', 'set_indexed(NodePath("s:source_code"), "x")']) {
      expect(ids(errors(hitsIn(holder(write), { "res://b.gd": "extends Reference\n" }, 4))), write).toContain("script-source-code")
    }
    expect(ids(errors(hitsIn(holder('Tween.new().interpolate_property(self, "s:source_code", "a", "b", 1.0)'), { "res://b.gd": "extends Reference\n" }, 3)))).toContain("script-source-code")
    // Your own source_code member through a path on yourself, and other paths, are fine.
    expect(hitsIn('extends Node\nvar source_code = ""\nvar pos = Vector2()\nfunc _ready():\n\tset_indexed("source_code", "x")\n\tset_indexed("pos:x", 1)\n', {}, 4)).toEqual([])
  })
})

describe("file writes go to user:// only", () => {
  it("every file-writing API of the class reference, in each grammar's argument order", () => {
    const g3 = fn(
      'ConfigFile.new().save("/tmp/a.cfg")',
      'ResourceSaver.save("res://x.tres", Resource.new())',
      'Image.new().save_png("C:/x.png")',
      'OS.dump_resources_to_file("/tmp/r.txt")',
      'var d = Directory.new()',
      'd.copy("res://a.png", "../b.png")',
      'var f = File.new()',
      'f.open("res://save.dat", File.WRITE)',
      'f.open("res://data.json", File.READ)',
      'ConfigFile.new().save("user://ok.cfg")',
      'ConfigFile.new().save("settings.cfg")',
    )
    expect(hitsIn(g3, {}, 3).map((h) => h.split(" ").slice(0, 3).join(" "))).toEqual([
      "3:2 error filesystem-outside-sandbox",
      "4:2 error filesystem-outside-sandbox",
      "5:2 error filesystem-outside-sandbox",
      "6:2 error filesystem-outside-sandbox",
      "8:2 error filesystem-outside-sandbox",
      "10:2 error filesystem-outside-sandbox",
      "13:2 error filesystem-outside-sandbox",
    ])
    expect(hitsIn(fn('ResourceSaver.save(Resource.new(), "/tmp/x.tres")', 'ResourceSaver.save(Resource.new(), "user://x.tres")', 'FileAccess.open("res://s.dat", FileAccess.WRITE)'), {}, 4).map((h) => h.split(" ").slice(0, 2).join(" "))).toEqual([
      "3:2 error",
      "5:2 error",
    ])
  })

  it("a write path read at run time is an error, one built otherwise a warning; under user://, a built part that may climb out with `..` is an error whatever it is read from, one file name is none", () => {
    const found = hitsIn(fn('ConfigFile.new().save(OS.get_environment("HOME") + "/x")', 'ConfigFile.new().save("user://" + get_name())', 'ConfigFile.new().save(get_name())', 'ConfigFile.new().save("user://save_%d.cfg" % get_index())', 'var f = File.new()', 'f.open("user://n.txt", File.READ)', 'ConfigFile.new().save("user://" + f.get_line())', 'ConfigFile.new().save("user://" + get_meta("p").get_file())'), {}, 3)
    expect(found.map((h) => h.split(" ").slice(0, 2).join(" "))).toEqual(["3:2 error", "4:2 error", "5:2 warning", "9:2 error"])
  })
})

describe("a banned method name on an object that cannot be pinned down", () => {
  const command = { "res://command.gd": "extends Reference\nclass_name Command\nfunc execute():\n\tpass\n", "res://spawner.gd": "extends Node\nclass_name Spawner\nfunc create_instance():\n\tpass\n" }
  const uses = fn("var queue = [Command.new()]", "for cmd in queue:", '\tcmd.call_deferred("execute")', "var undo = UndoRedo.new()", 'undo.add_do_method(queue.front(), "execute")', '$Button.connect("pressed", queue.back(), "execute")', "$Spawner.create_instance()")

  it("is a warning when a class of the pack defines that method (it may be the creator's own)", () => {
    expect(hitsIn(uses, command, 3).map((h) => h.split(" ").slice(0, 3).join(" "))).toEqual([
      "5:3 warning os-process",
      "7:2 warning os-process",
      "8:2 warning os-process",
    ])
  })

  it("is an error when no class of the pack defines it: only the engine's can be reached; a node of the scene tree is never a singleton", () => {
    expect(ids(errors(hitsIn(uses, {}, 3)))).toEqual(["os-process", "os-process", "os-process"])
  })

  it("on an object that may be any engine object it stays an error", () => {
    expect(ids(errors(hitsIn(fn("var o = instance_from_id(5)", 'o.call("execute", "t", [])'), command, 3)))).toEqual(["os-process"])
  })
})

describe("Godot 3 reads a character above U+FFFF in code as a space (Windows) or refuses the script", () => {
  it("OS𝐀.execute is OS .execute", () => {
    expect(ids(hitsIn(fn('OS\u{1d400}.execute("t", [])'), {}, 3))).toEqual(["os-process"])
    expect(parseScript("var 𝐀 = 1\n", 4).root.functions).toEqual([])
  })
})
