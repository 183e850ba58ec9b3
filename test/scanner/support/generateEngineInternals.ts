// Regenerates adapters/scanner/gdscript/engine-internals.json: the engine's internal bound methods, those
// registered in ClassDB with a name starting with `_` that are not virtual callbacks a script overrides
// (FileDialog._make_dir_confirm, LineEdit._text_changed). The class reference leaves them out (its
// generator skips `_` methods that are not virtual), so they come from the engines themselves:
// - Godot 3: the engine binary lists its dispatch table (ClassDB.class_get_method_list, METHOD_FLAG_VIRTUAL);
// - Godot 4: the `ClassDB::bind_method(D_METHOD("_…"` calls of a checkout's C++ sources, minus the names it
//   declares virtual (GDVIRTUAL0(_ready) and the like, BIND_VMETHOD).
// A name virtual in either engine (`_gui_input`, `_input`) is left out of both: scripts define and call those.
//
//   node test/scanner/support/generateEngineInternals.ts <godot-3.x binary> <godot-4.x checkout> [out.json]
import { execFileSync, spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const DUMP = `extends SceneTree
func _init():
	var out = {"internal": [], "virtual": []}
	for cls in ClassDB.get_class_list():
		for m in ClassDB.class_get_method_list(cls, true):
			if m["name"].begins_with("_"):
				out["virtual" if m["flags"] & METHOD_FLAG_VIRTUAL else "internal"].append(m["name"])
	var f = File.new()
	f.open(OS.get_environment("DUMP_OUT"), File.WRITE)
	f.store_string(to_json(out))
	f.close()
	quit()
`

const fromBinary = (binary: string): { internal: ReadonlySet<string>; virtual: ReadonlySet<string> } => {
  const dir = mkdtempSync(join(tmpdir(), "engine-internals-"))
  try {
    writeFileSync(join(dir, "project.godot"), "")
    writeFileSync(join(dir, "dump.gd"), DUMP)
    const out = join(dir, "out.json")
    execFileSync(binary, ["--path", dir, "-s", "dump.gd"], { env: { ...process.env, DUMP_OUT: out }, stdio: "ignore", timeout: 120_000 })
    const data = JSON.parse(readFileSync(out, "utf8")) as { internal: Array<string>; virtual: Array<string> }
    return { internal: new Set(data.internal), virtual: new Set(data.virtual) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const grep = (checkout: string, pattern: string): ReadonlySet<string> => {
  // A snapshot may lack some large blobs (git grep then complains about them and exits 1): the sources are there.
  const text = spawnSync("git", ["-C", checkout, "grep", "-h", "-o", "-E", pattern, "HEAD", "--", "*.cpp", "*.h"], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }).stdout
  return new Set([...text.matchAll(/\((_[a-z0-9_]+)|"(_[a-z0-9_]+)"/g)].map((m) => m[1] ?? m[2] ?? "").filter((n) => n !== ""))
}

const fromSources = (checkout: string): { internal: ReadonlySet<string>; virtual: ReadonlySet<string> } => ({
  internal: grep(checkout, String.raw`bind_method\(D_METHOD\("_[a-z0-9_]+"`),
  // GDVIRTUAL0(_ready) and its variants (the fork the committed table comes from spells them KSVIRTUAL).
  virtual: grep(checkout, String.raw`([A-Z]+VIRTUAL[0-9A-Z_]*|BIND_VMETHOD)\(_[a-z0-9_]+`),
})

const [godot3, godot4, out = "adapters/scanner/gdscript/engine-internals.json"] = process.argv.slice(2)
if (godot3 === undefined || godot4 === undefined) {
  console.error("usage: node test/scanner/support/generateEngineInternals.ts <godot-3.x binary> <godot-4.x checkout> [out.json]")
  process.exit(2)
}
const three = fromBinary(godot3)
const four = fromSources(godot4)
const virtual = new Set([...three.virtual, ...four.virtual])
const names = (t: { internal: ReadonlySet<string> }): ReadonlyArray<string> => [...t.internal].filter((n) => !virtual.has(n)).sort()
writeFileSync(out, `${JSON.stringify({ 3: names(three), 4: names(four) })}\n`)
