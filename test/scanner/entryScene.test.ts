// Check 2 on Godot 4 layouts built by the test writer (binary .scn behind .remap, built-in
// scripts, class_name chains). The corpus covers the same layouts with real files.
import { describe, expect, it } from "vitest"
import { utf8 } from "./support/bytes.ts"
import { type WriterEntry, writePack } from "./support/packWriter.ts"
import { type SceneSpec, writeBinaryScene } from "./support/resourceWriter.ts"
import { scanBytes } from "./support/scan.ts"

const manifest = (entryScene = "res://main.tscn") =>
  utf8(JSON.stringify({ id: "g", name: "G", version: "1.0", engine_sdk: "1.0", entry_scene: entryScene, min_players: 1, max_players: 2 }))
const EXPORTED = ".godot/exported/133200997/export-0123456789abcdef-main.scn"
const remap = (target: string) => utf8(`[remap]\n\npath="res://${target}"\n`)

/** A Godot 4.4+ style export: bare paths, main.tscn converted to binary behind a .remap. */
const export4 = (scene: SceneSpec, extra: ReadonlyArray<WriterEntry> = [], format = 3) =>
  writePack({
    format,
    entries: [
      { path: "manifest.json", data: manifest() },
      { path: "main.tscn.remap", data: remap(EXPORTED) },
      { path: EXPORTED, data: writeBinaryScene(scene) },
      ...extra,
    ],
  })

const entryFindings = async (pack: Uint8Array) =>
  (await scanBytes(pack)).findings.filter((f) => f.rule.startsWith("entry-scene")).map((f) => ({ file: f.file, line: f.line, rule: f.rule, message: f.message }))

const root = (script?: SceneSpec["nodes"][number]["script"]) => ({ name: "Main", type: "Node2D", parent: -1, ...(script === undefined ? {} : { script }) })

describe("entry scene root script extends EngineGame", () => {
  it("a built-in root script that extends EngineGame passes (RSRC and RSCC)", async () => {
    for (const compressed of [false, true]) {
      const pack = export4({ scripts: [{ id: "GDScript_a1b2c", source: "extends EngineGame\n" }], nodes: [root({ builtIn: 0 })], compressed })
      expect((await scanBytes(pack)).findings).toEqual([])
    }
  })

  it("a chain: script file → extends by class_name → extends by path → EngineGame", async () => {
    const pack = export4({ scripts: [], nodes: [root({ external: "res://main.gd" })] }, [
      { path: "main.gd", data: utf8("extends Base\n") },
      { path: "lib/base.gd", data: utf8('class_name Base extends "../engine/root.gd"\n') },
      { path: "engine/root.gd", data: utf8("@tool\nextends EngineGame\n") },
    ])
    expect(await entryFindings(pack)).toEqual([])
  })

  it("a root script that extends something else is a finding at its extends line", async () => {
    const pack = export4({ scripts: [], nodes: [root({ external: "res://main.gd" })] }, [
      { path: "main.gd", data: utf8('extends "res://base.gd"\n') },
      { path: "base.gd", data: utf8("# base\nextends Node2D\n") },
    ])
    const [f] = await entryFindings(pack)
    expect(f).toMatchObject({ file: "res://base.gd", line: 2, rule: "entry-scene-not-engine-game" })
    expect(f?.message).toContain("res://main.gd → res://base.gd")
  })

  it("a built-in root script of a binary scene that extends Node points into the script", async () => {
    const report = await scanBytes(export4({ scripts: [{ id: "GDScript_x", source: "\nextends Node\n" }], nodes: [root({ builtIn: 0 })] }))
    const f = report.findings.find((x) => x.rule === "entry-scene-not-engine-game")
    expect(f).toMatchObject({ file: "res://main.tscn", line: 2, storedPath: `res://${EXPORTED}`, embeddedIn: { resource: "res://main.tscn", subResource: "GDScript_x" } })
  })

  it("no script on the root node", async () => {
    const [f] = await entryFindings(export4({ scripts: [], nodes: [root()] }))
    expect(f).toMatchObject({ file: "res://main.tscn", line: null, rule: "entry-scene-not-engine-game" })
    expect(f?.message).toContain("has no script")
  })

  it("a script without extends does not extend EngineGame", async () => {
    const [f] = await entryFindings(export4({ scripts: [], nodes: [root({ external: "res://main.gd" })] }, [{ path: "main.gd", data: utf8("func _ready():\n\tpass\n") }]))
    expect(f?.message).toContain('has no "extends" line')
  })

  it("an extends loop is reported, not followed forever", async () => {
    const [f] = await entryFindings(
      export4({ scripts: [], nodes: [root({ external: "res://a.gd" })] }, [
        { path: "a.gd", data: utf8('extends "b.gd"\n') },
        { path: "b.gd", data: utf8('extends "a.gd"\n') },
      ]),
    )
    expect(f?.message).toContain("loops (res://a.gd → res://b.gd → res://a.gd)")
  })

  it("a compiled root script cannot be verified, and says why", async () => {
    const pack = export4({ scripts: [], nodes: [root({ external: "res://main.gd" })] }, [
      { path: "main.gd.remap", data: remap("main.gdc") },
      { path: "main.gdc", data: utf8("GDSC\u0065\u0000\u0000\u0000\u0000\u0000\u0000\u0000") },
    ])
    const report = await scanBytes(pack)
    expect(report.findings.map((f) => [f.file, f.rule])).toEqual([
      ["res://main.gd", "compiled-script"],
      ["res://main.tscn", "entry-scene-unverifiable"],
    ])
  })

  it("the entry scene is missing, or its .remap points nowhere", async () => {
    const missing = writePack({ format: 3, entries: [{ path: "manifest.json", data: manifest("res://nope.tscn") }] })
    expect(await entryFindings(missing)).toEqual([expect.objectContaining({ file: "res://nope.tscn", rule: "entry-scene-missing" })])
    const dangling = writePack({ format: 3, entries: [{ path: "manifest.json", data: manifest() }, { path: "main.tscn.remap", data: remap("gone.scn") }] })
    const [f] = await entryFindings(dangling)
    expect(f?.message).toContain("points at res://gone.scn, which is not in the pack")
  })

  it("a text scene that inherits its root from another scene takes the root script from there", async () => {
    const child = ['[gd_scene load_steps=2 format=3]', '[ext_resource type="PackedScene" path="res://base.tscn" id="1_a"]', '[node name="Main" instance=ExtResource("1_a")]', ""].join("\n")
    const base = ['[gd_scene load_steps=2 format=3]', '[ext_resource type="Script" path="res://main.gd" id="1_b"]', '[node name="Base" type="Node2D"]', 'script = ExtResource("1_b")', ""].join("\n")
    const pack = writePack({
      format: 2,
      entries: [
        { path: "res://manifest.json", data: manifest() },
        { path: "res://main.tscn", data: utf8(child) },
        { path: "res://base.tscn", data: utf8(base) },
        { path: "res://main.gd", data: utf8("extends EngineGame\n") },
      ],
    })
    expect((await scanBytes(pack)).findings).toEqual([])
  })
})

