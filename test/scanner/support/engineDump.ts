// Runs a GDScript `extends SceneTree` script in an engine binary, in a project of its own, and hands back the JSON it
// stores at DUMP_OUT: what the generators of the committed engine tables read from the engine's ClassDB.
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

export const dumpFromEngine = (binary: string, script: string): unknown => {
  const dir = mkdtempSync(join(tmpdir(), "engine-dump-"))
  try {
    writeFileSync(join(dir, "project.godot"), "")
    writeFileSync(join(dir, "dump.gd"), script)
    const out = join(dir, "out.json")
    execFileSync(binary, ["--path", dir, "-s", "dump.gd"], { env: { ...process.env, HOME: dir, DUMP_OUT: out }, stdio: "ignore", timeout: 120_000 })
    return JSON.parse(readFileSync(out, "utf8"))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
