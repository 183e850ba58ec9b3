import type { ClassDecl, Expr, FunctionDecl, Stmt, VarDecl } from "./ast.ts"
import { forEachExpr, isAssignment } from "./exprWalk.ts"
import { getterOf } from "./memberGetter.ts"
import type { ClassRef, NamedWrite, PackModel } from "./packModel.ts"
import { isBuiltInValue, isPlainData, mayHoldScript, type Val, VALUE_TYPES } from "./values.ts"

// Members only their own class can set, whose every value is plain data or a node of the scene tree: they never
// hold a script, so a write into them by a name that is not constant (`inventory[item] = n`, `player.set(stat, v)`)
// cannot replace a script's source. A member is *sealed* as
// - plain data: given an Array or Dictionary literal, and otherwise only values that are plain data (literals, what
//   an operator or the JSON parser gives: jsonData.ts), or
// - a node: given only nodes of the scene tree (`$Player`, `get_node(…)`, `get_parent()`, a scene's `instance()`)
//   or null;
// when nothing else can set it and every read gives what it holds: it has no getter (memberGetter.ts: a read would
// give what the getter returns), it is not exported, no scene or resource of the pack sets a property of that name,
// no other object reads or writes it by its name (`other.player`), no code writes it by a literal name
// (`set("player", v)`), no lambda assigns it, and no write by a name that is not a literal can give it what it may not
// hold: a script (or a value out of sight) for a node, anything but plain data for plain data, on self in a class of
// its lineage, or on any other receiver but a sealed plain member (`flags[name] = v` writes into a Dictionary; a node
// may be an object of any class of the pack).
// The members are sealed together, as the largest set that is consistent: each is assumed sealed while the values
// given to them and the writes by name are evaluated (`inventory = data.get("inventory", inventory)`).

export type SealedKind = "plain" | "node"

/** Methods that give a node of the scene tree (evaluate.ts confirms each value: an own method of that name gives what it returns). */
const NODE_CALLS: ReadonlySet<string> = new Set(["get_node", "get_node_or_null", "get_parent", "get_child", "find_node", "find_child", "find_parent", "get_owner", "get_root", "get_current_scene", "instance", "instantiate"])

/** The container types a member declared with a literal may be typed as. */
const CONTAINERS: ReadonlySet<string> = new Set(["Array", "Dictionary"])

const literal = (e: Expr | null): boolean => e?.k === "array" || e?.k === "dict"
const isNullLiteral = (e: Expr | null): boolean => e?.k === "const" && e.value === null

/**
 * `$Path`, `get_node(…)` and the like, or null. `$Path` calls get_node on self, and a script's method of an engine
 * method's name is called in its place (Object::call asks the script first): with a class of the pack defining such
 * a method (`anyDefines`) the call may give anything.
 */
const nodeish = (e: Expr | null, anyDefines: (name: string) => boolean): boolean => {
  if (e === null || isNullLiteral(e)) return true
  const name = e.k === "node" ? "get_node" : e.k === "call" && (e.callee.k === "id" || e.callee.k === "member") && NODE_CALLS.has(e.callee.name) ? e.callee.name : null
  return name !== null && !anyDefines(name)
}

/** The kind a member may be sealed as, by how its class writes it (`assigned`: its assignments there), before any value is evaluated. */
export const sealedCandidate = (
  v: Pick<VarDecl, "init" | "type" | "exported" | "getter" | "accessors">,
  assigned: ReadonlyArray<{ readonly expr: Expr; readonly compound: boolean }>,
  anyDefines: (name: string) => boolean,
): SealedKind | null => {
  // A member with a getter gives its reads what the getter returns, whatever it holds (memberGetter.ts).
  if (v.exported === true || getterOf(v) !== null) return null
  // An Array or Dictionary literal, also as the start of a member typed so (`var items := {}`: a forty-ninth hunt's item table).
  if (literal(v.init) && (v.type === null || (v.type.names.length === 1 && CONTAINERS.has(v.type.names[0] ?? "")))) return "plain"
  if (v.type !== null) return null
  const given = [v.init, ...assigned.map((a) => a.expr)]
  const nodes = assigned.every((a) => !a.compound && nodeish(a.expr, anyDefines)) && nodeish(v.init, anyDefines)
  return nodes && given.some((e) => e !== null && !isNullLiteral(e)) ? "node" : null
}

/** Plain data or a built-in value (a Vector2, a Color, a pool array): no object, nor a container that may hold one. */
const holdsNoObject = (v: Val): boolean => isPlainData(v) || isBuiltInValue(v) || (v.t === "inst" && VALUE_TYPES.has(v.cls))

/** Whether a value fits a kind: plain data, or a node (or null). */
const fits = (kind: SealedKind, v: Val, isNode: (v: Val) => boolean): boolean => (kind === "plain" ? isPlainData(v) : isNode(v) || (v.t === "lit" && v.value === null))

