import type { BbcodeData } from "../gdscript/analyzeScript.ts"
import { PACK_DATA, TRANSLATED } from "../gdscript/bbcodeTemplate.ts"
import { resolveScriptPath } from "../gdscript/packModel.ts"
import type { PatternHit, PolicyIndex } from "../gdscript/PolicyIndex.ts"
import { judgePath, strs } from "../gdscript/values.ts"
import { bbcodeLoads } from "../resource/bbcode.ts"
import { reachedValues } from "./loadData.ts"
import { dataFilesOf, dataStrings, dataText, parseData } from "./packDataFiles.ts"
import type { Context } from "./scanContext.ts"

// BBCode a script builds from strings of the pack's own data files (a dialogue's JSON): judged exactly as a
// constant BBCode string with those strings would be. Every string the engine can hand the script from the
// file (the whole text, each line, each CSV field, each string of the JSON), and each constant the value may be
// instead (a default of `d.get(k, "")`), takes the place of the data in the
// script's template; each path an [img]/[font] tag then loads is judged like a load() path. A file the pack
// lacks, one that cannot be read here, or too much data keeps the error of BBCode from data read at run time.

/** Closes nothing: appended to a string, it shows a tag whose path runs to the string's end. */
export const OPEN_END = "\uFFFD"

/**
 * The rest of a string after a `[` that no later `]` closes, when it may be the start of a tag: nothing yet, or a
 * tag's name (`/` for a closing one) and what may follow it. A `[` before another character (JSON's `[{`, as a
 * CSV field of a .json file shows it) starts no tag the engine reads.
 */
const TAG_START = /^\/?[A-Za-z_]*(?:[ =][^\]]*)?$/

/**
 * A string that may begin a tag the text after it completes: a `[` no later `]` closes (`Hello [im` before
 * `g]user://…[/img]`), or an [img]/[font] tag whose path runs to its end. Judging one placeholder at a time
 * cannot see what such a string becomes beside another string of the data.
 */
export const opensTag = (s: string, grammar: Context["grammar"]): boolean =>
  (s.lastIndexOf("[") > s.lastIndexOf("]") && TAG_START.test(s.slice(s.lastIndexOf("[") + 1))) || bbcodeLoads(s + OPEN_END, grammar).some((l) => l.path.endsWith(OPEN_END))

/** The texts to judge: the template with each string in place of its data, one placeholder at a time (the others end any path). */
const filled = (template: string, strings: ReadonlyArray<string>): ReadonlyArray<string> => {
  const parts = template.split(PACK_DATA)
  if (parts.length === 2) return strings.map((s) => `${parts[0] ?? ""}${s}${parts[1] ?? ""}`)
  const out: Array<string> = []
  for (let i = 1; i < parts.length; i++) for (const s of strings) out.push(parts.map((p, j) => (j === 0 ? p : `${j === i ? s : "["}${p}`)).join(""))
  return out
}

/** Stands for a string of the data when a piece's own tags are checked: a letter, which opens and closes nothing. */
const NEUTRAL = "x"

