import type { Expr, FunctionDecl, Stmt } from "./ast.ts"
import { forEachExpr, isAssignment, PUTS_INTO, returnedExprs } from "./exprWalk.ts"

// Which parameters a function of the pack may give back as its value, the very container a caller passed or a part
// of it: `func ident(x): return x`, `var y = x` then `return y`, `out["a"] = x` then `return out`, `self.tmp = x` then
// `return tmp`. A caller's
// `fix(ident(d))` then writes into `d` (a forty-ninth red team's), so the name a container reaches sees through it.

/** The name an expression stands for: a variable's (a member's too: `self.tmp`, a fiftieth red team's detour), or the container it is a part of. */
const nameOf = (e: Expr, rootOf: (e: Expr) => string | null): string | null => (e.k === "id" ? e.name : e.k === "member" && e.obj.k === "self" ? e.name : rootOf(e))

/** The local names a function's values flow from into each local: `var y = x`, `y = x`, `for y in x`, `y["k"] = x`, `y.append(x)`. */
const flowsOf = (body: ReadonlyArray<Stmt>, rootOf: (e: Expr) => string | null): ReadonlyMap<string, ReadonlySet<string>> => {
  const flows = new Map<string, Set<string>>()
  const add = (into: string | null, from: Expr): void => {
    const root = rootOf(from)
    if (into === null || root === null) return
    let set = flows.get(into)
    if (set === undefined) flows.set(into, (set = new Set()))
    set.add(root)
  }
  const walk = (stmts: ReadonlyArray<Stmt>): void => {
    for (const s of stmts) {
      if (s.k === "var" && s.init !== null) add(s.name, s.init)
      if (s.k === "for") add(s.name, s.iter)
      if (s.k === "if") for (const b of s.branches) walk(b.body)
      if (s.k === "while" || s.k === "for") walk(s.body)
      if (s.k === "match")
        for (const b of s.branches) {
          for (const bind of b.binds) add(bind.name, bind.value)
          walk(b.body)
        }
    }
  }
  walk(body)
  forEachExpr(body, (e) => {
    if (e.k === "bin" && isAssignment(e.op)) add(nameOf(e.left, rootOf), e.right)
    if (e.k === "call" && e.callee.k === "member" && PUTS_INTO.has(e.callee.name)) for (const a of e.args) add(rootOf(e.callee.obj), a)
  })
  return flows
}

const GIVEN_BACK = new WeakMap<FunctionDecl, ReadonlyArray<number>>()

/** The indexes of `f`'s parameters whose containers (or parts of them) its value may be. */
export const paramsGivenBack = (f: FunctionDecl, rootOf: (e: Expr) => string | null): ReadonlyArray<number> => {
  const known = GIVEN_BACK.get(f)
  if (known !== undefined) return known
  const flows = flowsOf(f.body, rootOf)
  const reached = new Set<string>()
  const reach = (name: string): void => {
    if (reached.has(name)) return
    reached.add(name)
    for (const from of flows.get(name) ?? []) reach(from)
  }
  for (const e of returnedExprs(f.body)) {
    const root = e === null ? null : nameOf(e, rootOf)
    if (root !== null) reach(root)
  }
  const found = f.params.flatMap((p, i) => (reached.has(p.name) ? [i] : []))
  GIVEN_BACK.set(f, found)
  return found
}
