import type { Expr, FunctionDecl } from "./ast.ts"
import type { CallerIndex, CallerSite } from "./callers.ts"
import type { DispatchIndex } from "./engineDispatch.ts"
import { forEachChild, forEachExpr, isAssignment } from "./exprWalk.ts"
import type { ClassRef, PackModel } from "./packModel.ts"
import { PATH_ARGUMENTS } from "./propertyPaths.ts"
import { bbcodeUrlMetas } from "../resource/bbcode.ts"
import { PACK_DATA } from "./bbcodeTemplate.ts"
import type { DataSel } from "./values.ts"

// What a Godot 3 RichTextLabel's `meta_clicked(meta)` passes: the meta of the link clicked, pushed by the
// label's BBCode parser for each `[url]` tag (bbcode.ts bbcodeUrlMetas) or by `push_meta(value)` in code.
// Pack-wide, whatever label it is: the metas of every BBCode the pack can give any label, known only when all
// of it is in sight and constant. Code gives BBCode through `bbcode_text = v` (set_bbcode), `append_bbcode`,
// `parse_bbcode`, `set_bbcode` and metas through `push_meta` (3.x `text`/`set_text` add raw text: no tag is
// parsed); the scenes and resources through their strings, every string of them read as BBCode (contentScan
// collects them). Anything else that may reach those names (a dispatch or property path by a name that is not
// constant or by a string naming them, a call or write of them out of sight, an object built from data) leaves
// the metas unknown, and so does a track's key written in code (`track_insert_key`, `track_set_key_value`, an
// Animation's `tracks/…` property): on a value track of `bbcode_text` it is BBCode the label takes.

/** The names through which code gives a RichTextLabel BBCode or a meta (3.x). */
const BBCODE_METHODS: ReadonlySet<string> = new Set(["append_bbcode", "parse_bbcode", "set_bbcode"])
const META_METHOD = "push_meta"
const BBCODE_PROPERTY = "bbcode_text"
/**
 * Animation's methods that write a track's keys: a value track on `bbcode_text` (in a scene or in code) gives the
 * label each key as BBCode, and which track a key is on is not followed (analyzeScript.ts #trackValue).
 */
const KEY_WRITERS: ReadonlyArray<string> = ["track_insert_key", "track_set_key_value"]
const SINKS: ReadonlyArray<string> = [...BBCODE_METHODS, META_METHOD, BBCODE_PROPERTY, ...KEY_WRITERS]
/** An Animation's generic properties (`tracks/N/keys`, `tracks/N/path`), written by `set` or a subscript. */
const TRACK_PROPERTY = "tracks/"
/** Functions that build objects with properties from their argument (a label with its BBCode among them). */
const BUILDS_OBJECTS: ReadonlySet<string> = new Set(["dict2inst", "str2var", "bytes2var"])

const namesSink = (s: string): boolean => SINKS.some((sink) => s.includes(sink)) || s.startsWith(TRACK_PROPERTY)

/** The strings an expression may be where it is written, or null when it is not constant. */
export type ConstantAt = (e: Expr, at: Omit<CallerSite, "args">) => ReadonlyArray<string> | null

/**
 * BBCode built from strings of the pack's own data files (bbcodeTemplate.ts: PACK_DATA in each template): its links'
 * metas are judged with those files' strings by checks/shellData.ts. `joined` when it is any concatenation of the templates.
 */
export interface DataBbcode {
  readonly templates: ReadonlyArray<string>
  readonly sources: ReadonlyArray<string>
  readonly constants: ReadonlyArray<string>
  readonly sels?: ReadonlyArray<DataSel>
  /** For each template, each data part's selections in order (null where not known); null when they could not be matched to the parts. */
  readonly places: ReadonlyArray<ReadonlyArray<ReadonlyArray<DataSel> | null>> | null
  readonly joined: boolean
  /** The `%` formats the templates were built with: as strings of the code, their own `[url=%s]` is no link. */
  readonly formats: ReadonlyArray<string>
}

/** The BBCode of the pack's data an expression is where it is written, or null when it is not that. */
export type DataBbcodeAt = (e: Expr, at: Omit<CallerSite, "args">) => DataBbcode | null

