import type { ClassDecl, Expr, FunctionDecl, Stmt } from "./ast.ts"
import { mayBeName } from "./callSite.ts"
import { ARGUMENTS_FOLLOW, ARGUMENTS_IN_ARRAY, type DispatchEntry, type DispatchIndex, UNIVERSAL_CLASSES } from "./engineDispatch.ts"
import type { Evaluator, Fn } from "./evaluate.ts"
import { forEachExpr, isAssignment } from "./exprWalk.ts"
import { type ClassRef, type PackModel, sameClass } from "./packModel.ts"
import { mayBeTrackPath, mayReachThrough, PATH_ARGUMENTS, PATH_ARITY, propertySegments, throughNames, VALUE_SETTERS } from "./propertyPaths.ts"
import { derived, EXTERNAL, isExternal, strs, UNKNOWN, type Val, VALUE_TYPES } from "./values.ts"
import { getterOf } from "./memberGetter.ts"
import { writerArities } from "./writerArity.ts"
import { isObjectOfUnknownScript, membersOfAnyClass } from "./anyClassMember.ts"

// Who else writes a member of the pack's classes, pack-wide: another class's `obj.name = v`, a subclass's
// `name = v`, `obj.set("name", v)` and every engine API that writes a property or calls a method by name
// (engine-dispatch.json), and the scenes and resources that set it (PackModelOptions.dataProperties). A
// member whose own values are constant strings is *closed* when every such writer is in sight and says
// which value it writes: it then holds only those values, and a property or method name it holds is judged
// as each of them. Any writer out of sight (a name or value that is not constant reaching an object that may
// be of the class, a sub-value written, a call whose arguments come later, dict2inst) leaves it open.
// Values are evaluated by an Evaluator that never closes a member (so nothing here depends on itself), except
// that a name given as the member itself (`tw.interpolate_property(t, property, …)` in the component) names
// only the member's own values: it is open only when one of them is the member's own name.
// A property path reaches a member of any object past its first segment (propertyPaths.ts: `"c:property"`
// on the holder of `c`), so a member is also open when any string of the pack (code or data) has its name
// there, or when a value the engine takes as a property path (set_indexed's, a track's, a tween's) is not
// constant or is a member that may have it there.

/** Where an expression is written: the class and its evaluation context. */
interface Where {
  readonly cls: ClassRef
  readonly fn: Fn
  /** Written in a class function itself, not a lambda or an accessor: the class's own assignments there are its Evaluator facts. */
  readonly plain: boolean
}

/** `x.name = v`, `name = v`, `self.name = v`; `value` null for a compound assignment or a write into the member's value (`name[0] = v`). */
/** What `name += v` (any compound assignment) gives the member, among valuesOf's values: its value and v combined. */
export const COMPOUND_WRITE: Val = { t: "unknown" }

interface Assign {
  readonly recv: Expr | null
  readonly value: Expr | null
  /** A compound assignment to the member itself (`name += v`): what it gives is the member's value and v combined. */
  readonly compound: boolean
  /** A plain `name = v` or `self.name = v` (what the class's own facts hold when `plain`). */
  readonly direct: boolean
  /** A write into what the member holds (`name.text = v`, `name[k] = v`): an object keeps being the same one. */
  readonly into: boolean
  readonly at: Where
}

type Site =
  | { readonly k: "call"; readonly call: Extract<Expr, { k: "call" }>; readonly recv: Expr | null; readonly entries: ReadonlyArray<DispatchEntry>; readonly at: Where }
  | { readonly k: "index"; readonly obj: Expr; readonly key: Expr; readonly value: Expr | null; readonly at: Where }
  /** A writing method taken as a value (`node.set`, a Callable in Godot 4): its arguments come later. */
  | { readonly k: "ref"; readonly recv: Expr; readonly at: Where }
  /** `f.function = name` (FuncRef): a method by name on an object set elsewhere. */
  | { readonly k: "funcref"; readonly value: Expr; readonly at: Where }

/** How deep a method called by name through another (`call("call", "set_indexed", …)`) is followed; deeper is out of sight. */
const MAX_DISPATCH_DEPTH = 4

/** Object's readers among the property APIs: they write nothing. */
const READS: ReadonlySet<string> = new Set(["get", "get_indexed", "class_get_property", "rset_config"])
/** Setters whose value follows the name in the call (Object's), written to the property the name gives. */
const DIRECT_SETTERS: ReadonlySet<string> = new Set(["set", "set_deferred", "set_indexed"])
/** Functions that build an object of a class of the pack from data, its members included. */
const BUILDS_OBJECTS: ReadonlySet<string> = new Set(["dict2inst", "dict_to_inst"])

const refKey = (ref: ClassRef): string => `${ref.script}#${ref.inner.join(".")}`
const memberKey = (owner: ClassRef, name: string): string => `${refKey(owner)}#${name}`

/**
 * A name given as a member: the write reaches the member in hand only if that member may hold its name
 * (`named`), its name past a path's first segment (`through`) or a writing method's (`called`).
 */
