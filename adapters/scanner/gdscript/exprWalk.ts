import type { Expr, Stmt } from "./ast.ts"

// Walking the syntax tree: sub-expressions, the expressions of a block of statements, and small
// questions about an expression's shape.

const ASSIGNMENT_OPS = new Set(["=", "+=", "-=", "*=", "/=", "%=", "**=", "&=", "|=", "^=", "<<=", ">>="])

/** `=` and the compound assignments; never a comparison (`==`, `<=`, …). */
export const isAssignment = (op: string): boolean => ASSIGNMENT_OPS.has(op)

/** Calls `f` on every direct sub-expression (lambda bodies are walked by their own function). */
export const forEachChild = (e: Expr, f: (child: Expr) => void): void => {
  switch (e.k) {
    case "member":
      f(e.obj)
      return
    case "call":
      f(e.callee)
      for (const a of e.args) f(a)
      return
    case "index":
      f(e.obj)
      f(e.index)
      return
    case "bin":
      f(e.left)
      f(e.right)
      return
    case "unary":
    case "await":
    case "cast":
    case "is":
      f(e.expr)
      return
    case "ternary":
      f(e.cond)
      f(e.then)
      f(e.else)
      return
    case "array":
      for (const x of e.items) f(x)
      return
    case "dict":
      for (const [k, v] of e.entries) {
        f(k)
        f(v)
      }
      return
    case "preload":
      f(e.path)
      return
    default:
      return
  }
}

/** Every expression of a block, nested blocks included, each with every sub-expression; not into lambdas or nested classes. */
export const forEachExpr = (stmts: ReadonlyArray<Stmt>, f: (e: Expr) => void): void => {
  const deep = (e: Expr): void => {
    f(e)
    forEachChild(e, deep)
  }
  for (const s of stmts) {
    switch (s.k) {
      case "var":
        if (s.init !== null) deep(s.init)
        break
      case "expr":
        deep(s.expr)
        break
      case "return":
        if (s.expr !== null) deep(s.expr)
        break
      case "if":
        for (const b of s.branches) {
          if (b.cond !== null) deep(b.cond)
          forEachExpr(b.body, f)
        }
        break
      case "while":
        deep(s.cond)
        forEachExpr(s.body, f)
        break
      case "for":
        deep(s.iter)
        forEachExpr(s.body, f)
        break
      case "match":
        deep(s.expr)
        for (const b of s.branches) {
          if (b.guard !== null) deep(b.guard)
          forEachExpr(b.body, f)
        }
        break
      default:
        break
    }
  }
}

/** Container methods that put a value into their receiver (`a.append(v)`, 4.x `d.merge(o)`). */
export const PUTS_INTO: ReadonlySet<string> = new Set(["append", "push_back", "push_front", "insert", "append_array", "fill", "merge", "set"])

/**
 * Whether `e`, a part of a container (the container itself, `c["a"]`, `c.a`), is written into where it stands: the
 * target of an assignment (`c["a"] = v`, `c["a"]["b"] = v`), or the receiver of a method that puts a value into it
 * (`c["a"].append(v)`); `parent` maps each expression to the one it stands in.
 */
export const writtenInto = (e: Expr, parent: ReadonlyMap<Expr, Expr>): boolean => {
  let cur = e
  for (let p = parent.get(cur); p !== undefined; cur = p, p = parent.get(cur)) {
    if (p.k === "bin" && isAssignment(p.op)) return p.left === cur
    if (p.k === "member" && p.obj === cur) {
      const call = parent.get(p)
      if (call?.k === "call" && call.callee === p) return PUTS_INTO.has(p.name)
      continue
    }
    if (p.k !== "index" || p.obj !== cur) return false
  }
  return false
}

/** Every expression of a body, lambdas' bodies included, with the expression each stands in. */
export const parentsOf = (body: ReadonlyArray<Stmt>): { readonly all: ReadonlyArray<Expr>; readonly parent: ReadonlyMap<Expr, Expr> } => {
  const all: Array<Expr> = []
  const parent = new Map<Expr, Expr>()
  const visit = (stmts: ReadonlyArray<Stmt>): void =>
    forEachExpr(stmts, (e) => {
      all.push(e)
      forEachChild(e, (child) => parent.set(child, e))
      if (e.k === "lambda") visit(e.fn.body)
    })
  visit(body)
  return { all, parent }
}

/** The expressions of every `return` of a block (nested blocks included). */
export const returnedExprs = (stmts: ReadonlyArray<Stmt>): ReadonlyArray<Expr | null> => {
  const out: Array<Expr | null> = []
  const walk = (body: ReadonlyArray<Stmt>): void => {
    for (const s of body) {
      if (s.k === "return") out.push(s.expr)
      else if (s.k === "if") for (const b of s.branches) walk(b.body)
      else if (s.k === "while" || s.k === "for") walk(s.body)
      else if (s.k === "match") for (const b of s.branches) walk(b.body)
    }
  }
  walk(stmts)
  return out
}

/** A short rendering of a receiver for messages: `f`, `self.file`, `get_tree()`, or `…`. */
export const label = (e: Expr): string => {
  switch (e.k) {
    case "id":
      return e.name
    case "self":
      return "self"
    case "member":
      return `${label(e.obj)}.${e.name}`
    case "call":
      return e.callee.k === "id" || e.callee.k === "member" ? `${label(e.callee)}()` : "…"
    default:
      return "…"
  }
}
