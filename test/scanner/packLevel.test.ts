// Evasions the engine cannot run headless here (the JavaScript singleton exists only in web exports,
// native libraries, Godot 4 grammar on a Godot 3 engine), and pack-level tricks: packs built with
// the test pack writer, each test naming the engine behaviour it relies on.
import { describe, expect, it } from "vitest"
import { utf8 } from "./support/bytes.ts"
import { writePack } from "./support/packWriter.ts"
import { writeBinaryScene } from "./support/resourceWriter.ts"
import { scanBytes } from "./support/scan.ts"

const MANIFEST = utf8(JSON.stringify({ id: "p", name: "P", version: "1.0.0", engine_sdk: "1", entry_scene: "res://main.tscn", min_players: 1, max_players: 1 }))
const SCENE = utf8('[gd_scene load_steps=2 format=2]\n[ext_resource path="res://main.gd" type="Script" id=1]\n[node name="M" type="Node2D"]\nscript = ExtResource( 1 )\n')
const ELF = new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0x3e, 0])

const pack = (format: number, entries: ReadonlyArray<{ path: string; data: Uint8Array }>): Uint8Array =>
  writePack({ format, entries: [{ path: "res://manifest.json", data: MANIFEST }, { path: "res://main.tscn", data: SCENE }, ...entries] })

const located = (report: Awaited<ReturnType<typeof scanBytes>>): ReadonlyArray<string> =>
  report.findings
    .filter((f) => f.rule !== "entry-scene-not-engine-game" || f.pattern !== "EngineGame")
    .map((f) => `${f.file}${f.line === null ? "" : `:${f.line}`} ${f.severity} ${f.rule} ${/\(policy ([a-z0-9-]+)\)/.exec(f.message)?.[1] ?? f.pattern}`)

describe("packs the engine cannot run here", () => {
  it("Godot 3 JavaScript singleton (registered only in web exports: platform/javascript/javascript_main.cpp, Engine::add_singleton(\"JavaScript\")), also fetched by name", async () => {
    const report = await scanBytes(pack(1, [{ path: "res://main.gd", data: utf8('extends EngineGame\nfunc _ready():\n\tJavaScript.eval("1")\n\tvar js = Engine.get_singleton("Java" + "Script")\n') }]))
    expect(located(report)).toEqual([
      "res://main.gd:3 error banned-api javascript-bridge",
      "res://main.gd:4 error banned-api javascript-bridge",
    ])
  })

  it("native code under any name: ELF bytes in a .import sidecar, in a .remap stub and in a texture are found by content", async () => {
    const report = await scanBytes(
      pack(1, [
        { path: "res://main.gd", data: utf8("extends EngineGame\n") },
        { path: "res://icon.png.import", data: ELF },
        { path: "res://a.gd.remap", data: ELF },
        { path: "res://icon.stex", data: ELF },
      ]),
    )
    expect(located(report).filter((l) => l.includes("native-code"))).toEqual([
      "res://a.gd error native-code native code content",
      "res://icon.png error native-code native code content",
      "res://icon.stex error native-code native code content",
    ])
  })

  it("Godot 4 grammar (format 2+): lambdas, StringNames, % unique nodes, continuations over comment lines, multi-line strings", async () => {
    const script = [
      "extends EngineGame", // 1
      "func _ready():", // 2
      "\tvar s = \"a", // 3: Godot 4 continues a plain string over the line break
      'OS.kill(1)"', // 4: … so this is text
      "\tbutton.pressed.connect(func():", // 5
      '\t\tOS.call(&"execute", "x", []))', // 6
      "\tvar n = %OS.get_name()", // 7: a unique node, not the singleton
      "\tvar o = \\", // 8
      "\t# a comment line the continuation skips", // 9
      "\t\tOS", // 10
    ].join("\n")
    const report = await scanBytes(pack(3, [{ path: "res://main.gd", data: utf8(`${script}\n`) }]))
    expect(located(report)).toEqual(["res://main.gd:6 error banned-api os-process", "res://main.gd:10 error banned-api dangerous-object-escape"])
  })
})

