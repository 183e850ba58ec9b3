import { type Grammar, stringOf, type VNode, VariantTextParser } from "../resource/variantText.ts"

// The global classes a project registers, read as the engine reads them. Godot 3's `_global_script_classes`
// setting and Godot 4's `list` in `.godot/global_script_class_cache.cfg` are an Array of Dictionaries;
// ScriptServer::init_languages (core/script_language.cpp:153-167 of 3.5, core/object/script_language.cpp:264-290
// of 4.x) takes every Dictionary that has the keys class, language, path and base, in any order and beside any
// other keys, and add_global_class (3.5 :208-215, 4.x :394-) overwrites a name registered before: the last entry
// of a name wins. It refuses a class that is its own base, or whose base's chain ends at it ("Cyclic inheritance").
// A Dictionary keeps the last value of a key written twice (VariantParser and decode_variant both assign).
// Godot 4 compares String and StringName keys as equal (StringLikeVariantComparator, core/variant/variant.cpp).

/** One Dictionary of a registration list, with the lines of its values in the settings text. */
export interface ClassEntry {
  /** The values of class, base, language and path as text (null: the key is absent, or its value is not text). */
  readonly name: string | null
  readonly base: string | null
  readonly language: string | null
  readonly path: string | null
  /** Line of the path's value (of the Dictionary's first value when it has none). */
  readonly line: number
  readonly classLine: number
  /** Every value given to a `path` key, with its line (a key written twice keeps only the last: all are judged). */
  readonly paths: ReadonlyArray<{ readonly text: string; readonly line: number }>
  /** Required keys whose value is not text (a number, a list, …): what the engine makes of it is not judged. */
  readonly opaque: ReadonlyArray<{ readonly key: string; readonly line: number }>
}

/** An entry the engine registers: it has all four keys as text. */
export type Registered = ClassEntry & { readonly name: string; readonly base: string; readonly language: string; readonly path: string }

const REQUIRED = ["class", "base", "language", "path"] as const

/** A Dictionary key as the engine compares it: a String (Godot 4 also a StringName). */
const keyOf = (node: VNode): string | null => (node.k === "str" ? node.value : null)

/** The text a value converts to, for the values an editor could write (String, StringName, NodePath); null otherwise. */
const textOf = stringOf

const lineOf = (node: VNode, fallback: number): number => {
  let line: number | null = null
  const visit = (n: VNode): void => {
    if (line !== null) return
    if (n.k === "str") line = n.start.line
    else if (n.k === "call") line = n.at.line
    else if (n.k === "array" || n.k === "dict") n.items.forEach(visit)
    else if (n.k === "pair") visit(n.value)
  }
  visit(node)
  return line ?? fallback
}

/** The Dictionaries of a setting's value: an Array, or Godot 4's typed `Array[Dictionary]([…])`. */
const dictionariesOf = (value: VNode): ReadonlyArray<Extract<VNode, { k: "dict" }>> => {
  const list = value.k === "call" && value.name === "Array" && value.args.length === 1 ? value.args[0] : value
  if (list === undefined || list.k !== "array") return []
  return list.items.filter((n): n is Extract<VNode, { k: "dict" }> => n.k === "dict")
}

const entryOf = (dict: Extract<VNode, { k: "dict" }>, firstLine: number): ClassEntry => {
  // key → its last value, and the line it starts on (a number has no position of its own: its key's line).
  const values = new Map<string, { readonly node: VNode; readonly line: number }>()
  const paths: Array<{ text: string; line: number }> = []
  for (const item of dict.items) {
    if (item.k !== "pair") continue
    const key = keyOf(item.key)
    if (key === null) continue
    const value = { node: item.value, line: lineOf(item.value, lineOf(item.key, firstLine)) }
    values.set(key, value)
    const text = key === "path" ? textOf(item.value) : null
    if (text !== null) paths.push({ text, line: value.line })
  }
  const text = (key: string): string | null => {
    const value = values.get(key)
    return value === undefined ? null : textOf(value.node)
  }
  const opaque = REQUIRED.flatMap((key) => {
    const value = values.get(key)
    return value !== undefined && textOf(value.node) === null ? [{ key, line: value.line }] : []
  })
  const dictLine = lineOf(dict, firstLine)
  return {
    name: text("class"),
    base: text("base"),
    language: text("language"),
    path: text("path"),
    line: values.get("path")?.line ?? dictLine,
    classLine: values.get("class")?.line ?? dictLine,
    paths,
    opaque,
  }
}

