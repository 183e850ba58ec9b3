import type { Expr } from "./ast.ts"
import type { Local } from "./evaluate.ts"
import type { Grammar } from "./tokenizer.ts"
import { type FormatPart, isNumeric, parseFormat, takesValue } from "./formatSpecs.ts"
import { type DataSel, MAX_ALTERNATIVES, strs, type Val } from "./values.ts"

// BBCode a script builds from constants and translations: `"[b]%s[/b] [img]res://icon.png[/img]" % tr("BYE")`.
// The translation's text is judged where it is stored (the pack's translations are read as BBCode), so only
// the constant parts are judged here: each translation becomes a placeholder, and a loading tag whose path
// would contain one is BBCode built at run time. A string of the pack's own data files becomes another
// placeholder, judged with every string of those files (contentScan.ts).

/** Stands for text that comes from a translation of the pack (a noncharacter: no script or data holds it). */
export const TRANSLATED = "\uFFFF"

/** Stands for one string of the pack's own data files read at run time (packDataReads.ts): judged with those files' strings. */
export const PACK_DATA = "\uFFFE"

/** `tr(key)` (Object.tr) and TranslationServer.translate(key): a translation of the pack, or the key itself. */
const isTranslationCall = (e: Expr): e is Extract<Expr, { k: "call" }> =>
  e.k === "call" &&
  e.args[0] !== undefined &&
  ((e.callee.k === "id" && e.callee.name === "tr") || (e.callee.k === "member" && (e.callee.name === "tr" || (e.callee.name === "translate" && e.callee.obj.k === "id" && e.callee.obj.name === "TranslationServer"))))

/** `tr(const)`: a translation of the pack, or the constant key itself. */
const isTranslation = (e: Expr, constant: (e: Expr) => string | null): boolean => isTranslationCall(e) && e.args[0] !== undefined && constant(e.args[0]) !== null

/** Stands, among the metas a `meta_clicked` handler gets, for those of BBCode built from the pack's data (evaluate.ts, linkMetas.ts). */
export const LINK_DATA = "\uFDD2"

/** Stands for a part of BBCode built at run time that is not pinned down (shape mode): where it is in a tag's path, that path is a load path built at run time. */
export const UNPINNED = "\uFDD0"

/** Stands for digits a `%` puts in (`%d`, `%05.2f`, `%x`): inside a tag's path a part not pinned down, outside one no tag. */
export const DIGITS = "\uFDD1"

/**
 * Stands, while a template is built, for text escaped so that it opens no tag (`name.replace("[", "[lb]")`): DIGITS
 * once built, unless it stands inside a tag, where it may be the tag itself (`"[" + escaped + "]"` with the text
 * `font=user://x.tres`, a fifty-ninth red team's): then the template is not pinned down at all.
 */
const TAGLESS = "\uFDD3"

/** Whether a `placeholder` (DIGITS by default) stands inside a tag (`[font=…%d…]`) or inside an [img]/[font] tag's path. */
const digitsInTag = (text: string, placeholder = DIGITS): boolean => {
  for (let at = text.indexOf(placeholder); at >= 0; at = text.indexOf(placeholder, at + 1)) {
    const before = text.slice(0, at).toLowerCase()
    if (before.lastIndexOf("[") > before.lastIndexOf("]")) return true
    if (Math.max(before.lastIndexOf("[img"), before.lastIndexOf("[font")) > Math.max(before.lastIndexOf("[/img"), before.lastIndexOf("[/font"))) return true
  }
  return false
}

/** A conversion that puts in text the item gives (`%s`, `%c`), not a number's characters. */
const takesText = (part: FormatPart): boolean => part.k === "string" || part.k === "char"

/** A parsed format with each conversion's part put in its place (`put` gets the conversion and the item it takes, if any). */
const fill = (parts: ReadonlyArray<FormatPart>, items: ReadonlyArray<Expr>, put: (part: FormatPart, item: Expr | undefined) => string): string => {
  let at = 0
  return parts.map((part) => (part.k === "text" ? part.text : put(part, takesValue(part) ? items[at++] : undefined))).join("")
}

