// The calls scene data makes by name, judged as the same calls in code (checks/dataCallScript.ts): what a
// fourteenth red team (b) got past pckgate-scanner/12 (attackProjects34.ts holds the packs godot3-server ran),
// here on every object-and-name API of the dispatch table, in packs the engine of the test cannot run (an
// AnimationTree method track on a resource, 3.5 and 4.x only; Godot 4 binary scenes) and for data that dispatches
// through more than one API.
import { describe, expect, it } from "vitest"
import { type DataCallSite, dataCallScript, gdscriptString, SIGNAL_ARGUMENTS } from "../../adapters/scanner/checks/dataCallScript.ts"
import table from "../../adapters/scanner/gdscript/engine-dispatch.json" with { type: "json" }
import type { DispatchEntry } from "../../adapters/scanner/gdscript/engineDispatch.ts"
import { tokenize } from "../../adapters/scanner/gdscript/tokenizer.ts"
import { hitsIn } from "./support/analyze.ts"
import { utf8 } from "./support/bytes.ts"
import { writePack } from "./support/packWriter.ts"
import { writeBinaryScene } from "./support/resourceWriter.ts"
import { scanBytes } from "./support/scan.ts"

const BASE = "res://base.gd"
const SOURCE = 'extends Node\nfunc go():\n\tOS.execute("touch", ["/tmp/m"])\n'

/** `line id` of the errors of the script standing for `calls` (the first call on line 3), base.gd in the pack. */
const errorsOf = (calls: ReadonlyArray<Pick<DataCallSite, "method" | "args"> & Partial<DataCallSite>>, grammar: 3 | 4): ReadonlyArray<string> => {
  const script = dataCallScript(
    calls.map((c) => ({ node: ".", resource: [], afterSignal: false, at: null, what: c.method, ...c })),
    (r) => (r._tag === "External" ? { load: r.path } : { type: r.type }),
  )
  const found = hitsIn(script?.source ?? "", { [BASE]: "extends Node\nfunc go():\n\tpass\n" }, grammar)
  return [...new Set(found.filter((h) => h.split(" ")[1] === "error").map((h) => `${h.split(":")[0]} ${h.split(" ")[2]}`))]
}

const script = { resource: { _tag: "External", path: BASE } } as const

