import type { Expr } from "./ast.ts"
import type { CallerIndex, CallerSite } from "./callers.ts"
import { GROUP_CALLS } from "./callSite.ts"
import { engineCallbackArgs } from "./engineCallbacks.ts"
import { ARGUMENTS_FOLLOW, ARGUMENTS_IN_ARRAY, ARGUMENTS_IN_ARRAY_OF, type DispatchIndex } from "./engineDispatch.ts"
import { arrayArgs } from "./evaluate.ts"
import { type ClassRef, type PackModel, sameClass } from "./packModel.ts"
import type { Val } from "./values.ts"

// The calls that reach a function of the pack other than by its name in its own class (`f(a)`,
// `self.f(a)`): `Cls.new(a)` runs the `_init` the class has; `obj.f(a)` and `Inner.f(a)` on an object or
// script of a class whose `f` it is; `obj.call("f", a)`, `call_deferred`, `callv("f", [a])`;
// `funcref(obj, "f").call_func(a)` (4.x `Callable(obj, "f").call(a)`); a property write that runs a
// setter (`self.x = v`, `obj.x = v`, 3.x `setget f`, 4.x `set = f` or `set(v):`); and one that runs
// `_set(property, value)` (`obj.undeclared = v`, `obj.set("k", v)`); the engine's calls by a constant name
// with the arguments the dispatch table says they pass on (`Thread.start(self, "f", a)`,
// `add_do_method(self, "f", a)`, `interpolate_callback(self, t, "f", a)`, `call_group("g", "f", a)`,
// `propagate_call("f", [a])`); and a 3.x connection's binds (`connect("timeout", self, "f", [a])`), which
// follow the signal's own arguments (Object::emit_signal appends them), so bind k may be any parameter from k
// on. Their arguments are among what the function's parameters hold, so a path read at run time stays read
// at run time inside it.

/** A parameter of a function of the pack: its class, the function's name (null: a lambda or 4.x accessor), its position, and the member a 4.x `set(v):` belongs to. */
export interface ParamOf {
  readonly cls: ClassRef
  readonly fn: string | null
  readonly index: number
  readonly setterOf?: string
}

type Where = Omit<CallerSite, "args" | "recv">

/** An argument reaching the parameter: its expression and where it is written. */
export interface Reaching {
  readonly expr: Expr
  readonly at: Where
}

const DISPATCH_BY_NAME: ReadonlySet<string> = new Set(["call", "call_deferred", "callv"])
const INVOKE_BOUND: ReadonlySet<string> = new Set(["call_func", "call_funcv", "call", "callv", "call_deferred"])
const SETTERS_BY_NAME: ReadonlySet<string> = new Set(["set", "set_deferred"])
/** Engine calls by name that run the method on objects other than a target argument or the receiver (a group's nodes, the nodes below). */
const ON_OTHER_NODES: ReadonlySet<string> = new Set([...GROUP_CALLS, "propagate_call", "broadcast", "call_recursive"])
/** 3.x Thread.start(instance, method, userdata, priority): the method is given the userdata alone. */
const ONE_ARGUMENT: ReadonlySet<string> = new Set(["start"])