/** The files a template's PACK_DATA stands for a string of, and the constant strings it may be instead. */
export interface PackDataParts {
  readonly sources: Array<string>
  /** Constants beside the data (`item.get("name", "")`'s default): judged with the files' strings. */
  readonly constants: Array<string>
  /** Set when a data part may also be a string built at run time (values.ts DataOrBuilt): its shape is judged too. */
  built?: true
  /**
   * Which parts of the files the data parts are (values.ts DataSel), all parts' together; null once a part's are not
   * known (then every string of the files is judged).
   */
  sels?: Array<DataSel> | null
  /** Each data part's selections, in the order the parts were read (null where not known): a link's meta is judged with its own part's. */
  places?: Array<ReadonlyArray<DataSel> | null>
  /** The format strings of `%` the template was built with (`"%s: [url=%s]%s[/url]" % […]`), whose own text is no BBCode given. */
  formats?: Array<string>
}

/** The shape of a string built at run time: its known start and end around UNPINNED. */
export const shapeOf = (v: Val): string => {
  const known = v.t === "unknown" ? (v.dataOrBuilt?.built ?? v) : {}
  return `${known.prefix ?? ""}${UNPINNED}${known.suffix ?? ""}`
}

/**
 * The BBCode an expression builds, with every translation (and every value a `%` puts in) as TRANSLATED;
 * null when a part is neither constant nor a translation. In shape mode (`shape`), every other part is its shape
 * (shapeOf: the string built at run time a part of the data may be instead, too), never null.
 */
/**
 * A call of a helper of the pack (Evaluator.helperReturns): what it returns, evaluated in the helper's own function,
 * and the helpers it calls there in turn (a few levels deep).
 */
export type HelperReturns = (
  call: Extract<Expr, { k: "call" }>,
) => { readonly returns: ReadonlyArray<Expr>; readonly evaluate: (e: Expr) => Val; readonly helper: HelperReturns; readonly localOf?: PieceLocal } | null

/** At most this many constants one part may be, and this many templates one BBCode may stand for (bbcodeTemplates). */
const MAX_CHOICES = 8
const MAX_TEMPLATES = 64

/**
 * The BBCode an expression builds as bbcodeTemplate gives it, once for each choice of the parts that are one of a few
 * constants (`NAMES[line["speaker"]]` of a constant Dictionary of names, `"aqua" if rare else "white"`: a forty-ninth
 * and fifty-second hunt's), each judged on its own; null as bbcodeTemplate, or when the choices are too many.
 */
export const bbcodeTemplates = (
  e: Expr,
  evaluate: (e: Expr) => Val,
  grammar: Grammar,
  parts: PackDataParts,
  packDefines: (name: string) => boolean,
  helper?: HelperReturns,
): ReadonlyArray<string> | null => {
  const choices = new Map<Expr, ReadonlyArray<string>>()
  const firstOf = (x: Expr): Val => {
    const v = evaluate(x)
    if (v.t !== "str" || v.values.length < 2 || v.values.length > MAX_CHOICES) return v
    choices.set(x, v.values)
    return strs([v.values[0] ?? ""])
  }
  const first = bbcodeTemplate(e, firstOf, grammar, parts, false, packDefines, helper)
  if (first === null || choices.size === 0) return first === null ? null : [first]
  let combos: Array<ReadonlyMap<Expr, string>> = [new Map()]
  for (const [x, values] of choices) combos = combos.flatMap((c) => values.map((v) => new Map([...c, [x, v]])))
  if (combos.length > MAX_TEMPLATES) return null
  const out: Array<string> = []
  for (const chosen of combos) {
    const pick = (x: Expr): Val => {
      const v = chosen.get(x)
      return v === undefined ? evaluate(x) : strs([v])
    }
    const t = bbcodeTemplate(e, pick, grammar, { sources: [], constants: [] }, false, packDefines, helper)
    if (t === null) return null
    out.push(t)
  }
  return [...new Set(out)]
}

/**
 * The template of BBCode `e` (see templateOf), escaped text standing as DIGITS; null where escaped text stands inside
 * a tag (it may name the tag).
 */
