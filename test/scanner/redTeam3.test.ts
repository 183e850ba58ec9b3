// The classes a third red team got past pckgate-scanner/5, on source text and in both grammars, and in
// packs built with the test's pack writer where the engine cannot show it here (native libraries, Godot 4
// binary scenes, ConfigFile.parse, which Godot 3.2 lacks); the engine-run proofs are the attack-rt3-*
// projects of attackCorpus.test.ts. Benign code shaped like them stays free of errors.
import { describe, expect, it } from "vitest"
import { entryName } from "../../adapters/scanner/pack/readDirectory.ts"
import { type DataCallSite, dataCallScript } from "../../adapters/scanner/checks/dataCallScript.ts"
import { analyzeScript } from "../../adapters/scanner/gdscript/analyzeScript.ts"
import { engineNames } from "../../adapters/scanner/gdscript/engineClasses.ts"
import { indexPolicy } from "../../adapters/scanner/gdscript/PolicyIndex.ts"
import { PackModel } from "../../adapters/scanner/gdscript/packModel.ts"
import { tokenize } from "../../adapters/scanner/gdscript/tokenizer.ts"
import { defaultPolicy } from "../../adapters/scanner/policy/defaultPolicy.ts"
import { TextResourceReader } from "../../adapters/scanner/resource/textResource.ts"
import { trojanSourceHits } from "../../adapters/scanner/text/trojanSource.ts"
import { hitsIn, packOf } from "./support/analyze.ts"
import { utf8 } from "./support/bytes.ts"
import { writePack } from "./support/packWriter.ts"
import { writeBinaryScene } from "./support/resourceWriter.ts"
import { scanBytes } from "./support/scan.ts"

type Grammar = 3 | 4

const errors = (found: ReadonlyArray<string>): ReadonlyArray<string> => found.filter((h) => h.split(" ")[1] === "error")
/** `line severity id` of each hit. */
const brief = (found: ReadonlyArray<string>): ReadonlyArray<string> => found.map((h) => { const [pos, severity, id] = h.split(" "); return `${pos?.split(":")[0]} ${severity} ${id}` })
/** A node with a member `s` holding a script copy; `body` from line 5. */
const holder = (...body: ReadonlyArray<string>): string => `extends Node\nvar s\nsignal go\nfunc _ready():\n${body.map((l) => `\t${l}`).join("\n")}\n`
const SRC = '"extends Reference\\nfunc go(m):\\n\\tOS.execute(\\"touch\\", [m])\\n"'
const both = [3, 4] as const

