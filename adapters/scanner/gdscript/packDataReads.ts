import type { Expr, Stmt } from "./ast.ts"
import { forEachExpr, parentsOf } from "./exprWalk.ts"
import { type DataSel, EXTERNAL, type Val } from "./values.ts"

// Data a script reads at run time from files of the pack: a File (3.x) or FileAccess (4.x) opened only for
// reading, only at res:// paths the pack has (constant, or built under a folder of the pack). What it reads is
// still data read at run time (every other rule judges it so); the BBCode rule and the rule on load paths read
// those files instead (fileRules.ts, contentScan.ts), the latter only the part of them a value is (values.ts, DataSel).

/** Reads that give the file's text, a line or its fields: their strings are the file's. */
const TEXT_READS: ReadonlySet<string> = new Set(["get_as_text", "get_line", "get_csv_line", "get_file_as_string"])

/** Which part of the file a read gives (values.ts, DataSel); a CSV line's fields are not followed. */
const SELECTIONS: Readonly<Record<string, ReadonlyArray<DataSel>>> = { get_as_text: [{ form: "text" }], get_file_as_string: [{ form: "text" }], get_line: [{ form: "line" }] }

/** What a read of those files gives. */
const packData = (name: string, sources: ReadonlyArray<string>): Val => {
  const dataSel = Object.hasOwn(SELECTIONS, name) ? SELECTIONS[name] : undefined
  return { t: "unknown", external: true, packData: [...new Set(sources)], ...(dataSel === undefined ? {} : { dataSel }) }
}

/** What the reader needs of the evaluator: a value, a local's inits and the function it is in, and the pack's paths. */
export interface ReadContext {
  eval(e: Expr): Val
  /** The local of that name: its inits and the statements of the function that holds it; null for anything else. */
  local(name: string): { readonly inits: ReadonlyArray<Expr>; readonly param: boolean; readonly body: ReadonlyArray<Stmt> } | null
  has(path: string): boolean
  hasUnder(prefix: string): boolean
}

/** A source of pack data: `res://a.json`, or `res://dialogue/*` for any file under a folder; null when the path may be anywhere else. */
const sourceOf = (path: Val, ctx: ReadContext): ReadonlyArray<string> | null => {
  if (path.t === "str") return path.values.every((p) => p.startsWith("res://") && !p.split("/").includes("..") && ctx.has(p)) ? path.values : null
  if (path.t !== "unknown" || path.prefix === undefined || !path.prefix.startsWith("res://") || path.prefix.split("/").includes("..")) return null
  const prefix = path.prefix.replace(/^res:\/\/(\.\/)+/, "res://")
  return prefix.length > "res://".length && ctx.hasUnder(prefix) ? [`${prefix}*`] : null
}

/** A file open for reading only: `File.READ`/`FileAccess.READ`, or 1. */
const readOnly = (mode: Expr | undefined, ctx: ReadContext): boolean => {
  if (mode === undefined) return false
  if (mode.k === "member") return mode.name === "READ"
  const v = ctx.eval(mode)
  return v.t === "lit" && v.value === 1
}

/** `X.open(path, mode)`: its pack sources when it opens a file of the pack for reading only, else null. */
const openSources = (call: Expr, ctx: ReadContext): ReadonlyArray<string> | null => {
  if (call.k !== "call" || call.callee.k !== "member" || call.callee.name !== "open" || call.args[0] === undefined) return null
  return readOnly(call.args[1], ctx) ? sourceOf(ctx.eval(call.args[0]), ctx) : null
}

/**
 * What `recv.name(args)` reads (name one of the evaluator's reads): pack data when it is a text read of a
 * local File/FileAccess whose every open (and every value it is given) is a read-only open of a file of the
 * pack, or `FileAccess.get_file_as_string` of such a path; else data read at run time from anywhere.
 */
