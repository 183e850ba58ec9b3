import type { Expr, Stmt } from "./ast.ts"
import { parentsOf, writtenInto } from "./exprWalk.ts"

// A local holding a copy of a constant table (`var spec = BUTTONS[id].duplicate()`, `var hand = DECK.duplicate(true)`)
// holds the table's strings only while nothing else can reach the copy: every use reads an entry by a constant key,
// reorders it or asks its size, or walks it with a loop whose variable is read so. Read by the evaluator (#localParts)
// and by the dispatch names constantReads.ts follows (nestedTables.ts readParts), so both agree.

/** How deep loops over loop variables are followed. */
const MAX_LOOP_DEPTH = 8

/** Methods that change no entry's value: a reorder or a question (`hand.shuffle()`, `hand.size()`). */
const KEEPS_ENTRIES: ReadonlySet<string> = new Set(["shuffle", "sort", "invert", "size", "empty", "has", "find", "count"])

/** Of those, the methods that move items to other indexes. */
const REORDERS: ReadonlySet<string> = new Set(["shuffle", "sort", "invert"])

/** The method called on `e` (`e.sort()`), or null. */
const methodCalledOn = (e: Expr, parent: ReadonlyMap<Expr, Expr>): string | null => {
  const p = parent.get(e)
  return p?.k === "member" && p.obj === e && parent.get(p)?.k === "call" ? p.name : null
}

/** Whether an expression holds a copy made by `duplicate` (`T[id].duplicate()`, `T.duplicate()[id]`); `deep`: by `duplicate(true)`. */
export const madeByCopy = (e: Expr, deep = false): boolean =>
  e.k === "call" && e.callee.k === "member"
    ? (e.callee.name === "duplicate" && (!deep || (e.args[0]?.k === "const" && e.args[0].value === true))) || madeByCopy(e.callee.obj, deep)
    : e.k === "index" || e.k === "member"
      ? madeByCopy(e.obj, deep)
      : false

/** Whether `e` holds a deep copy (`x.duplicate(true)`, or an entry of one): its inner containers are its own. */
export const deepCopy = (e: Expr): boolean => madeByCopy(e, true)

/**
 * Whether every use of the local `name` in `body` reads one entry of it by a constant key (`spec["k"]`, `spec.k`) and
 * writes nothing there, reorders it or asks about it (KEEPS_ENTRIES), or walks it with a loop whose variable is used
 * so (`for card in hand: call(card["effect"])`: a hundred-and-twelfth hunt's card game), or used anyhow where the
 * literal `parts` it holds give only leaves to walk (`for n in names: m.call(n)`): the container it holds reaches no
 * other name, call, container or signal.
 */
export const onlyEntriesRead = (body: ReadonlyArray<Stmt>, name: string, parts: ReadonlyArray<Expr> | null = null, depth = 0): boolean => {
  const { all, parent } = parentsOf(body)
  const walked = loopsOver(body, name)
  // A loop over literal parts whose every item is a leaf hands out strings and numbers: its variable may go anywhere.
  const items = parts === null ? null : walkedOf(parts)
  const leaves = items !== null && items.length > 0 && items.every(isLeaf)
  if (walked.length > 0 && (depth >= MAX_LOOP_DEPTH || walked.some((loop) => loop.name === name || !(leaves || onlyEntriesRead(body, loop.name, items, depth + 1))))) return false
  const iterables = new Set<Expr>(walked.map((loop) => loop.iter))
  // Reordered (`names.sort()`, `shuffle`, `invert`) and read by an index, an Array gives at that index any of its items,
  // not the literal's (a hundred-and-twenty-ninth red team's `sort()` then `OS.call(names[0], …)`).
  const reordered = all.some((e) => e.k === "id" && e.name === name && REORDERS.has(methodCalledOn(e, parent) ?? ""))
  const indexed = all.some((e) => {
    const p = e.k === "id" && e.name === name ? parent.get(e) : undefined
    return p?.k === "index" && p.obj === e
  })
  if (reordered && indexed) return false
  return all.every((e) => {
    if (e.k !== "id" || e.name !== name || iterables.has(e)) return true
    const p = parent.get(e)
    const up = p === undefined ? undefined : parent.get(p)
    if (p?.k === "member" && p.obj === e && up?.k === "call" && up.callee === p) return KEEPS_ENTRIES.has(p.name) && up.args.every((a) => a.k === "str" || a.k === "num" || a.k === "const")
    const entry = p !== undefined && ((p.k === "index" && p.obj === e && (p.index.k === "str" || integerKey(p.index) !== null)) || (p.k === "member" && p.obj === e))
    return entry && !writtenInto(p, parent)
  })
}

/** A value no write can change through another name: a string, a number, a bool or null (not a container, not an object). */
const isLeaf = (e: Expr): boolean => e.k === "str" || e.k === "num" || e.k === "const" || (e.k === "unary" && e.expr.k === "num")