describe("a method or property named by a value that is not constant, on self or a node", () => {
  it("a property path built at run time can name script:source_code (or a peer's allow_object_decoding) on any object: an error by what the value can be; a known one is judged as written", () => {
    for (const grammar of both) {
      const built = holder('var k = "s:source"', 'k += "_code"', `set_indexed(k, ${SRC})`, `set_indexed("{0}:x".format(["s"]), 1)`, '$Sprite.set_indexed(name, "text")', 'set_indexed("modulate:a", 0.5)', "$Sprite.set_indexed(name, Vector2(1, 1))", "$Sprite.set_indexed(name, false)")
      expect(brief(hitsIn(built, {}, grammar)), `Godot ${grammar}`).toEqual(["7 error script-source-code", "8 error object-decoding-flag", "9 error script-source-code"])
    }
  })

  it("a method name that is not constant, arguments in sight: judged as each engine method every object inherits (set_indexed, set, call, …)", () => {
    for (const grammar of both) {
      expect(brief(hitsIn(holder(`call("set_{0}".format(["indexed"]), "s:source_code", ${SRC})`, `callv(name, ["s:source_code", ${SRC}])`, `propagate_call(name, ["s:source_code", ${SRC}])`), {}, grammar))).toEqual([
        "5 error script-source-code",
        "6 error script-source-code",
        "7 error script-source-code",
      ])
      // Harmless arguments (none, a number) reach nothing.
      expect(hitsIn(holder("call(name)", "call(name, 5)", 'get_tree().call_group("enemies", name)', "$Player.call(name)", "get_parent().call_deferred(name)"), {}, grammar)).toEqual([])
    }
  })

  it("a method name that is not constant with the arguments out of sight (a signal's, a FuncRef's): an error, unless its known start rules every such method out", () => {
    expect(brief(hitsIn(holder('connect("go", self, name)', "funcref($Player, name)", 'connect("go", self, "set_" + name)'), {}, 3))).toEqual(["5 error dynamic-dispatch", "6 error dynamic-dispatch", "7 error dynamic-dispatch"])
    expect(hitsIn(holder('connect("go", self, "_on_" + name)', '$Button.connect("pressed", get_parent(), "_on_" + name)', 'funcref($Player, "on_" + name)'), {}, 3)).toEqual([])
    // A method the class defines itself is its own, not the engine's.
    expect(hitsIn(`${holder('connect("go", self, "call")')}func call(a = 0, b = 0, c = 0):\n\tpass\n`, {}, 3)).toEqual([])
  })

  it("a constant name reaching a dispatch API whose arguments come with the signal: set_indexed and call connected to self", () => {
    expect(brief(hitsIn(holder('connect("go", self, "set_indexed")', 'connect("go", self, "call")', 'connect("go", self, "queue_free")'), {}, 3))).toEqual(["5 error script-source-code", "6 error dynamic-dispatch"])
    expect(brief(hitsIn(holder("go.connect(set_indexed)", 'go.connect(Callable(self, "set_indexed"))'), {}, 4))).toEqual(["6 error script-source-code"])
  })

  it("a script in a container is still a script: its source_code written by a name that is not constant, and reload() by dispatch", () => {
    for (const grammar of both) {
      const source = holder('var s2 = [load("res://blank.gd").duplicate()][0]', 's2.set("source_{0}".format(["code"]), "x")', 'var d = {"a": load("res://blank.gd").duplicate()}', 'd["a"][name] = "x"', 'for t in [load("res://blank.gd").duplicate()]:', '\tt.set(name, "x")', 's2.set("source_cod".insert(10, "e"), "x")')
      expect(brief(hitsIn(source, { "res://blank.gd": "extends Reference\n" }, grammar)), `Godot ${grammar}`).toEqual(["6 error script-source-code", "8 error script-source-code", "10 error script-source-code", "11 error script-source-code"])
    }
    // A container of strings or numbers written by name is a dictionary, not a script.
    expect(hitsIn(holder("var d = {}", 'd[name] = "x"', "var a = [1, 2]", "a[0] = 3"), {}, 3)).toEqual([])
  })
})

describe("animations built in code (the Animation API)", () => {
  it("a track's path names the property its keys write; a method track's key names the method and its arguments", () => {
    for (const grammar of both) {
      const source = holder(
        "var a = Animation.new()",
        'a.track_set_path(0, ".:s:source_code")',
        `a.track_insert_key(1, 0.1, {"method": "set_indexed", "args": ["s:source_code", ${SRC}]})`,
        `a.track_insert_key(1, 0.2, {"method": "call", "args": ["set_indexed", "s:source_code", ${SRC}]})`,
        "a.track_insert_key(1, 0.3, key)",
        'a.track_set_path(0, "Sprite:modulate")',
        "a.track_insert_key(0, 0.0, Color(1, 1, 1))",
        'a.track_insert_key(1, 0.4, {"method": "queue_free", "args": []})',
      )
      expect(brief(hitsIn(source, {}, grammar)), `Godot ${grammar}`).toEqual(["6 error script-source-code", "7 error script-source-code", "8 error script-source-code", "9 error dynamic-dispatch"])
    }
  })
})

