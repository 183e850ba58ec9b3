// Regenerates adapters/scanner/gdscript/engine-number-returns.json: for Godot 3 and 4, the methods of the engine's
// singletons (the classes @GlobalScope names as members: OS, Engine, Time, …) and the built-in functions
// (@GDScript, 4.x @GlobalScope) whose class reference says they return an int, a float or a bool. What they hand
// back is a number: it holds no NUL, `/` or `[` when shown as text (`"user://shot_%s.png" % OS.get_unix_time()`).
// Under "@any", the method names every class of the reference that has a method of that name (the built-in types
// String, Array, Dictionary… included; a property's getter counts, returning the property's type) says return an
// int, a float or a bool (the editor's classes and a visual script's nodes left out: see below): on any receiver such a call hands back
// a number (`button.get_index()`, `list.size()`), unless a script of the pack defines a method of that name.
//
//   node test/scanner/support/generateEngineNumberReturns.ts <godot-3.x git dir or checkout> <godot-4.x git dir or checkout> [out.json]
import { spawnSync } from "node:child_process"
import { writeFileSync } from "node:fs"
import { ADDED_AFTER_3_2_3 } from "./godot3Builtins.ts"

const git = (repo: string, args: ReadonlyArray<string>): string => spawnSync("git", ["-C", repo, ...args], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 }).stdout

const NUMBER_TYPES = new Set(["int", "float", "bool"])

const numberReturns = (repo: string, grammar: 3 | 4): Record<string, ReadonlyArray<string>> => {
  const files = git(repo, ["ls-tree", "-r", "--name-only", "HEAD"])
    .split("\n")
    .filter((f) => /(^|\/)(doc\/classes|doc_classes)\/[^/]+\.xml$/.test(f))
  const classOf = (f: string): string => f.slice(f.lastIndexOf("/") + 1, -".xml".length)
  const global = files.find((f) => classOf(f) === "@GlobalScope")
  const singletons = new Set([...git(repo, ["show", `HEAD:${global}`]).matchAll(/<member name="[A-Za-z0-9_]+" type="([A-Za-z0-9_]+)"/g)].map((m) => m[1] ?? ""))
  const out: Record<string, ReadonlyArray<string>> = {}
  // Every return type each method name has in any class ("void" when the reference gives none).
  const anyClass = new Map<string, Set<string>>()
  for (const file of files) {
    const cls = classOf(file)
    const xml = git(repo, ["show", `HEAD:${file}`])
    // Left out of "@any": the editor's classes (an exported game's engine has none), and a visual script's nodes,
    // which a pack can only make by naming them (the visual-script error) or shipping them (a non-GDScript resource).
    const inAny = !cls.startsWith("Editor") && !cls.startsWith("VisualScript")
    const returns = (name: string, type: string): void => {
      const types = anyClass.get(name) ?? new Set<string>()
      types.add(type)
      anyClass.set(name, types)
    }
    if (inAny) for (const m of xml.matchAll(/<method name="([^"]+)"[^>]*>\s*(?:<return type="([^"]+)")?/g)) returns(m[1] ?? "", m[2] ?? "void")
    // A property's getter and setter are methods too, listed only on the member (VisualScriptPropertyGet's
    // `get_index()` hands back its `index`, a String): the getter returns the member's type.
    for (const m of inAny ? xml.matchAll(/<member [^>]*>/g) : []) {
      const type = /type="([^"]+)"/.exec(m[0])?.[1] ?? "Variant"
      const getter = /getter="([^"]+)"/.exec(m[0])?.[1]
      const setter = /setter="([^"]+)"/.exec(m[0])?.[1]
      if (getter !== undefined && getter !== "") returns(getter, type)
      if (setter !== undefined && setter !== "") returns(setter, "void")
    }
    if (!singletons.has(cls) && cls !== "@GDScript" && cls !== "@GlobalScope") continue
    // A 3.x built-in 3.2.3 lacks may be the script's own method there (godot3Builtins.ts), returning anything.
    const names = [...xml.matchAll(/<method name="([^"]+)"[^>]*>\s*<return type="([^"]+)"/g)]
      .filter((m) => NUMBER_TYPES.has(m[2] ?? "") && !(grammar === 3 && cls === "@GDScript" && ADDED_AFTER_3_2_3.has(m[1] ?? "")))
      .map((m) => m[1] ?? "")
    if (names.length > 0) out[cls] = [...new Set(names)].sort()
  }
  out["@any"] = [...anyClass].filter(([, types]) => [...types].every((t) => NUMBER_TYPES.has(t))).map(([name]) => name).sort()
  return out
}

const [godot3, godot4, out = "adapters/scanner/gdscript/engine-number-returns.json"] = process.argv.slice(2)
if (godot3 === undefined || godot4 === undefined) {
  console.error("usage: node test/scanner/support/generateEngineNumberReturns.ts <godot-3.x git dir or checkout> <godot-4.x git dir or checkout> [out.json]")
  process.exit(2)
}
// Each class's names as one space-separated string: a few thousand small strings parsed at every start cost the `check`
// process memory its budget has little of (engineNumberReturns.ts splits the grammar it needs, when first asked).
const packed = (table: Record<string, ReadonlyArray<string>>): Record<string, string> => Object.fromEntries(Object.entries(table).map(([cls, names]) => [cls, names.join(" ")]))
writeFileSync(out, `${JSON.stringify({ 3: packed(numberReturns(godot3, 3)), 4: packed(numberReturns(godot4, 4)) })}\n`)
