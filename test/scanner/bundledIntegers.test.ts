// The counts, indexes and version of a PackedScene's `_bundled` are ints to the engine (SceneState::set_bundled_scene
// converts whatever value is there); any other value makes the scene unreadable here: a ninetieth red team's
// `base_scene = "0"` (and `false`, 0.5) built the root from the first external, which the scanner took for no base
// (attackProjects135.ts, run by godot3-server).
import { describe, expect, it } from "vitest"
import { bundledSceneFacts } from "../../adapters/scanner/resource/binaryScene.ts"
import { SKIPPED, type Value } from "../../adapters/scanner/resource/variant.ts"
import type { ScriptReference } from "../../adapters/scanner/resource/SceneFacts.ts"

const EXTERNALS = ["res://real.tscn", "res://decoy.tscn"]
const toScript = (ref: Value | undefined): ScriptReference | null =>
  ref !== null && typeof ref === "object" && "_tag" in ref && ref._tag === "External" ? { _tag: "File", path: EXTERNALS[ref.index] ?? "" } : null

/** One node instancing external 1 (the decoy), with `extra` entries of `_bundled`. */
const bundled = (extra: ReadonlyArray<readonly [string, Value]>): ReadonlyMap<Value, Value> =>
  new Map<Value, Value>([
    ["names", ["Towers"]],
    ["variants", [{ _tag: "External", index: 0 }, { _tag: "External", index: 1 }]],
    ["node_count", 1],
    ["nodes", Int32Array.from([-1, -1, 0x7fffffff, 0, 1, 0, 0])],
    ...extra,
  ])

describe("`_bundled` ints", () => {
  it("base_scene given as an int names the base; absent, the root's own instance (a guard)", () => {
    expect(bundledSceneFacts(bundled([["base_scene", 0]]), toScript).baseScene).toBe("res://real.tscn")
    expect(bundledSceneFacts(bundled([]), toScript).baseScene).toBe("res://decoy.tscn")
    expect(bundledSceneFacts(bundled([["base_scene", -1]]), toScript).baseScene).toBe("res://decoy.tscn")
  })

  it("a String, a bool, a float or an index past the variants: unreadable", () => {
    for (const value of ["0", false, SKIPPED, 0.5, 2] as ReadonlyArray<Value>) {
      expect(() => bundledSceneFacts(bundled([["base_scene", value]]), toScript), String(value)).toThrow(/base_scene/)
    }
    expect(() => bundledSceneFacts(bundled([["conn_count", "0"], ["conns", Int32Array.from([])]]), toScript)).toThrow(/conn_count/)
    expect(() => bundledSceneFacts(new Map([...bundled([]), ["node_count", "1"]]), toScript)).toThrow()
  })

  it("a base scene that is no external scene (an internal PackedScene): unreadable, never the root's own instance (a ninety-fourth red team's)", () => {
    const internal = new Map<Value, Value>([...bundled([["base_scene", 0]]), ["variants", [{ _tag: "Internal", index: 1 }, { _tag: "External", index: 1 }]]])
    expect(() => bundledSceneFacts(internal, toScript)).toThrow(/base_scene/)
  })
})