describe("scene data calling by name: connections and method tracks through the dispatch table", () => {
  /** `line severity id` of the hits of the data-call script of `calls` (the first call on line 3), every call on a node. */
  const judged = (calls: ReadonlyArray<Pick<DataCallSite, "method" | "args" | "afterSignal">>, grammar: Grammar = 3): ReadonlyArray<string> => {
    const script = dataCallScript(calls.map((c) => ({ node: ".", resource: [], at: null, what: c.method, ...c })), () => null)
    return [...new Set(brief(hitsIn(script?.source ?? "", {}, grammar)))]
  }
  it("a connection's binds follow the signal's arguments; each dispatch API is followed to what it writes", () => {
    for (const grammar of both) {
      expect(judged([{ method: "propagate_call", args: ["set_indexed", ["s:source_code", "x"]], afterSignal: true }], grammar)).toContain("3 error script-source-code")
      expect(judged([{ method: "callv", args: ["set_deferred", ["s:source_code", "x"]], afterSignal: false }], grammar)).toEqual(["3 error script-source-code"])
      expect(judged([{ method: "call_group", args: ["g", "set_indexed", "s:source_code", "x"], afterSignal: false }], grammar)).toEqual(["3 error script-source-code"])
      // A bind may stand at any position up to the name's: after one signal argument, the first bind is call's name.
      expect(judged([{ method: "call", args: ["set_indexed", "s:source_code", "x"], afterSignal: true }], grammar)).toContain("3 error script-source-code")
      expect(judged([{ method: "call", args: ["play", "fade"], afterSignal: false }, { method: "set_indexed", args: ["modulate:a", 1], afterSignal: false }], grammar)).toEqual([])
    }
  })

  it("text scenes: method tracks, connections with nested binds, objects the parser builds", () => {
    const reader = new TextResourceReader(3)
    reader.feed(
      [
        "[gd_scene load_steps=2 format=2]",
        '[sub_resource type="Animation" id=1]',
        'tracks/0/type = "method"',
        'tracks/0/path = NodePath(".")',
        'tracks/0/keys = { "times": PoolRealArray( 0 ), "values": [ { "args": [ "s:source_code", 1.5, "x" ], "method": "set_indexed" } ] }',
        '[node name="N" type="Node"]',
        '__meta__ = { "o": Object(_OS,"low_processor_usage_mode":false) }',
        '[connection signal="timeout" from="T" to="." method="propagate_call" binds= [ "set_indexed", [ "s:source_code", "x" ] ]]',
        "",
      ].join("\n"),
    )
    const facts = reader.finish()
    expect(facts.trackCalls.map((t) => [t.method, t.args, t.at.line])).toEqual([["set_indexed", ["s:source_code", 1.5, "x"], 5]])
    expect(facts.connections.map((c) => [c.signal, c.method, c.binds])).toEqual([["timeout", "propagate_call", ["set_indexed", ["s:source_code", "x"]]]])
    expect(facts.objects.map((o) => [o.className, o.at.line])).toEqual([["_OS", 7]])
  })

  it("Godot 4 binary scenes: a method track and a connection to propagate_call with an array bind", async () => {
    const scene = writeBinaryScene({
      scripts: [],
      animations: [{ id: "Animation_a", names: ["."], subnames: [], method: { name: "set_indexed", args: ["s:source_code", "x"] } }],
      nodes: [{ name: "Level", type: "Node", parent: -1 }, { name: "Timer", type: "Timer", parent: 0 }],
      connections: [{ from: 1, to: 0, signal: "timeout", method: "propagate_call", binds: ["set_indexed", ["s:source_code", "x"]] }],
    })
    const report = await scanBytes(writePack({ format: 3, entries: [{ path: "res://level.scn", data: scene }] }))
    // Judged as the calls in code (dataCallScript.ts); a binary scene has no lines.
    expect(report.findings.filter((f) => f.file === "res://level.scn" && f.pattern === "source_code assignment").map((f) => [f.line, f.message.slice(0, f.message.indexOf("): ") + 1)])).toEqual([
      [null, 'set_indexed("s:source_code") (a method track of animation Animation_a on "." calling set_indexed)'],
      [null, 'set_indexed("s:source_code") (the scene connection of "timeout" calling propagate_call with the signal\'s arguments, then its binds)'],
    ])
  })

  it("a script emitting a signal a scene connects to a dispatch API chooses the arguments the binds follow", () => {
    const scripts = packOf({ "res://main.gd": holder(`emit_signal("go", "s:source_code", ${SRC})`, 'emit_signal("go", "modulate:a", 1)'), "res://four.gd": "extends Node\nsignal go\nfunc _ready():\n\tgo.emit(\"s:source_code\", 1)\n" }, 4)
    const model = new PackModel(scripts, new Map(), engineNames(4, indexPolicy(defaultPolicy)), { connections: [{ signal: "go", method: "set_indexed", binds: [] }] })
    expect(scripts.map((s) => analyzeScript(s, model, defaultPolicy).hits.map((h) => `${s.key}:${h.line} ${h.entry.id}`))).toEqual([["res://main.gd:5 script-source-code"], ["res://four.gd:4 script-source-code"]])
  })
})

