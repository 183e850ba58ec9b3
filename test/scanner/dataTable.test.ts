// The data-table pass (docs/scanner-data-table.md) found three Godot 4 places a pack could reach that the scanner
// did not judge: a state machine transition's advance_expression, and Node.set_thread_safe /
// set_deferred_thread_group, and a SceneReplicationConfig's property paths. Godot 4 does not run here: the packs are built with the test's pack writer, and the
// engine source lines that show the behaviour are in the titles (Godot 4.4-dev fork kosmicengine/kosmic).
import { describe, expect, it } from "vitest"
import { utf8 } from "./support/bytes.ts"
import { hitsIn, ids } from "./support/analyze.ts"
import { writePack } from "./support/packWriter.ts"
import { writeProjectBinary } from "./support/projectBinaryWriter.ts"
import { writeBinaryScene } from "./support/resourceWriter.ts"
import { scanBytes } from "./support/scan.ts"
import { verdictOf } from "./support/dataDispatchVerdicts.ts"

const errorIds = (found: ReadonlyArray<string>): ReadonlyArray<string> => ids(found.filter((h) => h.split(" ")[1] === "error"))

const MANIFEST = utf8(JSON.stringify({ id: "g", name: "G", version: "1.0.0", engine_sdk: "1.0", entry_scene: "res://game/main.tscn", min_players: 1, max_players: 4 }))
const MAIN = utf8('[gd_scene load_steps=2 format=3]\n\n[ext_resource type="Script" path="res://game/main.gd" id="1_m"]\n\n[node name="Main" type="Node2D"]\nscript = ExtResource("1_m")\n')
/** Godot 3's: ids are whole numbers (a string id is refused there, test/scanner/resourceIds.test.ts). */
const MAIN3 = utf8('[gd_scene load_steps=2 format=2]\n\n[ext_resource path="res://game/main.gd" type="Script" id=1]\n\n[node name="Main" type="Node2D"]\nscript = ExtResource( 1 )\n')

/** A Godot 4 (format 3: 3 for Godot 3, as pack format 1) pack holding a game and `entries`. */
const pack = (entries: ReadonlyArray<{ readonly path: string; readonly data: Uint8Array }>, main = "extends EngineGame\n", format: 1 | 3 = 3): Uint8Array =>
  writePack({
    format,
    entries: [
      { path: "res://manifest.json", data: MANIFEST },
      { path: "res://project.binary", data: writeProjectBinary([["application/config/name", "G"], ["application/run/main_scene", "res://game/main.tscn"]]) },
      { path: "res://game/main.tscn", data: format === 1 ? MAIN3 : MAIN },
      { path: "res://game/main.gd", data: utf8(main) },
      ...entries,
    ],
  })

/** The pattern of the object-deserialization rule, as findings name it. */
const DECODING = "bytes_to_var_with_objects / str_to_var / str2var"

/** `file:line pattern` of each error. */
const errors = async (bytes: Uint8Array): Promise<ReadonlyArray<string>> =>
  (await scanBytes(bytes)).findings.filter((f) => f.severity === "error").map((f) => `${f.file}:${f.line ?? ""} ${f.pattern}`)

/** A player scene: a CharacterBody2D with an AnimationTree whose state machine has one transition with `expression` (line 13). */
const player = (expression: string): Uint8Array =>
  utf8(
    [
      '[gd_scene load_steps=4 format=3]',
      "",
      '[sub_resource type="AnimationNodeStateMachineTransition" id="t_run"]',
      "advance_mode = 2",
      "",
      '[sub_resource type="AnimationNodeStateMachine" id="sm"]',
      'transitions = ["Start", "Run", SubResource("t_run")]',
      "",
      '[node name="Player" type="CharacterBody2D"]',
      "",
      '[node name="AnimationTree" type="AnimationTree" parent="."]',
      'advance_expression_base_node = NodePath("..")',
      `tree_root = SubResource("sm")`,
      "",
    ]
      .join("\n")
      .replace("advance_mode = 2", `advance_mode = 2\nadvance_expression = ${JSON.stringify(expression)}`),
  )

