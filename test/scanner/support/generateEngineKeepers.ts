// Regenerates adapters/scanner/gdscript/engine-keepers.json: for Godot 3 and 4, the engine methods that may keep a
// container they are given (an Array or a Dictionary is shared, not copied, when a Variant, Array or Dictionary
// parameter stores it: `ItemList.set_item_metadata(0, d)`, `ProjectSettings.set_setting("k", d)`, `Control.force_drag(d,
// p)`), and the properties of those types (`JSONParseResult.result = d`). Under "methods", each name is followed by the
// positions of such parameters (`set_item_metadata:1`); every method with one is listed but those whose name says
// they only read what they are given (READS: `has(d)`, `find(d)`, `get(…)`, `to_json`…; the dispatchers and
// `emit_signal` are followed elsewhere). A method taking any number of arguments (`qualifiers="vararg"`) hands those
// past its declared ones on to a method it calls by name or a script's `_init` (`TreeItem.call_recursive("set_meta",
// "k", d)`, `Node.rpc`, `GDScript.new(d)`: a fifty-fourth red team's), readers' names or not: `call_recursive:1+`.
// Under "properties", the names. The editor's classes, a visual script's nodes
// and the built-in functions (@GDScript, @GlobalScope) are left out.
//
//   node test/scanner/support/generateEngineKeepers.ts <godot-3.x git dir or checkout> <godot-4.x git dir or checkout> [out.json]
import { spawnSync } from "node:child_process"
import { writeFileSync } from "node:fs"

const git = (repo: string, args: ReadonlyArray<string>): string => spawnSync("git", ["-C", repo, ...args], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 }).stdout

const SHARED_TYPES = new Set(["Variant", "Array", "Dictionary"])
/** Methods that only read what they are given (a test, a search, a conversion to text or bytes, a copy written out, a constructor of a value type, a query). */
const READS = /^([A-Z]|format|xform|intersect|segment|execute|query_string|variant_to_base64|instances_cull|body_test_motion|has|find|rfind|count|erase|bsearch|hash|is_|get|print|str|to_|var2|bytes2|store_var|put_var|compare|match|equal|begins_with|ends_with|remove|push_error|push_warning|assert|typeof|len|validate|parse|emit_signal|connect|disconnect|call|rpc|can_|_)/

const keepers = (repo: string): { readonly methods: string; readonly properties: string } => {
  const files = git(repo, ["ls-tree", "-r", "--name-only", "HEAD"])
    .split("\n")
    .filter((f) => /(^|\/)(doc\/classes|doc_classes)\/[^/]+\.xml$/.test(f))
  const classOf = (f: string): string => f.slice(f.lastIndexOf("/") + 1, -".xml".length)
  const methods = new Map<string, Set<number>>()
  const properties = new Set<string>()
  const varargs = new Map<string, number>()
  for (const file of files) {
    const cls = classOf(file)
    if (cls.startsWith("Editor") || cls.startsWith("VisualScript") || cls.startsWith("@")) continue
    const xml = git(repo, ["show", `HEAD:${file}`])
    for (const m of xml.matchAll(/<method name="([^"]+)"([^>]*)>([\s\S]*?)<\/method>/g)) {
      const name = m[1] ?? ""
      const declared = [...(m[3] ?? "").matchAll(/<(?:argument|param) index="(\d+)"/g)].length
      if (/qualifiers="[^"]*vararg/.test(m[2] ?? "")) varargs.set(name, Math.min(varargs.get(name) ?? declared, declared))
      if (READS.test(name)) continue
      for (const p of (m[3] ?? "").matchAll(/<(?:argument|param) index="(\d+)" name="[^"]*" type="([^"]+)"/g)) {
        if (!SHARED_TYPES.has(p[2] ?? "")) continue
        const at = methods.get(name) ?? new Set<number>()
        at.add(Number(p[1]))
        methods.set(name, at)
      }
    }
    for (const m of xml.matchAll(/<member name="([^"]+)" type="([^"]+)"/g)) if (SHARED_TYPES.has(m[2] ?? "")) properties.add(m[1] ?? "")
  }
  return {
    methods: [...new Set([...methods.keys(), ...varargs.keys()])]
      .map((name) => {
        const from = varargs.get(name)
        const at = [...(methods.get(name) ?? [])].filter((i) => from === undefined || i < from).sort((a, b) => a - b)
        return `${name}:${[...at.map(String), ...(from === undefined ? [] : [`${from}+`])].join(",")}`
      })
      .sort()
      .join(" "),
    properties: [...properties].sort().join(" "),
  }
}

const [godot3, godot4, out = "adapters/scanner/gdscript/engine-keepers.json"] = process.argv.slice(2)
if (godot3 === undefined || godot4 === undefined) {
  console.error("usage: node test/scanner/support/generateEngineKeepers.ts <godot-3.x git dir or checkout> <godot-4.x git dir or checkout> [out.json]")
  process.exit(2)
}
writeFileSync(out, `${JSON.stringify({ 3: keepers(godot3), 4: keepers(godot4) })}\n`)
