import type { ClassDecl, Expr, Stmt } from "./ast.ts"
import { forEachChild, forEachExpr, isAssignment, parentsOf } from "./exprWalk.ts"

// Whether the elements of a container (an array or dictionary variable) are only ever used in ways that
// cannot reach a dangerous method: looked at (compared, printed, checked with is_instance_valid), or the
// receiver of a call whose name no policy pattern or dispatch API has. `targets.append(instance_from_id(id))`
// followed by `for t in targets: t.take_damage()` is such a use; `t.execute(…)`, `t.call(…)`, passing `t`
// on or returning it is not.

/** Container methods that put elements in or ask about them without handing one out. */
const KEEPS_ELEMENTS: ReadonlySet<string> = new Set(["append", "push_back", "push_front", "insert", "size", "empty", "is_empty", "clear", "has", "erase", "remove", "remove_at", "count", "find", "rfind", "resize", "sort", "shuffle", "invert", "reverse"])
/** Container methods that hand out one element. */
const GIVES_ELEMENT: ReadonlySet<string> = new Set(["front", "back", "pop_back", "pop_front", "pop_at", "pick_random", "get"])
const COMPARISONS: ReadonlySet<string> = new Set(["==", "!=", "is", "in", "and", "or", "&&", "||"])

export interface ElementRules {
  /** A method that, called on an element, may be a dangerous one (a policy member, a dispatch API). */
  readonly dangerousMethod: (name: string) => boolean
  /** A property that, written on an element, may be a dangerous one (`source_code`). */
  readonly dangerousProperty: (name: string) => boolean
  /** Functions that only look at their argument (`is_instance_valid`, `print`). */
  readonly looksOnly: ReadonlySet<string>
}

const topExprs = (s: Stmt): ReadonlyArray<Expr> => {
  switch (s.k) {
    case "var":
      return s.init === null ? [] : [s.init]
    case "expr":
      return [s.expr]
    case "return":
      return s.expr === null ? [] : [s.expr]
    case "if":
      return s.branches.flatMap((b) => (b.cond === null ? [] : [b.cond]))
    case "while":
      return [s.cond]
    case "for":
      return [s.iter]
    case "match":
      return [s.expr]
    default:
      return []
  }
}

const forEachStmt = (stmts: ReadonlyArray<Stmt>, f: (s: Stmt) => void): void => {
  for (const s of stmts) {
    f(s)
    if (s.k === "if") for (const b of s.branches) forEachStmt(b.body, f)
    if (s.k === "while" || s.k === "for") forEachStmt(s.body, f)
    if (s.k === "match") for (const b of s.branches) forEachStmt(b.body, f)
  }
}

