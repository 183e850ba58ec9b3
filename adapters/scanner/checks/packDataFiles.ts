import type { PackEntry } from "../pack/PackLayout.ts"
import { decodeAsEngine, decodeGodot3Utf8 } from "../text/godotUtf8.ts"
import type { Context } from "./scanContext.ts"

// The pack's own data files a script reads at run time (gdscript/packDataReads.ts), read here as the engine hands
// them to the script, for the rules that judge what a script does with them: BBCode (bbcodeData.ts) and load
// paths (loadData.ts). A file the pack lacks, one that cannot be read here, too many or too large keep the error
// of data read at run time.

/** At most this many files under a folder, this many bytes each and in all, are read for one site. */
const MAX_FILES = 64
const MAX_FILE_BYTES = 1024 * 1024
const MAX_TOTAL_BYTES = 8 * 1024 * 1024

/** The files the sources name (`res://a.json`, or `res://dialogue/*` for every file under a folder), or why they cannot be judged. */
export const dataFilesOf = (ctx: Context, sources: ReadonlyArray<string>): { readonly entries: ReadonlyArray<PackEntry> } | { readonly problem: string } => {
  const entries: Array<PackEntry> = []
  for (const source of sources) {
    if (!source.endsWith("*")) {
      const entry = ctx.contents.get(source)
      if (entry === undefined) return { problem: `${source} is not in the pack, so the engine reads it from the disk` }
      entries.push(entry)
      continue
    }
    const prefix = source.slice(0, -1)
    entries.push(...ctx.contents.entries.filter((e) => e.unreachable === undefined && e.path.startsWith(prefix)))
  }
  if (entries.length > MAX_FILES) return { problem: `the data can come from ${entries.length} files of the pack, more than the scanner reads for one use` }
  const unreadable = entries.find((e) => !e.readable || e.size > MAX_FILE_BYTES)
  if (unreadable !== undefined) return { problem: `${unreadable.path} cannot be read here (encrypted or larger than ${MAX_FILE_BYTES} bytes)` }
  if (entries.reduce((n, e) => n + e.size, 0) > MAX_TOTAL_BYTES) return { problem: `the data files hold more than ${MAX_TOTAL_BYTES} bytes` }
  return { entries }
}

/**
 * A data file's text as the engine reads it, or why it cannot be told: a NUL byte ends a line for File.get_line
 * (3.2.3 core/os/file_access.cpp) but ends the text for the decoder here, and Godot 3 refuses UTF-8 it cannot
 * decode, so the script would get other text than the scanner reads.
 */
export const dataText = async (ctx: Context, entry: PackEntry): Promise<{ readonly text: string } | { readonly problem: string }> => {
  const bytes = await ctx.contents.bytesOf(entry)
  if (bytes.includes(0)) return { problem: `${entry.path} holds a NUL byte, after which the engine reads text the scanner does not` }
  if (ctx.grammar === 3 && decodeGodot3Utf8(bytes) === null) return { problem: `${entry.path} is not UTF-8 that Godot 3 decodes` }
  return { text: decodeAsEngine(bytes, ctx.grammar) }
}

/** The lines File.get_line gives: split at line feeds, carriage returns dropped (both kept too, for the engines that keep them). */
export const linesOf = (text: string): ReadonlyArray<string> => {
  const lines = text.split("\n")
  return [...new Set([...lines, ...lines.map((l) => l.replaceAll("\r", ""))])]
}

/** Every string of a JSON value, keys included. */
const jsonStrings = (v: unknown, out: Array<string>): void => {
  if (typeof v === "string") out.push(v)
  else if (Array.isArray(v)) for (const x of v) jsonStrings(x, out)
  else if (v !== null && typeof v === "object") for (const [k, x] of Object.entries(v)) (out.push(k), jsonStrings(x, out))
}

/**
 * Text read as File.get_csv_line reads it: quotes removed (a doubled one inside kept once), split at `delimiter`
 * outside quotes; with no delimiter, the whole text so read, delimiters kept.
 */
const csvRead = (text: string, delimiter: string | null): ReadonlyArray<string> => {
  const out: Array<string> = []
  let field = ""
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string
    if (quoted && c === '"' && text[i + 1] === '"') (field += '"', i++)
    else if (c === '"') quoted = !quoted
    else if (c === delimiter && !quoted) (out.push(field), (field = ""))
    else field += c
  }
  out.push(field)
  return out
}

/** The fields of one CSV line as File.get_csv_line gives them with its default delimiter. */
const csvFields = (line: string): ReadonlyArray<string> => csvRead(line, ",")

/** A text with its CSV quotes read as File.get_csv_line reads them, delimiters kept. */
const csvUnquoted = (text: string): string => csvRead(text, null)[0] ?? ""

/** A string with String::strip_edges's cuts: both ends, the start only, the end only (every character up to a space). */
export const stripped = (t: string): ReadonlyArray<string> => {
  const start = t.replace(/^[\u0000-\u0020]+/, "")
  return [start.replace(/[\u0000-\u0020]+$/, ""), start, t.replace(/[\u0000-\u0020]+$/, "")]
}

/** The JSON the engine parses from a file's text, or undefined when it is not JSON the scanner reads. */
export const parseData = (text: string): { readonly value: unknown } | undefined => {
  try {
    return { value: JSON.parse(text) as unknown }
  } catch {
    return undefined
  }
}

/** Text with JSON's escapes decoded as Godot 3's JSON parser decodes them (core/io/json.cpp: an unknown `\X` is X). */
const jsonUnescaped = (t: string): string =>
  t.replace(/\\u([0-9a-fA-F]{4})|\\([\s\S])/g, (_, hex: string | undefined, c: string | undefined) =>
    hex !== undefined ? String.fromCharCode(Number.parseInt(hex, 16)) : (({ b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" }) as Record<string, string>)[c ?? ""] ?? c ?? "",
  )

/** Every string the engine can hand a script from the file's text; null for a .json file it would not parse. */
export const dataStrings = (path: string, text: string): ReadonlyArray<string> | null => {
  const lines = text.split("\n")
  // get_csv_line takes any delimiter and reads on over line ends while a quote is open, removing the quotes: every
  // field is a part of the text with its quotes read so, whatever the delimiter (a forty-fourth red team's
  // `[fo"n"t=user://a,b.tres]` read with ";").
  const unquoted = csvUnquoted(text)
  const out = [text, ...lines, ...lines.map((l) => l.replace(/\r$/, "")), ...lines.flatMap(csvFields), unquoted, unquoted.replaceAll("\r", "")]
  // What strip_edges() makes of each (characters up to a space removed from either end or both: String::strip_edges).
  out.push(...out.flatMap(stripped))
  // Any file's text, or a line of it, may be handed to the JSON parser (`parse_json(f.get_line())` of a .txt): its
  // strings with their escapes decoded as Godot 3's JSON reads them (`\u005b` is `[`, `\[` is `[`: a fortieth red team's).
  for (const t of [text, ...lines]) if (t.includes("\\")) out.push(jsonUnescaped(t))
  if (path.toLowerCase().endsWith(".json")) {
    const parsed = parseData(text)
    if (parsed === undefined) return null
    jsonStrings(parsed.value, out)
  }
  return [...new Set(out)]
}
