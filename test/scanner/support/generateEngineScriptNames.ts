// Regenerates adapters/scanner/gdscript/engine-script-names.json: what Godot 3 knows by name about the objects a
// script runs on, for the readings that follow a Godot 3 pack's own names (engineScriptNames.ts):
// - `callbacks`: every name starting with `_` the engine may call on a script: the engine binary's `_` methods
//   (ClassDB.class_get_method_list, virtual and internal) and every `"_…"` string literal of a 3.x checkout's
//   C++ sources outside `editor/` (which a player's export template leaves out): SceneStringNames, CoreStringNames
//   such as `_iter_init`, `call("_…")`;
// - `properties`: every property of every class, as `obj.name` reads it (the binary's class_get_property_list and
//   the checkout's class reference `<member>`s, and the two names Object::get answers itself, `script` and
//   `__meta__`), names with a `/` left out (no `.` access spells them);
// - `signals`: every signal with the numbers of arguments its classes emit it with (the binary's class_get_signal_list
//   and the class reference's `<signal>`s), `[on nodes, on other objects]`, so a handler knows where a connection's
//   binds start (a Button's `pressed` has none, ButtonGroup's, a Resource, one).
//
//   node test/scanner/support/generateEngineScriptNames.ts <godot-3.x binary> <godot-3.x checkout or git dir> [out.json]
import { spawnSync } from "node:child_process"
import { writeFileSync } from "node:fs"
import { dumpFromEngine } from "./engineDump.ts"

const DUMP = `extends SceneTree
func _init():
	var out = {"methods": [], "properties": [], "open": [], "signals": []}
	for cls in ClassDB.get_class_list():
		var node = cls == "Node" or ClassDB.is_parent_class(cls, "Node")
		for m in ClassDB.class_get_method_list(cls, true):
			if m["name"].begins_with("_"):
				out["methods"].append(m["name"])
		for p in ClassDB.class_get_property_list(cls, true):
			out["properties"].append(p["name"])
			if p["type"] == TYPE_DICTIONARY or p["type"] == TYPE_NIL:
				out["open"].append(p["name"])
		for s in ClassDB.class_get_signal_list(cls, true):
			out["signals"].append([s["name"], s["args"].size(), node])
	var f = File.new()
	f.open(OS.get_environment("DUMP_OUT"), File.WRITE)
	f.store_string(to_json(out))
	f.close()
	quit()
`

interface Names {
  readonly callbacks: Set<string>
  readonly properties: Set<string>
  readonly open: Set<string>
  /** Per signal: the argument counts on Node classes, and on the others. */
  readonly signals: Map<string, readonly [Set<number>, Set<number>]>
}

const empty = (): Names => ({ callbacks: new Set(), properties: new Set(), open: new Set(), signals: new Map() })

const addSignal = (names: Names, name: string, args: number, node: boolean): void => {
  const counts = names.signals.get(name) ?? ([new Set<number>(), new Set<number>()] as const)
  counts[node ? 0 : 1].add(args)
  names.signals.set(name, counts)
}

const fromBinary = (binary: string, into: Names): void => {
  const data = dumpFromEngine(binary, DUMP) as { methods: Array<string>; properties: Array<string>; open: Array<string>; signals: Array<[string, number, boolean]> }
  for (const m of data.methods) into.callbacks.add(m)
  for (const p of data.properties) into.properties.add(p)
  for (const p of data.open) into.open.add(p)
  for (const [name, args, node] of data.signals) addSignal(into, name, args, node)
}

const git = (checkout: string, args: ReadonlyArray<string>): string =>
  // A snapshot may lack some large blobs (git grep then complains about them and exits 1): the sources are there.
  spawnSync("git", ["-C", checkout, ...args], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 }).stdout

const fromCheckout = (checkout: string, into: Names): void => {
  const sources = git(checkout, ["grep", "-h", "-o", "-E", String.raw`"_[A-Za-z0-9_]+"`, "HEAD", "--", "*.cpp", "*.h", ":!editor/", ":!thirdparty/", ":!tests/"])
  for (const m of sources.matchAll(/"(_[A-Za-z0-9_]+)"/g)) into.callbacks.add(m[1] ?? "")
  const docs = git(checkout, ["ls-tree", "-r", "--name-only", "HEAD"])
    .split("\n")
    .filter((f) => /(^|\/)(doc\/classes|doc_classes)\/[^/]+\.xml$/.test(f))
  const parents = new Map<string, string>()
  const classSignals: Array<{ cls: string; name: string; args: number }> = []
  for (const file of docs) {
    const xml = git(checkout, ["show", `HEAD:${file}`])
    const cls = /<class name="([^"]+)"(?:[^>]*inherits="([^"]+)")?/.exec(xml)
    if (cls?.[1] !== undefined && cls[2] !== undefined) parents.set(cls[1], cls[2])
    for (const m of xml.matchAll(/<member name="([^"]+)"/g)) into.properties.add(m[1] ?? "")
    for (const m of xml.matchAll(/<member name="([^"]+)" type="(Dictionary|Variant)"/g)) into.open.add(m[1] ?? "")
    for (const m of xml.matchAll(/<signal name="([^"]+)">([\s\S]*?)<\/signal>/g)) classSignals.push({ cls: cls?.[1] ?? "", name: m[1] ?? "", args: [...(m[2] ?? "").matchAll(/<argument /g)].length })
  }
  const isNode = (cls: string): boolean => {
    for (let c: string | undefined = cls, depth = 0; c !== undefined && depth < 64; c = parents.get(c), depth++) if (c === "Node") return true
    return false
  }
  for (const s of classSignals) addSignal(into, s.name, s.args, isNode(s.cls))
}

const [binary, checkout, out = "adapters/scanner/gdscript/engine-script-names.json"] = process.argv.slice(2)
if (binary === undefined || checkout === undefined) {
  console.error("usage: node test/scanner/support/generateEngineScriptNames.ts <godot-3.x binary> <godot-3.x checkout or git dir> [out.json]")
  process.exit(2)
}
const names = empty()
// core/object.cpp Object::get answers these itself, after the script and the class's properties.
for (const own of ["script", "__meta__"]) names.properties.add(own)
names.open.add("__meta__")
fromBinary(binary, names)
fromCheckout(checkout, names)
const identifiers = (s: ReadonlySet<string>): ReadonlyArray<string> => [...s].filter((n) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(n)).sort()
const sorted = (counts: ReadonlySet<number>): ReadonlyArray<number> => [...counts].sort((a, b) => a - b)
const signals = Object.fromEntries(
  [...names.signals]
    .filter(([n]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(n))
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([n, [node, other]]) => [n, [sorted(node), sorted(other)]]),
)
writeFileSync(out, `${JSON.stringify({ 3: { callbacks: identifiers(names.callbacks), properties: identifiers(names.properties), openProperties: identifiers(names.open), signals } })}\n`)