/** What a read of these literal parts by the constant key `key` gives (an Array's item, a Dictionary's value); null for a part that is no literal. */
const entriesAt = (parts: ReadonlyArray<Expr>, key: string | number): ReadonlyArray<Expr> | null => {
  // A Dictionary keyed by anything but literals may hold the key under another spelling (`{OK: …}`): not known.
  if (!parts.every((p) => p.k === "array" || (p.k === "dict" && p.entries.every(([k]) => k.k === "str" || k.k === "num")))) return null
  const found = parts.flatMap((p): ReadonlyArray<Expr> => {
    if (p.k === "array") return typeof key === "number" && p.items[key] !== undefined ? [p.items[key]] : []
    return p.k === "dict" ? p.entries.filter(([k]) => (k.k === "str" && k.value === key) || (k.k === "num" && Number(k.text) === key)).map(([, v]) => v) : []
  })
  // No entry found is no entry known (a missing key stops the script, but a key read otherwise than the scanner reads it may not).
  return found.length === 0 ? null : found
}

/** An index written as an integer literal (`hand[0]`): the engine truncates `hand[0.5]` to 0, which no literal part says. */
const integerKey = (e: Expr): number | null => {
  if (e.k !== "num") return null
  const n = Number(e.text.replace(/_/g, ""))
  return Number.isInteger(n) && !/[.eE]/.test(e.text.startsWith("0x") || e.text.startsWith("0b") ? "" : e.text) ? n : null
}

/** The constant key a use of a local reads (`name["k"]`, `name[0]`, `name.k`), or null for any other use. */
const keyRead = (e: Expr, parent: ReadonlyMap<Expr, Expr>): string | number | null => {
  const p = parent.get(e)
  if (p?.k === "index" && p.obj === e) return p.index.k === "str" ? p.index.value : integerKey(p.index)
  return p?.k === "member" && p.obj === e ? p.name : null
}

/** What a loop over these literal parts gives (an Array's items, a Dictionary's keys); null for a part that is no literal. */
const walkedOf = (parts: ReadonlyArray<Expr>): ReadonlyArray<Expr> | null =>
  parts.every((p) => p.k === "array" || p.k === "dict") ? parts.flatMap((p) => (p.k === "array" ? p.items : p.k === "dict" ? p.entries.map(([k]) => k) : [])) : null

/**
 * Whether a deep copy (`duplicate(true)`: its inner containers are its own, so no write into them marks the constant)
 * held by the local `name`, whose literal parts are `parts`, gives out only values no write can change: every entry
 * read by a constant key of it, or of a loop variable walking it (at any depth), is a leaf of the literal at that key
 * (`for card in hand: effects.call(card["effect"], card["value"])` with `hand = DECK.duplicate(true)` and DECK's cards
 * of strings and numbers); a copy whose entries read so may be containers (`card["fx"]`, then `var fx = …` changed: a
 * hundred-and-fourteenth red team's) is not followed.
 */
export const deepCopyReadsLeaves = (body: ReadonlyArray<Stmt>, name: string, parts: ReadonlyArray<Expr>, depth = 0): boolean => {
  // A loop variable walking only leaves holds a string or a number, whatever its uses.
  if (depth > 0 && parts.length > 0 && parts.every(isLeaf)) return true
  if (depth >= MAX_LOOP_DEPTH) return false
  const { all, parent } = parentsOf(body)
  const loops = loopsOver(body, name)
  const iterables = new Set<Expr>(loops.map((loop) => loop.iter))
  // Every use but a loop over it and a method asking about it or reordering it (onlyEntriesRead allows no other) reads an entry.
  const asked = (e: Expr): boolean => {
    const p = parent.get(e)
    return p?.k === "member" && p.obj === e && parent.get(p)?.k === "call"
  }
  // Each entry read by its constant key (onlyEntriesRead allows no other read) must be a leaf wherever the parts hold it.
  for (const e of all) {
    if (e.k !== "id" || e.name !== name || iterables.has(e) || asked(e)) continue
    const key = keyRead(e, parent)
    const entries = key === null ? null : entriesAt(parts, key)
    if (entries === null || !entries.every(isLeaf)) return false
  }
  const walked = walkedOf(parts)
  return loops.every((loop) => walked !== null && deepCopyReadsLeaves(body, loop.name, walked, depth + 1))
}

/** The loops of `body` over the local `name` itself (`for x in name`), in blocks at any depth (not in lambdas). */
const loopsOver = (body: ReadonlyArray<Stmt>, name: string): ReadonlyArray<Extract<Stmt, { k: "for" }>> => {
  const out: Array<Extract<Stmt, { k: "for" }>> = []
  const visit = (stmts: ReadonlyArray<Stmt>): void => {
    for (const st of stmts) {
      if (st.k === "for" && st.iter.k === "id" && st.iter.name === name) out.push(st)
      if (st.k === "for" || st.k === "while") visit(st.body)
      if (st.k === "if" || st.k === "match") for (const b of st.branches) visit(b.body)
    }
  }
  visit(body)
  return out
}
