import type { ClassDecl, Expr, FunctionDecl, Stmt } from "./ast.ts"
import { deepCopy, deepCopyReadsLeaves, madeByCopy, onlyEntriesRead } from "./copiedContainers.ts"
import { forEachExpr, isAssignment } from "./exprWalk.ts"

// A constant table whose items are themselves Arrays or Dictionaries (`const ABILITIES = {"fire": {"method": "_cast"}}`)
// hands out those inner containers by reference: `var a = ABILITIES["fire"]` then `a["method"] = "execute"` changes the
// constant in Godot 3 as `ABILITIES["fire"]["method"] = …` does. Where inner containers are, constantReads.ts asks more
// of a read than of a flat table's (whose items are strings and numbers, which nothing changes in place), following
// which literals a read may give (`RECIPES[id]["station"]` is a string even where `RECIPES[id]["needs"]` is a table).

/** The literal parts a read of a table may give (the declarations' literals, then their items). */
export type Parts = ReadonlyArray<Expr>

const isContainer = (e: Expr): boolean => e.k === "array" || e.k === "dict"

/** Whether some part is an Array or a Dictionary literal. */
export const holdsContainer = (parts: Parts): boolean => parts.some(isContainer)

/**
 * The parts a read of `parts` by `key` gives: a Dictionary's entry of that literal key (every value for another key,
 * or where it has keys written otherwise), an Array's items for a key that is not a literal string. Items that are not literals (a name, a call) are kept as
 * they are: leaves here, as a constant named in a literal is used otherwise than read and so never followed.
 */
export const itemsOf = (parts: Parts, key: string | number | null): Parts =>
  parts.flatMap((p) => {
    // A string key reads nothing of an Array (the engine stops the script); a number in range its item (a seventy-sixth
    // hunt's recipe rows `["crack", "_step_crack", 1.0, ["egg", 2]]` read as `step[1]`), any other every item (Godot 3
    // counts a negative one from the end).
    if (p.k === "array") return typeof key === "string" ? [] : typeof key === "number" && p.items[key] !== undefined ? [p.items[key]] : p.items
    if (typeof key === "number") return p.k === "dict" ? p.entries.map(([, v]) => v) : []
    if (p.k !== "dict") return []
    if (key === null || !p.entries.every(([k]) => k.k === "str" || k.k === "num")) return p.entries.map(([, v]) => v)
    return p.entries.filter(([k]) => k.k === "str" && k.value === key).map(([, v]) => v)
  })

/** The key an index expression reads, for itemsOf: a string literal, a non-negative integer literal, else null (any). */
export const indexKey = (k: Expr): string | number | null => (k.k === "str" ? k.value : k.k === "num" && /^\d+$/.test(k.text) ? Number(k.text) : null)

/** Whether some part is an Array (walking it gives its items; a Dictionary gives its keys). */
export const holdsArray = (parts: Parts): boolean => parts.some((p) => p.k === "array")

/**
 * The literals of the classes' (inner classes are classes of their own) constants and members declared with an Array
 * or Dictionary literal, by name, where some item is itself one (flat tables are left out).
 */
export const nestedTables = (classes: ReadonlyArray<ClassDecl>): ReadonlyMap<string, Parts> => {
  const out = new Map<string, Array<Expr>>()
  for (const d of classes) {
    for (const { name, init } of [...d.consts, ...d.vars]) {
      if (init !== null && isContainer(init)) out.set(name, [...(out.get(name) ?? []), init])
    }
  }
  return new Map([...out].filter(([, parts]) => holdsContainer(itemsOf(parts, null))))
}

/** The parts the calls of `f` pass as its parameter `index` (each a read readParts follows in its caller), or null. */
export type ParamParts = (f: ReadFunction, index: number, depth: number) => Parts | null

/** What readParts reads of a function: its name (its calls' key), parameters and body. */
export type ReadFunction = Pick<FunctionDecl, "name" | "params" | "body">

/** The strings of parts that are all string literals (some), or null. */
export const partStrings = (parts: Parts | null): ReadonlyArray<string> | null =>
  parts !== null && parts.length > 0 && parts.every((p) => p.k === "str") ? parts.map((p) => (p.k === "str" ? p.value : "")) : null

/** How deep readParts follows reads of reads and locals given them. */
const MAX_READ_DEPTH = 8

/**
 * The literal parts a read in function `f` may give, as the constant tables of its class stand written: `T[k]`,
 * `T.get(k)`, `T[a][b]`, a local of `f` every value of which is such a read (`var info = CROPS[crop]`, then
 * `info["on_harvest"]`), a loop's variable over one (an Array's items, a Dictionary's keys written as literals). Null
 * for anything else (a parameter, a member, a value the function does not show). `constantOf` gives the literal of a
 * constant the class sees by that name (no member hiding it), or null.
 */
