import { type Expr, valuesAtKey } from "./ast.ts"
import type { CallerIndex, CallerSite } from "./callers.ts"
import { dataExpr, GROUP_CALLS, SETS_A_VALUE } from "./callSite.ts"
import type { DispatchIndex } from "./engineDispatch.ts"
import { arrayArgs } from "./evaluate.ts"
import type { ClassRef, DataCall } from "./packModel.ts"
import type { Val } from "./values.ts"

// Values of an engine call other than the arguments written after a method's name that the engine hands to
// the method it calls (each checked against the engine's source, docs/scanner.md "Reaching calls"):
// - 3.x `Array.sort_custom(obj, "f")` gives `f` two elements of the array, `bsearch_custom(v, obj, "f", before)`
//   an element and `v` in either order (core/array.cpp, _ArrayVariantSortCustom and bisect);
// - a physics body's force integration callback gets the state and then the userdata
//   (`body_set_force_integration_callback(rid, obj, "f", u)`, Body2DSW::call_queries), as does a 3.5 navigation
//   agent's callback (`agent_set_callback`, RvoAgent::dispatch_callback); `VisualServer.request_frame_drawn_callback(obj,
//   "f", u)` gives `u` alone (VisualServerRaster::draw); a 3.5 SceneTreeTween's `tween_callback(obj, "f", binds)` the
//   binds, `tween_method(obj, "f", from, to, d, binds)` a value between `from` and `to` (at the end `to` itself), then
//   the binds (CallbackTweener/MethodTweener::step);
// - 4.x methods that call a Callable (`Callable(o, "f")`, `f`, `o.f`, each maybe `.bind(…)`, whose bound values
//   come after these): `Array.sort_custom(c)`, `bsearch_custom(v, c)`, `map`, `filter`, `any`, `all`,
//   `find_custom`, `rfind_custom` and `reduce(c, accum)` (elements, the value, the accumulator), a physics body's
//   `body_set_force_integration_callback(rid, c, u)`, `Tween.tween_method(c, from, to, d)`;
// - a property write by a constant name that runs a setter of the pack: `set("x", v)`, `set_deferred`,
//   `set_indexed` (a one-segment path), 4.x `set_thread_safe`/`set_deferred_thread_group`, the 3.x `rset` family,
//   `set_group(g, "x", v)` (the group's nodes), `UndoRedo.add_do_property(o, "x", v)`/`add_undo_property`,
//   `tween_property(o, "x", v, d)` (the final value is written as given), and `_set(property, value)` for these;
// - an animation's method track: a key `{"method": "f", "args": [a, …]}` written in code
//   (`track_insert_key(t, time, key)`, `track_set_key_value(t, k, key)`, `set("tracks/N/keys", {"values": [key]})`)
//   or held by a scene's or resource's data, and a scene connection's binds (after the signal's own arguments);
//   they run on the track's or connection's node, whatever its class.

/** Where a parameter's value comes from: an argument of the engine call, or an element of its receiver (an Array). */
type Source = number | "element"

interface PassedOn {
  /** By parameter position: what the engine may hand it. */
  readonly params: ReadonlyArray<ReadonlyArray<Source>>
  /** The items of this Array argument follow, from parameter `from` on (bound values). */
  readonly array?: { readonly arg: number; readonly from: number }
}

const PAIR_OF_ELEMENTS: PassedOn = { params: [["element"], ["element"]] }
const USERDATA_SECOND = (arg: number): PassedOn => ({ params: [[], [arg]] })

/** Entries of the dispatch table (`Class.method`) whose call hands the method other values than those written after its name. */
const BY_NAME: ReadonlyMap<string, PassedOn> = new Map([
  ["Array.sort_custom", PAIR_OF_ELEMENTS],
  ["Array.bsearch_custom", { params: [[0, "element"], [0, "element"]] }],
  ["Physics2DServer.body_set_force_integration_callback", USERDATA_SECOND(3)],
  ["PhysicsServer.body_set_force_integration_callback", USERDATA_SECOND(3)],
  ["Navigation2DServer.agent_set_callback", USERDATA_SECOND(3)],
  ["NavigationServer.agent_set_callback", USERDATA_SECOND(3)],
  ["VisualServer.request_frame_drawn_callback", { params: [[2]] }],
  ["SceneTreeTween.tween_callback", { params: [], array: { arg: 2, from: 0 } }],
  ["SceneTreeTween.tween_method", { params: [[2, 3]], array: { arg: 5, from: 1 } }],
])

