// Regenerates adapters/scanner/gdscript/engine-resources.json: the engine classes of Godot 3.2.3 that descend from
// Resource (and Resource itself), listed by the running engine (`ClassDB.get_inheriters_from_class("Resource")`),
// which godot3-server is. An object of one of these classes has a `resource_path` a write by a name that is not
// constant may set (engineResources.ts).
//
//   node test/scanner/support/generateEngineResources.ts [out.json]
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const LISTER = [
  "extends SceneTree",
  "func _init():",
  '\tvar names = Array(ClassDB.get_inheriters_from_class("Resource"))',
  '\tnames.append("Resource")',
  "\tnames.sort()",
  "\tvar f = File.new()",
  '\tf.open(OS.get_environment("PCKGATE_OUT"), File.WRITE)',
  "\tf.store_string(to_json(names))",
  "\tf.close()",
  "\tquit()",
  "",
].join("\n")

const dir = mkdtempSync(join(tmpdir(), "pckgate-resources-"))
try {
  writeFileSync(join(dir, "project.godot"), "")
  writeFileSync(join(dir, "list.gd"), LISTER)
  const out = join(dir, "resources.json")
  const run = spawnSync("godot3-server", ["--path", dir, "-s", "list.gd"], { env: { ...process.env, HOME: dir, PCKGATE_OUT: out }, encoding: "utf8", timeout: 60_000 })
  if (run.status !== 0) throw new Error(`godot3-server failed: ${run.stderr}`)
  const names: ReadonlyArray<string> = JSON.parse(readFileSync(out, "utf8"))
  writeFileSync(process.argv[2] ?? "adapters/scanner/gdscript/engine-resources.json", `${JSON.stringify({ 3: names })}\n`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