export const readValue = (name: string, recvExpr: Expr | null, args: ReadonlyArray<Expr>, ctx: ReadContext): Val => {
  if (!TEXT_READS.has(name)) return EXTERNAL
  // A CSV line split at another delimiter than "," gives fields the data's strings are not judged as (a forty-sixth red
  // team's `[im;g]…` read with ";", joined back into a tag): data read at run time.
  const delimiter = name === "get_csv_line" && args[0] !== undefined ? ctx.eval(args[0]) : null
  if (delimiter !== null && !(delimiter.t === "str" && delimiter.values.every((d) => d === ","))) return EXTERNAL
  if (name === "get_file_as_string") {
    const sources = args[0] === undefined ? null : sourceOf(ctx.eval(args[0]), ctx)
    return sources === null ? EXTERNAL : packData(name, sources)
  }
  if (recvExpr?.k !== "id") return EXTERNAL
  const found = ctx.local(recvExpr.name)
  if (found === null || found.param) return EXTERNAL
  const sources: Array<string> = []
  for (const init of found.inits) {
    // `File.new()`, or 4.x `FileAccess.open(p, FileAccess.READ)`.
    if (init.k === "call" && init.callee.k === "member" && init.callee.name === "new" && init.args.length === 0) continue
    const opened = openSources(init, ctx)
    if (opened === null) return EXTERNAL
    sources.push(...opened)
  }
  let open = true
  // Where the read runs once, in order: an open of another file only in a later statement comes after it.
  const readAt = onceAt(found.body, recvExpr)
  const visit = (e: Expr, at: number | null): void => {
    // A lambda of the function may open the same File again, whenever it is called.
    if (e.k === "lambda") forEachExpr(e.fn.body, (inner) => visit(inner, null))
    if (e.k !== "call" || e.callee.k !== "member" || e.callee.name !== "open" || e.callee.obj.k !== "id" || e.callee.obj.name !== recvExpr.name) return
    const opened = openSources(e, ctx)
    if (opened !== null) sources.push(...opened)
    else if (at === null || readAt === null || at <= readAt) open = false
  }
  found.body.forEach((stmt, at) => forEachExpr([stmt], (e) => visit(e, at)))
  return open && sources.length > 0 && onlyReadHere(recvExpr.name, found.body) ? packData(name, sources) : EXTERNAL
}

/**
 * The index of the function's statement holding `target` when it runs at most once per call, in the statements'
 * order (no loop around it: `f.open("res://a.json")`, the read, then `f.open("user://b.json")` reads a.json); null
 * when it is inside a loop or not found.
 */
const onceAt = (body: ReadonlyArray<Stmt>, target: Expr): number | null => {
  const holds = (stmts: ReadonlyArray<Stmt>): boolean => {
    let found = false
    forEachExpr(stmts, (e) => {
      if (e === target) found = true
    })
    return found
  }
  const looped = (stmt: Stmt): boolean => {
    if (stmt.k === "while" || stmt.k === "for") return holds([stmt])
    if (stmt.k === "if" || stmt.k === "match") return stmt.branches.some((b) => b.body.some(looped))
    return false
  }
  const at = body.findIndex((stmt) => holds([stmt]))
  return at < 0 || looped(body[at] as Stmt) ? null : at
}

/**
 * What a File of the pack's data may do besides `open(…, READ)` without reading another file's text: a query about
 * another path (`f.file_exists(SAVE)` before a later open of a save: a fifty-fourth hunt's achievements) opens nothing.
 */
const SAFE_FILE_CALLS: ReadonlySet<string> = new Set([...TEXT_READS, "open", "close", "eof_reached", "get_len", "get_position", "seek", "seek_end", "is_open", "get_error", "get_path", "get_path_absolute", "get_buffer", "get_8", "get_16", "get_32", "get_64", "get_float", "get_double", "get_real", "get_pascal_string", "get_var", "file_exists", "get_modified_time", "get_md5", "get_sha256"])

/**
 * Whether every use of the File's name in the function is a call of one of its own methods that reads (or a read-only
 * open, judged above): not `open_compressed`/`open_encrypted` (another file, a thirty-third red team's), not a call by
 * name (`f.call("open", …)`), not an alias (`var g = f`) nor a function or container it is handed to, which may open it
 * on another file the engine then reads.
 */
const onlyReadHere = (name: string, body: ReadonlyArray<Stmt>): boolean => {
  const { all, parent } = parentsOf(body)
  return all.every((e) => {
    if (e.k !== "id" || e.name !== name) return true
    const member = parent.get(e)
    // Given a value (`f = File.new()`): what it may be given is judged above (every init a new File or a read-only open).
    if (member?.k === "bin" && member.op === "=" && member.left === e) return true
    const call = member === undefined ? undefined : parent.get(member)
    return member?.k === "member" && member.obj === e && call?.k === "call" && call.callee === member && SAFE_FILE_CALLS.has(member.name)
  })
}