/** 4.x engine methods that call a Callable argument (its position), with what they hand it. */
type ByCallable = PassedOn & { readonly callable: number }
const ELEMENT_ONLY: ByCallable = { callable: 0, params: [["element"]] }
const BY_CALLABLE: ReadonlyMap<string, ByCallable> = new Map<string, ByCallable>([
  ["sort_custom", { callable: 0, ...PAIR_OF_ELEMENTS }],
  ["bsearch_custom", { callable: 1, params: [[0, "element"], [0, "element"]] }],
  ...["map", "filter", "any", "all", "find_custom", "rfind_custom"].map((m): [string, ByCallable] => [m, ELEMENT_ONLY]),
  ["reduce", { callable: 0, params: [[1, "element"], ["element"]] }],
  ["body_set_force_integration_callback", { callable: 1, ...USERDATA_SECOND(2) }],
  ["tween_method", { callable: 0, params: [[1, 2]] }],
])

/** Property writes by a constant name whose value follows the name, on a target argument besides those of SETS_A_VALUE (on the receiver or a group). */
const SETS_ON_TARGET: ReadonlySet<string> = new Set(["add_do_property", "add_undo_property", "tween_property"])

const TRACK_KEYS = /^tracks\/\d+\/keys$/

/** Where a value written in data stands (it is a constant: the position is never shown). */
const NOWHERE = { line: 0, column: 0 }

type Where = Omit<CallerSite, "args" | "recv">

/** The names of `names` an expression folds to (none when it is not constant). */
const foldsTo = (evalAt: (e: Expr, at: Where) => Val, e: Expr | undefined, at: Where, names: ReadonlySet<string>): ReadonlyArray<string> => {
  const v = e === undefined ? null : evalAt(e, at)
  return v?.t === "str" ? v.values.filter((n) => names.has(n)) : []
}

/** What engineCallbackArgs needs of the function whose parameter it follows, and of the analysis. */
export interface CallbackQuery {
  readonly index: number
  /** The function's name (null: a 4.x `set(v):` accessor). */
  readonly name: string | null
  /** The members whose setter the function is. */
  readonly members: ReadonlySet<string>
  readonly evalAt: (e: Expr, at: Where) => Val
  /** The pack class an expression is an object or script of (null receiver: the class the call is written in). */
  readonly classOf: (recv: Expr | null | undefined, at: Where) => ClassRef | null
  /** Whether `name` on an object of the class may run the function. */
  readonly runs: (ref: ClassRef | null, name: string) => boolean
  /** Whether the member `name` of an object of the class is the one declared in the function's class. */
  readonly declares: (ref: ClassRef | null, name: string) => boolean
  /** The class the function belongs to. */
  readonly cls: ClassRef
}

/** An element of an Array expression (what the engine hands a comparator). */
const elementExpr = (recv: Expr): Expr => ({ k: "index", obj: recv, index: { k: "num", text: "0", at: recv.at }, at: recv.at })

const passed = (how: PassedOn, param: number, site: CallerSite): ReadonlyArray<Expr> => {
  const own = (how.params[param] ?? []).flatMap((s): ReadonlyArray<Expr> => {
    if (s !== "element") return site.args[s] === undefined ? [] : [site.args[s] as Expr]
    return site.recv === null || site.recv === undefined ? [] : [elementExpr(site.recv)]
  })
  const array = how.array
  if (array === undefined || param < array.from) return own
  const bound = arrayArgs(site.args[array.arg], site.args[array.arg]?.at ?? NOWHERE)[param - array.from]
  return bound === undefined ? own : [...own, bound]
}

