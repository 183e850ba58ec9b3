// The reader runs on Deno too: the same packs give the same reports.
import { spawnSync } from "node:child_process"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, inject, it } from "vitest"
import { fixturePackPath } from "../setup/godot.ts"
import { utf8 } from "./support/bytes.ts"
import { writePack } from "./support/packWriter.ts"
import { writeBinaryScene } from "./support/resourceWriter.ts"
import { scanFile } from "./support/scan.ts"

const DENO = fileURLToPath(new URL("../../node_modules/.bin/deno", import.meta.url))
const SCRIPT = fileURLToPath(new URL("./support/denoScan.ts", import.meta.url))

const scanWithDeno = (path: string): unknown => {
  const result = spawnSync(DENO, ["run", "--no-check", "--quiet", "--allow-read", "--allow-env", SCRIPT, path], { encoding: "utf8", timeout: 60_000, env: { ...process.env, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" } })
  if (result.status !== 0) throw new Error(`deno failed (${result.status}): ${result.stderr}`)
  return JSON.parse(result.stdout)
}

describe("scanner on Deno", () => {
  it("a real Godot 3 export and a Godot 4 layout with an RSCC scene give identical reports on Deno and Node", async () => {
    const scene = writeBinaryScene({
      scripts: [{ id: "GDScript_q", source: 'extends EngineGame\nfunc _ready():\n\tOS.shell_open("x")\n' }],
      nodes: [{ name: "M", type: "Node2D", parent: -1, script: { builtIn: 0 } }],
      compressed: true,
    })
    const manifest = utf8(JSON.stringify({ id: "g", name: "G", version: "1", engine_sdk: "1", entry_scene: "res://m.tscn", min_players: 1, max_players: 1 }))
    const godot4 = join(inject("runDir"), "deno-godot4.pck")
    writeFileSync(godot4, writePack({ format: 4, entries: [{ path: "manifest.json", data: manifest }, { path: "m.tscn.remap", data: utf8('[remap]\npath="res://m.scn"\n') }, { path: "m.scn", data: scene }] }))
    for (const path of [fixturePackPath(inject("godotFixtures"), "violations"), godot4]) {
      expect(scanWithDeno(path)).toEqual(JSON.parse(JSON.stringify(await scanFile(path))))
    }
  })
})
