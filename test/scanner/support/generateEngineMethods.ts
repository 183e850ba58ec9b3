// Regenerates adapters/scanner/gdscript/engine-methods.json: for every method name a rule of the scanner names
// (engineMethods.ts ruleNamedMethods, with the default policy), the engine classes that have it, for Godot 3 and 4,
// from the class reference (doc/classes/*.xml and modules/*/doc_classes/*.xml of a checkout): the classes whose
// `<methods>` declare it or whose `<members>` name it as a setter or getter, and every class below them by the
// reference's `inherits`. A name Object declares is listed as `["Object"]` (every class has it). With them, the
// parent of every class listed and of each of its ancestors, so the analysis can tell which descend from a class.
//
//   node test/scanner/support/generateEngineMethods.ts <godot-3.x checkout> <godot-4.x checkout> [out.json]
//
// The committed table comes from the checkouts of docs/scanner.md#dispatch-table; the Godot 4 fork renamed
// GDScript to VoyScript, whose names are mapped back.
import { readFileSync, writeFileSync } from "node:fs"
import { classOfFile, classReferenceFiles } from "./classReference.ts"
import { dispatchIndex } from "../../../adapters/scanner/gdscript/engineDispatch.ts"
import { ruleNamedMethods } from "../../../adapters/scanner/gdscript/engineMethods.ts"
import { indexPolicy } from "../../../adapters/scanner/gdscript/PolicyIndex.ts"
import type { Grammar } from "../../../adapters/scanner/gdscript/tokenizer.ts"
import { defaultPolicy } from "../../../adapters/scanner/policy/defaultPolicy.ts"

const RENAMED: Readonly<Record<string, string>> = { VoyScript: "GDScript", "@VoyScript": "@GDScript", VoyScriptSyntaxHighlighter: "GDScriptSyntaxHighlighter" }
const named = (cls: string): string => RENAMED[cls] ?? cls

interface ClassMethods {
  readonly inherits: string | null
  readonly methods: ReadonlySet<string>
}

/** Each class of the reference: its parent and the methods it declares (setters and getters of its members included). */
export const classMethods = (root: string): ReadonlyMap<string, ClassMethods> => {
  const out = new Map<string, ClassMethods>()
  for (const file of classReferenceFiles(root)) {
    const xml = readFileSync(file, "utf8")
    const header = /<class\s[^>]*>/.exec(xml)?.[0] ?? ""
    const inherits = /\binherits="([^"]*)"/.exec(header)?.[1] ?? null
    const methods = new Set<string>()
    for (const m of xml.matchAll(/<method\s[^>]*\bname="([^"]+)"/g)) methods.add(m[1] ?? "")
    for (const m of xml.matchAll(/<member\s[^>]*>/g)) for (const a of m[0].matchAll(/\b(?:setter|getter)="([^"]+)"/g)) methods.add(a[1] ?? "")
    out.set(named(classOfFile(file)), { inherits: inherits === null ? null : named(inherits), methods })
  }
  return out
}

/** Whether `cls` or an engine class it inherits declares `name`. */
const has = (classes: ReadonlyMap<string, ClassMethods>, cls: string, name: string): boolean => {
  const seen = new Set<string>()
  for (let c: string | null = cls; c !== null && !seen.has(c); c = classes.get(c)?.inherits ?? null) {
    seen.add(c)
    if (classes.get(c)?.methods.has(name) === true) return true
  }
  return false
}

interface Table {
  readonly methods: Record<string, ReadonlyArray<string>>
  readonly parents: Record<string, string>
}

const tableOf = (root: string, grammar: Grammar): Table => {
  const classes = classMethods(root)
  const names = [...ruleNamedMethods(indexPolicy(defaultPolicy), dispatchIndex(grammar, defaultPolicy), grammar)].sort()
  const methods: Record<string, ReadonlyArray<string>> = {}
  for (const name of names) methods[name] = classes.get("Object")?.methods.has(name) === true ? ["Object"] : [...classes.keys()].filter((c) => has(classes, c, name)).sort()
  // The parents of every class listed and of their ancestors: which of them descend from a script's engine base.
  const parents: Record<string, string> = {}
  for (const listed of Object.values(methods)) {
    for (const cls of listed) {
      for (let c: string | null = cls; c !== null && !Object.hasOwn(parents, c); c = classes.get(c)?.inherits ?? null) {
        const parent = classes.get(c)?.inherits ?? null
        if (parent !== null) parents[c] = parent
      }
    }
  }
  return { methods, parents: Object.fromEntries(Object.entries(parents).sort(([a], [b]) => (a < b ? -1 : 1))) }
}

const [godot3, godot4, out = "adapters/scanner/gdscript/engine-methods.json"] = process.argv.slice(2)
if (godot3 === undefined || godot4 === undefined) {
  console.error("usage: node test/scanner/support/generateEngineMethods.ts <godot-3.x checkout> <godot-4.x checkout> [out.json]")
  process.exit(2)
}
const entries = (t: Readonly<Record<string, unknown>>): string => Object.entries(t).map(([k, v]) => `   ${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(",\n")
const grammar = (t: Table): string => `{\n  "methods": {\n${entries(t.methods)}\n  },\n  "parents": {\n${entries(t.parents)}\n  }\n }`
writeFileSync(out, `{\n "3": ${grammar(tableOf(godot3, 3))},\n "4": ${grammar(tableOf(godot4, 4))}\n}\n`)