/** Whether a 4.x Callable expression names the function on an object of a class that runs it: `Callable(o, "f")`, `f`, `o.f`, `c.bind(…)`. */
const callableRuns = (q: CallbackQuery, name: string, e: Expr | undefined, at: Where, isLocal: (name: string) => boolean): boolean => {
  if (e === undefined) return false
  if (e.k === "call" && e.callee.k === "member" && (e.callee.name === "bind" || e.callee.name === "bindv")) return callableRuns(q, name, e.callee.obj, at, isLocal)
  const v = q.evalAt(e, at)
  if (v.t === "method") return v.name === name && (v.target.t === "own" || v.target.t === "script") && q.runs(v.target.ref, name)
  if (e.k === "id") return e.name === name && !isLocal(e.name) && q.runs(at.cls, name)
  if (e.k === "member") return e.name === name && q.runs(q.classOf(e.obj, at), name)
  return false
}

/** A dictionary literal's values at a string key (ast.ts valuesAtKey). */
const entriesOf = (dict: Expr, key: string): ReadonlyArray<Expr> => (dict.k === "dict" ? valuesAtKey(dict, key) : [])

/** A method track's keys written in a call: `track_insert_key(t, time, key)`, `track_set_key_value(t, k, key)`, `set("tracks/N/keys", {"values": [key, …]})`. */
const trackKeys = (index: CallerIndex, evalAt: CallbackQuery["evalAt"]): ReadonlyArray<{ readonly key: Expr; readonly at: CallerSite }> => {
  const out: Array<{ readonly key: Expr; readonly at: CallerSite }> = []
  for (const m of ["track_insert_key", "track_set_key_value"]) for (const site of index.calls.get(m) ?? []) if (site.args[2]?.k === "dict") out.push({ key: site.args[2], at: site })
  for (const site of index.calls.get("set") ?? []) {
    const [prop, value] = site.args
    const v = prop === undefined ? null : evalAt(prop, site)
    if (v?.t !== "str" || !v.values.some((p) => TRACK_KEYS.test(p)) || value === undefined) continue
    for (const values of entriesOf(value, "values")) for (const key of values.k === "array" ? values.items : []) out.push({ key, at: site })
  }
  return out
}

type Reached = { readonly expr: Expr; readonly at: Where }

/**
 * 3.x `var f = FuncRef.new()` given its object by `f.set_instance(o)` and its method by `f.set_function("f")` (or
 * `f.function = "f"`), then `f.call_func(a)` or `f.call_funcv([a])`: on one variable (a local of one function, or a
 * member of one class), the calls' arguments.
 */
const funcRefCalls = (q: CallbackQuery, name: string, index: CallerIndex, isLocal: (name: string, at: Where) => boolean): ReadonlyArray<Reached> => {
  const fns = new Map<object, number>()
  const keyOf = (recv: Expr | null | undefined, at: Where): string | null => {
    const v = recv?.k === "id" ? recv.name : recv?.k === "member" && recv.obj.k === "self" ? recv.name : null
    if (v === null) return null
    if (recv?.k === "id" && at.fn !== null && isLocal(v, at)) {
      const id = fns.get(at.fn) ?? fns.size
      fns.set(at.fn, id)
      return `${id}:${v}`
    }
    return `${at.cls.script}#${at.cls.inner.join(".")}:${v}`
  }
  const keys = (list: ReadonlyArray<{ readonly recv: Expr | null | undefined; readonly at: Where; readonly ok: boolean }>): ReadonlySet<string> =>
    new Set(list.flatMap((x) => (x.ok ? [keyOf(x.recv, x.at)] : [])).filter((k) => k !== null))
  const own = new Set([name])
  const folds = (e: Expr | undefined, at: Where): boolean => foldsTo(q.evalAt, e, at, own).length > 0
  const named = keys([
    ...(index.calls.get("set_function") ?? []).map((site) => ({ recv: site.recv, at: site, ok: folds(site.args[0], site) })),
    ...index.writes.filter((w) => w.name === "function").map((w) => ({ recv: w.recv, at: w, ok: folds(w.value, w) })),
  ])
  if (named.size === 0) return []
  const bound = keys((index.calls.get("set_instance") ?? []).map((site) => ({ recv: site.recv, at: site, ok: q.runs(q.classOf(site.args[0], site), name) })))
  const out: Array<Reached> = []
  for (const how of ["call_func", "call_funcv"]) {
    for (const site of index.calls.get(how) ?? []) {
      const key = keyOf(site.recv, site)
      if (key === null || !named.has(key) || !bound.has(key)) continue
      const arg = how === "call_funcv" ? arrayArgs(site.args[0], site.args[0]?.at ?? NOWHERE)[q.index] : site.args[q.index]
      if (arg !== undefined) out.push({ expr: arg, at: site })
    }
  }
  return out
}

