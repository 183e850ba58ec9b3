import type { ClassDecl, Expr } from "./ast.ts"
import { isAssignment } from "./exprWalk.ts"
import { PATH_ARGUMENTS, throughNames } from "./propertyPaths.ts"
import { type Kind, kindOf, type ValueNames } from "./valueNames.ts"

// An untyped member that starts as an Array or Dictionary literal (`var items_db = {}`, `var map = []`) and that every
// write in the pack gives another such value is never an object: `items_db.get(k)` and `map[x]` read entries, not a
// script's constants by name (constantReads.ts). A round-128 hunt's roguelike and card game had such members read by
// variables, which stopped every constant table being followed. Any way to give the member something else out of
// sight (a name of it in any string: `set("map", o)`, a property path; a value data sets; a second declaration of the
// name; a setter, an export) leaves it out. Writes by names built at run time and dict2inst are the caller's to rule out.

/** What the finder reads of a class's bodies: each with its parameters and the names known in it. */
export interface MemberBody {
  /** Every expression of the body, its lambdas' included. */
  readonly all: ReadonlyArray<Expr>
  readonly names: () => ValueNames
}

/**
 * Whether a value written is no object, as written: a literal, or what an operator gives (Godot's operators make no
 * object: `hp + amount`, `"a" % b`, `not x`). Null: a value out of sight.
 */
export const givesNoObject = (e: Expr | null): boolean => {
  if (e === null) return false
  if (e.k === "bin") return !isAssignment(e.op)
  if (e.k === "unary") return true
  return e.k === "num" || e.k === "str" || e.k === "const" || e.k === "array" || e.k === "dict"
}

/** Whether a kind is never an object itself. */
const notObject = (k: Kind): boolean => k === "data" || k === "value" || k === "number"

/**
 * The untyped members (by name, each declared once in the pack) only ever holding a value that is no object, with
 * the kind of their literal start; `dataNames` tells the names the pack's data sets or has in a property path.
 */
export const containerMembersOf = (classes: ReadonlyArray<ClassDecl>, bodiesOf: (d: ClassDecl) => ReadonlyArray<MemberBody>, dataNames: (name: string) => boolean): ReadonlyMap<string, Kind> => {
  const declared = new Map<string, number>()
  for (const d of classes) for (const v of d.vars) declared.set(v.name, (declared.get(v.name) ?? 0) + 1)
  const out = new Map<string, Kind>()
  for (const d of classes) {
    for (const v of d.vars) {
      if (v.type !== null || v.exported === true || v.accessors.length > 0 || (v.accessorNames ?? []).length > 0 || declared.get(v.name) !== 1) continue
      if (v.init === null || (v.init.k !== "array" && v.init.k !== "dict") || dataNames(v.name)) continue
      out.set(v.name, "value")
    }
  }
  if (out.size === 0) return out
  for (const d of classes) {
    for (const { all, names } of bodiesOf(d)) {
      let known: ValueNames | null = null
      const kind = (e: Expr): Kind => kindOf(e, (known ??= names()))
      for (const e of all) {
        if (e.k === "str") for (const n of [e.value, ...throughNames(e.value)]) out.delete(n)
        // A property path built at run time (a track's, a tween's, set_indexed's), or a track's path set by name, may
        // name any of them, with any value a track's key holds.
        if (e.k === "str" && e.value.startsWith("tracks/")) return new Map()
        if (e.k === "call" && (e.callee.k === "id" || e.callee.k === "member") && (PATH_ARGUMENTS.get(e.callee.name) ?? []).some((i) => e.args[i] !== undefined && e.args[i]?.k !== "str")) return new Map()
        // `hand += more` gives what an operator gives (no object, or the script stops).
        if (e.k !== "bin" || e.op !== "=" || (e.left.k !== "id" && e.left.k !== "member") || !out.has(e.left.name)) continue
        if (!givesNoObject(e.right) && !notObject(kind(e.right))) out.delete(e.left.name)
      }
    }
  }
  return out
}
