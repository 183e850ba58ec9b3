// A PackedScene held inside another resource (red team 17a, attackProjects44.ts): a `[sub_resource type="PackedScene"]`
// of a text resource, an `Object(PackedScene, …)` value, or an internal PackedScene of a binary resource, wherever
// the file refers to it, is read as the scene it is: its node classes and names, connections and the properties
// its nodes set with their scripts.
import { describe, expect, it } from "vitest"
import { TextResourceReader } from "../../adapters/scanner/resource/textResource.ts"
import { lines } from "./fixtures/godotProjects.ts"
import { utf8 } from "./support/bytes.ts"
import { writePack } from "./support/packWriter.ts"
import { writeBinaryScene } from "./support/resourceWriter.ts"
import { scan3Files, scanBytes } from "./support/scan.ts"

/** The `_bundled` of a scene: a root `Lbl` (RichTextLabel, bbcode_enabled, script ExtResource 1) and a child `Box` (SpinBox, `hint` = "res://x.json"), `ready` connected to `call` with binds. */
const BUNDLED = lines(
  "_bundled = {",
  '"conn_count": 1,',
  '"conns": PoolIntArray( 0, 0, 6, 7, 0, 2, 2, 3 ),',
  '"editable_instances": [  ],',
  '"names": PoolStringArray( "Lbl", "bbcode_enabled", "script", "RichTextLabel", "Box", "SpinBox", "ready", "call", "hint" ),',
  '"node_count": 2,',
  '"node_paths": [  ],',
  // The second node's records given as a plain array: the engine converts it to the packed one.
  '"nodes": [ -1, -1, 3, 0, -1, 2, 1, 0, 2, 1, 0, 0, -1, 5, 4, -1, 1, 8, 4, 0 ],',
  '"variants": [ true, ExtResource( 1 ), "append_bbcode", "[img]user://x.tres[/img]", "res://x.json" ],',
  '"version": 2',
  "}",
).trimEnd()

const facts = (text: string) => {
  const reader = new TextResourceReader(3)
  reader.feed(text)
  return reader.finish()
}

describe("a PackedScene nested in a text resource", () => {
  const holder = lines('[gd_resource type="Resource" load_steps=3 format=2]', "", '[ext_resource path="res://lbl.gd" type="Script" id=1]', "", '[sub_resource type="PackedScene" id=1]', BUNDLED, "", "[resource]", "__meta__ = {", '"s": SubResource( 1 )', "}")

  it("gives its nodes' classes and names, its connections with their binds, and the properties set on a scripted node", () => {
    const f = facts(holder)
    expect(f.nodeTypes.map((n) => [n.type, n.name, n.line])).toEqual([
      ["RichTextLabel", "Lbl", 6],
      ["SpinBox", "Box", 6],
    ])
    expect(f.namedNodes).toEqual([
      { name: "Lbl", type: null },
      { name: "Box", type: "SpinBox" },
    ])
    expect(f.connections.map((c) => [c.signal, c.method, c.binds])).toEqual([["ready", "call", ["append_bbcode", "[img]user://x.tres[/img]"]]])
    expect(f.memberValues).toEqual([{ property: "bbcode_enabled", value: null, script: { _tag: "File", path: "res://lbl.gd" } }])
  })

  it("reads an Object(PackedScene, …) value and a scene's position past the 32 kept items of a plain array", () => {
    const variants = [...Array.from({ length: 40 }, (_, i) => `${i}.5`), '"Spin"'].join(", ")
    const text = lines("[gd_resource type=\"Resource\" format=2]", "", "[resource]", `metadata/s = Object(PackedScene, "_bundled": { "names": PoolStringArray( "Spin", "SpinBox", "text" ), "variants": [ ${variants} ], "node_count": 1, "nodes": PoolIntArray( -1, -1, 1, 0, -1, 1, 2, 40, 0 ), "conn_count": 0, "conns": PoolIntArray(  ) })`)
    const f = facts(text)
    expect(f.nodeTypes.map((n) => n.type)).toEqual(["SpinBox"])
    expect(f.namedNodes).toEqual([{ name: "Spin", type: "SpinBox" }])
  })

  it("is an error when its node records cannot be read (the engine would build nodes the scanner did not see), in a resource or a ConfigFile text", async () => {
    const broken = holder.replace('"nodes": [ -1', '"nodes": [ Vector2( 1, 2 ), -1')
    expect(facts(broken).unreadScenes.map((u) => u.at.line)).toEqual([6])
    const found = await scan3Files({ "res://lbl.gd": "extends Node\n", "res://holder.tres": broken, "res://settings.cfg": lines("[s]", `scene = Object(PackedScene, "_bundled": { "names": PoolStringArray( "X" ), "nodes": "?" })`) })
    expect(found).toContain("res://holder.tres:6 error unreadable nested scene")
    expect(found).toContain("res://settings.cfg:2 error unreadable nested scene")
  })

  it("makes its connections the pack's data calls: a bind that loads a path outside the pack is an error", async () => {
    const found = await scan3Files({ "res://lbl.gd": "extends Node\n", "res://holder.tres": holder })
    expect(found.filter((f) => f.startsWith("res://holder.tres:") && f.includes(" error "))).toContain("res://holder.tres:6 error runtime-code-loading")
  })
})

describe("a PackedScene nested in a binary resource", () => {
  const BASE = "res://base.gd"
  const scene = (holder: boolean) =>
    writeBinaryScene({
      engineMajor: 3,
      holder,
      scripts: [],
      nodes: [
        { name: "Level", type: "Node", parent: -1 },
        { name: "Timer", type: "Timer", parent: 0 },
      ],
      connections: [{ from: 1, to: 0, signal: "timeout", method: "call", binds: ["call_deferred", "connect", "timeout", { external: BASE }, "set_source_code"] }],
    })
  const errors = async (data: Uint8Array) => {
    const report = await scanBytes(writePack({ format: 1, entries: [{ path: BASE, data: utf8("extends Node\nfunc go():\n\tpass\n") }, { path: "res://holder.res", data }] }))
    return report.findings.filter((f) => f.file === "res://holder.res" && f.severity === "error").map((f) => /\(policy ([a-z0-9-]+)\)/.exec(f.message)?.[1] ?? f.pattern)
  }

  it("judges its connections as the main scene's (a Resource holding it in its metadata)", async () => {
    expect(await errors(scene(false))).toContain("script-source-code")
    expect(await errors(scene(true))).toContain("script-source-code")
  })
})