/**
 * The Dictionaries of a registration list's value as written (`raw`, the text after `key=`, starting at line
 * `firstLine`), in order. Text the engine's parser refuses is MalformedData (the settings cannot be reviewed).
 */
export const readClassEntries = (raw: string, firstLine: number, grammar: Grammar): ReadonlyArray<ClassEntry> => {
  let value: VNode | null = null
  const parser = new VariantTextParser(grammar, { tag: () => undefined, assign: (_key, node) => (value ??= node) }, { simpleTags: true })
  // `v=` keeps the value on its own line numbers: the first byte of `raw` is on `firstLine`.
  parser.feed(new TextEncoder().encode(`${"\n".repeat(firstLine - 1)}v=${raw}\n`))
  parser.finish()
  const read: VNode | null = value
  return read === null ? [] : dictionariesOf(read).map((dict) => entryOf(dict, firstLine))
}

export const isRegistered = (e: ClassEntry): e is Registered => e.name !== null && e.base !== null && e.language !== null && e.path !== null

/** The class a registered class's chain of registered bases ends at (ScriptServer::get_global_class_native_base). */
export const nativeBaseOf = (name: string, classes: ReadonlyMap<string, Registered>): string => {
  let base = classes.get(name)?.base ?? ""
  const seen = new Set([name])
  // The engine would loop for ever on a cycle an overwrite made; the scanner stops.
  for (let next = classes.get(base); next !== undefined && !seen.has(base); next = classes.get(base)) {
    seen.add(base)
    base = next.base
  }
  return base
}

/** The registered bases between a class and its native base (`SaveFormat` → `["FormatBase"]`). */
export const registeredBasesOf = (name: string, classes: ReadonlyMap<string, Registered>): ReadonlyArray<string> => {
  const out: Array<string> = []
  for (let base = classes.get(name)?.base; base !== undefined && classes.has(base) && !out.includes(base) && base !== name; base = classes.get(base)?.base) out.push(base)
  return out
}

/** What the engine registers from entries read in this order: the last entry of a name wins, cyclic ones are refused. */
export const engineClasses = <E extends ClassEntry>(entries: ReadonlyArray<E>): ReadonlyMap<string, E & Registered> => {
  const classes = new Map<string, E & Registered>()
  for (const e of entries) {
    if (!isRegistered(e)) continue
    if (e.name === e.base || (classes.has(e.base) && nativeBaseOf(e.base, classes) === e.name)) continue
    classes.set(e.name, e)
  }
  return classes
}

/** Names registered more than once with entries that differ (base, language or path): name → the entries, in order. */
export const differingDuplicates = (entries: ReadonlyArray<ClassEntry>): ReadonlyMap<string, ReadonlyArray<Registered>> => {
  const byName = new Map<string, Array<Registered>>()
  for (const e of entries) if (isRegistered(e)) byName.set(e.name, [...(byName.get(e.name) ?? []), e])
  return new Map([...byName].filter(([, list]) => new Set(list.map((e) => JSON.stringify([e.base, e.language, e.path]))).size > 1))
}

/** The native classes whose registered scripts the engine loads and instances at every start, named or not. */
export const START_UP_BASES: ReadonlySet<string> = new Set(["ResourceFormatLoader", "ResourceFormatSaver"])