/** A Godot 3 pack with the entry scene, its script and `entries`. */
const pack3 = (entries: ReadonlyArray<{ readonly path: string; readonly data: Uint8Array }>, format = 1): Uint8Array =>
  writePack({
    format,
    entries: [
      { path: "res://manifest.json", data: utf8(JSON.stringify({ id: "p", name: "P", version: "1.0.0", engine_sdk: "1", entry_scene: "res://main.tscn", min_players: 1, max_players: 1 })) },
      { path: "res://main.tscn", data: utf8('[gd_scene load_steps=2 format=2]\n[ext_resource path="res://main.gd" type="Script" id=1]\n[node name="M" type="Node2D"]\nscript = ExtResource( 1 )\n') },
      ...entries,
    ],
  })

const findingsOf = async (bytes: Uint8Array): Promise<ReadonlyArray<string>> =>
  (await scanBytes(bytes)).findings
    .filter((f) => f.rule !== "entry-scene-not-engine-game")
    .map((f) => `${f.file}${f.line === null ? "" : `:${f.line}`} ${f.severity} ${/\(policy ([a-z0-9-]+)\)/.exec(f.message)?.[1] ?? f.rule}`)

describe("objects the engine's variant parser builds from data", () => {
  it("ConfigFile from outside the pack is an error; from the pack, its text is read as data: a script in it, OS, native code", async () => {
    const main = [
      "extends EngineGame",
      "func _ready():",
      "\tvar c = ConfigFile.new()",
      '\tc.load("user://save.cfg")', // 4
      '\tc.load("res://data.cfg")',
      '\tc.load("res://native.txt")',
      "\tc.load_encrypted_pass(OS.get_environment(\"X\"), \"pw\")", // 7
      "\tc.get_value(\"s\", \"k\").execute(\"touch\", [])", // 8
    ].join("\n")
    const found = await findingsOf(
      pack3([
        { path: "res://main.gd", data: utf8(`${main}\n`) },
        { path: "res://data.cfg", data: utf8('[s]\n\nk=Object(Reference,"script":Object(GDScript,"script/source":"extends Reference\\nfunc _init():\\n\\tOS.execute(\\"x\\", [])\\n"))\nos=Object(_OS,"low_processor_usage_mode":false)\n') },
        // Godot 3's GDNative: the library is loaded (dlopen) when the object is initialised (modules/gdnative/gdnative.cpp, GDNative::initialize).
        { path: "res://native.txt", data: utf8('[s]\n\nk=Object(GDNative,"library":Object(GDNativeLibrary,"entry/X11.64":"user://lib.so"))\n') },
      ]),
    )
    expect(found).toEqual([
      "res://data.cfg:3 error os-process",
      "res://data.cfg:4 error dangerous-object-escape",
      "res://main.gd:4 error config-file-objects",
      "res://main.gd:7 error config-file-objects",
      "res://main.gd:8 error os-process",
      "res://native.txt:3 error native-extension-loading",
      "res://native.txt:3 error native-extension-loading",
    ])
  })

  it("ConfigFile.parse (Godot 3.4+, 4): constant text is read as data at the call, any other text is an error", () => {
    for (const grammar of both) {
      const found = hitsIn(holder("var c = ConfigFile.new()", 'c.parse("[s]\\nk=1\\n")', "c.parse(text)", 'JSON.parse(text)'), {}, grammar)
      expect(brief(found), `Godot ${grammar}`).toEqual(["7 error config-file-objects"])
    }
  })

  it("metadata of a resource, settings and a .remap file build objects too; harmless classes (an InputEventKey) are fine", async () => {
    const found = await findingsOf(
      pack3([
        { path: "res://main.gd", data: utf8("extends EngineGame\n") },
        { path: "res://meta.tres", data: utf8('[gd_resource type="Resource" format=2]\n\n[resource]\n__meta__ = {\n"o": Object(_File,"x":1)\n}\n') },
        { path: "res://input.cfg", data: utf8('[input]\n\njump=Object(InputEventKey,"scancode":32)\n') },
        { path: "res://a.gd.remap", data: utf8('[remap]\n\npath=Object(HTTPRequest,"x":1)\n') },
      ]),
    )
    // The .remap's path is an object, not a string: the engine converts it to a path and loads that (pckgate-scanner/7).
    expect(found).toEqual(["res://a.gd error pack-hostile-path", "res://a.gd:3 error raw-networking", "res://meta.tres:5 error dangerous-object-escape"])
  })
})