/**
 * What parameter `q.index` of the function `q.name` (or of a setter of `q.members`) receives from the engine's calls
 * above; `data`: the method tracks and connections of the pack's scenes and resources.
 */
export const engineCallbackArgs = (q: CallbackQuery, index: CallerIndex, dispatch: DispatchIndex, data: ReadonlyArray<DataCall>, isLocal: (name: string, at: Where) => boolean): ReadonlyArray<Reached> => {
  const out: Array<Reached> = []
  const push = (exprs: ReadonlyArray<Expr>, at: Where): void => {
    for (const expr of exprs) out.push({ expr, at })
  }
  const folds = (e: Expr | undefined, at: Where, names: ReadonlySet<string>): ReadonlyArray<string> => foldsTo(q.evalAt, e, at, names)
  const name = q.name
  if (name !== null) {
    const own = new Set([name])
    for (const [method, entries] of dispatch.byName) {
      for (const entry of entries) {
        const how = BY_NAME.get(`${entry.class}.${method}`)
        if (how === undefined || entry.kind !== "method" || entry.name === undefined) continue
        for (const site of index.calls.get(method) ?? []) {
          if (folds(site.args[entry.name], site, own).length === 0) continue
          if (entry.target !== undefined && (site.args[entry.target] === undefined || !q.runs(q.classOf(site.args[entry.target], site), name))) continue
          push(passed(how, q.index, site), site)
        }
      }
    }
    for (const [method, how] of BY_CALLABLE) {
      for (const site of index.calls.get(method) ?? []) if (callableRuns(q, name, site.args[how.callable], site, (n) => isLocal(n, site))) push(passed(how, q.index, site), site)
    }
    out.push(...funcRefCalls(q, name, index, isLocal))
    // Method tracks and connections: `{"method": "f", "args": […]}` built in code, and the data of scenes and resources.
    for (const { key, at } of trackKeys(index, q.evalAt)) {
      if (entriesOf(key, "method").every((method) => folds(method, at, own).length === 0)) continue
      for (const args of entriesOf(key, "args")) {
        const arg = arrayArgs(args, key.at)[q.index]
        if (arg !== undefined) push([arg], at)
      }
    }
    const here: Where = { cls: q.cls, fn: null, method: false }
    for (const call of data) {
      if (call.method !== name) continue
      push((call.afterSignal || call.sparse === true ? call.args.slice(0, q.index + 1) : call.args.slice(q.index, q.index + 1)).map((a) => dataExpr(a, NOWHERE)), here)
    }
  }
  // A setter, or `_set`, run by a property write by name.
  const setter = q.members.size > 0 && q.index === 0
  if (setter || (name === "_set" && q.index <= 1)) {
    for (const method of [...SETS_A_VALUE, ...SETS_ON_TARGET]) {
      for (const entry of dispatch.byName.get(method) ?? []) {
        if (entry.kind !== "property" || entry.name === undefined) continue
        const at = entry.name
        for (const site of index.calls.get(method) ?? []) {
          const value = site.args[at + 1]
          if (value === undefined || (entry.target !== undefined && site.args[entry.target] === undefined)) continue
          const on = GROUP_CALLS.has(method) ? q.cls : q.classOf(entry.target === undefined ? site.recv : site.args[entry.target], site)
          if (setter && folds(site.args[at], site, q.members).some((m) => q.declares(on, m))) push([value], site)
          // `set` and `set_deferred` reach `_set` in reachingCalls.ts already.
          if (name === "_set" && method !== "set" && method !== "set_deferred" && q.runs(on, "_set")) push([q.index === 0 ? (site.args[at] as Expr) : value], site)
        }
      }
    }
  }
  return out
}