export const bbcodeTemplate = (...args: Parameters<typeof templateOf>): string | null => {
  const t = templateOf(...args)
  return t === null || digitsInTag(t, TAGLESS) ? null : t.replaceAll(TAGLESS, DIGITS)
}

const templateOf = (
  e: Expr,
  evaluate: (e: Expr) => Val,
  grammar: Grammar,
  parts: PackDataParts = { sources: [], constants: [] },
  shape = false,
  packDefines: (name: string) => boolean = () => false,
  helper?: HelperReturns,
): string | null => {
  const constant = (x: Expr): string | null => {
    const v = evaluate(x)
    return v.t === "str" && v.values.length === 1 ? (v.values[0] ?? null) : null
  }
  const template = (x: Expr): string | null => {
    const known = constant(x)
    if (known !== null) return known
    // The engine's tr() only: a `tr` of the pack (on self or another object) returns what it likes (red team 23b).
    if (isTranslation(x, constant) && !packDefines("tr")) return TRANSLATED
    // `tr(key)` of a key from the pack's data: the key itself (a string of the data, judged with the files) or a
    // translation of the pack (judged where it is stored; what it may open, after it: fileRules.ts #afterTranslations).
    if (isTranslationCall(x) && x.args[0] !== undefined && !shape && !packDefines("tr")) {
      const key = template(x.args[0])
      if (key === PACK_DATA) return `${PACK_DATA}${TRANSLATED}`
    }
    const v = evaluate(x)
    // Text of digits only, decimal or hexadecimal (`tint.to_html()`, `name.md5_text()`, `str(n).pad_zeros(2)`): it holds no
    // `[`, so outside a tag it opens none, and inside one it is a part not pinned down, as a number `%d` puts in.
    if (v.t === "unknown" && v.digitsOnly === true && v.prefix === undefined && v.suffix === undefined && v.any !== true) return DIGITS
    // Text escaped so that it opens no tag (`name.replace("[", "[lb]")`): the same, outside a tag and inside one.
    if (v.t === "unknown" && v.tagless === true && v.any !== true) return TAGLESS
    // A string of the data, or one of the few constants it may be instead (`some`, not cut off at MAX_ALTERNATIVES: a
    // default of get()); no known start it was built on (`prefix`), nothing the SDK passes (`sdk`).
    const besides = v.t === "unknown" ? (v.some ?? []) : []
    const data = v.t === "unknown" ? (v.packData ?? v.dataOrBuilt?.packData) : undefined
    if (v.t === "unknown" && v.external === true && data !== undefined && besides.length < MAX_ALTERNATIVES && v.sdk !== true && v.prefix === undefined && v.any !== true) {
      if (shape && v.dataOrBuilt !== undefined) return shapeOf(v)
      parts.sources.push(...data)
      parts.constants.push(...besides)
      const sels = v.t === "unknown" ? (v.packData !== undefined ? v.dataSel : v.dataOrBuilt?.dataSel) : undefined
      if (sels === undefined || parts.sels === null) parts.sels = null
      else (parts.sels ??= []).push(...sels)
      ;(parts.places ??= []).push(sels ?? null)
      if (v.dataOrBuilt !== undefined) parts.built = true
      return v.translated === true ? `${PACK_DATA}${TRANSLATED}` : PACK_DATA
    }
    // A helper of the pack returning one expression (`speaker_tag(name, color)` returning `"[color=%s]%s[/color]" % […]`):
    // that expression's template, its parameters holding what every call of it passes (a thirty-fifth hunt's dialogue),
    // with the helpers it calls (a fifty-fourth hunt's `_item_bbcode(id)` inside a line's helper).
    const called = x.k === "call" && helper !== undefined ? helper(x) : null
    const only = called?.returns.length === 1 ? called.returns[0] : undefined
    if (called !== null && only !== undefined) {
      const inner = templateOf(only, called.evaluate, grammar, parts, shape, packDefines, called.helper)
      if (inner !== null) return inner
    }
    if (x.k === "bin" && x.op === "+") {
      const left = template(x.left)
      const right = left === null ? null : template(x.right)
      return left === null || right === null ? null : left + right
    }
    if (x.k === "bin" && x.op === "%") {
      const text = constant(x.left)
      // Read as the engine reads it (formatSpecs.ts); a format it refuses stops the script, and gives no BBCode.
      const format = text === null ? null : parseFormat(text, grammar)
      const items = x.right.k === "array" ? x.right.items : [x.right]
      // A value that is no Array literal is one item only for a format taking one: with more conversions it can only be
      // an Array, whose elements the engine spreads over them (`"%d%s" % args`, a thirty-eighth red team's).
      if (x.right.k !== "array" && format !== null && format.filter(takesValue).length !== 1) return shape ? shapeOf(v) : null
      if (format !== null && shape) {
        // Shape mode: each value in its place, numbers as digits (no tag), `%s`/`%c` as the item's shape.
        return fill(format, items, (part, item) => (part.k === "width" ? "" : isNumeric(part) ? DIGITS : item === undefined ? UNPINNED : (template(item) ?? UNPINNED)))
      }
      // Each value `%` puts in is its item's template (a translation, a string of the pack's data, a constant), each read
      // once (the data parts are counted in order); a width taken from a value puts in nothing, padding only spaces.
      // A number's conversion puts in digits: outside every tag they open nothing, and its value needs no template (a
      // thirty-seventh hunt's `"[u]%s[/u] x%d" % [item["name"], owned]`); inside a tag or a tag's path it does, as before.
      const strings = new Set<Expr>()
      const numbers = new Set<Expr>()
      if (format !== null) fill(format, items, (part, item) => (item === undefined ? "" : takesText(part) ? (strings.add(item), "") : part.k === "width" ? "" : (numbers.add(item), "")))
      const filled = new Map([...strings].map((item) => [item, template(item)] as const))
      if (format === null || [...filled.values()].some((t) => t === null)) return shape ? shapeOf(v) : null
      // `%c` of the pack's data: a number there is any character, `[` included (a forty-first red team's `%cimg]…` of 91),
      // which the data's strings do not show.
      const chars = new Set<Expr>()
      fill(format, items, (part, item) => (part.k === "char" && item !== undefined ? (chars.add(item), "") : ""))
      if ([...chars].some((item) => filled.get(item)?.includes(PACK_DATA) === true)) return shape ? shapeOf(v) : null
      const probe = fill(format, items, (part, item) => (part.k === "width" ? "" : takesText(part) && item !== undefined ? (filled.get(item) ?? "") : DIGITS))
      if (digitsInTag(probe) && [...numbers].some((item) => template(item) === null)) return null
      ;(parts.formats ??= []).push(text ?? "")
      // A number's digits stand as DIGITS, which no rule reads as a translation (a thirty-ninth hunt's `"%d / %d"`).
      return fill(format, items, (part, item) => (part.k === "width" ? "" : takesText(part) && item !== undefined ? (filled.get(item) ?? "") : isNumeric(part) ? DIGITS : TRANSLATED))
    }
    return shape ? shapeOf(v) : null
  }
  return template(e)
}

