import type { ClassDecl, Expr, Stmt } from "./ast.ts"
import { parentsOf, writtenInto } from "./exprWalk.ts"

// A constant Array or Dictionary of the pack can be changed in Godot 3 (`const UPGRADES = {…}` then
// `UPGRADES["script"] = v`, or `helper(UPGRADES)` doing so: godot3-server 3.2.3 runs both), so its strings are
// followed exactly only where every use of its name in the pack reads it: a loop over it, a subscript that is not
// written into, or a method that only reads (`keys()`, `values()`, `has(k)`, `size()`, `get(k)`, …); names are
// matched pack-wide (`x.UPGRADES` counts), so a use anywhere else keeps it from being followed.

/** Methods of an Array or a Dictionary that read it and hand out no part of it that could be written into it again. */
const READS: ReadonlySet<string> = new Set(["keys", "values", "has", "has_all", "size", "empty", "is_empty", "get", "find", "rfind", "count", "hash", "duplicate"])

/** Whether the use `e` of a name only reads what the name holds (`parent` maps each expression to the one it stands in; `loops` are the containers `for` walks). */
const readsOnly = (e: Expr, parent: ReadonlyMap<Expr, Expr>, loops: ReadonlySet<Expr>): boolean => {
  if (loops.has(e)) return true
  const p = parent.get(e)
  if (p === undefined) return false
  if (p.k === "index" && p.obj === e) return !writtenInto(p, parent)
  if (p.k === "bin" && p.right === e) return p.op === "in"
  if (p.k !== "member" || p.obj !== e) return false
  const call = parent.get(p)
  return call?.k === "call" && call.callee === p && READS.has(p.name)
}

/** The containers every `for` of a body walks (lambdas' bodies included by the caller). */
const loopsOf = (body: ReadonlyArray<Stmt>, into: Set<Expr>): void => {
  for (const s of body) {
    if (s.k === "for") into.add(s.iter)
    if (s.k === "for" || s.k === "while") loopsOf(s.body, into)
    if (s.k === "if" || s.k === "match") for (const b of s.branches) loopsOf(b.body, into)
  }
}

/** The names (`NAME`, `x.NAME`) some use in the classes' code does not only read (see above). */
export const namesNotOnlyRead = (classes: ReadonlyArray<ClassDecl>): ReadonlySet<string> => {
  const out = new Set<string>()
  for (const d of classes) {
    const own: ReadonlyArray<Expr> = [...d.consts.map((c) => c.init), ...d.vars.flatMap((v) => (v.init === null ? [] : [v.init])), ...d.extra]
    const bodies: ReadonlyArray<ReadonlyArray<Stmt>> = [...d.functions.map((f) => f.body), ...d.vars.flatMap((v) => v.accessors.map((a) => a.body)), own.map((e) => ({ k: "expr" as const, expr: e, at: e.at }))]
    for (const body of bodies) {
      const { all, parent } = parentsOf(body)
      const loops = new Set<Expr>()
      loopsOf(body, loops)
      for (const e of all) {
        if (e.k === "lambda") loopsOf(e.fn.body, loops)
      }
      for (const e of all) if ((e.k === "id" || e.k === "member") && !readsOnly(e, parent, loops)) out.add(e.name)
    }
  }
  return out
}
