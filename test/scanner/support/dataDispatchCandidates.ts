// The mechanical pass behind docs/scanner-data-table.md: every method, constructor and property of the
// class reference (doc/classes, modules/*/doc_classes, platform/*/doc_classes) of a Godot 3 and a Godot 4
// checkout that takes data (a Dictionary, Array, Variant, Callable, Object or Expression, or a String named
// like code: an expression, a source, a script) and whose description speaks of a method, property, class,
// script, path, expression, callback or signal. Those are the places where data a script passes could make
// the engine call a method by name, set a property by name, instantiate a class, load a path or evaluate an
// expression; each one has a verdict in dataDispatchVerdicts.ts.
//
//   node test/scanner/support/dataDispatchCandidates.ts <godot-3.x checkout> <godot-4.x checkout> [out.md]
//
// Without out.md it prints the candidates that have no verdict and exits 1 when there are any.
import { readFileSync, writeFileSync } from "node:fs"
import { classOfFile, classReferenceFiles } from "./classReference.ts"
import { verdictOf, type Verdict } from "./dataDispatchVerdicts.ts"

export interface Candidate {
  /** `Class.method` or `Class.property`. */
  readonly api: string
  readonly godot: 3 | 4
  /** `param name: Type` of each data parameter, or `property: Type`. */
  readonly data: ReadonlyArray<string>
  /** The words of the description that made it a candidate. */
  readonly mentions: ReadonlyArray<string>
}

const DATA_TYPES = /^(Dictionary|Array|Variant|Callable|Object|Expression)(\[.*\])?$|^(Array|Dictionary)\[|\[\]$/
/** A String that could hold code: named like an expression, a source, a script. */
const CODE_STRING = /expression|source|code|script/
const STRING_TYPES: ReadonlySet<string> = new Set(["String", "StringName"])
/** What the description must speak of, after its cross-references (`[method x]`, `[member x]`, …) are taken out. */
const MENTIONS = /\b(methods?|propert(?:y|ies)|class(?:es)?|scripts?|paths?|expressions?|callbacks?|signals?)\b/gi
/** Editor-only classes cannot be reached from an exported game. */
const EDITOR_CLASS = /^(Editor|ScriptEditor|ScriptCreateDialog)/

const attr = (tag: string, name: string): string | undefined => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1]

const isData = (type: string, name: string): boolean =>
  DATA_TYPES.test(type) || (STRING_TYPES.has(type) && CODE_STRING.test(name))

const mentionsOf = (description: string): ReadonlyArray<string> => {
  const text = description.replace(/\[(method|member|signal|constant|enum|param|theme_item|annotation|operator|constructor)\s[^\]]*\]/g, " ").replace(/\[[A-Z][A-Za-z0-9_]*\]/g, " ")
  return [...new Set([...text.matchAll(MENTIONS)].map((m) => (m[1] ?? "").toLowerCase()))].sort()
}

export const candidatesOf = (root: string, godot: 3 | 4): ReadonlyArray<Candidate> => {
  const out: Array<Candidate> = []
  for (const file of classReferenceFiles(root)) {
    const cls = classOfFile(file)
    if (EDITOR_CLASS.test(cls)) continue
    const xml = readFileSync(file, "utf8")
    for (const m of xml.matchAll(/<(method|constructor)\s([^>]*)>([\s\S]*?)<\/\1>/g)) {
      const name = attr(m[2] ?? "", "name") ?? ""
      const body = m[3] ?? ""
      const data: Array<string> = []
      for (const p of body.matchAll(/<(?:param|argument)\s[^>]*>/g)) {
        const type = attr(p[0], "type") ?? ""
        const pname = attr(p[0], "name") ?? ""
        if (isData(type, pname)) data.push(`${pname}: ${type}`)
      }
      if (/\bvararg\b/.test(attr(m[2] ?? "", "qualifiers") ?? "")) data.push("...: Variant")
      if (data.length === 0) continue
      const mentions = mentionsOf(/<description>([\s\S]*?)<\/description>/.exec(body)?.[1] ?? "")
      if (mentions.length === 0) continue
      out.push({ api: `${cls}.${m[1] === "constructor" ? cls : name}`, godot, data, mentions })
    }
    for (const m of xml.matchAll(/<member\s([^>]*)>([\s\S]*?)<\/member>/g)) {
      const name = attr(m[1] ?? "", "name") ?? ""
      const type = attr(m[1] ?? "", "type") ?? ""
      if (!isData(type, name)) continue
      const mentions = mentionsOf(m[2] ?? "")
      if (mentions.length === 0) continue
      out.push({ api: `${cls}.${name}`, godot, data: [`${name}: ${type}`], mentions })
    }
  }
  return out
}

/** One row per API, its Godot versions joined when both have it. */
export const mergedCandidates = (godot3: ReadonlyArray<Candidate>, godot4: ReadonlyArray<Candidate>): ReadonlyArray<{ readonly api: string; readonly godot: string; readonly data: string; readonly mentions: string }> => {
  const rows = new Map<string, { api: string; versions: Set<number>; data: Set<string>; mentions: Set<string> }>()
  for (const c of [...godot3, ...godot4]) {
    const row = rows.get(c.api) ?? { api: c.api, versions: new Set<number>(), data: new Set<string>(), mentions: new Set<string>() }
    row.versions.add(c.godot)
    for (const d of c.data) row.data.add(d)
    for (const w of c.mentions) row.mentions.add(w)
    rows.set(c.api, row)
  }
  return [...rows.values()]
    .sort((a, b) => (a.api < b.api ? -1 : a.api > b.api ? 1 : 0))
    .map((r) => ({ api: r.api, godot: [...r.versions].sort().join(", "), data: [...r.data].join(", "), mentions: [...r.mentions].sort().join(", ") }))
}

const cell = (text: string): string => text.replace(/\|/g, "\\|")

export const renderTable = (rows: ReturnType<typeof mergedCandidates>, verdicts: ReadonlyArray<Verdict | undefined>): string =>
  [
    "| API | Godot | Data | Speaks of | Verdict |",
    "|---|---|---|---|---|",
    ...rows.map((r, i) => `| \`${r.api}\` | ${r.godot} | ${cell(r.data)} | ${r.mentions} | ${cell(verdicts[i]?.text ?? "NO VERDICT")} |`),
  ].join("\n")

if (import.meta.url === `file://${process.argv[1]}`) {
  const [godot3, godot4, out] = process.argv.slice(2)
  if (godot3 === undefined || godot4 === undefined) {
    console.error("usage: node test/scanner/support/dataDispatchCandidates.ts <godot-3.x checkout> <godot-4.x checkout> [out.md]")
    process.exit(2)
  }
  const rows = mergedCandidates(candidatesOf(godot3, 3), candidatesOf(godot4, 4))
  const verdicts = rows.map((r) => verdictOf(r.api, r.data))
  const missing = rows.filter((_, i) => verdicts[i] === undefined)
  for (const r of missing) console.log(`${r.api}\t${r.godot}\t${r.data}\t${r.mentions}`)
  console.error(`${rows.length} candidates, ${missing.length} without a verdict`)
  if (out !== undefined) {
    const doc = readFileSync(out, "utf8")
    const start = doc.indexOf("<!-- candidates:start -->")
    const end = doc.indexOf("<!-- candidates:end -->")
    if (start < 0 || end < start) throw new Error(`${out} has no candidates:start/end markers`)
    writeFileSync(out, `${doc.slice(0, start)}<!-- candidates:start -->\n${renderTable(rows, verdicts)}\n${doc.slice(end)}`)
  }
  if (missing.length > 0) process.exit(1)
}