describe("a method data dispatches by name on an object it binds", () => {
  it("every API of the dispatch table that calls a method by name on an object it is given reaches set_source_code on the pack's script", () => {
    for (const grammar of [3, 4] as const) {
      const entries = (grammar === 3 ? table.godot3 : table.godot4) as ReadonlyArray<DispatchEntry>
      // Data calls methods of objects: not @GDScript's global functions (funcref) nor a Callable's constructor; a
      // method another class shares (Thread.start) applies where the receiver is known to be that class, which
      // data cannot make (Thread and Callable are no resources).
      const withTarget = entries.filter((e) => e.kind === "method" && e.target !== undefined && e.name !== undefined && e.shared !== true && e.class !== "Callable" && e.class !== "@GDScript")
      expect(withTarget.length, `Godot ${grammar}`).toBeGreaterThan(0)
      for (const e of withTarget) {
        const args: Array<DataCallSite["args"][number]> = []
        args[e.target ?? 0] = script
        args[e.name ?? 0] = "set_source_code"
        const filled = [...Array.from({ length: args.length }, (_, i) => args[i] ?? 0), SOURCE]
        // On a resource a method track reaches (its class is not known there), as on a node the entry's class may be.
        expect(errorsOf([{ method: e.method, args: filled, node: "Holder", resource: ["res"] }], grammar), `Godot ${grammar} ${e.class}.${e.method}`).toContain("3 script-source-code")
      }
    }
  })

  it("a connection's binds may stand at every position of a name in the dispatch table, after the signal's arguments", () => {
    const entries = [...table.godot3, ...table.godot4] as ReadonlyArray<DispatchEntry>
    expect(Math.max(...entries.filter((e) => e.kind === "method" || e.kind === "property").map((e) => e.name ?? 0))).toBe(SIGNAL_ARGUMENTS)
  })

  it("dispatch nested through call, callv, call_deferred and propagate_call reaches the same call", () => {
    const inner = [script, 0.1, "set_source_code", SOURCE] as const
    for (const [method, args] of [
      ["call", ["interpolate_callback", ...inner]],
      ["call_deferred", ["call", "interpolate_callback", ...inner]],
      ["callv", ["interpolate_deferred_callback", [...inner]]],
      ["propagate_call", ["interpolate_callback", [...inner]]],
      ["call", ["connect", "timeout", script, "set_source_code", [SOURCE]]],
      // A thread the data builds (`Object(Thread, …)`) started on the script.
      ["interpolate_callback", [{ resource: { _tag: "Internal", type: "Thread" } }, 0.1, "start", script, "set_source_code", SOURCE]],
    ] as const) {
      expect(errorsOf([{ method, args }], 3), method).toContain("3 script-source-code")
    }
  })

  it("a sub-resource is a value of its class: an AudioStreamSample's save_to_wav outside user:// is a write there, inside it is not", () => {
    const wav = { resource: { _tag: "Internal", type: "AudioStreamSample" } } as const
    expect(errorsOf([{ method: "interpolate_callback", args: [wav, 0.1, "save_to_wav", "/tmp/x.wav"], afterSignal: true }], 3)).toContain("3 filesystem-outside-sandbox")
    expect(errorsOf([{ method: "interpolate_callback", args: [wav, 0.1, "save_to_wav", "user://x.wav"] }], 3)).toEqual([])
  })

  it("ordinary calls: the game's own methods with binds, a signal emitted, a property set, a deferred call of its own", () => {
    for (const grammar of [3, 4] as const) {
      expect(
        errorsOf(
          [
            { method: "_on_hit", args: [10], afterSignal: true },
            { method: "spawn_enemy", args: ["bat", 2] },
            { method: "emit_signal", args: ["shake_requested", 3.0] },
            { method: "set", args: ["visible", false] },
            { method: "call_deferred", args: ["spawn_enemy", "slime", 1] },
            { method: "play", args: ["intro"], afterSignal: true },
            { method: "set_text", args: ["Go!"], afterSignal: true },
            { method: "emit_signal", args: ["start_game"], afterSignal: true },
            { method: "queue_free", args: [], afterSignal: true },
            { method: "_on_button", args: [script], afterSignal: true },
          ],
          grammar,
        ),
        `Godot ${grammar}`,
      ).toEqual([])
    }
  })

  it("a connection's binds after the signal's arguments: a bind at a name's place is that name, a signal's argument is none", () => {
    for (const grammar of [3, 4] as const) {
      // timeout passes nothing: set_indexed("modulate:a", 0.5); with one argument first, "modulate:a" would be the value of a path the signal gave.
      expect(errorsOf([{ method: "set_indexed", args: ["modulate:a", 0.5], afterSignal: true }, { method: "call_deferred", args: ["spawn"], afterSignal: true }], grammar), `Godot ${grammar}`).toEqual([])
      // With no signal argument first, the bound name is call's: set_source_code, judged on any receiver but the pack's own object.
      expect(errorsOf([{ method: "call", args: ["set_source_code", SOURCE], afterSignal: true }], grammar), `Godot ${grammar}`).toContain("3 script-source-code")
    }
  })

  it("writes every string back as the engine reads it in both grammars", () => {
    for (const text of ["a\"b\\c\nd\te", "é\u202eπ", "\u0001x", "#x'y"]) {
      for (const grammar of [3, 4] as const) {
        const strings = tokenize(`extends Node\nconst S = ${gdscriptString(text)}\n`, grammar).filter((t) => t.kind === "str")
        expect(strings.map((t) => t.text), JSON.stringify(text)).toEqual([text])
      }
    }
  })
})

/** A Godot 3 pack with `scene` (text) at res://level.tscn, base.gd and an AudioStreamSample resource. */
const pack3 = (scene: string): Uint8Array =>
  writePack({
    format: 1,
    entries: [
      { path: "res://base.gd", data: utf8("extends Node\nfunc go():\n\tpass\n") },
      { path: "res://level.tscn", data: utf8(scene) },
    ],
  })

