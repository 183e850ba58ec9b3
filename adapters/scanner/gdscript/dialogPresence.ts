import type { ClassDecl, Expr, FunctionDecl } from "./ast.ts"
import { classesBringing, type DrivenControl, drivenControls } from "./engineDialogs.ts"
import { forEachChild, forEachExpr } from "./exprWalk.ts"
import type { Grammar } from "./tokenizer.ts"

// Which driven controls (engineDialogs.ts) a pack may create: a node of a scene of that class (or of a class
// that creates one inside itself, a ColorPicker's SpinBoxes), or a script that names the class anywhere (as an
// identifier, `extends`, a type, or inside a string: ClassDB.instance("FileDialog")); a script that calls
// ClassDB's instance/instantiate at all may create any of them (a name folded from parts is no one string).

const INSTANTIATE: ReadonlySet<string> = new Set(["instance", "instantiate"])
/** Words that attach a script to an object at run time (`n.set_script(s)`, `n.script = s`, `n.set("script", s)`). */
export const ATTACH: ReadonlySet<string> = new Set(["set_script", "script"])

/**
 * Calls `onExpr` on every expression of a class declaration, nested classes and lambdas included, and `onType`
 * on every class name it writes as a base or a type.
 */
export const walkClass = (decl: ClassDecl, onExpr: (e: Expr) => void, onType: (name: string) => void): void => {
  const one = (e: Expr): void => {
    onExpr(e)
    if (e.k === "lambda") fn(e.fn)
    else if (e.k === "is" || e.k === "cast") for (const n of e.type.names) onType(n)
  }
  const expr = (e: Expr): void => {
    one(e)
    forEachChild(e, expr)
  }
  const fn = (f: FunctionDecl): void => {
    for (const p of f.params) {
      for (const n of p.type?.names ?? []) onType(n)
      if (p.init !== null) expr(p.init)
    }
    forEachExpr(f.body, one)
    for (const s of f.body) if (s.k === "nested") walkClass(s.cls, onExpr, onType)
  }
  for (const n of decl.extendsClause?.names ?? []) onType(n)
  for (const c of decl.consts) expr(c.init)
  for (const v of decl.vars) {
    for (const n of v.type?.names ?? []) onType(n)
    if (v.init !== null) expr(v.init)
    v.accessors.forEach(fn)
  }
  decl.extra.forEach(expr)
  decl.functions.forEach(fn)
  for (const inner of decl.classes) walkClass(inner, onExpr, onType)
}

/**
 * Every identifier and string of a class declaration, nested classes and lambdas included, and every
 * `ClassDB.instance` (told apart from the words: a string may hold any text).
 */
const mentions = (decl: ClassDecl, seen: (word: string) => void, instantiates: () => void): void =>
  walkClass(
    decl,
    (e) => {
      if (e.k === "id") seen(e.name)
      else if (e.k === "str") seen(e.value)
      else if (e.k === "member" && INSTANTIATE.has(e.name) && e.obj.k === "id" && e.obj.name === "ClassDB") instantiates()
      else if (e.k === "member" && ATTACH.has(e.name)) seen(e.name)
    },
    seen,
  )

/** The driven controls a pack of these scripts and scene node classes may create, and whether a script attaches scripts at run time. */
export interface ControlsInPack {
  readonly controls: ReadonlyArray<DrivenControl>
  readonly attachesScripts: boolean
}

export const controlsInPack = (roots: Iterable<ClassDecl>, sceneClasses: ReadonlySet<string>, grammar: Grammar): ControlsInPack => {
  const controls = drivenControls(grammar)
  const bringers = new Map(controls.map((c) => [c, classesBringing(grammar, c.cls)]))
  const found = new Set<DrivenControl>(controls.filter((c) => (bringers.get(c) ?? []).some((b) => sceneClasses.has(b))))
  const words = new RegExp(`\\b(${[...new Set([...bringers.values()].flat())].join("|")})\\b`)
  let attachesScripts = false
  for (const root of roots) {
    mentions(
      root,
      (word) => {
        if (ATTACH.has(word)) attachesScripts = true
        else if (words.test(word)) for (const [c, names] of bringers) if (names.some((n) => word.includes(n))) found.add(c)
      },
      () => {
        for (const c of controls) found.add(c)
      },
    )
  }
  return { controls: controls.filter((c) => found.has(c)), attachesScripts }
}

/**
 * Whether a pack of these scripts and scene node classes may create an object of engine class `cls`: a node of a
 * scene of that class, a script naming it anywhere (an identifier, a type, a string), or ClassDB's instance.
 */
export const mayCreateClass = (roots: Iterable<ClassDecl>, sceneClasses: ReadonlySet<string>, cls: string): boolean => {
  if (sceneClasses.has(cls)) return true
  let found = false
  const seen = (word: string): void => {
    if (word.includes(cls)) found = true
  }
  for (const root of roots) if (!found) mentions(root, seen, () => (found = true))
  return found
}