/** The metas code gives labels: constants, and BBCode of the pack's data whose metas are judged with its files. */
export interface CodeLinkMetas {
  readonly urls: ReadonlyArray<string>
  readonly data: ReadonlyArray<DataBbcode>
}

/** Every assignment of the pack's code, with where it is written (Godot 3 has no lambdas; a nested class's are out of sight). */
const assignments = (model: PackModel, f: (e: Extract<Expr, { k: "bin" }>, at: Omit<CallerSite, "args">) => void): boolean => {
  let nested = false
  const deep = (e: Expr, at: Omit<CallerSite, "args">): void => {
    if (e.k === "bin" && isAssignment(e.op)) f(e, at)
    if (e.k === "lambda") nested = true
    forEachChild(e, (c) => deep(c, at))
  }
  const body = (cls: ClassRef, fn: FunctionDecl, method: boolean): void => {
    const at = { cls, fn, method }
    for (const p of fn.params) if (p.init !== null) deep(p.init, at)
    forEachExpr(fn.body, (e) => {
      if (e.k === "bin" && isAssignment(e.op)) f(e, at)
      if (e.k === "lambda") nested = true
    })
    const walk = (stmts: FunctionDecl["body"]): void => {
      for (const s of stmts) {
        if (s.k === "nested") nested = true
        else if (s.k === "if") for (const b of s.branches) walk(b.body)
        else if (s.k === "while" || s.k === "for") walk(s.body)
        else if (s.k === "match") for (const b of s.branches) walk(b.body)
      }
    }
    walk(fn.body)
  }
  for (const cls of model.classes()) {
    const decl = model.decl(cls)
    if (decl === null) continue
    const own = { cls, fn: null, method: false }
    for (const fn of decl.functions) body(cls, fn, true)
    for (const v of decl.vars) {
      if (v.init !== null) deep(v.init, own)
      for (const a of v.accessors) body(cls, a, false)
    }
    for (const c of decl.consts) deep(c.init, own)
    for (const e of decl.extra) deep(e, own)
  }
  return !nested
}

/** The name an assignment writes (`x = v`, `o.x = v`, `o.x[i] = v`), and whether it writes the whole value with `=`. */
const written = (left: Expr): { readonly name: string; readonly whole: boolean } | null => {
  if (left.k === "id" || left.k === "member") return { name: left.name, whole: true }
  if (left.k === "index") {
    const inner = written(left.obj)
    return inner === null ? null : { name: inner.name, whole: false }
  }
  return null
}

/**
 * The `[url]` metas (and `push_meta` values) the pack's code gives RichTextLabels, or null when some may be
 * other than constants in sight (see above).
 */