describe("redirects, duplicates and the pack's own EngineGame", () => {
  it(".remap and .import targets outside the pack, or a script behind an asset's name, are hostile paths (core/io/resource_loader.cpp, _path_remap)", async () => {
    const report = await scanBytes(
      pack(1, [
        { path: "res://main.gd", data: utf8("extends EngineGame\n") },
        { path: "res://level.tscn.remap", data: utf8('[remap]\n\npath="user://level.tscn"\n') },
        { path: "res://icon.png.import", data: utf8('[remap]\n\nimporter="texture"\ntype="StreamTexture"\npath.s3tc="/tmp/evil.stex"\n') },
        { path: "res://data.tres.remap", data: utf8('[remap]\n\npath="res://hidden.gd"\n') },
        { path: "res://hidden.gd", data: utf8("extends Reference\n") },
      ]),
    )
    expect(located(report).filter((l) => l.includes("pack-hostile-path"))).toEqual([
      "res://data.tres error pack-hostile-path .remap target",
      "res://icon.png error pack-hostile-path .import target",
      "res://level.tscn error pack-hostile-path .remap target",
    ])
  })

  it("every copy of a duplicated path is scanned (the engine loads the last: core/io/file_access_pack.cpp, PackedData::add_path)", async () => {
    const report = await scanBytes(
      pack(1, [
        { path: "res://main.gd", data: utf8("extends EngineGame\n") },
        { path: "res://main.gd", data: utf8('extends EngineGame\nfunc _ready():\n\tOS.execute("x", [])\n') },
      ]),
    )
    expect(located(report)).toEqual(["res://main.gd error pack-duplicate-path duplicate path", "res://main.gd:3 error banned-api os-process"])
  })

  it("a .import written twice (Godot 3's exporter, when the include filter also names an imported file) says which filter to narrow", async () => {
    const imported = utf8('[remap]\n\nimporter="csv_translation"\ntype="Translation"\n\n[deps]\n\nfiles=[ "res://data/ui.en.translation" ]\n')
    const report = await scanBytes(pack(1, [{ path: "res://main.gd", data: utf8("extends EngineGame\n") }, { path: "res://data/ui.csv.import", data: imported }, { path: "res://data/ui.csv.import", data: imported }]))
    const duplicate = report.findings.filter((f) => f.rule === "pack-duplicate-path")
    expect(duplicate.map((f) => f.file)).toEqual(["res://data/ui.csv.import"])
    expect(duplicate[0]?.message).toContain("Narrow the export preset's include filter (export_presets.cfg include_filter)")
    const plain = await scanBytes(pack(1, [{ path: "res://main.gd", data: utf8("extends EngineGame\n") }, { path: "res://main.gd", data: utf8("extends EngineGame\n") }]))
    expect(plain.findings.find((f) => f.rule === "pack-duplicate-path")?.message).toContain("Export the pack again.")
  })

  it("a pack that declares class_name EngineGame itself (Godot 4 grammar)", async () => {
    const report = await scanBytes(pack(3, [{ path: "res://main.gd", data: utf8("extends EngineGame\n") }, { path: "res://fake.gd", data: utf8("class_name EngineGame extends Node2D\n") }]))
    expect(located(report)).toEqual(["res://fake.gd:1 error entry-scene-not-engine-game class_name EngineGame"])
  })
})

describe("Godot 4 binary scenes: what the scene makes the engine do without code (the red team's text forms, exported as every Godot 4 export writes scenes)", () => {
  const binaryScene = (spec: Parameters<typeof writeBinaryScene>[0]) =>
    pack(3, [{ path: "res://main.gd", data: utf8("extends EngineGame\n") }, { path: "res://level.scn", data: writeBinaryScene(spec) }])

  it("an external script from user://, a connection to set_indexed on source_code, an animation track on .:s:source_code, a source_code property", async () => {
    const report = await scanBytes(
      binaryScene({
        scripts: [{ id: "GDScript_a", source: 'extends Node\nfunc _ready():\n\tOS.execute("t", [])\n', property: "source_code" }],
        animations: [{ id: "Animation_b", names: ["."], subnames: ["s", "source_code"] }],
        nodes: [
          { name: "Level", type: "Node", parent: -1, script: { external: "user://evil.gd" } },
          { name: "Timer", type: "Timer", parent: 0, script: { builtIn: 0 } },
        ],
        connections: [{ from: 1, to: 0, signal: "timeout", method: "set_indexed", binds: ["s:source_code", "x"] }],
      }),
    )
    expect(located(report).filter((l) => l.startsWith("res://level.scn"))).toEqual([
      "res://level.scn error banned-api script-source-code",
      "res://level.scn error banned-api script-source-code",
      "res://level.scn error pack-hostile-path [ext_resource] target",
      "res://level.scn:3 error banned-api os-process",
    ])
    expect(report.findings.filter((f) => /^(the animation track of Animation_b writes "\.:s:source_code"|set_indexed\("s:source_code"\) \(the scene connection of "timeout" calling set_indexed)/.test(f.message)).length).toBe(2)
  })

  it("a built-in script whose bytes are not strict UTF-8 (an overlong quote, which Godot 4 decodes as a quote)", async () => {
    const source = new Uint8Array([...utf8('extends Node\nvar s = "x'), 0xc0, 0xa2, ...utf8('; OS.execute("t", []); var t = "y"\n')])
    const report = await scanBytes(binaryScene({ scripts: [{ id: "GDScript_a", source: "", bytes: source }], nodes: [{ name: "L", type: "Node", parent: -1, script: { builtIn: 0 } }] }))
    expect(located(report).filter((l) => l.startsWith("res://level.scn"))).toEqual(["res://level.scn:1 error banned-api non-strict-utf8", "res://level.scn:2 error banned-api os-process"])
  })
})