/** Whether every use of container `name` in `bodies` keeps its elements safe (see above). */
export const elementsUsedSafely = (bodies: ReadonlyArray<ReadonlyArray<Stmt>>, name: string, rules: ElementRules): boolean => {
  const parent = new Map<Expr, Expr>()
  const statementOf = new Map<Expr, Stmt>()
  const uses: Array<Extract<Expr, { k: "id" }>> = []
  for (const body of bodies) {
    forEachStmt(body, (s) => {
      for (const e of topExprs(s)) statementOf.set(e, s)
    })
    forEachExpr(body, (e) => {
      forEachChild(e, (child) => parent.set(child, e))
      if (e.k === "id") uses.push(e)
    })
  }
  const isElement = (e: Expr, vars: ReadonlySet<string>): boolean =>
    (e.k === "index" && e.obj.k === "id" && e.obj.name === name) ||
    (e.k === "call" && e.callee.k === "member" && e.callee.obj.k === "id" && e.callee.obj.name === name && GIVES_ELEMENT.has(e.callee.name)) ||
    (e.k === "id" && vars.has(e.name)) ||
    (e.k === "cast" && isElement(e.expr, vars))
  // Variables that hold an element: loop variables over the container, and variables assigned one.
  const vars = new Set<string>()
  for (let pass = 0; pass < 3; pass++) {
    for (const body of bodies) {
      forEachStmt(body, (s) => {
        if (s.k === "for" && s.iter.k === "id" && s.iter.name === name) vars.add(s.name)
        if (s.k === "var" && s.init !== null && isElement(s.init, vars)) vars.add(s.name)
      })
      forEachExpr(body, (e) => {
        if (e.k === "bin" && e.op === "=" && e.left.k === "id" && isElement(e.right, vars)) vars.add(e.left.name)
      })
    }
  }
  if (vars.has(name)) return false
  const elementSafe = (e: Expr): boolean => {
    const p = parent.get(e)
    if (p === undefined) {
      const s = statementOf.get(e)
      // A statement's value dropped, a condition, or the start of a variable that is checked in turn.
      return s !== undefined && (s.k === "expr" || s.k === "if" || s.k === "while" || (s.k === "var" && vars.has(s.name)))
    }
    switch (p.k) {
      case "member": {
        const call = parent.get(p)
        if (call?.k === "call" && call.callee === p) return !rules.dangerousMethod(p.name)
        const assigned = parent.get(p)
        if (assigned?.k === "bin" && isAssignment(assigned.op) && assigned.left === p) return !rules.dangerousProperty(p.name)
        return true
      }
      case "call":
        return p.callee.k === "id" && rules.looksOnly.has(p.callee.name) && p.callee !== e
      case "bin":
        if (isAssignment(p.op)) return p.left === e || (p.left.k === "id" && vars.has(p.left.name))
        return COMPARISONS.has(p.op)
      case "unary":
      case "is":
        return true
      case "cast":
        return elementSafe(p)
      default:
        return false
    }
  }
  for (const use of uses) {
    if (vars.has(use.name)) {
      if (!elementSafe(use)) return false
      continue
    }
    if (use.name !== name) continue
    const p = parent.get(use)
    if (p === undefined) {
      // `for v in container`, or a statement of its own.
      const s = statementOf.get(use)
      if (s?.k !== "for" && s?.k !== "expr") return false
      continue
    }
    if (p.k === "member") {
      const call = parent.get(p)
      if (call?.k !== "call" || call.callee !== p) return false
      if (GIVES_ELEMENT.has(p.name) ? !elementSafe(call) : !KEEPS_ELEMENTS.has(p.name)) return false
      continue
    }
    if (p.k === "index" && p.obj === use) {
      const assigned = parent.get(p)
      if (!(assigned?.k === "bin" && isAssignment(assigned.op) && assigned.left === p) && !elementSafe(p)) return false
      continue
    }
    if (p.k === "bin" && isAssignment(p.op) && p.left === use) continue
    return false
  }
  return true
}

/** Every function body of a class (methods and property accessors), for a member container. */
export const classBodies = (decl: ClassDecl): ReadonlyArray<ReadonlyArray<Stmt>> => [...decl.functions.map((f) => f.body), ...decl.vars.flatMap((v) => v.accessors.map((a) => a.body))]

/** Container methods that only look at it (none puts an element in or hands the container on). */
const READS_ONLY: ReadonlySet<string> = new Set(["size", "empty", "is_empty", "has", "find", "rfind", "count", "front", "back", "hash", "min", "max"])

/**
 * Whether local container `name` keeps the elements it was created with: every use of it in `body` reads an
 * element (`a[i]`, not as the target of an assignment), loops over it, or calls a method that only looks at it.
 * Passed on, returned, stored or changed (`a.append(x)`, `a[i] = x`), it may hold anything afterwards.
 */
export const containerUnchanged = (body: ReadonlyArray<Stmt>, name: string): boolean => {
  const parent = new Map<Expr, Expr>()
  const loopsOver = new Set<Expr>()
  let unchanged = true
  forEachStmt(body, (s) => {
    if (s.k === "for") loopsOver.add(s.iter)
  })
  forEachExpr(body, (e) => forEachChild(e, (child) => parent.set(child, e)))
  forEachExpr(body, (use) => {
    if (use.k !== "id" || use.name !== name) return
    const p = parent.get(use)
    if (p === undefined) {
      if (!loopsOver.has(use)) unchanged = false
      return
    }
    const up = parent.get(p)
    if (p.k === "index" && p.obj === use) {
      if (up?.k === "bin" && isAssignment(up.op) && up.left === p) unchanged = false
      return
    }
    if (p.k === "member" && p.obj === use && up?.k === "call" && up.callee === p && READS_ONLY.has(p.name)) return
    unchanged = false
  })
  return unchanged
}

