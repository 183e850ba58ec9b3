import type { Expr, FunctionDecl, MatchBranch, Param, Pos, Stmt } from "./ast.ts"
import { forEachChild } from "./exprWalk.ts"

// A local variable lives from its `var` to the end of its block, a `for` variable in the loop's body, a `match`
// binding in its branch (3.x gdscript_parser.cpp `_parse_block`: "must be added later, to avoid self-referencing",
// `p_block->variables.insert(n, lv)` after the initializer; the compiler pops a block's stack identifiers at its end).
// Outside that span the same name is the class's member (or a global). The analysis keeps one table of locals per
// function, so a name used both ways (a member written after an `if` that declared a local of its name, read before
// a later `var` of it: a twenty-sixth red team's) has its locals renamed here to `name@line.column` of their
// declaration, and every use the engine resolves to one of them follows; a use the engine resolves to the member
// keeps the plain name. A local read in its own initializer (`var x = x`) or a loop variable in its own iterable
// (`for x in x`) is no outer name: the compiler gives the local its stack slot before it compiles that expression
// (3.x gdscript_compiler.cpp `_parse_block`: `add_stack_identifier` at the LocalVarNode, before the assignment the
// parser emits after it; CF_FOR adds the loop variable before the iterable), so it reads whatever an earlier
// expression left in that slot (a twenty-seventh red team's `var action = action` holding "execute"). Such a read is
// renamed STALE_SLOT, which the analysis reads as any value at all.

/** The name a read of a local's own slot before it is given a value gets: anything an earlier expression left there. */
export const STALE_SLOT = "@stale"

interface Binding {
  readonly name: string
  readonly at: Pos
}

type Scope = ReadonlyMap<string, Binding>

/** Which declaration each use and declaration of a name resolves to (null: not a local, the member or a global). */
class Resolver {
  readonly uses = new Map<Expr, Binding | null>()
  readonly declared = new Map<object, Binding>()
  readonly plainUses = new Set<string>()
  /** Reads of a local's slot in the expression that gives it its value (STALE_SLOT). */
  readonly stale = new Set<Expr>()

  block(stmts: ReadonlyArray<Stmt>, outer: Scope): void {
    const scope = new Map(outer)
    for (const s of stmts) {
      switch (s.k) {
        case "var":
          this.#declare(s, s.name, s.at, scope)
          if (s.init !== null) this.#ownSlot(s, s.init, scope)
          break
        case "expr":
          this.expr(s.expr, scope)
          break
        case "return":
          if (s.expr !== null) this.expr(s.expr, scope)
          break
        case "if":
          for (const b of s.branches) {
            if (b.cond !== null) this.expr(b.cond, scope)
            this.block(b.body, scope)
          }
          break
        case "while":
          this.expr(s.cond, scope)
          this.block(s.body, scope)
          break
        case "for": {
          const inner = new Map(scope)
          this.#declare(s, s.name, s.at, inner)
          this.#ownSlot(s, s.iter, inner)
          this.block(s.body, inner)
          break
        }
        case "match":
          this.expr(s.expr, scope)
          for (const b of s.branches) this.#branch(b, scope)
          break
        default:
          break
      }
    }
  }

  #branch(b: MatchBranch, outer: Scope): void {
    for (const p of b.patterns) this.expr(p, outer)
    const inner = new Map(outer)
    for (const bind of b.binds) {
      this.expr(bind.value, outer)
      this.#declare(bind, bind.name, bind.at, inner)
    }
    if (b.guard !== null) this.expr(b.guard, inner)
    this.block(b.body, inner)
  }

  params(params: ReadonlyArray<Param>, scope: Map<string, Binding>): void {
    for (const p of params) {
      if (p.init !== null) this.expr(p.init, scope)
      this.#declare(p, p.name, p.at, scope)
    }
  }

  /** Resolves the expression a local is given by, in which its own name is its slot not yet given a value. */
  #ownSlot(decl: object, e: Expr, scope: Scope): void {
    const own = this.declared.get(decl)
    this.expr(e, scope)
    if (own === undefined) return
    for (const [use, b] of this.uses) if (b === own) this.stale.add(use)
  }

  #declare(node: object, name: string, at: Pos, scope: Map<string, Binding>): void {
    const binding = { name, at }
    this.declared.set(node, binding)
    scope.set(name, binding)
  }

  expr(e: Expr, scope: Scope): void {
    if (e.k === "id") {
      const found = scope.get(e.name) ?? null
      this.uses.set(e, found)
      if (found === null) this.plainUses.add(e.name)
      return
    }
    if (e.k === "lambda") {
      // A lambda sees the locals around it (4.x captures them) and its own parameters.
      const inner = new Map(scope)
      this.params(e.fn.params, inner)
      this.block(e.fn.body, inner)
      return
    }
    // Lambdas are scoped above; forEachChild does not go into them.
    forEachChild(e, (x) => this.expr(x, scope))
  }
}