/**
 * What the pieces of a local are read with: the local, evaluated where it lives, and the helpers its function calls; for
 * a parameter of a function only the pack's calls reach, each call's argument with where it is evaluated.
 */
export type PieceLocal = (name: string) => {
  readonly local: Local
  readonly evaluate: (e: Expr) => Val
  readonly helper?: HelperReturns
  readonly args?: ReadonlyArray<{ readonly expr: Expr; readonly evaluate: (e: Expr) => Val; readonly helper?: HelperReturns }> | null
  /** Whether code of the pack may change the local's text in place (`s.erase(1, 1)`: PackModel.mutatedInPlace). */
  readonly edited: boolean
} | null

/** Where an expression joining such a local with more (`speaker + ": " + text`) is evaluated. */
export interface PieceContext {
  readonly evaluate: (e: Expr) => Val
  readonly helper?: HelperReturns
}

/**
 * BBCode held by a local built up piece by piece (`var t = "[b]Credits[/b]\n"` then `t += "%s: [url=%s]%s[/url]\n" %
 * [c.role, c.url, c.name]` in a loop): the template of every value given it with `=` or `+=`, when each is constants
 * and strings of the pack's own data and one holds such a string; its value is then some concatenation of those
 * pieces, in any order. Null for anything else: a loop variable, a local written into, a translation, a number `%`
 * puts in or a part not pinned down in a piece. `localOf` finds the local and evaluates where it lives. Since
 * `pckgate-scanner/20` (a fifty-fourth and fifty-fifth hunt's): such a local joined with more by `+` (`speaker + ": " +
 * text`, with `outer` where the join is) is the pieces of each part, as any concatenation of them covers the join's; a
 * helper returning such a local of its own (`var s := …; s += …; return s`) gives that local's pieces; and a parameter
 * of a function only the pack's calls reach (`func log_line(s): append_bbcode(s + "\n")`) is the pieces of every
 * argument those calls give it (one of them, which any concatenation covers too).
 */