/** Dictionary methods that neither put an entry in nor hand the Dictionary on (`merge` would replace entries). */
const LEAVES_ENTRIES: ReadonlySet<string> = new Set([...READS_ONLY, "keys", "values", "get", "duplicate", "erase", "clear", "has_all", "to_json"])
/** Functions and engine methods that only read the value they are given (printed, encoded, saved). */
const READ_ARGUMENT: ReadonlySet<string> = new Set(["print", "prints", "printt", "printerr", "print_debug", "str", "to_json", "var2str", "var2bytes", "len", "typeof", "hash", "store_var", "stringify"])
const LOOKS_AT: ReadonlySet<string> = new Set(["==", "!=", "in", "is"])

/**
 * Whether the entry `key` of local Dictionary `name` is, everywhere in `body`, the value the Dictionary was created
 * with: no use assigns that entry (`d.key = v`, `d["key"] = v`, `d[k] = v` with a key not constant) or the
 * Dictionary itself, puts entries in by a method (`merge`), or hands the Dictionary on where code could change it
 * (stored, aliased, given to a function of the pack or one not known: `ownName` says which names the pack defines).
 * Writing into the entry (`d.key[k] = v`, `d.key.x = v`) keeps it: Godot gets the entry, writes into it and sets it
 * back. Returning the Dictionary ends the function; a lambda could change it later, so none may appear in `body`.
 */
export const entryKept = (body: ReadonlyArray<Stmt>, name: string, key: string, ownName: (name: string) => boolean): boolean => {
  // Asked at every read of the entry: worked out once per function body, local and key.
  let memo = KEPT.get(body)
  if (memo === undefined) KEPT.set(body, (memo = new Map()))
  const id = `${name}\u0000${key}`
  const known = memo.get(id)
  if (known !== undefined) return known
  const kept = entryKeptIn(body, name, key, ownName)
  memo.set(id, kept)
  return kept
}

const KEPT = new WeakMap<ReadonlyArray<Stmt>, Map<string, boolean>>()

const entryKeptIn = (body: ReadonlyArray<Stmt>, name: string, key: string, ownName: (name: string) => boolean): boolean => {
  const { all, parent } = parentsOf(body)
  if (all.some((e) => e.k === "lambda")) return false
  const statementOf = new Map<Expr, Stmt>()
  forEachStmt(body, (s) => {
    for (const e of topExprs(s)) statementOf.set(e, s)
  })
  const assigned = (e: Expr): boolean => {
    const up = parent.get(e)
    return up?.k === "bin" && isAssignment(up.op) && up.left === e
  }
  const entryUse = (e: Expr, named: string | null): boolean => (named !== null && named !== key) || !assigned(e)
  return all.every((use) => {
    if (use.k !== "id" || use.name !== name) return true
    const p = parent.get(use)
    if (p === undefined) return ["for", "expr", "return", "if", "while", "match"].includes(statementOf.get(use)?.k ?? "")
    switch (p.k) {
      case "member": {
        const call = parent.get(p)
        if (call?.k === "call" && call.callee === p) return LEAVES_ENTRIES.has(p.name)
        return entryUse(p, p.name)
      }
      case "index":
        return p.obj === use && entryUse(p, p.index.k === "str" ? p.index.value : null)
      case "call": {
        const callee = p.callee.k === "id" || p.callee.k === "member" ? p.callee.name : null
        return p.callee !== use && callee !== null && READ_ARGUMENT.has(callee) && !ownName(callee)
      }
      case "bin":
        return LOOKS_AT.has(p.op)
      case "is":
        return true
      default:
        return false
    }
  })
}