describe("advance_expression: Expression text a state machine evaluates on its base node (scene/animation/animation_node_state_machine.cpp:1118, exp->execute(Array(), expression_base, false, is_editor_hint()): every call allowed in a game)", () => {
  it("in a text scene, the expression is judged as a method of the base node: decoding objects, a method named by data (expression.cpp: a bare name(…) calls the base node's method)", async () => {
    expect(await errors(pack([{ path: "res://game/player.tscn", data: player('str_to_var(get_meta("save")) != null') }]))).toEqual([`res://game/player.tscn:5 ${DECODING}`])
    const named = await errors(pack([{ path: "res://game/player.tscn", data: player('callv(get_meta("action"), get_meta("args")) == null') }]))
    expect(named.length).toBeGreaterThan(0)
    expect(named.every((e) => e.startsWith("res://game/player.tscn:5 "))).toBe(true)
  })

  it("an inline Object(AnimationNodeStateMachineTransition, …) and a value that is not a string (the engine converts an array to text without quotes) are judged too", async () => {
    const inline = utf8('[gd_resource type="Resource" format=3]\n\n[resource]\nmetadata/t = Object(AnimationNodeStateMachineTransition,"advance_expression":"bytes_to_var_with_objects(get_meta(\\"b\\"))","script":null)\n')
    expect(await errors(pack([{ path: "res://game/t.tres", data: inline }]))).toEqual([`res://game/t.tres:4 ${DECODING}`])
    const array = utf8('[gd_resource type="AnimationNodeStateMachineTransition" format=3]\n\n[resource]\nadvance_expression = ["str_to_var(get_meta(\\"s\\"))"]\n')
    expect(await errors(pack([{ path: "res://game/t.tres", data: array }]))).toEqual(["res://game/t.tres:4 Expression"])
  })

  it("in a binary scene (the export's text-to-binary conversion), the transition sub-resource's property is read", async () => {
    const scene = writeBinaryScene({
      scripts: [{ id: "AnimationNodeStateMachineTransition_t", source: 'str_to_var(get_meta("save")) != null', className: "AnimationNodeStateMachineTransition", propertyBytes: utf8("advance_expression") }],
      nodes: [{ name: "Player", type: "CharacterBody2D", parent: -1 }],
    })
    expect(await errors(pack([{ path: "res://game/player.scn", data: scene }]))).toEqual([`res://game/player.scn:1 ${DECODING}`])
  })

  it("written by code: constant text is judged as the expression, other text is an Expression error; Godot 3 has no such property", async () => {
    const code = (line: string): string => `extends EngineGame\nfunc _ready():\n\tvar t := AnimationNodeStateMachineTransition.new()\n\t${line}\n`
    expect(await errors(pack([], code('t.advance_expression = "str_to_var(get_meta(\\"s\\")) != null"')))).toEqual([`res://game/main.gd:4 ${DECODING}`])
    expect(await errors(pack([], code("t.advance_expression = OS.get_environment(\"E\")")))).toEqual(["res://game/main.gd:4 Expression"])
    expect(await errors(pack([], code("t.set_advance_expression(get_meta(\"e\"))")))).toEqual(["res://game/main.gd:4 Expression"])
    expect(await errors(pack([], code('t.set("advance_expression", get_meta("e"))')))).toEqual(["res://game/main.gd:4 Expression"])
    expect(await errors(pack([{ path: "res://game/t.tres", data: utf8('[gd_resource type="AnimationNodeStateMachineTransition" format=2]\n\n[resource]\nadvance_expression = "str_to_var(get_meta(\\"s\\"))"\n') }], "extends EngineGame\n", 1))).toEqual([])
  })

  it("look-alikes stay clean: an ordinary expression in a scene and in code, an empty one, the creator's own property of that name", async () => {
    expect(await errors(pack([{ path: "res://game/player.tscn", data: player("velocity.length() > 10.0 and is_on_floor()") }]))).toEqual([])
    expect(await errors(pack([{ path: "res://game/player.tscn", data: player("  ") }]))).toEqual([])
    const code = 'extends EngineGame\nvar advance_expression := ""\nfunc _ready():\n\tadvance_expression = get_meta("e")\n\tvar t := AnimationNodeStateMachineTransition.new()\n\tt.advance_expression = "not is_on_floor() and velocity.y > 0"\n'
    expect(await errors(pack([], code))).toEqual([])
  })
})