describe("names and paths as the engine resolves them", () => {
  it("an autoload comes before a registered class of the same name; member constants of either are followed", () => {
    const scripts = packOf(
      {
        "res://main.gd": holder('Engine.get_singleton(Names.SINGLETON).call(Names.METHOD, "t", [])', 'Engine.get_singleton(Names.single()).call("execute", "t", [])'),
        "res://names.gd": 'extends Reference\nconst SINGLETON = "Engine"\nconst METHOD = "get_name"\nstatic func single():\n\treturn "Engine"\n',
        "res://names_al.gd": 'extends Node\nconst SINGLETON = "OS"\nconst METHOD = "execute"\nfunc single():\n\treturn "OS"\n',
      },
      3,
    )
    const model = new PackModel(scripts, new Map([["Names", "res://names.gd"]]), engineNames(3, indexPolicy(defaultPolicy)), { autoloads: new Map([["Names", "res://names_al.gd"]]) })
    expect(analyzeScript(scripts[0] as (typeof scripts)[number], model, defaultPolicy).hits.map((h) => `${h.line} ${h.entry.id}`)).toEqual(["5 os-process", "6 os-process"])
  })

  it("a .remap wins over the file of the same name; a script sent to another script's source, or to a path the pack lacks, is flagged", async () => {
    const found = await findingsOf(
      pack3([
        { path: "res://main.gd", data: utf8('extends EngineGame\nconst C = preload("res://consts.gd")\nfunc _ready():\n\tEngine.get_singleton(C.SINGLETON).call(C.METHOD, "t", [])\n') },
        { path: "res://consts.gd", data: utf8('extends Reference\nconst SINGLETON = "Engine"\nconst METHOD = "get_name"\n') },
        { path: "res://real.gd", data: utf8('extends Reference\nconst SINGLETON = "OS"\nconst METHOD = "execute"\n') },
        { path: "res://consts.gd.remap", data: utf8('[remap]\n\npath="res://real.gd"\n') },
        { path: "res://decoy.gd.remap", data: utf8('[remap]\n\npath="res://real.gd"\n') },
        { path: "res://gone.tscn.remap", data: utf8('[remap]\n\npath="res://.import/gone.scn"\n') },
        // An export's own redirect (a script to its compiled form) is only the compiled-script finding; to another's, a decoy.
        { path: "res://player.gd.remap", data: utf8('[remap]\n\npath="res://player.gdc"\n') },
        { path: "res://player.gdc", data: utf8("GDSC\u0000\u0000") },
        { path: "res://enemy.gd.remap", data: utf8('[remap]\n\npath="res://player.gdc"\n') },
      ]),
    )
    expect(found.filter((f) => !f.includes("compiled-script"))).toEqual([
      "res://consts.gd error pack-hostile-path",
      "res://decoy.gd error pack-hostile-path",
      "res://enemy.gd error pack-hostile-path",
      "res://gone.tscn error pack-hostile-path",
      "res://main.gd:4 error os-process",
    ])
  })

  it("a res:// path the pack lacks is read from the disk: a constant one, or one whose known start no file of the pack has, is an error", async () => {
    const main = [
      "extends EngineGame",
      "func _ready():",
      '\tload("res://.local/share/godot/app_userdata/G/mod.gd")', // 3
      '\tload("res://levels/" + str(randi()) + ".tscn")', // 4: warning, a folder of the pack
      '\tload("res://.local/" + str(randi()))', // 5
      '\tload("res://levels/one.tscn")',
      '\tload("res://icon.png")',
    ].join("\n")
    const found = await findingsOf(
      pack3([
        { path: "res://main.gd", data: utf8(`${main}\n`) },
        { path: "res://levels/one.tscn", data: utf8('[gd_scene format=2]\n[node name="L" type="Node"]\n') },
        { path: "res://icon.png.import", data: utf8('[remap]\n\npath="res://.import/icon.stex"\n') },
        { path: "res://.import/icon.stex", data: utf8("x") },
        { path: "res://scene.tscn", data: utf8('[gd_scene load_steps=2 format=2]\n[ext_resource path="res://missing.gd" type="Script" id=1]\n[node name="S" type="Node"]\n') },
      ]),
    )
    expect(found).toEqual(["res://main.gd:3 error runtime-code-loading", "res://main.gd:4 warning runtime-code-loading", "res://main.gd:5 error runtime-code-loading", "res://scene.tscn:2 error pack-hostile-path"])
  })
})