export const reachingArgs = (
  param: ParamOf,
  index: CallerIndex,
  model: PackModel,
  evalAt: (e: Expr, at: Where) => Val,
  isLocal: (name: string, at: Where) => boolean,
  dispatch: DispatchIndex,
): ReadonlyArray<Reaching> => {
  const out: Array<Reaching> = []
  /** The pack class the receiver is an object or script of (null receiver: the class the call is written in). */
  const classOf = (recv: Expr | null | undefined, at: Where): ClassRef | null => {
    if (recv === null || recv === undefined) return at.cls
    const v = evalAt(recv, at)
    return v.t === "own" || v.t === "script" ? v.ref : null
  }
  /** Whether `name` on an object of `ref` may run the function of `param.cls` (its own, inherited, or an override below `ref`). */
  const runs = (ref: ClassRef | null, name: string): boolean => {
    if (ref === null) return false
    const m = model.method(ref, name)
    return (m !== null && sameClass(m.owner, param.cls)) || model.overrides(ref, name).some((c) => sameClass(c, param.cls))
  }
  const push = (args: ReadonlyArray<Expr>, at: Where): void => {
    const arg = args[param.index]
    if (arg !== undefined) out.push({ expr: arg, at })
  }
  const name = param.fn
  if (name !== null) {
    for (const site of index.calls.get(name) ?? []) if (site.recv !== null && site.recv !== undefined && runs(classOf(site.recv, site), name)) push(site.args, site)
    if (name === "_init") for (const site of index.calls.get("new") ?? []) if (site.recv !== null && site.recv !== undefined && runs(classOf(site.recv, site), "_init")) push(site.args, site)
    for (const d of DISPATCH_BY_NAME) {
      for (const site of index.calls.get(d) ?? []) {
        const first = site.args[0]
        const named = first === undefined ? null : evalAt(first, site)
        if (named?.t !== "str" || !named.values.includes(name) || !runs(classOf(site.recv, site), name)) continue
        push(d === "callv" ? arrayArgs(site.args[1], site.args[1]?.at ?? first?.at ?? { line: 0, column: 0 }) : site.args.slice(1), site)
      }
    }
    const names = (e: Expr | undefined, site: Where): boolean => {
      const v = e === undefined ? null : evalAt(e, site)
      return v?.t === "str" && v.values.includes(name)
    }
    // The engine's calls by name that pass arguments on (the dispatch table's), Object's own above.
    for (const [method, entries] of dispatch.byName) {
      if (DISPATCH_BY_NAME.has(method) || !(ARGUMENTS_FOLLOW.has(method) || ARGUMENTS_IN_ARRAY.has(method))) continue
      for (const entry of entries) {
        const at = entry.name
        if (entry.kind !== "method" || at === undefined) continue
        for (const site of index.calls.get(method) ?? []) {
          if (!names(site.args[at], site)) continue
          const on = entry.target !== undefined ? classOf(site.args[entry.target], site) : ON_OTHER_NODES.has(method) ? param.cls : classOf(site.recv, site)
          if (entry.target !== undefined && site.args[entry.target] === undefined) continue
          if (!runs(on, name)) continue
          const rest = ARGUMENTS_IN_ARRAY.has(method) || ARGUMENTS_IN_ARRAY_OF.has(`${entry.class}.${method}`) ? arrayArgs(site.args[at + 1], site.args[at]?.at ?? { line: 0, column: 0 }) : site.args.slice(at + 1, ONE_ARGUMENT.has(method) ? at + 2 : undefined)
          push(rest, site)
        }
      }
    }
    // 3.x `connect(signal, target, "f", [binds])`: bind k after the signal's own arguments, which may be none.
    for (const site of index.calls.get("connect") ?? []) {
      const binds = site.args[3]
      if (binds?.k !== "array" || !names(site.args[2], site) || !runs(classOf(site.args[1], site), name)) continue
      for (const bind of binds.items.slice(0, param.index + 1)) out.push({ expr: bind, at: site })
    }
    for (const d of INVOKE_BOUND) {
      for (const site of index.calls.get(d) ?? []) {
        const bound = site.recv === null || site.recv === undefined ? null : evalAt(site.recv, site)
        if (bound?.t !== "method" || bound.name !== name || !(bound.target.t === "own" || bound.target.t === "script") || !runs(bound.target.ref, name)) continue
        push(d === "callv" || d === "call_funcv" ? arrayArgs(site.args[0], site.args[0]?.at ?? { line: 0, column: 0 }) : site.args, site)
      }
    }
  }
  // A setter: the value written to its member, on an object of its class or in that class's own code.
  const members = new Set<string>(param.setterOf === undefined ? [] : [param.setterOf])
  for (const v of model.decl(param.cls)?.vars ?? []) if (name !== null && v.accessorNames?.includes(name) === true) members.add(v.name)
  const declares = (ref: ClassRef | null, member: string): boolean => {
    const found = ref === null ? null : model.variable(ref, member)
    return found !== null && sameClass(found.owner, param.cls)
  }
  if (members.size > 0 && param.index === 0) {
    for (const w of index.writes) {
      if (!members.has(w.name) || (w.recv === null && isLocal(w.name, w))) continue
      if (declares(classOf(w.recv, w), w.name)) out.push({ expr: w.value, at: w })
    }
  }
  // What the engine's calls hand the function besides the arguments after its name (engineCallbacks.ts).
  out.push(...engineCallbackArgs({ index: param.index, name, members, evalAt, classOf, runs, declares, cls: param.cls }, index, dispatch, model.dataCalls, isLocal))
  // `_set(property, value)`: a write of a property its class does not declare, or `set(property, value)`.
  if (name === "_set" && param.index <= 1) {
    for (const w of index.writes) {
      if (w.recv === null) continue
      const ref = classOf(w.recv, w)
      if (ref === null || model.variable(ref, w.name) !== null || !runs(ref, "_set")) continue
      out.push({ expr: param.index === 0 ? { k: "str", value: w.name, flavor: "", at: w.value.at } : w.value, at: w })
    }
    for (const d of SETTERS_BY_NAME) for (const site of index.calls.get(d) ?? []) if (site.recv !== null && site.recv !== undefined && runs(classOf(site.recv, site), "_set")) push(site.args, site)
  }
  return out
}
