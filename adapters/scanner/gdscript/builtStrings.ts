import type { Grammar } from "./tokenizer.ts"
import { type FoldArg, stringOfArg } from "./stringFold.ts"
import { numbersBetween, readFrom, strs, type Val } from "./values.ts"

// Strings built at run time by `str(a, b, …)` and `template.format(values)`, kept as pieces: constant text and holes
// for the parts not known. What a file write needs of them is the path's known start and end, and whether every hole
// is a number, a bool or null (values.ts `digitsOnly`): such a part cannot hold a NUL, at which the engine's fopen
// would cut the path, so the known end is the file's (`str("user://save", slot, ".json")`, `slot` an int member).

/** Constant text, or a part not known: `safe` when it is a number, a bool or null shown as text (no NUL, no brace). */
type Piece = { readonly text: string } | { readonly safe: boolean }

/** Engine types whose values str() shows as a number, `True`/`False`: a typed member or parameter holds only those (the engine converts or refuses a value of another type). */
const NUMBER_TYPES: ReadonlySet<string> = new Set(["int", "float", "bool"])

/** A constant as str() and `%s` take it (values.ts Val → stringFold.ts FoldArg), or null. */
export const foldArg = (v: Val): FoldArg | null => {
  if (v.t === "str") return v.values.length === 1 ? { s: v.values[0] ?? "" } : null
  if (v.t !== "lit" || v.value === undefined) return null
  if (v.value === null) return { nil: true }
  return typeof v.value === "boolean" ? { b: v.value } : { n: v.value, float: v.float === true }
}

/** The pieces str() shows of a value. */
const piecesOf = (grammar: Grammar, v: Val): ReadonlyArray<Piece> => {
  const arg = foldArg(v)
  const text = arg === null ? null : stringOfArg(grammar, arg)
  if (text !== null) return [{ text }]
  if (v.t === "lit" || (v.t === "inst" && NUMBER_TYPES.has(v.cls))) return [{ safe: true }]
  // A string built around numbers a `%d` put in: its known start and end, numbers between.
  if (v.t === "unknown" && v.digitsOnly === true) return [...(v.prefix === undefined ? [] : [{ text: v.prefix }]), { safe: true }, ...(v.suffix === undefined ? [] : [{ text: v.suffix }])]
  return [{ safe: false }]
}

/** The value of pieces put together: a constant when all are text, else the known start and end (and `digitsOnly` when every hole is safe). */
const valueOf = (pieces: ReadonlyArray<Piece>, parts: ReadonlyArray<Val>): Val => {
  if (pieces.every((p) => "text" in p)) return strs([pieces.map((p) => ("text" in p ? p.text : "")).join("")])
  const lead = pieces.findIndex((p) => !("text" in p))
  const trail = pieces.length - 1 - [...pieces].reverse().findIndex((p) => !("text" in p))
  const prefix = pieces.slice(0, lead).map((p) => ("text" in p ? p.text : "")).join("")
  const suffix = pieces.slice(trail + 1).map((p) => ("text" in p ? p.text : "")).join("")
  // Runs of text between the numbers, each whole (a `.` then a `.` is a `..`).
  const runs = pieces.map((p) => ("text" in p ? p.text : "\n")).join("").split("\n")
  const safe = pieces.every((p) => "text" in p || p.safe) && numbersBetween(...runs)
  return { t: "unknown", ...(prefix === "" ? {} : { prefix }), ...(suffix === "" ? {} : { suffix }), ...(safe ? { digitsOnly: true as const } : {}), ...readFrom(parts) }
}

/** `str(a, b, …)` (3.x GDScriptFunctions STR: each argument's `operator String()`, appended in order) of values some of which are not constant. */
export const strOf = (grammar: Grammar, args: ReadonlyArray<Val>): Val => valueOf(args.flatMap((a) => piecesOf(grammar, a)), args)

/**
 * `template.format(values)` with the default placeholder `{_}` (3.x core/ustring.cpp String::format): for each key of
 * a Dictionary in order (an Array's items: their indexes), every `{key}` of the string so far is replaced by the
 * value's text. Text before the template's first `{` and after its last `}` is never replaced (a placeholder needs
 * both braces, and replaced text lands between them), so it is the known start and end whatever the values; what
 * lies between is made of the template's text and the values' (later keys may match across earlier values), so it
 * holds no NUL when no value can. `values`: the values when the argument is a literal (null when not known).
 */
export const formatOf = (grammar: Grammar, template: string, values: ReadonlyArray<Val> | null, parts: ReadonlyArray<Val>): Val => {
  const open = template.indexOf("{")
  const close = template.lastIndexOf("}")
  if (open < 0 || close < open) return strs([template])
  // A constant put in is safe only where it holds no folder part: a `/` or `..` in it moves the path (a twenty-fifth
  // red team's `"user://{0}x".format(["../../"])`).
  const safe = values !== null && values.every((v) => piecesOf(grammar, v).every((p) => ("text" in p && !/[/\\]|\.\./.test(p.text)) || ("safe" in p && p.safe)))
  return valueOf([{ text: template.slice(0, open) }, { safe }, { text: template.slice(close + 1) }], parts)
}