describe("text the engine reads otherwise than a strict reader", () => {
  it("directory names: Godot 3 reads overlong forms (payload.g E0 81 A4 is payload.gd), Godot 4 too; anything not strict UTF-8 is named", () => {
    const name = new Uint8Array([...utf8("res://payload.g"), 0xe0, 0x81, 0xa4])
    expect(entryName(name, 1).name).toBe("res://payload.gd")
    expect(entryName(name, 1).problem).toContain("not strict UTF-8")
    expect(entryName(new Uint8Array([...utf8("res://a.gd"), 0, 0, 0]), 3)).toEqual({ name: "res://a.gd", problem: null })
    expect(entryName(new Uint8Array([...utf8("res://a.gd"), 0, ...utf8("x")]), 3).problem).toBe("a NUL byte inside the name")
    expect(entryName(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8("res://a.gd")]), 1)).toMatchObject({ name: "res://a.gd" })
  })

  it("a second copy of a script under an overlong name is the copy the engine loads: scanned, and both names flagged", async () => {
    const found = await findingsOf(
      writePack({
        format: 1,
        entries: [
          { path: "res://payload.gd", data: utf8("extends Node\n") },
          { path: "x", data: utf8('extends Node\nfunc _ready():\n\tOS.execute("t", [])\n'), rawPathBytes: new Uint8Array([...utf8("res://payload.g"), 0xe0, 0x81, 0xa4]) },
        ],
      }),
    )
    expect(found).toEqual(["res://manifest.json error manifest-missing", "res://payload.gd error pack-duplicate-path", "res://payload.gd error pack-hostile-path", "res://payload.gd:3 error os-process"])
  })

  it("Godot 3 ends a string at U+FFFF (the editor's completion cursor) and skips it in a $ path; Godot 4 keeps it in the string", () => {
    const line = "\tvar n = $\"x\uffff; OS.execute('touch', []) # \""
    expect(tokenize(`${line}\n`, 3).filter((t) => t.kind === "id").map((t) => t.text)).toEqual(["var", "n", "OS", "execute"])
    expect(brief(hitsIn(`func f():\n${line}\n`, {}, 3))).toEqual(["2 error os-process"])
    expect(hitsIn(`func f():\n${line}\n`, {}, 4)).toEqual([])
    expect(trojanSourceHits(`${line}\n`, 3).map((h) => [h.line, h.severity])).toEqual([[1, "error"]])
    expect(trojanSourceHits(`${line}\n`, 4).map((h) => [h.line, h.severity])).toEqual([[1, "warning"]])
  })
})

