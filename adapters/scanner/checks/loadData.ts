import type { LoadData } from "../gdscript/analyzeScript.ts"
import type { PatternHit, PolicyIndex } from "../gdscript/PolicyIndex.ts"
import { type DataSel, judgePath, strs } from "../gdscript/values.ts"
import { packLookup, untidyWhy } from "../pack/packPath.ts"
import { dataFilesOf, dataText, linesOf, parseData } from "./packDataFiles.ts"
import type { Context } from "./scanContext.ts"

// A load path a script reads from the pack's own data files (`load(items[id]["icon"])` of a res:// JSON it read
// with a local File: gdscript/fileRules.ts, LoadData), judged with the values of those files that can reach it,
// as the analysis followed the subscripts (values.ts, DataSel). Each string is judged as a constant load() path
// is: outside the pack, not in simplified form, or a res:// path the pack lacks (a relative one is
// `"res://" + path`: 3.x ResourceLoader::load) is an error naming it. When every one names a file of the pack,
// the load is the warning a path built at run time under res:// gets: the data is the pack's, the reviewer sees
// it in context. A file the pack lacks or that cannot be read keeps the error of data read at run time.

/** A value of the data as the message shows it. */
export const shown = (v: unknown): string => JSON.stringify(v)?.slice(0, 80) ?? String(v)

/** The values a selection reaches in one file's text: the text, its lines, or the parts of its JSON; why not, when it cannot be told. */
const reached = (text: string, sel: DataSel): { readonly values: ReadonlyArray<unknown> } | { readonly problem: string } => {
  if (sel.form === "text") return { values: [...new Set([text, text.replaceAll("\r", "")])] }
  if (sel.form === "line") return { values: linesOf(text) }
  if (sel.form === "lines") return { values: [linesOf(text)] }
  // A container of parts of the data: as a whole, an Array of what those parts reach.
  if (sel.form === "items") {
    const items: Array<unknown> = []
    for (const of of sel.of) {
      const got = reached(text, of)
      if ("problem" in got) return got
      items.push(...got.values)
    }
    return { values: [items] }
  }
  const parsed = parseData(text)
  if (parsed === undefined) return { problem: "is not JSON the scanner can read, so the values the engine parses from it cannot be told" }
  let values: Array<unknown> = [parsed.value]
  for (const step of sel.steps) {
    const next: Array<unknown> = []
    for (const v of values) {
      // A key of a Dictionary; any key or value of a Dictionary, element of an Array, character of a String.
      if (Array.isArray(v)) {
        if (step === null) next.push(...(v as ReadonlyArray<unknown>))
      } else if (v !== null && typeof v === "object") {
        if (step === null) for (const [k, x] of Object.entries(v)) next.push(k, x)
        else if (Object.hasOwn(v, step)) next.push((v as Record<string, unknown>)[step])
      } else if (typeof v === "string" && step === null) next.push(...v)
    }
    values = next
  }
  return { values }
}

/** Every value of the files `sources` names that the selections reach, with its file; why not, when a file cannot be read or parsed. */
export const reachedValues = async (ctx: Context, sources: ReadonlyArray<string>, sels: ReadonlyArray<DataSel>): Promise<{ readonly values: ReadonlyArray<{ readonly path: string; readonly value: unknown }> } | { readonly problem: string }> => {
  const found = dataFilesOf(ctx, sources)
  if ("problem" in found) return found
  const values: Array<{ readonly path: string; readonly value: unknown }> = []
  for (const entry of found.entries) {
    const read = await dataText(ctx, entry)
    if ("problem" in read) return read
    for (const sel of sels) {
      const got = reached(read.text, sel)
      if ("problem" in got) return { problem: `${entry.path} ${got.problem}` }
      values.push(...got.values.map((value) => ({ path: entry.path, value })))
    }
  }
  return { values }
}

/** Why a string of the data cannot be a load path of the pack's, or null when it names a file of the pack. */
const pathProblem = (ctx: Context, idx: PolicyIndex, path: string): string | null => {
  if (path.includes("\u0000")) return "holds a NUL character, which ends the path the engine opens"
  if (judgePath(strs([path]), idx.runtimeLoad?.match.allowedPrefixes ?? ["res://"], true) === "outside") return "is a path outside the pack"
  const lookup = packLookup(path, null, ctx.grammar)
  if (lookup.untidy !== null) return untidyWhy(lookup.untidy)
  return ctx.contents.has(lookup.path) ? null : `names ${lookup.path}, which is not in the pack: the engine would read it from the disk (next to the game or in the working folder)`
}

export const judgeLoadData = async (ctx: Context, idx: PolicyIndex, data: LoadData): Promise<ReadonlyArray<PatternHit>> => {
  const rule = idx.runtimeLoad
  if (rule === null) return []
  const sources = data.sources.join(", ")
  const base = { entry: rule.entry, line: data.line, column: data.column, severity: rule.entry.severity, matched: `${data.call}(…)` }
  const fix = "Keep only res:// paths of files in the pack (or names the script turns into them) in the data the game loads from, or load from a constant list of res:// paths"
  const error = (note: string): ReadonlyArray<PatternHit> => [{ ...base, note: `the path comes from data read at run time (${sources}): ${note}`, fix }]
  const got = await reachedValues(ctx, data.sources, data.sels)
  if ("problem" in got) return error(got.problem)
  const paths = new Set<string>()
  for (const { path, value: v } of got.values) {
    if (typeof v === "string") paths.add(v)
    // Godot 3's load() refuses anything but a String (gdscript_functions.cpp, RESOURCE_LOAD); elsewhere a release build turns it into text.
    else if (!(data.call === "load" && ctx.grammar === 3)) return error(`a value of ${path} that is not a string (${shown(v)}) can reach it, and the engine turns it into a path`)
  }
  // A whole "" loads nothing (the load of `res://` fails, as a constant "" does: fileRules.ts withoutEmptyPath), so an
  // optional field left empty (`"music": ""`, a thirty-sixth hunt's) names no file.
  paths.delete("")
  for (const path of paths) {
    const problem = pathProblem(ctx, idx, path)
    if (problem !== null) return error(`a string of the data that can reach it, ${shown(path)}, ${problem}`)
  }
  const some = [...paths].slice(0, 3).map(shown).join(", ")
  // A file under a folder named at run time may be another file than those read here, should the name climb out with `..`.
  const folders = data.sources.filter((s) => s.endsWith("*")).map((s) => s.slice(0, -1))
  const named = folders.length === 0 ? "" : `; the file is named at run time under ${folders.join(", ")}, check that the name stays inside`
  const note = `the path comes from ${sources}, read at run time; every string of it that can reach here names a file of the pack (${paths.size === 0 ? "none reaches" : `${some}${paths.size > 3 ? ", …" : ""}`}); check in context what the data can name${named}`
  return [{ ...base, severity: rule.match.otherwise, note, fix: "Load only paths of files in the pack (res://…); keep save data in JSON under user:// instead of resources or scripts" }]
}
