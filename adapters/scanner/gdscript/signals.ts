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

/** What a handler's parameter receives through the pack's 3.x connections: the arguments, whether more comes from out of sight, or from the SDK. */
export interface ConnectionDelivery {
  readonly args: ReadonlyArray<HandlerArg>
  /** The values the engine's emissions pass where `engineValues` knows them (a RichTextLabel's link metas). */
  readonly known: ReadonlyArray<string>
  readonly unknown: boolean
  readonly sdk: boolean
}

/**
 * What parameter `index` of a Godot 3 handler named `method` receives through every `connect(signal, target,
 * "method", binds)` the pack writes: Object::emit_signal calls it with the emission's arguments followed by the
 * binds. An emission is the engine's (as many arguments as `engineArgs` says its signal of that name has on such
 * an emitter, values out of sight) or one of the pack's by a constant name (its arguments). A signal neither the
 * engine's nor declared by the pack (`declared`) is someone else's (the SDK's), its arguments out of sight, and
 * so are the rest with a signal or binds that are not constant; one the pack declares may be the SDK's too when the
 * emitter may be an object of a class that extends the SDK's (`sdkEmitter`). An engine emission's value the
 * caller knows (`engineValues`: a RichTextLabel's `meta_clicked` meta, linkMetas.ts) is that value. The caller makes sure no other
 * emission can reach it.
 */
export const connectionArgs = (
  calls: ReadonlyMap<string, ReadonlyArray<CallerSite>>,
  method: string,
  index: number,
  fold: FoldNames,
  engineArgs: (signal: string, site: CallerSite) => ReadonlyArray<number>,
  declared: (signal: string) => boolean,
  sdkEmitter: (site: CallerSite) => boolean,
  engineValues: (signal: string, index: number, site: CallerSite) => ReadonlyArray<string> | null = () => null,
): ConnectionDelivery => {
  const args: Array<HandlerArg> = []
  const known: Array<string> = []
  let unknown = false
  let sdk = false
  const bound = (binds: ReadonlyArray<Expr> | null, at: number, site: CallerSite): void => {
    if (binds === null) unknown = true
    else {
      const bind = binds[at]
      if (bind !== undefined) args.push({ expr: bind, site })
    }
  }
  for (const site of calls.get("connect") ?? []) {
    const [first, , third, fourth] = site.args
    if (third === undefined || !fold(third, site).includes(method)) continue
    const signals = first === undefined ? [] : fold(first, site)
    const binds = fourth === undefined ? [] : fourth.k === "array" ? fourth.items : null
    if (signals.length === 0) unknown = true
    for (const signal of signals) {
      const engine = engineArgs(signal, site)
      if (engine.length === 0 && !declared(signal)) unknown = true
      else if (engine.length === 0 && sdkEmitter(site)) sdk = true
      for (const count of engine) {
        const given = index < count ? engineValues(signal, index, site) : null
        if (given !== null) known.push(...given)
        else if (index < count) unknown = true
        else bound(binds, index - count, site)
      }
      for (const emit of emissionsOf(calls, signal, 3, fold)) {
        const own = emit.args[index]
        if (own !== undefined) args.push({ expr: own, site: emit.site })
        else bound(binds, index - emit.args.length, site)
      }
    }
  }
  return { args, known, unknown, sdk }
}
