// engine-resources.json is what Godot 3.2.3 itself lists as inheriting Resource: regenerated here with the running
// engine (godot3-server) and compared, so the committed table cannot drift from the engine the attacks run on.
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import committed from "../../adapters/scanner/gdscript/engine-resources.json" with { type: "json" }
import { mayBeEngineResource } from "../../adapters/scanner/gdscript/engineResources.ts"

describe("engine-resources.json", () => {
  it("is the list of Resource classes godot3-server gives", () => {
    const dir = mkdtempSync(join(tmpdir(), "pckgate-resources-test-"))
    try {
      const out = join(dir, "resources.json")
      const run = spawnSync(process.execPath, ["test/scanner/support/generateEngineResources.ts", out], { encoding: "utf8", timeout: 60_000 })
      expect(run.status, run.stderr).toBe(0)
      expect(JSON.parse(readFileSync(out, "utf8"))).toEqual(committed)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("holds the engine's scripts, scenes and images, not its nodes or its ConfigFile", () => {
    expect(["GDScript", "PackedScene", "Image", "Resource"].map((c) => mayBeEngineResource(3, c))).toEqual([true, true, true, true])
    expect(["Node", "Label", "ConfigFile", "File"].map((c) => mayBeEngineResource(3, c))).toEqual([false, false, false, false])
    // A Godot 4 class Godot 3 does not know may be one.
    expect([mayBeEngineResource(4, "StandardMaterial3D"), mayBeEngineResource(4, "Label")]).toEqual([true, false])
  })
})