const located = async (bytes: Uint8Array, file: string): Promise<ReadonlyArray<string>> =>
  (await scanBytes(bytes)).findings.filter((f) => f.file === file && f.severity === "error").map((f) => `${f.line ?? "-"} ${/\(policy ([a-z0-9-]+)\)/.exec(f.message)?.[1] ?? f.rule}`)

describe("scene data in packs", () => {
  it("an AnimationTree method track whose path goes on to a resource calls the resource's method (3.5.1 scene/animation/animation_tree.cpp:621, `track_method->object = resource.ptr()`, then call_deferred at :990)", async () => {
    const scene = [
      "[gd_scene load_steps=4 format=2]", // 1
      "",
      '[sub_resource type="AudioStreamSample" id=1]',
      "",
      '[sub_resource type="Animation" id=2]', // 5
      'tracks/0/type = "method"',
      'tracks/0/path = NodePath("Sfx:stream")',
      'tracks/0/keys = { "times": PoolRealArray( 0.2 ), "transitions": PoolRealArray( 1 ), "values": [ { "args": [ "/tmp/x.wav" ], "method": "save_to_wav" } ] }', // 8
      "",
      '[sub_resource type="AnimationNodeAnimation" id=3]',
      'animation = "go"',
      "",
      '[node name="Main" type="Node2D"]',
      '[node name="Sfx" type="AudioStreamPlayer" parent="."]',
      "stream = SubResource( 1 )",
      '[node name="AP" type="AnimationPlayer" parent="."]',
      "anims/go = SubResource( 2 )",
      '[node name="AT" type="AnimationTree" parent="."]',
      "tree_root = SubResource( 3 )",
      'anim_player = NodePath("../AP")',
      "active = true",
      "",
    ].join("\n")
    expect(await located(pack3(scene), "res://level.tscn")).toEqual(["8 filesystem-outside-sandbox"])
  })

  it("a connection's binds and a method key's args keep their numbers in place: the name after a duration is still the name", async () => {
    const scene = [
      "[gd_scene load_steps=2 format=2]",
      '[ext_resource path="res://base.gd" type="Script" id=1]',
      '[node name="Main" type="Node2D"]',
      '[node name="Tw" type="Tween" parent="."]',
      `[connection signal="ready" from="." to="Tw" method="interpolate_callback" binds= [ ExtResource( 1 ), 0.1, "set_source_code", ${JSON.stringify(SOURCE)} ]]`, // 5
      '[connection signal="ready" from="." to="Tw" method="interpolate_callback" binds= [ ExtResource( 1 ), 0.2, "go" ]]',
      "",
    ].join("\n")
    expect(await located(pack3(scene), "res://level.tscn")).toContain("5 script-source-code")
    expect(await located(pack3(scene), "res://level.tscn")).not.toContain("6 script-source-code")
  })

  it("binary scenes: a method track on a resource (Godot 4's animation mixer calls the resource's method), and a Godot 3 connection binding the pack's script", async () => {
    const scene = writeBinaryScene({
      scripts: [],
      animations: [{ id: "Animation_b", names: ["Sfx"], subnames: ["stream"], method: { name: "save_to_wav", args: ["/tmp/x.wav"] } }],
      nodes: [{ name: "Level", type: "Node", parent: -1 }],
    })
    expect(await located(writePack({ format: 3, entries: [{ path: "res://level.scn", data: scene }] }), "res://level.scn")).toEqual(["- filesystem-outside-sandbox"])
    const connected = writeBinaryScene({
      engineMajor: 3,
      scripts: [],
      nodes: [
        { name: "Level", type: "Node", parent: -1 },
        { name: "Timer", type: "Timer", parent: 0 },
      ],
      connections: [{ from: 1, to: 0, signal: "timeout", method: "call", binds: ["call_deferred", "connect", "timeout", { external: BASE }, "set_source_code"] }],
    })
    const bytes = writePack({ format: 1, entries: [{ path: BASE, data: utf8("extends Node\nfunc go():\n\tpass\n") }, { path: "res://level.scn", data: connected }] })
    expect(await located(bytes, "res://level.scn")).toContain("- script-source-code")
  })
})