export const readParts = (e: Expr, f: ReadFunction, constantOf: (name: string) => Expr | null, depth = 0, paramParts: ParamParts = () => null): Parts | null => {
  if (depth > MAX_READ_DEPTH) return null
  if (e.k === "index" || (e.k === "call" && e.callee.k === "member" && e.callee.name === "get" && e.args.length === 1)) {
    const [obj, key] = e.k === "index" ? [e.obj, e.index] : e.callee.k === "member" ? [e.callee.obj, e.args[0]] : [null, null]
    const outer = obj === null ? null : readParts(obj, f, constantOf, depth + 1, paramParts)
    return outer === null || key === null || key === undefined ? null : itemsOf(outer, indexKey(key))
  }
  // A copy holds the parts of what it copies (`DECK.duplicate(true)`); a local given one is checked above.
  if (e.k === "call" && e.callee.k === "member" && e.callee.name === "duplicate" && e.args.length <= 1) return readParts(e.callee.obj, f, constantOf, depth + 1, paramParts)
  // `crop.on_harvest`: a Dictionary's key read as a member (an Array has no such member).
  if (e.k === "member") {
    const outer = readParts(e.obj, f, constantOf, depth + 1, paramParts)
    return outer === null || outer.some((p) => p.k !== "dict") ? null : itemsOf(outer, e.name)
  }
  if (e.k !== "id") return null
  const param = f.params.findIndex((p) => p.name === e.name)
  // A parameter nothing in the function gives another value: what the caller says its calls pass.
  if (param >= 0) return localValues(e.name, f, true)?.length === 0 ? paramParts(f, param, depth + 1) : null
  const given = localValues(e.name, f)
  if (given === null) return null
  if (given.length === 0) {
    const literal = constantOf(e.name)
    return literal !== null && isContainer(literal) ? [literal] : null
  }
  const out: Array<Expr> = []
  for (const g of given) {
    if (g === null) return null
    // A copy (`var hand = DECK.duplicate(true)`) holds the table's parts while nothing else reaches it (copiedContainers.ts).
    const parts = readParts(g.expr, f, constantOf, depth + 1, paramParts)
    if (parts === null || (madeByCopy(g.expr) && !onlyEntriesRead(f.body, e.name, parts)) || (deepCopy(g.expr) && !deepCopyReadsLeaves(f.body, e.name, parts))) return null
    if (!g.walked) out.push(...parts)
    else {
      for (const p of parts) {
        if (p.k === "array") out.push(...p.items)
        else if (p.k === "dict" && p.entries.every(([k]) => k.k === "str")) out.push(...p.entries.map(([k]) => k))
        else return null
      }
    }
  }
  return out
}

/** The name a chain of subscripts and members starts from (`m` of `m[0]`, `m.a[1]`), or null. */
const rootOf = (e: Expr): string | null => (e.k === "id" ? e.name : e.k === "index" || e.k === "member" ? rootOf(e.obj) : null)

/**
 * What a name of `f` is given: every `var` of it and `=` to it (`walked`: a `for` over the expression), null for a value
 * not shown (a parameter, a `match` binding, a compound assignment); empty when `f` has no local of the name.
 */
export const localValues = (name: string, f: ReadFunction, param = false): ReadonlyArray<{ readonly expr: Expr; readonly walked: boolean } | null> | null => {
  if (!param && f.params.some((p) => p.name === name)) return null
  const out: Array<{ readonly expr: Expr; readonly walked: boolean } | null> = []
  const walk = (stmts: ReadonlyArray<Stmt>): void => {
    for (const st of stmts) {
      if (st.k === "var" && st.name === name) out.push(st.init === null ? null : { expr: st.init, walked: false })
      if (st.k === "for" && st.name === name) out.push({ expr: st.iter, walked: true })
      if (st.k === "match") for (const b of st.branches) if (b.binds.some((bind) => bind.name === name)) out.push(null)
      if (st.k === "for" || st.k === "while") walk(st.body)
      if (st.k === "if" || st.k === "match") for (const b of st.branches) walk(b.body)
    }
  }
  walk(f.body)
  const local = param || out.length > 0
  forEachExpr(f.body, (x) => {
    if (x.k === "lambda" && x.fn.params.some((p) => p.name === name)) out.push(null)
    if (x.k === "bin" && isAssignment(x.op) && x.left.k === "id" && x.left.name === name) {
      // An assignment to a name no `var` of `f` declares gives a member: not a value of the local.
      if (!local) return
      out.push(x.op === "=" ? { expr: x.right, walked: false } : null)
    }
    // A write into it (`m[0] = "p"`): a String local becomes another String (3.x Variant::set on a String puts the
    // character), a value not shown (a hundred-and-thirteenth red team's `m[0] = "p"` turning a table's "zoke_x" into
    // "poke_x", then `call(m, …)`).
    if (local && x.k === "bin" && isAssignment(x.op) && x.left.k !== "id" && rootOf(x.left) === name) out.push(null)
  })
  return out
}