interface Cond {
  readonly owner: ClassRef
  readonly name: string
  readonly kind: "named" | "called" | "through"
}

/** The values the pack hands the engine as property paths (to be judged for each member), the members given as paths or as writing methods, and whether one is out of sight. */
interface PathSinks {
  /** `into`: the object of `obj["tracks/0/path"] = e` (a path only if it is an Animation). */
  readonly exprs: Array<{ readonly e: Expr; readonly fn: Fn; readonly into?: Expr }>
  readonly conds: Array<Cond>
  out: boolean
  /** The objects of compound writes `obj[k] += v` that may be an Animation's track path (a path out of sight, if it is one). */
  readonly outInto: Array<{ readonly into: Expr; readonly fn: Fn }>
}

/** A member's writers: the values they give it (`strings` when all are constant strings; `extra` those beyond its class's own), and conditions on other members. */
interface Local {
  readonly name: string
  readonly strings: ReadonlyArray<string> | null
  readonly extra: ReadonlyArray<Val>
  readonly conds: ReadonlyArray<Cond>
}

/** A write by name whose value is in sight: the object written, the name (or property path) and the value. */
interface NamedValueWrite {
  readonly target: Val
  readonly key: Val
  readonly value: Val
}

/** What the scenes and resources of the pack set, by property name: the script of the object (null: not known) and the value if it is a string. */
export interface DataProperties {
  readonly values: ReadonlyMap<string, ReadonlyArray<{ readonly script: string | null; readonly value: string | null }>>
  /** Properties written in other ways (an animation track's path, a connection to a setter): values out of sight. */
  readonly written: ReadonlySet<string>
}

export class MemberWrites {
  readonly #model: PackModel
  readonly #ev: Evaluator
  readonly #dispatch: DispatchIndex
  readonly #data: DataProperties
  readonly #assigns = new Map<string, Array<Assign>>()
  readonly #sites: Array<Site> = []
  readonly #writers: ReadonlySet<string>
  /** The writers and the other methods that take a property path (track_set_path). */
  readonly #pathWriters: ReadonlySet<string>
  /** The fewest arguments each writer writes with. */
  readonly #arity: ReadonlyMap<string, number>
  readonly #locals = new Map<string, Local | null>()
  /** Names some string of the pack has past a path's first segment. */
  readonly #through = new Set<string>()
  #sinks: PathSinks | null = null
  #openAll = false

  /** `ev` never closes a member itself. */
  constructor(model: PackModel, ev: Evaluator, dispatch: DispatchIndex, data: DataProperties) {
    this.#model = model
    this.#ev = ev
    this.#dispatch = dispatch
    this.#data = data
    const writers = new Set<string>()
    for (const [name, entries] of dispatch.byName) if (entries.some((d) => (d.kind === "method" || d.kind === "property" || d.kind === "target") && !READS.has(name))) writers.add(name)
    this.#writers = writers
    this.#pathWriters = new Set([...writers, ...PATH_ARGUMENTS.keys()])
    this.#arity = writerArities(dispatch, writers, (word) => model.mentions(word))
    // A scene connection or method track calling a writer (`set`, `call`) writes by names and values out of sight.
    if ([...model.dataMethods].some((m) => writers.has(m))) this.#openAll = true
    for (const cls of model.classes()) this.#collect(cls)
    for (const list of data.values.values()) for (const d of list) for (const n of throughNames(d.value ?? "")) this.#through.add(n)
  }