/** Text ending in a tag's name not yet closed (`[`, `[im`, `[/`): what follows may name the tag. */
const NAME_OPEN = /\[\/?[A-Za-z_]*$/

/**
 * Whether a string of the data may name a tag (`"[%s]%s" % [d.tag, d.path]`, `"[" + d.tag + "]" + d.path`) with more
 * data after it: judging one placeholder at a time fills the tag's name and its path from different strings, never
 * both (a thirty-sixth red team's `[img]` named by one string of the JSON and given its user:// path by another).
 */
const dataNamesTag = (template: string, joined = false): boolean => {
  const parts = template.split(PACK_DATA)
  return (parts.length > 2 || (joined && parts.length > 1)) && parts.slice(0, -1).some((_, i) => NAME_OPEN.test(parts.slice(0, i + 1).join(NEUTRAL)))
}

/**
 * The strings of the data the analysis followed the BBCode's data parts to (values.ts DataSel, as load paths are:
 * loadData.ts), or null when it did not (or a value reached is a container, whose text the engine would put in):
 * then every string of the files is judged. A number, a bool or null puts in no `[`.
 */
const selectedStrings = async (ctx: Context, data: Pick<BbcodeData, "sources" | "sels">): Promise<ReadonlyArray<string> | null | "container"> => {
  if (data.sels === undefined || data.sels.length === 0) return null
  const got = await reachedValues(ctx, data.sources, data.sels)
  if ("problem" in got) return null
  const out: Array<string> = []
  for (const { value } of got.values) {
    if (typeof value === "string") out.push(value)
    // A container reached is put in as its text (`str(d["tags"])`, `"%s" % [d["tags"]]`): its brackets join its strings
    // into tags no string holds alone (a thirty-seventh red team's `["img]user://x.tres[/img"]`), and what the script
    // made of it meanwhile (sorted, its keys() or values(), a thirty-ninth's) is not the file's text.
    else if (value !== null && typeof value === "object") return "container"
  }
  return out
}

/** String::operator< of the engine: code point by code point. */
const codePointOrder = (a: string, b: string): number => {
  const x = [...a].map((c) => c.codePointAt(0) ?? 0)
  const y = [...b].map((c) => c.codePointAt(0) ?? 0)
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0)
  return x.length - y.length
}

/** Every Array and Dictionary of JSON data, the whole first. */
const forEachContainer = (v: unknown, f: (c: object) => void): void => {
  if (v === null || typeof v !== "object") return
  f(v)
  for (const x of Array.isArray(v) ? v : Object.values(v)) forEachContainer(x, f)
}

/**
 * The text `str()` and `%s` give of a value of JSON data: 3.x shows an Array as `[a, b]` and a Dictionary as `{k:v,
 * k2:v2}` (Array/Dictionary's String operators), 4.x quotes the strings inside (`["a"]`, `{ "k": "v" }`). Numbers,
 * bools and null show no bracket.
 */
const shownText = (v: unknown, grammar: Context["grammar"], inside = false): string => {
  if (typeof v === "string") return grammar === 4 && inside ? JSON.stringify(v) : v
  if (Array.isArray(v)) return `[${v.map((x) => shownText(x, grammar, true)).join(", ")}]`
  if (v !== null && typeof v === "object") {
    // 3.x shows a Dictionary's pairs sorted by key (Variant::stringify sorts them, String's order: code points).
    const entries = grammar === 3 ? Object.entries(v).sort(([a], [b]) => codePointOrder(a, b)) : Object.entries(v)
    return grammar === 4 ? `{ ${entries.map(([k, x]) => `${JSON.stringify(k)}: ${shownText(x, grammar, true)}`).join(", ")} }` : `{${entries.map(([k, x]) => `${k}:${shownText(x, grammar, true)}`).join(", ")}}`
  }
  return String(v)
}

/** The strings of the data BBCode's data parts may be (selected, else every string of the files), or why they cannot be told. */
export const bbcodeDataStrings = async (ctx: Context, data: Pick<BbcodeData, "sources" | "sels">): Promise<{ readonly strings: ReadonlyArray<string> } | { readonly problem: string }> => {
  const found = dataFilesOf(ctx, data.sources)
  if ("problem" in found) return { problem: `the BBCode comes from data read at run time: ${found.problem}` }
  const chosen = await selectedStrings(ctx, data)
  if (chosen === "container") return { problem: "the BBCode shows an Array or Dictionary of the data as text, whose brackets can join its strings into a tag in the order the engine shows them (the script may sort them, or take their keys or values)" }
  const selected = chosen
  const strings: Array<string> = [...(selected ?? [])]
  for (const entry of selected === null ? found.entries : []) {
    const read = await dataText(ctx, entry)
    if ("problem" in read) return { problem: `the BBCode comes from data read at run time: ${read.problem}` }
    const got = dataStrings(entry.path, read.text)
    if (got === null) return { problem: `the BBCode comes from ${entry.path}, which is not JSON the scanner can read, so its strings cannot be judged` }
    strings.push(...got)
    // Any of its Arrays and Dictionaries may be put in as text too.
    const parsed = entry.path.toLowerCase().endsWith(".json") ? parseData(read.text) : undefined
    if (parsed !== undefined) forEachContainer(parsed.value, (c) => strings.push(shownText(c, ctx.grammar)))
  }
  return { strings }
}

