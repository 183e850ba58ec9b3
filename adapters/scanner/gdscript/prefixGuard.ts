import type { Expr, Stmt } from "./ast.ts"
import { forEachChild, forEachExpr, isAssignment } from "./exprWalk.ts"

// A web address decided at run time but checked by its start where it is used (red team 18b's link handler:
// `var m := str(meta)` then `if m.begins_with("https://"): OS.shell_open(m)`). Only the plainest form counts:
// the argument is a local String of the function, the call sits in the body of an `if`/`elif` branch whose
// condition is `m.begins_with(const)` (alone or one operand of a chain of `and`), and nothing in that body
// writes the local (an assignment, a `var` or loop variable or match binding of that name). A negation, an
// `or`, an early return or a check of another variable does not count.

/** The prefixes os-shell's web address accepts (callSite.ts WEB_URL: http:// or https://, case as written). */
const WEB_PREFIXES: ReadonlyArray<string> = ["https://", "http://"]

/** Whether `e` is `name.begins_with("<web prefix>")`, giving the prefix. */
const beginsWith = (e: Expr, name: string): string | null => {
  if (e.k !== "call" || e.callee.k !== "member" || e.callee.name !== "begins_with" || e.args.length !== 1) return null
  const recv = e.callee.obj
  const arg = e.args[0]
  if (recv.k !== "id" || recv.name !== name || arg?.k !== "str") return null
  return WEB_PREFIXES.includes(arg.value) ? arg.value : null
}

/** The web prefix a condition checks `name` for: the check itself, or one operand of `and`/`&&` chains. */
const checkedPrefix = (cond: Expr, name: string): string | null => {
  if (cond.k === "bin" && (cond.op === "and" || cond.op === "&&")) return checkedPrefix(cond.left, name) ?? checkedPrefix(cond.right, name)
  return beginsWith(cond, name)
}

/** Whether `target` is `e` or one of its subexpressions. */
const holds = (e: Expr, target: Expr): boolean => {
  if (e === target) return true
  let found = false
  forEachChild(e, (c) => {
    if (!found && holds(c, target)) found = true
  })
  return found
}

/** Whether statements hold the expression `target` anywhere. */
const within = (stmts: ReadonlyArray<Stmt>, target: Expr): boolean => {
  let found = false
  forEachExpr(stmts, (e) => {
    if (e === target) found = true
  })
  return found
}

/** Whether statements write the local `name`: an assignment to it, or a `var`, loop variable or match binding of that name. */
const writes = (stmts: ReadonlyArray<Stmt>, name: string): boolean => {
  let written = false
  forEachExpr(stmts, (e) => {
    if (e.k === "bin" && isAssignment(e.op) && e.left.k === "id" && e.left.name === name) written = true
  })
  const declares = (list: ReadonlyArray<Stmt>): boolean =>
    list.some((s) => {
      if (s.k === "var") return s.name === name
      if (s.k === "for") return s.name === name || declares(s.body)
      if (s.k === "while") return declares(s.body)
      if (s.k === "if") return s.branches.some((b) => declares(b.body))
      if (s.k === "match") return s.branches.some((b) => b.binds.some((x) => x.name === name) || declares(b.body))
      return s.k === "nested"
    })
  return written || declares(stmts)
}

/**
 * The web prefix (`https://`, `http://`) an `if` branch around `arg` checks the local `name` for, with no write
 * to it in that branch's body; null when there is none. `arg` must be the expression `name` itself.
 */
export const guardedPrefix = (body: ReadonlyArray<Stmt>, arg: Expr, name: string): string | null => {
  if (arg.k !== "id" || arg.name !== name) return null
  for (const s of body) {
    if (s.k === "if") {
      for (const b of s.branches) {
        if (b.cond !== null && holds(b.cond, arg)) return null
        if (!within(b.body, arg)) continue
        const prefix = b.cond === null ? null : checkedPrefix(b.cond, name)
        if (prefix !== null && !writes(b.body, name)) return prefix
        return guardedPrefix(b.body, arg, name)
      }
    } else if (s.k === "while" || s.k === "for") {
      if (within(s.body, arg)) return guardedPrefix(s.body, arg, name)
    } else if (s.k === "match") {
      for (const b of s.branches) if (within(b.body, arg)) return guardedPrefix(b.body, arg, name)
    }
  }
  return null
}
