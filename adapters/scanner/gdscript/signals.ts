import type { Expr } from "./ast.ts"
import type { CallerSite } from "./callers.ts"
import type { Grammar } from "./tokenizer.ts"

// Where a signal handler's parameters come from, as far as the pack writes it: the connections made
// to a method by a constant name and the emissions of their signals by a constant name. A handler
// receives the emission's arguments, then the connection's bound ones (3.x `connect(s, t, "m", binds)`,
// Object::emit_signal appends the binds; 4.x `Callable.bind` appends likewise). The signal and method
// names are matched pack-wide, whatever object emits or is connected; what else reaches the handler
// (the engine's own signals, dispatch, connections by a name built at run time) is out of sight and
// left to the caller, which adds a value that is not known.

/** Folds an expression of a call site to the strings it may be (empty when it is not constant). */
export type FoldNames = (e: Expr, site: CallerSite) => ReadonlyArray<string>

/** One argument a handler receives from the pack: its expression and the call it is written in. */
export interface HandlerArg {
  readonly expr: Expr
  readonly site: CallerSite
}

interface Connection {
  readonly signals: ReadonlyArray<string>
  readonly binds: ReadonlyArray<Expr>
  readonly site: CallerSite
}

/** The name a member or identifier spells (`got` in `got.emit(x)`, `self.got.connect(f)`). */
const nameOf = (e: Expr | null | undefined): string | null => (e?.k === "id" ? e.name : e?.k === "member" ? e.name : null)

/** A 4.x Callable naming `method`: `Callable(t, "m")`, `m`, `t.m`, each optionally `.bind(…)`; its bound arguments, or null. */
const callableBinds = (e: Expr | undefined, method: string, site: CallerSite, fold: FoldNames): ReadonlyArray<Expr> | null => {
  if (e === undefined) return null
  if (e.k === "call" && e.callee.k === "member" && e.callee.name === "bind") {
    const inner = callableBinds(e.callee.obj, method, site, fold)
    return inner === null ? null : [...inner, ...e.args]
  }
  if (e.k === "call" && e.callee.k === "id" && e.callee.name === "Callable") return e.args[1] !== undefined && fold(e.args[1], site).includes(method) ? [] : null
  return nameOf(e) === method ? [] : null
}

const connectionsTo = (calls: ReadonlyMap<string, ReadonlyArray<CallerSite>>, method: string, grammar: Grammar, fold: FoldNames): ReadonlyArray<Connection> =>
  (calls.get("connect") ?? []).flatMap((site): ReadonlyArray<Connection> => {
    const [first, second, third, fourth] = site.args
    if (grammar === 3) {
      if (first === undefined || third === undefined || !fold(third, site).includes(method)) return []
      // Binds given other than as an array literal are out of sight.
      return [{ signals: fold(first, site), binds: fourth?.k === "array" ? fourth.items : [], site }]
    }
    const named = first !== undefined && fold(first, site).length > 0
    const binds = callableBinds(named ? second : first, method, site, fold)
    const signals = named && first !== undefined ? fold(first, site) : [nameOf(site.recv)].filter((n) => n !== null)
    return binds === null ? [] : [{ signals, binds, site }]
  })

const emissionsOf = (calls: ReadonlyMap<string, ReadonlyArray<CallerSite>>, signal: string, grammar: Grammar, fold: FoldNames): ReadonlyArray<{ readonly args: ReadonlyArray<Expr>; readonly site: CallerSite }> => [
  ...(calls.get("emit_signal") ?? []).flatMap((site) => (site.args[0] !== undefined && fold(site.args[0], site).includes(signal) ? [{ args: site.args.slice(1), site }] : [])),
  ...(grammar === 4 ? (calls.get("emit") ?? []).flatMap((site) => (nameOf(site.recv) === signal ? [{ args: site.args, site }] : [])) : []),
]

/** What parameter `index` of a handler named `method` receives from the pack's emissions of the signals connected to it. */
export const handlerArgs = (calls: ReadonlyMap<string, ReadonlyArray<CallerSite>>, method: string, index: number, grammar: Grammar, fold: FoldNames): ReadonlyArray<HandlerArg> =>
  connectionsTo(calls, method, grammar, fold).flatMap((c) =>
    c.signals.flatMap((signal) =>
      emissionsOf(calls, signal, grammar, fold).flatMap((emit): ReadonlyArray<HandlerArg> => {
        const own = emit.args[index]
        if (own !== undefined) return [{ expr: own, site: emit.site }]
        const bound = c.binds[index - emit.args.length]
        return bound === undefined ? [] : [{ expr: bound, site: c.site }]
      }),
    ),
  )