export const judgeBbcodeData = async (ctx: Context, idx: PolicyIndex, data: BbcodeData): Promise<ReadonlyArray<PatternHit>> => {
  const rule = idx.runtimeLoad
  if (rule === null) return []
  const grammar = ctx.grammar
  const base = { entry: rule.entry, line: data.line, column: data.column, severity: rule.entry.severity, matched: `${data.call}(…)` }
  const fix = "Keep the BBCode's [img] and [font] paths to files of the pack (res://…) in the data, or add images and fonts with add_image/push_font of resources loaded from res://"
  const error = (note: string): PatternHit => ({ ...base, note, fix })
  const got = await bbcodeDataStrings(ctx, data)
  if ("problem" in got) return [error(got.problem)]
  const strings = [...got.strings]
  // A constant the value may be instead (`item.get("name", "")`) takes the data's place as a string of it would.
  strings.push(...data.constants)
  const from = `${data.sources.join(", ")}${data.constants.length === 0 ? "" : " (or a constant beside it)"}`
  const hits: Array<PatternHit> = []
  // Joined pieces (BbcodeData.joined) may put any string of the data next to any piece, as several parts do.
  const several = data.template.split(PACK_DATA).length > 2 || data.joined !== undefined
  const open = data.joined?.find((p) => p.includes(PACK_DATA)) === data.template ? data.joined.find((p) => opensTag(p.replaceAll(PACK_DATA, NEUTRAL), grammar)) : undefined
  if (open !== undefined) hits.push(error(`the BBCode is built by joining pieces, and one (${JSON.stringify(open.replaceAll(PACK_DATA, "…").slice(0, 60))}) leaves a tag open that the next piece may complete`))
  if (bbcodeLoads(data.template, grammar).some((l) => l.path.split(PACK_DATA).length > 2)) hits.push(error("an [img] or [font] path is built from several strings of the data"))
  // In joined pieces, another piece may give the path of a tag one string of the data names (a fifty-sixth red team's
  // `"[%s]" % d["tag"]` then `+= "user://….tres[/img]"`).
  if (dataNamesTag(data.template) || (data.joined ?? []).some((p) => dataNamesTag(p, true))) hits.push(error("a tag of the BBCode is named by a string of the data, and the data after it may give the path that tag loads"))
  const opened = several ? strings.find((s) => opensTag(s, grammar)) : undefined
  if (opened !== undefined) hits.push(error(`the BBCode comes from data read at run time: a string of the data (${JSON.stringify(opened.slice(0, 60))}) opens a tag that the data after it may complete`))
  const seen = new Set<string>()
  for (const text of filled(data.template, strings)) {
    for (const load of bbcodeLoads(text, grammar)) {
      if (seen.has(load.path) || hits.length >= 3) continue
      seen.add(load.path)
      if (load.path.includes(TRANSLATED)) {
        hits.push({ ...base, severity: rule.match.otherwise, note: "the BBCode joins the data with a translation, and its [img] or [font] path runs into the translation; check in context", fix })
        continue
      }
      const verdict = judgePath(strs([load.path]), rule.match.allowedPrefixes, true)
      const shown = `[${load.tag}]${load.path.slice(0, 80)}`
      if (verdict !== "inside") hits.push(error(`with a string of ${from} the label gets ${shown}, a path outside the pack`))
      else if (!ctx.contents.has(resolveScriptPath(load.path, null))) hits.push(error(`with a string of ${from} the label gets ${shown}, which is not in the pack (the engine reads it from the disk)`))
    }
  }
  // A path built under a folder of the pack may leave it by what is appended (`..`): the reviewer checks it.
  if (hits.length === 0 && data.sources.some((s) => s.endsWith("*"))) {
    hits.push({ ...base, severity: rule.match.otherwise, note: `the BBCode comes from a file under ${data.sources.filter((s) => s.endsWith("*")).map((s) => s.slice(0, -1)).join(", ")} named at run time; the files there load nothing from outside the pack, check in context that the name stays inside that folder`, fix })
  }
  return hits
}