describe("built-in scripts in binary scenes (Godot 4 layouts)", () => {
  it("a banned call in a built-in script: line within the script, embeddedIn, and the exported file as storedPath", async () => {
    for (const compressed of [false, true]) {
      const source = 'extends EngineGame\n\nfunc _ready():\n\tif Engine.is_editor_hint():\n\t\tOS.create_process("cmd", [])\n'
      const report = await scanBytes(export4({ scripts: [{ id: "GDScript_k3x9a", source }], nodes: [root({ builtIn: 0 })], compressed }))
      expect(report.findings).toEqual([
        {
          file: "res://main.tscn",
          line: 5,
          column: 3,
          rule: "banned-api",
          pattern: "OS.execute / OS.create_process / OS.create_instance",
          message: expect.stringContaining("OS.create_process (built-in script GDScript_k3x9a, line 5)"),
          severity: "error",
          storedPath: `res://${EXPORTED}`,
          embeddedIn: { resource: "res://main.tscn", subResource: "GDScript_k3x9a" },
          fingerprint: expect.stringMatching(/^fp_[0-9a-f]{32}$/),
        },
      ])
    }
  })

  it("a banned class as a node type of a binary scene", async () => {
    const report = await scanBytes(
      export4({ scripts: [{ id: "GDScript_a", source: "extends EngineGame\n" }], nodes: [root({ builtIn: 0 }), { name: "Socket", type: "WebSocketPeer", parent: 0 }] }),
    )
    expect(report.findings.map((f) => [f.file, f.line, f.message.split(":")[0]])).toEqual([["res://main.tscn", null, 'Node "Socket" is a WebSocketPeer']])
  })

  it("a built-in script in a resource with a misleading extension is still found (content, not name, decides)", async () => {
    const scene = writeBinaryScene({ scripts: [{ id: "GDScript_z", source: "extends Node\nvar e = Expression.new()\n" }], nodes: [root({ builtIn: 0 })], compressed: true })
    const pack = writePack({ format: 3, entries: [{ path: "manifest.json", data: manifest("res://other.tscn") }, { path: "art/tree.png", data: scene }, { path: "level.tscn", data: scene }] })
    const report = await scanBytes(pack)
    expect(report.findings.filter((f) => f.rule === "banned-api").map((f) => [f.file, f.line, f.embeddedIn?.subResource])).toEqual([
      ["res://art/tree.png", 2, "GDScript_z"],
      ["res://level.tscn", 2, "GDScript_z"],
    ])
  })
})