/** An evaluator that takes the members of `assumed` to be sealed as their kind. */
export interface SealedProbe {
  readonly given: (owner: ClassRef, decl: VarDecl) => ReadonlyArray<Val>
  readonly written: (w: NamedWrite) => Val
  readonly isLocal: (name: string, w: NamedWrite) => boolean
}

export interface SealedContext {
  readonly model: PackModel
  readonly assigned: (cls: ClassRef) => ReadonlyMap<string, ReadonlyArray<{ readonly expr: Expr; readonly compound: boolean }>>
  readonly probe: (assumed: ReadonlyMap<string, SealedKind>) => SealedProbe
  readonly isNode: (v: Val) => boolean
}

const refKey = (ref: ClassRef): string => `${ref.script}#${ref.inner.join(".")}`
export const memberKey = (owner: ClassRef, name: string): string => `${refKey(owner)}#${name}`

/** Names assigned (`x = v`, `self.x = v`) inside a lambda of the class's functions and member initialisers. */
const lambdaAssigned = (decl: ClassDecl): ReadonlySet<string> => {
  const names = new Set<string>()
  const walk = (body: ReadonlyArray<Stmt>, inLambda: boolean): void =>
    forEachExpr(body, (e) => {
      if (inLambda && e.k === "bin" && isAssignment(e.op) && (e.left.k === "id" || (e.left.k === "member" && e.left.obj.k === "self"))) names.add(e.left.name)
      if (e.k === "lambda") walk(e.fn.body, true)
    })
  const fns: ReadonlyArray<FunctionDecl> = [...decl.functions, ...decl.vars.flatMap((v) => v.accessors)]
  for (const f of fns) walk(f.body, false)
  for (const v of decl.vars) if (v.init !== null) walk([{ k: "expr", expr: v.init, at: v.init.at }], false)
  return names
}

/** The sealed members of the pack (see above), by memberKey. */
export const sealedMembers = (ctx: SealedContext): ReadonlyMap<string, SealedKind> => {
  const { model } = ctx
  // dict2inst sets any member of any class of the pack by name, a Script included (a forty-fifth red team's).
  if (model.writesMembersRaw()) return new Map()
  const { names, writes } = model.writesByName()
  const data = model.dataProperties
  const candidates = new Map<string, { readonly cls: ClassRef; readonly decl: VarDecl; readonly kind: SealedKind }>()
  // A member another class exports: a scene that gives its node this class's script carries that export over (its
  // default included: SceneState::instance, a forty-seventh red team's).
  const exported = new Set(model.classes().flatMap((cls) => (model.decl(cls)?.vars ?? []).filter((v) => v.exported === true).map((v) => v.name)))
  // A class adding properties of any name (`_get_property_list`) carries them over the same way.
  if (model.classes().some((cls) => model.defines(cls, "_get_property_list"))) return new Map()
  for (const cls of model.classes()) {
    const decl = model.decl(cls)
    if (decl === null) continue
    const assigned = ctx.assigned(cls)
    const inLambdas = lambdaAssigned(decl)
    for (const v of decl.vars) {
      if (names.has(v.name) || model.readElsewhere(v.name) || data.values.has(v.name) || data.written.has(v.name) || inLambdas.has(v.name) || exported.has(v.name)) continue
      const kind = sealedCandidate(v, assigned.get(v.name) ?? [], (name) => model.anyClassDefines(name))
      if (kind !== null) candidates.set(memberKey(cls, v.name), { cls, decl: v, kind })
    }
  }
  const kinds = (): ReadonlyMap<string, SealedKind> => new Map([...candidates].map(([k, c]) => [k, c.kind]))
  for (let changed = true; changed && candidates.size > 0; ) {
    changed = false
    const probe = ctx.probe(kinds())
    for (const [key, c] of candidates) {
      if (probe.given(c.cls, c.decl).every((v) => fits(c.kind, v, ctx.isNode))) continue
      candidates.delete(key)
      changed = true
    }
    for (const w of writes) {
      const value = w.value === null ? null : probe.written(w)
      if (value !== null && holdsNoObject(value)) continue
      // A write into a sealed Dictionary or Array member (`flags[name] = v`) sets one of its entries.
      const r = w.recv
      const member = r?.k === "id" && !probe.isLocal(r.name, w) ? model.variable(w.cls, r.name) : null
      if (member !== null && candidates.get(memberKey(member.owner, r?.k === "id" ? r.name : ""))?.kind === "plain") continue
      const lineage = w.recv === null ? new Set([w.cls, ...model.ancestry(w.cls), ...model.descendants(w.cls)].map(refKey)) : null
      for (const [key, c] of candidates) {
        if (lineage !== null && !lineage.has(refKey(c.cls))) continue
        // A member sealed as a node takes any value but a script (a string or another node is no script); one sealed
        // as plain data only plain data: an object written by a name not a literal (`set(k, self)`, then `tbl.m = v`
        // writes self's `m`: a hundred-and-twenty-ninth red team's) makes it no container.
        if (c.kind === "node" && value !== null && !mayHoldScript(value)) continue
        candidates.delete(key)
        changed = true
      }
    }
  }
  return kinds()
}