export const codeLinkMetas = (model: PackModel, index: CallerIndex, dispatch: DispatchIndex, constant: ConstantAt, dataBbcode: DataBbcodeAt): CodeLinkMetas | null => {
  const data: Array<DataBbcode> = []
  // BBCode given by a constant, or built from the pack's own data (judged with its files: checks/shellData.ts).
  const bbcodeMetas = (e: Expr, at: Omit<CallerSite, "args">): ReadonlyArray<string> | null => {
    const values = constant(e, at)
    if (values !== null) return values.flatMap(bbcodeUrlMetas)
    const fromData = dataBbcode(e, at)
    if (fromData === null) return null
    data.push(fromData)
    // The constant pieces' own metas; those of the data's are judged with the files.
    return fromData.templates.filter((t) => !t.includes(PACK_DATA)).flatMap(bbcodeUrlMetas)
  }
  if (index.openAll || index.strings.some(namesSink) || [...model.dataMethods].some(namesSink)) return null
  // A sink method taken as a value or called where its arguments are not followed.
  if ([...BBCODE_METHODS, META_METHOD].some((m) => index.hard.has(m))) return null
  // A track's keys written in code may be BBCode of a label whose metas are out of sight.
  if (KEY_WRITERS.some((m) => index.hard.has(m) || (index.calls.get(m) ?? []).length > 0)) return null
  for (const site of index.names) {
    const names = constant(site.name, site.at)
    if (names === null || names.some(namesSink)) return null
  }
  const out: Array<string> = []
  for (const [name, sites] of index.calls) {
    const property = (dispatch.byName.get(name) ?? []).filter((d) => d.kind === "property" && d.name !== undefined)
    const paths = PATH_ARGUMENTS.get(name) ?? []
    for (const site of sites) {
      for (const at of [...property.map((d) => d.name ?? 0), ...paths]) {
        const arg = site.args[at]
        const names = arg === undefined ? [] : constant(arg, site)
        if (names === null || names.some(namesSink)) return null
      }
      if (BUILDS_OBJECTS.has(name) && site.args.some((a) => constant(a, site) === null)) return null
      const given = site.args[0]
      if (!BBCODE_METHODS.has(name) && name !== META_METHOD) continue
      const values = given === undefined ? [] : name === META_METHOD ? constant(given, site) : bbcodeMetas(given, site)
      if (values === null) return null
      out.push(...values)
    }
  }
  let known = true
  const inSight = assignments(model, (e, at) => {
    const target = written(e.left)
    if (!known || target === null || target.name !== BBCODE_PROPERTY) return
    const values = target.whole && e.op === "=" ? bbcodeMetas(e.right, at) : null
    if (values === null) known = false
    else out.push(...values)
  })
  if (!known || !inSight) return null
  // Strings of the code that hold a tag themselves (a `str2var` text, a bind): their metas too.
  // A `%` format of the data's BBCode (`"[url=%s]%s[/url]" % [c.url, c.name]`) gives the label its filled text, not its
  // own: its metas that are only a format's `%s` are not counted (any other meta of it is).
  const formats = new Set(data.flatMap((d) => d.formats))
  const formatOnly = (s: string, meta: string): boolean => formats.has(s) && /^%[-+ 0#]*\d*(?:\.\d+)?[a-zA-Z]$/.test(meta)
  for (const s of index.strings) if (s.includes("[url")) out.push(...bbcodeUrlMetas(s).filter((m) => !formatOnly(s, m)))
  return { urls: out, data }
}

/**
 * Whether the object a connection is made on is a RichTextLabel of the engine, as far as the pack shows:
 * self in a class whose chain of pack classes extends RichTextLabel, or `$Name`/`get_node("…/Name")` where
 * every node of that name in the pack's scenes is a RichTextLabel without a script and no code names a node.
 */
export const isRichTextLabel = (model: PackModel, index: CallerIndex, dispatch: DispatchIndex, site: CallerSite, constant: ConstantAt): boolean => {
  const recv = site.recv ?? null
  if (recv === null || recv.k === "self") return model.engineBase(site.cls) === "RichTextLabel" && !model.extendsOutside(site.cls)
  const path = recv.k === "node" ? [recv.path] : recv.k === "call" && recv.callee.k === "id" && recv.callee.name === "get_node" && recv.args[0] !== undefined ? constant(recv.args[0], site) : null
  if (path === null || path.length !== 1) return false
  const name = (path[0] ?? "").split("/").at(-1) ?? ""
  const types = model.sceneNodes.get(name)
  if (name === "" || name.startsWith("%") || types === undefined || types.size !== 1 || !types.has("RichTextLabel")) return false
  // A node the code names could be any object: `n.name = "Credits"`, `set_name(…)`, `set("name", …)`, `call("set_name", …)`.
  const given = [...index.writes.filter((w) => w.name === "name").map((w) => constant(w.value, w)), ...(index.calls.get("set_name") ?? []).map((s) => (s.args[0] === undefined ? [] : constant(s.args[0], s)))]
  if (index.hard.has("set_name") || given.some((n) => n === null || n.includes(name))) return false
  const byName = [...index.names.map((n) => constant(n.name, n.at))]
  for (const [method, sites] of index.calls)
    for (const d of dispatch.byName.get(method) ?? []) if (d.kind === "property" && d.name !== undefined) for (const s of sites) byName.push(s.args[d.name] === undefined ? [] : constant(s.args[d.name] as Expr, s))
  return byName.every((n) => n !== null && !n.includes("name") && !n.includes("set_name"))
}