export const bbcodePieces = (e: Expr, localOf: PieceLocal, grammar: Grammar, parts: PackDataParts, packDefines: (name: string) => boolean = () => false, outer?: PieceContext): ReadonlyArray<string> | null => {
  const piecesOf = (x: Expr, evaluate: (e: Expr) => Val, helper: HelperReturns | undefined): ReadonlyArray<string> | null => {
    const v = evaluate(x)
    if (v.t === "str") return v.values
    const pieces = bbcodeTemplates(x, evaluate, grammar, parts, packDefines, helper)
    return pieces === null || parts.built === true || pieces.some((p) => p.includes(TRANSLATED)) ? null : pieces
  }
  const ofLocal = (find: PieceLocal, name: string): ReadonlyArray<string> | null => {
    const found = find(name)
    if (found === null) return null
    const { local, evaluate, helper } = found
    // Text changed in place is no longer its pieces (a fifty-sixth red team's `s.erase(1, 1)` of `"[ximg]…"`).
    if (found.edited || local.opaque || (local.puts ?? []).length > 0 || (local.parts ?? []).length > 0) return null
    const given: Array<{ readonly expr: Expr; readonly evaluate: (e: Expr) => Val; readonly helper?: HelperReturns }> = []
    if (local.param !== undefined) {
      if (found.args === undefined || found.args === null || found.args.length === 0) return null
      given.push(...found.args)
    } else if (local.inits.length === 0) return null
    for (const x of [...local.inits, ...local.appends]) given.push({ expr: x, evaluate, ...(helper === undefined ? {} : { helper }) })
    const got: Array<string> = []
    for (const g of given) {
      const pieces = piecesOf(g.expr, g.evaluate, g.helper)
      if (pieces === null) return null
      got.push(...pieces)
    }
    return got
  }
  // A local of this function, or one a helper returns.
  const held = (o: Expr): ReadonlyArray<string> | null => {
    if (o.k === "id") return ofLocal(localOf, o.name)
    const called = o.k === "call" && outer?.helper !== undefined ? outer.helper(o) : null
    const only = called?.returns.length === 1 ? called.returns[0] : undefined
    return only?.k === "id" && called?.localOf !== undefined ? ofLocal(called.localOf, only.name) : null
  }
  const operands = e.k === "bin" && e.op === "+" ? plusOperands(e) : [e]
  if (operands.length > 1 && outer === undefined) return null
  const locals = operands.map(held)
  if (locals.every((l) => l === null)) return null
  const all: Array<string> = []
  for (const [i, o] of operands.entries()) {
    const pieces = locals[i] ?? (outer === undefined ? null : piecesOf(o, outer.evaluate, outer.helper))
    if (pieces === null) return null
    all.push(...pieces)
  }
  return all.some((p) => p.includes(PACK_DATA)) ? all : null
}

/** The operands of a chain of `+` (`a + b + c`), in order. */
const plusOperands = (e: Expr): ReadonlyArray<Expr> => (e.k === "bin" && e.op === "+" ? [...plusOperands(e.left), ...plusOperands(e.right)] : [e])