describe("receivers and paths the docs admitted as limits, and look-alikes", () => {
  it("a File passed to a helper keeps its class; a mode written File.WRITE types the receiver; a numeric mode on an unknown receiver is judged as a File's (pckgate-scanner/12: a path from the environment is an error)", () => {
    const source = `${holder("w(File.new(), OS.get_environment(\"HOME\") + \"/.bashrc\")", "var f = get_meta(\"f\")", 'f.open(OS.get_environment("HOME") + "/.bashrc", File.WRITE)', 'f.open(OS.get_environment("HOME") + "/.bashrc", 2)', 'f.open("/etc/x", 2)')}func w(file, p):\n\tfile.open(p, File.WRITE)\n`
    expect(brief(hitsIn(source, {}, 3))).toEqual(["7 error filesystem-outside-sandbox", "8 error filesystem-outside-sandbox", "9 error filesystem-outside-sandbox", "11 error filesystem-outside-sandbox"])
  })

  it("OS.get_user_data_dir() is the user:// folder: writes below it are fine, its parent and .. are outside", () => {
    for (const grammar of both) {
      const join = grammar === 3 ? "plus_file" : "path_join"
      const dir = grammar === 3 ? "Directory.new()" : "DirAccess"
      const source = holder(`${dir}.make_dir_recursive(OS.get_user_data_dir() + "/saves")`, `Image.new().save_png(OS.get_user_data_dir().${join}("shot.png"))`, `${dir}.make_dir_recursive(OS.get_user_data_dir().get_base_dir() + "/x")`, `${dir}.make_dir_recursive(OS.get_user_data_dir() + "/../x")`, `${dir}.make_dir_recursive(ProjectSettings.globalize_path("user://saves"))`)
      expect(brief(errors(hitsIn(source, {}, grammar))), `Godot ${grammar}`).toEqual(["7 error filesystem-outside-sandbox", "8 error filesystem-outside-sandbox"])
    }
  })

  it("execute and kill on an object that cannot be pinned down: an error when no class of the pack defines them; a tween's kill() is a tween's", () => {
    expect(brief(hitsIn(holder("obj.execute()", "obj.kill(1)"), {}, 3))).toEqual(["5 error os-process", "6 error os-kill"])
    expect(hitsIn("extends Node\nvar tween\nfunc _ready():\n\tvar t: Tween = create_tween()\n\tt.kill()\n\tcreate_tween().kill()\n", {}, 4)).toEqual([])
    // A member given only create_tween() by its class, with every other writer in sight, holds a Tween (pckgate-scanner/18).
    expect(hitsIn("extends Node\nvar tween\nfunc _ready():\n\ttween = create_tween()\n\ttween.kill()\n", {}, 4)).toEqual([])
    expect(brief(hitsIn("extends Node\nvar tween\nfunc _ready():\n\ttween = create_tween()\n\ttween.kill()\nfunc hold(v):\n\ttween = v\n", {}, 4))).toEqual(["5 warning os-kill"])
  })
})