  /**
   * What the pack writes to member `name` of `owner` beyond its own class's plain assignments, or null
   * when a writer is out of sight. Names given as members (`tw.interpolate_property(t, property, …)`,
   * `connect(…, self, on_done)`) stand for those members' values: the members that depend on each other
   * so are closed together, as the largest set whose values no such name can reach (a member is dropped
   * when a name that may write it is a member that is open or may hold its name). With `built` (memberKeys of
   * members taken to hold a container their class built, this one among them), only which object it holds counts:
   * a write into what it holds (`name[k] = v`, `name.text = v`) is no write of it, and a write into a member of
   * `built` reaches no object's members.
   */
  valuesOf(owner: ClassRef, name: string, built?: ReadonlySet<string>): ReadonlyArray<Val> | null {
    const first = built === undefined ? this.#local(owner, name) : this.#openAll || this.#data.written.has(name) || this.#through.has(name) ? null : this.#localUncached(owner, name, built)
    if (first === null) return null
    const alive = new Map<string, Local>()
    const open = new Set<string>()
    const reach = (key: string, local: Local): void => {
      alive.set(key, local)
      for (const c of local.conds) {
        const k = memberKey(c.owner, c.name)
        if (alive.has(k) || open.has(k)) continue
        const next = this.#local(c.owner, c.name)
        if (next === null) open.add(k)
        else reach(k, next)
      }
    }
    reach(memberKey(owner, name), first)
    for (let changed = true; changed; ) {
      changed = false
      for (const [key, local] of alive) {
        const broken = local.conds.some((c) => {
          const other = alive.get(memberKey(c.owner, c.name))
          if (other === undefined || other.strings === null) return true
          if (c.kind === "through") return other.strings.some((s) => throughNames(s).includes(local.name))
          return c.kind === "named" ? other.strings.some((s) => pathMayStartWith(s, local.name)) : other.strings.some((s) => this.#writers.has(s))
        })
        if (!broken) continue
        alive.delete(key)
        changed = true
      }
    }
    return alive.has(memberKey(owner, name)) ? first.extra : null
  }

  /**
   * Whether some property path the pack hands the engine (set_indexed, a track's path, a tween's property, or one
   * out of sight) may go past its first segment: `set_indexed("ref:gem:desc", v)` writes into the container `ref`
   * holds (a forty-second red team's way into the pack's data), as `ref["gem"]["desc"] = v` does.
   */
  pathsWriteInto(): boolean {
    const sinks = this.#pathSinks()
    return sinks.out || sinks.outInto.length > 0 || sinks.conds.length > 0 || sinks.exprs.some(({ e, fn }) => mayGoPastFirst(this.#ev.eval(e, fn)))
  }

  /** Whether some constant property path the pack hands the engine goes past its first segment (`set_indexed("held:t", v)`). */
  constantPathsWriteInto(): boolean {
    return this.#pathSinks().exprs.some(({ e, fn }) => {
      const v = this.#ev.eval(e, fn)
      return v.t === "str" && v.values.some((p) => propertySegments(p).length > 1)
    })
  }

  /**
   * The data read at run time that the pack's writes by name may give member `name` of `owner`, whether or not
   * every writer is in sight: `set(k, v)`, `set_deferred`, `set_indexed` and a dispatch to them (`callv("set", [k,
   * v])`), on an object that may be of its lineage, with a `k` that may name it; null when none gives such data.
   * A member left open still holds that value, so a path it gives is judged as coming from that data.
   */
  runTimeValue(owner: ClassRef, name: string): Val | null {
    const lineage = new Set([owner, ...this.#model.descendants(owner), ...this.#model.ancestry(owner)].map(refKey))
    const values = this.#namedWrites().flatMap((w) => (isExternal(w.value) && mayBePath(w.key, name) && this.#mayBeOf(w.target, lineage) ? [w.value] : []))
    return values.length === 0 ? null : derived(...values)
  }

  #byName: ReadonlyArray<NamedValueWrite> | null = null

  /** Every write by name whose value is in sight, once (see runTimeValue). */
  #namedWrites(): ReadonlyArray<NamedValueWrite> {
    if (this.#byName !== null) return this.#byName
    const out: Array<NamedValueWrite> = []
    this.#byName = out
    for (const site of this.#sites) {
      if (site.k !== "call" || (site.call.callee.k !== "member" && site.call.callee.k !== "id")) continue
      this.#namedWritesOf(site.call.callee.name, site.call.args, this.#receiver(site), site.at.fn, out, 0)
    }
    return out
  }

  #namedWritesOf(method: string, args: ReadonlyArray<Expr>, recv: Val, fn: Fn, out: Array<NamedValueWrite>, depth: number): void {
    const [key, value] = args
    if (DIRECT_SETTERS.has(method) && key !== undefined && value !== undefined) out.push({ target: recv, key: this.#ev.eval(key, fn), value: this.#ev.eval(value, fn) })
    if (depth >= MAX_DISPATCH_DEPTH) return
    for (const entry of this.#dispatch.byName.get(method) ?? []) {
      const nameExpr = entry.kind === "method" && entry.name !== undefined ? args[entry.name] : undefined
      if (entry.name === undefined || nameExpr === undefined) continue
      const rest = ARGUMENTS_FOLLOW.has(method) ? args.slice(entry.name + 1) : ARGUMENTS_IN_ARRAY.has(method) ? arrayItems(args[entry.name + 1]) : null
      const called = this.#ev.eval(nameExpr, fn)
      if (rest === null || called.t !== "str") continue
      const target = this.#target(entry, args, recv, method, fn)
      for (const c of called.values) this.#namedWritesOf(c, rest, target, fn, out, depth + 1)
    }
  }

  /** A member's writers, once: null when one is out of sight. */
  #local(owner: ClassRef, name: string): Local | null {
    const key = memberKey(owner, name)
    const cached = this.#locals.get(key)
    if (cached !== undefined) return cached
    this.#locals.set(key, null)
    const local = this.#openAll || this.#data.written.has(name) || this.#through.has(name) ? null : this.#localUncached(owner, name)
    this.#locals.set(key, local)
    return local
  }

  #localUncached(owner: ClassRef, name: string, built?: ReadonlySet<string>): Local | null {
    const identity = built !== undefined
    const decl = this.#model.variable(owner, name)?.decl
    if (decl === undefined) return null
    const below = new Set([owner, ...this.#model.descendants(owner)].map(refKey))
    const lineage = new Set([...below, ...[...this.#model.ancestry(owner)].map(refKey)])
    const own: Array<Val> = decl.init === null ? [] : [this.#ev.eval(decl.init, this.#ev.classFn(owner))]
    const extra: Array<Val> = []
    const sinks = this.#pathSinks()
    // Asking only which object the member holds, a track path written into the member itself counts only if it already
    // holds an Animation, which no writer of it gives it then (the largest consistent reading, as sealedMembers.ts).
    const itself = (into: Expr | undefined, fn: Fn): boolean => {
      const key = built === undefined ? null : this.#memberOf(into, fn)
      return key !== null && built?.has(key) === true
    }
    // A track path set on the member itself (`player.set("tracks/0/path", p)`) is one only if the member holds an
    // Animation, which only another write can give it first: judged once its values are known (below).
    const onMember = (into: Expr | undefined, fn: Fn): boolean => into !== undefined && this.#memberOf(into, fn) === memberKey(owner, name)
    const outInto = sinks.outInto.filter(({ into, fn }) => !itself(into, fn))
    const exprs = sinks.exprs.filter(({ e, fn, into }) => !itself(into, fn) && mayReachThrough(this.#ev.eval(e, fn), name))
    if (sinks.out || outInto.some(({ into, fn }) => !onMember(into, fn)) || exprs.some(({ into, fn }) => !onMember(into, fn))) return null
    const throughItself = outInto.length > 0 || exprs.length > 0
    const conds: Array<Cond> = [...sinks.conds]
    // A value a scene sets on a node of another script counts too: when a scene gives an instanced node another script,
    // the engine sets the old script's properties again on the new one (SceneState::instance, a forty-fourth red team's),
    // the old script's exported members with their defaults among them (a forty-seventh's `export var nm = "execute"`).
    // What is carried is what the old object holds then, not only its default: its own assignments, and what a getter or
    // `_get` with `_get_property_list` (adding any name) answer, which are data from out of sight (a forty-eighth red
    // team's; judged as data read at run time).
    for (const cls of this.#model.classes()) {
      if (lineage.has(refKey(cls))) continue
      if (this.#model.defines(cls, "_get_property_list") && this.#model.defines(cls, "_get")) {
        extra.push(EXTERNAL)
        continue
      }
      const old = (this.#model.decl(cls)?.vars ?? []).find((v) => v.exported === true && v.name === name)
      if (old === undefined) continue
      if (old.init !== null) extra.push(this.#ev.eval(old.init, this.#ev.classFn(cls)))
      if (getterOf(old) !== null) extra.push(EXTERNAL)
      for (const a of this.#assigns.get(name) ?? []) {
        if (a.recv !== null || !sameClass(this.#model.variable(a.at.cls, name)?.owner ?? a.at.cls, cls)) continue
        extra.push(a.value === null ? EXTERNAL : this.#ev.eval(a.value, a.at.fn))
      }
    }
    for (const d of this.#data.values.get(name) ?? []) {
      if (d.value === null) return null
      extra.push(strs([d.value]))
    }
    let into = false
    for (const a of this.#assigns.get(name) ?? []) {
      if (a.recv === null) {
        const member = this.#model.variable(a.at.cls, name)
        if (member === null || !sameClass(member.owner, owner)) continue
      } else if (!this.#mayBeOf(this.#ev.eval(a.recv, a.at.fn), lineage)) continue
      if (a.value === null) {
        // `name += v`: the member's value and v combined (COMPOUND_WRITE); a write into its value is out of sight,
        // unless every value it is given is an object (below).
        into ||= a.into && !a.compound && !identity
        if (a.into && !a.compound) continue
        if (!a.compound) return null
        extra.push(COMPOUND_WRITE)
        continue
      }
      const v = this.#ev.eval(a.value, a.at.fn)
      if (a.recv === null && a.direct && a.at.plain && sameClass(a.at.cls, owner)) own.push(v)
      else extra.push(v)
    }
    // A call on the member itself (`player.set(stat, v)`: a hundred-and-twenty-eighth hunt's roguelike) writes a member
    // of the lineage only if the member holds an object of it, which only another write can give it first: judged only
    // where one of its values may be such an object.
    const onItself: Array<Site> = []
    const part = (site: Site): "open" | null => {
      const found = this.#site(site, owner, name, lineage)
      if (found === "open") return "open"
      if (found !== null && "conds" in found) conds.push(...found.conds)
      else if (found !== null) extra.push(found.value)
      return null
    }
    for (const site of this.#sites) {
      // A write into the member itself (`name[k] = v`) reaches self's members only if it holds an object of the
      // lineage, which no writer of it gives it then (the same reading).
      if (site.k === "index" && itself(site.obj, site.at.fn)) continue
      if (site.k === "call" && site.recv !== null && this.#memberOf(site.recv, site.at.fn) === memberKey(owner, name)) onItself.push(site)
      else if (part(site) === "open") return null
    }
    if ([...own, ...extra].some((v) => this.#mayBeOf(v, lineage))) for (const site of onItself) if (part(site) === "open") return null
    if (throughItself && [...own, ...extra].some((v) => this.#mayBeAnimation(v))) return null
    const all = [...own, ...extra]
    if (into && !all.every(isObject)) return null
    const strings = all.every((v) => v.t === "str") ? all.flatMap((v) => (v.t === "str" ? v.values : [])) : null
    return { name, strings, extra, conds }
  }

  /** The memberKey of the member `e` names in `fn` (`name` not a local, or `self.name`), or null. */
  #memberOf(e: Expr | undefined, fn: Fn): string | null {
    const named = e?.k === "id" ? (this.#ev.local(e.name, fn) === null ? e.name : null) : e?.k === "member" && e.obj.k === "self" ? e.name : null
    const member = named === null ? null : this.#model.variable(fn.cls, named)
    return member === null || named === null ? null : memberKey(member.owner, named)
  }

  /** One site's part: nothing (null), a value written, conditions on the members naming the property or method, or open. */
  #site(site: Site, owner: ClassRef, name: string, lineage: ReadonlySet<string>): { readonly value: Val } | { readonly conds: ReadonlyArray<Cond> } | null | "open" {
    const { fn } = site.at
    switch (site.k) {
      case "ref":
        return this.#mayBeOf(this.#ev.eval(site.recv, fn), lineage) ? "open" : null
      case "funcref":
        return this.#mayBeWriter(this.#ev.eval(site.value, fn)) ? "open" : null
      case "index": {
        if (!this.#mayBeOf(this.#ev.eval(site.obj, fn), lineage)) return null
        const key = this.#ev.eval(site.key, fn)
        if (!mayBeName(key, name)) return null
        return key.t === "str" && site.value !== null ? { value: this.#ev.eval(site.value, fn) } : "open"
      }
      case "call":
        break
    }
    const { call, entries } = site
    let found: { readonly value: Val } | { readonly conds: ReadonlyArray<Cond> } | null = null
    const one = (part: { readonly value: Val } | { readonly conds: ReadonlyArray<Cond> }): "open" | null => {
      if (found !== null) return "open"
      found = part
      return null
    }
    for (const entry of entries) {
      if (entry.kind === "class" || entry.kind === "singleton" || entry.kind === "member") continue
      const method = call.callee.k === "member" || call.callee.k === "id" ? call.callee.name : ""
      const target = this.#target(entry, call.args, this.#receiver(site), method, fn)
      if (!this.#mayBeOf(target, lineage)) continue
      if (entry.kind === "target" || entry.name === undefined) return "open"
      const nameExpr = call.args[entry.name]
      if (nameExpr === undefined) continue
      if (entry.kind === "property") {
        if (READS.has(method)) continue
        const members = this.#memberRefs(nameExpr, fn)
        if (members !== null) {
          if (one({ conds: members.map((m) => ({ ...m, kind: "named" as const })) }) === "open") return "open"
          continue
        }
        const key = this.#ev.eval(nameExpr, fn)
        if (!mayBePath(key, name)) continue
        const valueExpr = call.args[entry.name + 1]
        // Only `set("name", v)` and its like write v itself; a path through the member (`name:x`, `:name`) writes into it.
        if (!DIRECT_SETTERS.has(method) || key.t !== "str" || key.values.some((k) => k !== name && pathMayStartWith(k, name)) || valueExpr === undefined) return "open"
        if (one({ value: this.#ev.eval(valueExpr, fn) }) === "open") return "open"
        continue
      }
      // A method by name: only a writer can write the member, and only with a name among the arguments that follow.
      const members = this.#memberRefs(nameExpr, fn)
      if (members !== null) {
        if (one({ conds: members.map((m) => ({ ...m, kind: "called" as const })) }) === "open") return "open"
        continue
      }
      const rest = ARGUMENTS_FOLLOW.has(method) ? call.args.slice(entry.name + 1) : ARGUMENTS_IN_ARRAY.has(method) ? arrayItems(call.args[entry.name + 1]) : null
      // Given the arguments that follow, only a writer that can write with that many (`effects.call(card.effect,
      // card.value)`, a hundred-and-twentieth hunt's card battler: no writer of the pack writes with one).
      if (!this.#mayBeWriter(this.#ev.eval(nameExpr, fn), rest === null ? this.#writers : this.#writersWith(rest.length))) continue
      if (rest === null || rest.some((a) => this.#memberRefs(a, fn) !== null || mayBePath(this.#ev.eval(a, fn), name))) return "open"
    }
    return found
  }

  /**
   * The object a dispatch acts on: its target argument; the receiver for Object's and Node's own methods
   * (self when there is none); any object for the others (a group's nodes, a FuncRef's instance, the
   * children propagate_call reaches).
   */
  #target(entry: DispatchEntry, args: ReadonlyArray<Expr>, recv: Val, method: string, fn: Fn): Val {
    if (entry.target !== undefined) {
      const arg = args[entry.target]
      return arg === undefined ? UNKNOWN : this.#ev.eval(arg, fn)
    }
    if (!UNIVERSAL_CLASSES.has(entry.class) || method === "propagate_call") return UNKNOWN
    return recv
  }

  /** The object a call is made on: self when there is no receiver. */
  #receiver(site: Extract<Site, { k: "call" }>): Val {
    return site.recv === null ? { t: "own", ref: site.at.cls } : this.#ev.eval(site.recv, site.at.fn)
  }

  /** Every value the pack hands the engine as a property path that is written, once (see propertyPaths.ts). */
  #pathSinks(): PathSinks {
    if (this.#sinks !== null) return this.#sinks
    const sinks: PathSinks = { exprs: [], conds: [], out: false, outInto: [] }
    this.#sinks = sinks
    for (const site of this.#sites) {
      const { fn } = site.at
      if (site.k === "ref") sinks.out = true
      else if (site.k === "funcref") sinks.out ||= this.#mayBeWriter(this.#ev.eval(site.value, fn), this.#pathWriters)
      else if (site.k === "index") {
        if (!this.#mayBeAnimation(this.#ev.eval(site.obj, fn)) || !mayBeTrackPath(this.#ev.eval(site.key, fn))) continue
        if (site.value === null) sinks.outInto.push({ into: site.obj, fn })
        else sinks.exprs.push({ e: site.value, fn, into: site.obj })
      } else {
        const method = site.call.callee.k === "member" || site.call.callee.k === "id" ? site.call.callee.name : ""
        this.#callSinks(method, site.call.args, this.#receiver(site), fn, sinks, 0, site.recv ?? undefined)
      }
      if (sinks.out) break
    }
    return sinks
  }

  /**
   * The property paths of a call of `method` with `args` (null: given later, out of sight) on `recv`: its
   * NodePath argument, the value of an Animation's `tracks/N/path`, and those of a method it calls by name.
   */
  #callSinks(method: string, args: ReadonlyArray<Expr> | null, recv: Val, fn: Fn, sinks: PathSinks, depth: number, recvExpr?: Expr): void {
    if (args === null || depth > MAX_DISPATCH_DEPTH) {
      if (this.#pathWriters.has(method)) sinks.out = true
      return
    }
    const path = (e: Expr, into?: Expr): void => {
      const members = this.#memberRefs(e, fn)
      if (members !== null) sinks.conds.push(...members.map((m) => ({ ...m, kind: "through" as const })))
      else sinks.exprs.push({ e, fn, ...(into === undefined ? {} : { into }) })
    }
    for (const i of PATH_ARGUMENTS.get(method) ?? []) {
      const arg = args[i]
      if (arg !== undefined) path(arg)
    }
    const value = args[1]
    // On the receiver as written (`anim.set("tracks/0/path", p)`): a path only if it is an Animation.
    if (VALUE_SETTERS.has(method) && args[0] !== undefined && value !== undefined && this.#mayBeAnimation(recv) && mayBeTrackPath(this.#ev.eval(args[0], fn))) path(value, depth === 0 ? recvExpr : undefined)
    for (const entry of this.#dispatch.byName.get(method) ?? []) {
      const nameExpr = entry.kind === "method" && entry.name !== undefined ? args[entry.name] : undefined
      if (entry.name === undefined || nameExpr === undefined) continue
      const rest = ARGUMENTS_FOLLOW.has(method) ? args.slice(entry.name + 1) : ARGUMENTS_IN_ARRAY.has(method) ? arrayItems(args[entry.name + 1]) : null
      const members = this.#memberRefs(nameExpr, fn)
      if (members !== null) {
        sinks.conds.push(...members.map((m) => ({ ...m, kind: "called" as const })))
        continue
      }
      const target = this.#target(entry, args, recv, method, fn)
      const name = this.#ev.eval(nameExpr, fn)
      if (name.t === "str") for (const called of name.values) this.#callSinks(called, rest, target, fn, sinks, depth + 1)
      else if (this.#mayBeWriter(name, rest === null ? this.#pathWriters : this.#pathWritersWith(rest.length))) {
        if (rest === null) sinks.out = true
        else for (const a of rest) path(a)
      }
    }
  }

  /** Whether an object may be an Animation (its `tracks/N/path` is a property path): one of unknown class, or a pack class extending Animation. */
  #mayBeAnimation(v: Val): boolean {
    switch (v.t) {
      case "inst":
        return v.cls === "Animation"
      case "unknown":
        return v.plain !== true
      case "own": {
        let last = v.ref
        for (const cls of this.#model.ancestry(v.ref)) last = cls
        const ext = this.#model.decl(last)?.extendsClause
        return ext?._tag === "Class" && ext.names[0] === "Animation"
      }
      default:
        return false
    }
  }

  /** The writers that can write a member when called with `count` arguments (writerArity.ts). */
  #writersWith(count: number): ReadonlySet<string> {
    let found = this.#byCount.get(count)
    if (found === undefined) this.#byCount.set(count, (found = new Set([...this.#arity].flatMap(([name, fewest]) => (fewest <= count ? [name] : [])))))
    return found
  }

  readonly #byCount = new Map<number, ReadonlySet<string>>()
  readonly #pathsByCount = new Map<number, ReadonlySet<string>>()

  /** The writers and path methods that can write when called with `count` arguments. */
  #pathWritersWith(count: number): ReadonlySet<string> {
    const known = this.#pathsByCount.get(count)
    if (known !== undefined) return known
    const paths = [...PATH_ARITY].flatMap(([name, fewest]) => (fewest <= count && (name !== "add_property" || this.#ev.grammar === 4) ? [name] : []))
    const found = new Set([...this.#writersWith(count), ...paths])
    this.#pathsByCount.set(count, found)
    return found
  }

  /** Whether a value may be the name of an engine method that writes a property or calls a method by name. */
  #mayBeWriter(v: Val, writers: ReadonlySet<string> = this.#writers): boolean {
    if (v.t === "str") return v.values.some((s) => writers.has(s))
    if (v.t !== "unknown" || writers.size === 0) return false
    const prefix = v.prefix
    return prefix === undefined || [...writers].some((w) => w.startsWith(prefix))
  }

  /** Whether an object may be an instance of a class of `lineage` (the class, its pack ancestors or subclasses). */
  #mayBeOf(v: Val, lineage: ReadonlySet<string>): boolean {
    switch (v.t) {
      case "own":
      case "script":
        // A script of the class: Godot 4's static members are written on it. An object of another class may be given
        // one of the lineage by set_script (a forty-fourth red team's `o.set_script(A)` then `o.m = script`).
        return lineage.has(refKey(v.ref)) || this.#model.attachesAtRunTime()
      case "inst":
        // A Dictionary, an Array or another built-in value (a typed variable holds only its type) is no object of a class.
        return v.cls !== "Dictionary" && v.cls !== "Array" && !VALUE_TYPES.has(v.cls)
      case "unknown":
        return v.plain !== true
      default:
        return false
    }
  }

  /**
   * The members of classes of the pack an expression reads (`name`, `self.name`, `obj.name` of a pack object,
   * `NodePath(name)`; in a Godot 3 pack `node.name` on a node of unknown script, every member of that name: see
   * anyClassMember.ts), or null.
   */
  #memberRefs(e: Expr, fn: Fn): ReadonlyArray<{ readonly owner: ClassRef; readonly name: string }> | null {
    if (e.k === "call" && e.callee.k === "id" && (e.callee.name === "NodePath" || e.callee.name === "StringName" || e.callee.name === "str") && e.args.length === 1 && e.args[0] !== undefined) return this.#memberRefs(e.args[0], fn)
    let cls: ClassRef | null = null
    if (e.k === "id" && this.#ev.local(e.name, fn) === null) cls = fn.cls
    else if (e.k === "member") {
      const obj = e.obj.k === "self" ? ({ t: "own", ref: fn.cls } as const) : this.#ev.eval(e.obj, fn)
      // So is a property of a scripted Resource of the pack loaded by its path (`DEF.build_method` of `preload("res://h.tres")`,
      // read as evaluate.ts reads it: a hundred-and-thirteenth hunt's city builder, `funcref(self, DEF.build_method)`).
      const packResource = obj.t === "unknown" && obj.packResource !== undefined && this.#model.resourceTypes.get(obj.packResource) === "Resource" && !this.#model.redirectedPaths.has(obj.packResource)
      if (isObjectOfUnknownScript(obj) || packResource) return membersOfAnyClass(this.#model, this.#ev.grammar, e.name)?.map((m) => ({ owner: m.owner, name: e.name })) ?? null
      cls = obj.t === "own" ? obj.ref : null
    }
    if (cls === null || (e.k !== "id" && e.k !== "member")) return null
    const member = this.#model.variable(cls, e.name)
    // A read that runs the member's getter names what the getter returns (memberGetter.ts): evaluated as such.
    if (member === null || this.#ev.readsGetter(member.decl, e.k === "id" ? fn : null) !== null) return null
    return [{ owner: member.owner, name: e.name }]
  }

  // ---- collecting ----

  #collect(cls: ClassRef): void {
    const decl: ClassDecl | null = this.#model.decl(cls)
    if (decl === null) return
    const own = this.#ev.classFn(cls)
    const classWhere: Where = { cls, fn: own, plain: false }
    for (const v of decl.vars) if (v.init !== null) this.#exprs([{ k: "expr", expr: v.init, at: v.init.at }], classWhere)
    for (const e of [...decl.consts.map((c) => c.init), ...decl.extra]) this.#exprs([{ k: "expr", expr: e, at: e.at }], classWhere)
    for (const f of decl.functions) this.#body(f, cls, null, true)
    for (const v of decl.vars) for (const a of v.accessors) this.#body(a, cls, null, false)
  }

  #body(f: FunctionDecl, cls: ClassRef, parent: Fn | null, method: boolean): void {
    const fn = this.#ev.fnOf(cls, f, parent, method && parent === null)
    for (const p of f.params) if (p.init !== null) this.#exprs([{ k: "expr", expr: p.init, at: p.init.at }], { cls, fn, plain: false })
    this.#exprs(f.body, { cls, fn, plain: method && parent === null })
  }

  #exprs(body: ReadonlyArray<Stmt>, at: Where): void {
    if (hasNested(body)) this.#openAll = true
    const callees = new WeakSet<Expr>()
    forEachExpr(body, (e) => {
      if (e.k === "str") for (const n of throughNames(e.value)) this.#through.add(n)
      if (e.k === "lambda") return this.#body(e.fn, at.cls, at.fn, false)
      if (e.k === "bin" && isAssignment(e.op)) return this.#assignment(e.left, e.op === "=" ? e.right : null, at, e.op !== "=")
      if (e.k === "member" && !callees.has(e) && this.#pathWriters.has(e.name)) return void this.#sites.push({ k: "ref", recv: e.obj, at })
      if (e.k !== "call") return
      callees.add(e.callee)
      if (e.callee.k !== "id" && e.callee.k !== "member") return
      if (e.callee.k === "id" && BUILDS_OBJECTS.has(e.callee.name)) this.#openAll = true
      const entries = this.#dispatch.byName.get(e.callee.name) ?? (PATH_ARGUMENTS.has(e.callee.name) ? [] : undefined)
      if (entries !== undefined) this.#sites.push({ k: "call", call: e, recv: e.callee.k === "member" && e.callee.obj.k !== "self" ? e.callee.obj : null, entries, at })
    })
  }

  /** An assignment's target: the member it writes directly, and every member its value is read from and written back to (`a.b.c = v` writes `b` on `a` too). */
  #assignment(left: Expr, value: Expr | null, at: Where, compound: boolean): void {
    if (left.k === "member" && (this.#dispatch.byName.get(left.name) ?? []).some((d) => d.kind === "member") && value !== null) this.#sites.push({ k: "funcref", value, at })
    this.#written(left, value, at, true, compound)
  }

  #written(left: Expr, value: Expr | null, at: Where, top: boolean, compound = false): void {
    if (left.k === "id") {
      if (this.#ev.local(left.name, at.fn) === null) push(this.#assigns, left.name, { recv: null, value, compound: top && compound, direct: top && value !== null, into: !top, at })
      return
    }
    if (left.k === "member") {
      const self = left.obj.k === "self"
      push(this.#assigns, left.name, { recv: self ? null : left.obj, value, compound: top && compound, direct: self && top && value !== null, into: !top, at })
      if (!self) this.#written(left.obj, null, at, false)
      return
    }
    if (left.k === "index") {
      this.#sites.push({ k: "index", obj: left.obj, key: left.index, value: top ? value : null, at })
      this.#written(left.obj, null, at, false)
    }
  }
}

/** Whether a property path may have a segment after its first (`a:b`): a write through it then writes into what `a` holds. */
const mayGoPastFirst = (v: Val): boolean => (v.t === "str" ? v.values.some((s) => propertySegments(s).length > 1) : v.t === "unknown" || (v.t === "inst" && (v.cls === "NodePath" || v.cls === "String" || v.cls === "StringName")))

/** An engine object (`Label.new()`): a write into it (`label.text = v`) leaves the member holding the same object; a Vector2's is copied back. */
const isObject = (v: Val): boolean => v.t === "own" || (v.t === "inst" && !VALUE_TYPES.has(v.cls) && !TEXT_OR_CONTAINERS.has(v.cls))
const TEXT_OR_CONTAINERS: ReadonlySet<string> = new Set(["String", "StringName", "NodePath", "Dictionary", "Array", "PoolStringArray", "PackedStringArray"])

/**
 * Whether a property name or path writes `name` first: its first segment that is not empty (the engine's
 * get_as_property_path: `name`, `name:x`, `:name`; a node part `a/b` is one property name).
 */
const pathMayStartWith = (path: string, name: string): boolean => path.split(":").find((p) => p !== "") === name

/** Whether a value may be `name` or a property path starting with it. */
const mayBePath = (v: Val, name: string): boolean => {
  if (v.t === "str") return v.values.some((s) => pathMayStartWith(s, name))
  if (v.t !== "unknown") return false
  if (v.prefix === undefined) return true
  // Known by its start: it may write `name` unless that start already leads elsewhere.
  const first = v.prefix.split(":").find((p) => p !== "")
  return first === undefined || (v.prefix.replace(/^:+/, "").includes(":") ? first === name : name.startsWith(first))
}

const arrayItems = (e: Expr | undefined): ReadonlyArray<Expr> | null => (e?.k === "array" ? e.items : null)

const hasNested = (body: ReadonlyArray<Stmt>): boolean =>
  body.some((s) => s.k === "nested" || (s.k === "if" || s.k === "match" ? s.branches.some((b) => hasNested(b.body)) : s.k === "while" || s.k === "for" ? hasNested(s.body) : false))

const push = <V>(map: Map<string, Array<V>>, key: string, value: V): void => {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}