/** The name a renamed local gets: its declaration's place, which no GDScript name can spell. */
const scopedName = (b: Binding): string => `${b.name}@${b.at.line}.${b.at.column}`

/** Rebuilds a function with the locals whose names are also used as the member (or a global) renamed. */
class Renamer {
  readonly #r: Resolver
  readonly #renamed: ReadonlySet<string>

  constructor(r: Resolver, renamed: ReadonlySet<string>) {
    this.#r = r
    this.#renamed = renamed
  }

  #declName(node: object, name: string): string {
    const b = this.#r.declared.get(node)
    return b !== undefined && this.#renamed.has(name) ? scopedName(b) : name
  }

  params(params: ReadonlyArray<Param>): ReadonlyArray<Param> {
    return params.map((p) => ({ ...p, name: this.#declName(p, p.name), init: p.init === null ? null : this.expr(p.init) }))
  }

  block(stmts: ReadonlyArray<Stmt>): ReadonlyArray<Stmt> {
    return stmts.map((s): Stmt => {
      switch (s.k) {
        case "var":
          return { ...s, name: this.#declName(s, s.name), init: s.init === null ? null : this.expr(s.init) }
        case "expr":
          return { ...s, expr: this.expr(s.expr) }
        case "return":
          return { ...s, expr: s.expr === null ? null : this.expr(s.expr) }
        case "if":
          return { ...s, branches: s.branches.map((b) => ({ cond: b.cond === null ? null : this.expr(b.cond), body: this.block(b.body) })) }
        case "while":
          return { ...s, cond: this.expr(s.cond), body: this.block(s.body) }
        case "for":
          return { ...s, name: this.#declName(s, s.name), iter: this.expr(s.iter), body: this.block(s.body) }
        case "match":
          return {
            ...s,
            expr: this.expr(s.expr),
            branches: s.branches.map((b) => ({
              patterns: b.patterns.map((p) => this.expr(p)),
              binds: b.binds.map((x) => ({ ...x, name: this.#declName(x, x.name), value: this.expr(x.value) })),
              guard: b.guard === null ? null : this.expr(b.guard),
              body: this.block(b.body),
            })),
          }
        default:
          return s
      }
    })
  }

  expr(e: Expr): Expr {
    switch (e.k) {
      case "id": {
        if (this.#r.stale.has(e)) return { ...e, name: STALE_SLOT }
        const b = this.#r.uses.get(e)
        return b !== undefined && b !== null && this.#renamed.has(e.name) ? { ...e, name: scopedName(b) } : e
      }
      case "lambda":
        return { ...e, fn: { ...e.fn, params: this.params(e.fn.params), body: this.block(e.fn.body) } }
      case "member":
        return { ...e, obj: this.expr(e.obj) }
      case "call":
        return { ...e, callee: this.expr(e.callee), args: e.args.map((a) => this.expr(a)) }
      case "index":
        return { ...e, obj: this.expr(e.obj), index: this.expr(e.index) }
      case "bin":
        return { ...e, left: this.expr(e.left), right: this.expr(e.right) }
      case "unary":
      case "await":
      case "cast":
      case "is":
        return { ...e, expr: this.expr(e.expr) }
      case "ternary":
        return { ...e, cond: this.expr(e.cond), then: this.expr(e.then), else: this.expr(e.else) }
      case "array":
        return { ...e, items: e.items.map((x) => this.expr(x)) }
      case "dict":
        return { ...e, entries: e.entries.map(([k, v]) => [this.expr(k), this.expr(v)] as const) }
      case "preload":
        return { ...e, path: this.expr(e.path) }
      default:
        return e
    }
  }
}

/**
 * The function with its locals scoped as the engine scopes them: unchanged unless a name is used both as a local and,
 * outside that local's block (or before its `var`), as the member or a global.
 */
export const scopeLocals = (fn: FunctionDecl): FunctionDecl => {
  const r = new Resolver()
  const scope = new Map<string, Binding>()
  r.params(fn.params, scope)
  r.block(fn.body, scope)
  const renamed = new Set([...r.declared.values()].map((b) => b.name).filter((name) => r.plainUses.has(name)))
  if (renamed.size === 0 && r.stale.size === 0) return fn
  const n = new Renamer(r, renamed)
  return { ...fn, params: n.params(fn.params), body: n.block(fn.body) }
}