describe("Node.set_thread_safe and set_deferred_thread_group write the receiver's property by name (scene/main/node.cpp:3596, Node::set_thread_safe: set(p_property, p_value); set_deferred_thread_group queues the same set)", () => {
  const fn = (line: string): string => `extends Node\nfunc _ready():\n\t${line}\n`
  it("a script's source written through them is caught; a plain property stays clean", () => {
    for (const call of ["set_thread_safe", "set_deferred_thread_group"]) {
      expect(errorIds(hitsIn(fn(`get_child(0).get_script().${call}("source_code", "extends Node")`), {}, 4))).toContain("script-source-code")
      // Judged as Object.set is: the same findings for every shape.
      for (const shape of ['get_meta("o").CALL(get_meta("p"), "extends Node")', 'get_meta("o").CALL("script", load("user://x.gd"))', 'CALL("script", load(get_meta("p")))']) {
        const found = (text: string) => hitsIn(fn(text), {}, 4).map((h) => h.replace(/^(\d+):\d+/, "$1").replace(call, "set"))
        expect(found(shape.replace("CALL", call))).toEqual(found(shape.replace("CALL", "set")))
        expect(found(shape.replace("CALL", "set")).length).toBeGreaterThan(0)
      }
      expect(errorIds(hitsIn(fn(`${call}("visible", false)`), {}, 4))).toEqual([])
    }
  })
})

describe("SceneReplicationConfig property paths: a MultiplayerSynchronizer writes them with the values a remote peer sends (modules/multiplayer/multiplayer_synchronizer.cpp:180, MultiplayerSynchronizer::set_state: obj->set_indexed(prop.get_subnames(), p_state[i]))", () => {
  const config = (path: string): Uint8Array =>
    utf8(`[gd_scene load_steps=2 format=3]\n\n[sub_resource type="SceneReplicationConfig" id="rc"]\nproperties/0/path = NodePath("${path}")\nproperties/0/spawn = true\n\n[node name="Net" type="Node"]\n\n[node name="Sync" type="MultiplayerSynchronizer" parent="."]\nreplication_config = SubResource("rc")\n`)
  it("a path ending in a script's source is caught in text and binary scenes; a position stays clean", async () => {
    expect(await errors(pack([{ path: "res://game/net.tscn", data: config(".:script:source_code") }]))).toEqual(["res://game/net.tscn:4 source_code assignment"])
    const binary = writeBinaryScene({
      scripts: [{ id: "SceneReplicationConfig_rc", source: ".:script:source_code", className: "SceneReplicationConfig", propertyBytes: utf8("properties/0/path") }],
      nodes: [{ name: "Net", type: "Node", parent: -1 }],
    })
    expect(await errors(pack([{ path: "res://game/net.scn", data: binary }]))).toEqual(["res://game/net.scn: source_code assignment"])
    expect(await errors(pack([{ path: "res://game/net.tscn", data: config(".:position") }]))).toEqual([])
  })
})

describe("docs/scanner-data-table.md", () => {
  it("every candidate row carries the verdict dataDispatchVerdicts.ts gives it, and none is without one", async () => {
    const { readFile } = await import("node:fs/promises")
    const doc = await readFile(new URL("../../docs/scanner-data-table.md", import.meta.url), "utf8")
    const rows = doc.split("\n").filter((l) => l.startsWith("| `"))
    expect(rows.length).toBeGreaterThan(300)
    for (const row of rows) {
      const [api = "", , data = "", , verdict = ""] = row.slice(2, -2).split(" | ")
      expect(verdict).toBe(verdictOf(api.replace(/`/g, ""), data.replace(/\\\|/g, "|"))?.text ?? "NO VERDICT")
      expect(verdict).not.toBe("NO VERDICT")
    }
  })
})
