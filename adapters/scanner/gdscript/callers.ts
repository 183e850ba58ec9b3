import virtuals from "./engine-virtuals.json" with { type: "json" }
import type { ClassDecl, Expr, FunctionDecl, Stmt } from "./ast.ts"
import type { DispatchIndex } from "./engineDispatch.ts"
import { engineCallsByName } from "./engineScriptNames.ts"
import { forEachChild, isAssignment } from "./exprWalk.ts"
import type { ClassRef, PackScript } from "./packModel.ts"
import { RPC_CALLED } from "./parser.ts"
import type { Grammar } from "./tokenizer.ts"

/** Animation's calls writing a key, which on a method track names the method the engine calls (engineCallbacks.ts trackKeys). */
const TRACK_KEY_CALLS: ReadonlySet<string> = new Set(["track_insert_key", "track_set_key_value"])

/** Dispatch APIs that hand the method the arguments written after its name, and those that hand it an Array's items. */
const SPREADS_REST: ReadonlySet<string> = new Set(["call", "call_deferred", "call_thread_safe", "call_group", "call_group_flags", "rpc", "rpc_id", "rpc_unreliable", "rpc_unreliable_id", "add_do_method", "add_undo_method", "interpolate_callback", "interpolate_deferred_callback"])
const SPREADS_ARRAY: ReadonlySet<string> = new Set(["callv", "propagate_call"])

/** How many dispatch APIs named by constants in turn are followed before every function is taken to be reachable. */
const MAX_HANDED_ON = 4

// Who can call a function of the pack, pack-wide and by name (a call on an object the analysis cannot
// pin down may reach any function of that name). A function is *closed* when the calls the pack writes
// are the only way to reach it: its parameters then hold only what those calls pass. A name is *open*
// (callers out of sight) when
// - the engine calls it: a callback Godot 3 calls by name (engine-script-names.json), any `_` name in 4.x (virtual
//   methods, `_init` through `new(…)`), it is a virtual
//   of the class reference without `_` (engine-virtuals.json: Control.drop_data, …), a setter or getter,
//   a function of a class open to remote calls (rpc), or of a class that extends a class neither the
//   engine's nor the pack's (the platform's SDK, excluded from the pack);
// - it is named other than as the callee of a call: taken as a value (`fade.bind(…)`, `self.fade`), in
//   a string anywhere in the pack (`call("fade")`, `connect(…, "fade")`), in a scene connection or a
//   method track (`dataMethods`), or by a dispatch API whose name is not constant (checked by the
//   Evaluator, which folds the names: `dispatches`);
// - more than one class declares it (an override's `super(…)` passes its own parameters on);
// - a call of it sits where its arguments are not followed (a lambda, a nested class, a default value).
// Of those, `hard` keeps the reasons that hold whatever else is known: all but a `_` name the engine never calls
// by itself (Godot 3: not in engine-script-names.json's callbacks), the SDK's reach (`sdk`, the functions of
// classes that extend it) and strings; the Evaluator reads a Godot 3 function whose name only the pack's
// `connect(signal, target, "name", binds)` calls spell (their literals are `connectLiterals`) as a handler that
// takes what those connections deliver.

/** Built-in functions that only write their arguments to the output (3.x @GDScript, 4.x @GlobalScope utility functions). */
const LOGGERS: ReadonlySet<string> = new Set(["print", "prints", "printt", "printerr", "printraw", "print_debug", "print_rich", "print_verbose", "push_error", "push_warning"])

/** A call written in the pack: its arguments, and the function they are evaluated in. */
export interface CallerSite {
  readonly args: ReadonlyArray<Expr>
  readonly cls: ClassRef
  /** The function the call is written in; null for a class's own expressions (member initialisers). */
  readonly fn: FunctionDecl | null
  /** A class function (not an accessor). */
  readonly method: boolean
  /** The object the method is called on (null: a bare call). */
  readonly recv?: Expr | null
}

/** A dispatch API's name argument (`x.call(name, …)`, `funcref(o, name)`, `f.function = name`), where it is written. */
export interface NameSite {
  readonly name: Expr
  /** The object the name is resolved on (null: self). */
  readonly recv: Expr | null
  readonly at: Omit<CallerSite, "args">
}

/**
 * Methods that hand back the objects connected to signals (`get_incoming_connections()[0].source`,
 * `OS.get_signal_connection_list(s)[0].source`, 4.x `Signal.get_connections()`): a dangerous singleton
 * connected anywhere comes back through them, so what they give may be any engine object; and 3.x's
 * `get_signal_connection_list` hands out each connection's binds.
 */
export const CONNECTION_LISTS: ReadonlySet<string> = new Set(["get_incoming_connections", "get_signal_connection_list", "get_connections"])

export interface CallerIndex {
  readonly open: ReadonlySet<string>
  /** Open for a reason that holds whatever else is known (see above). */
  readonly hard: ReadonlySet<string>
  /** Functions of classes that extend a class neither the engine's nor the pack's (the SDK's `EngineGame`). */
  readonly sdk: ReadonlySet<string>
  /** String literals written as the method of a Godot 3 `connect(signal, target, "method", …)` call. */
  readonly connectLiterals: ReadonlySet<Expr>
  /** Every name may be reached (a dispatch API that takes its method from data: JSONRPC.set_scope). */
  readonly openAll: boolean
  readonly calls: ReadonlyMap<string, ReadonlyArray<CallerSite>>
  readonly strings: ReadonlyArray<string>
  /** The words (runs of ASCII letters, digits and `_`) of those strings: namedByString. */
  readonly words: ReadonlySet<string>
  readonly names: ReadonlyArray<NameSite>
  /** Writes of a property by its name (`obj.x = v`, `self.x = v`, `x = v`): a setter's or `_set`'s callers. */
  readonly writes: ReadonlyArray<PropertyWrite>
}

/** `obj.x = v` (or `x = v` in a class's own code, recv null), where it is written. */
export interface PropertyWrite extends Omit<CallerSite, "args" | "recv"> {
  readonly name: string
  readonly recv: Expr | null
  readonly value: Expr
}

const VIRTUALS: Readonly<Record<Grammar, ReadonlySet<string>>> = { 3: new Set(virtuals[3]), 4: new Set(virtuals[4]) }

type Where = Omit<CallerSite, "args"> | null

export const callerIndex = (
  scripts: Iterable<PackScript>,
  grammar: Grammar,
  dispatch: DispatchIndex,
  dataMethods: ReadonlySet<string>,
  sdkMayCall: (ref: ClassRef, name: string) => boolean,
): CallerIndex => {
  const open = new Set<string>(dataMethods)
  const hard = new Set<string>(dataMethods)
  const sdk = new Set<string>()
  const connectLiterals = new Set<Expr>()
  const hardOpen = (name: string): void => {
    open.add(name)
    hard.add(name)
  }
  const calls = new Map<string, Array<CallerSite>>()
  const strings: Array<string> = []
  const logged: Array<{ readonly by: string; readonly value: string }> = []
  const names: Array<NameSite> = []
  const writes: Array<PropertyWrite> = []
  const declared = new Map<string, number>()
  let openAll = false

  const nowhere: Omit<CallerSite, "args"> = { cls: { script: "", inner: [] }, fn: null, method: false }
  const call = (name: string, args: ReadonlyArray<Expr>, where: Where, recv: Expr | null): void => {
    if (where === null) hardOpen(name)
    else {
      const list = calls.get(name) ?? []
      list.push({ args, ...where, recv })
      calls.set(name, list)
    }
    dispatchSites(name, args, where, recv, 0)
    const method = args[2]
    if (grammar === 3 && name === "connect" && method?.k === "str") connectLiterals.add(method)
  }

  /**
   * The name sites of a dispatch API `name` called with `args` (null: not known). A dispatch API reached by a constant
   * name through another (`call("call", n, x)`, `callv("connect", ["s", self, n])`, `tw.callv("interpolate_callback",
   * […])`: a seventy-sixth red team's) gets the arguments the outer one hands on: its own name is a site too; with
   * arguments not known, any function may be reached. So may a method track's key handed on that way without a
   * Dictionary written in the call.
   */
  const dispatchSites = (name: string, args: ReadonlyArray<Expr> | null, where: Where, recv: Expr | null, depth: number): void => {
    if (depth > MAX_HANDED_ON) {
      openAll = true
      return
    }
    if (depth > 0 && TRACK_KEY_CALLS.has(name) && args?.[2]?.k !== "dict") openAll = true
    for (const entry of dispatch.byName.get(name) ?? []) {
      if (entry.kind === "target") openAll = true
      if (entry.kind !== "method" || entry.name === undefined) continue
      if (args === null) {
        openAll = true
        continue
      }
      const arg = args[entry.name]
      if (arg === undefined) continue
      names.push({ name: arg, recv: depth > 0 ? null : entry.target === undefined ? recv : (args[entry.target] ?? null), at: where ?? nowhere })
      if (where === null) openAll = true
      if (arg.k === "str" && (dispatch.byName.has(arg.value) || TRACK_KEY_CALLS.has(arg.value))) dispatchSites(arg.value, handedOn(name, args, entry.name), where, null, depth + 1)
    }
  }

  /** The arguments dispatch API `name` hands the method it names at `at`: those after it, an Array written there, or null (not known). */
  const handedOn = (name: string, args: ReadonlyArray<Expr>, at: number): ReadonlyArray<Expr> | null => {
    if (SPREADS_REST.has(name)) return args.slice(at + 1)
    const list = args[at + 1]
    if (SPREADS_ARRAY.has(name)) return list?.k === "array" ? list.items : list === undefined ? [] : null
    return null
  }

  const expr = (e: Expr, where: Where): void => {
    switch (e.k) {
      case "call":
        if (e.callee.k === "id") call(e.callee.name, e.args, where, null)
        else if (e.callee.k === "member") {
          expr(e.callee.obj, where)
          call(e.callee.name, e.args, where, e.callee.obj)
        } else expr(e.callee, where)
        for (const a of e.args) {
          // A literal printed by a built-in logger goes to the output and nowhere else (`print("toast closed: ", t)`).
          if (a.k === "str" && e.callee.k === "id" && LOGGERS.has(e.callee.name)) logged.push({ by: e.callee.name, value: a.value })
          else expr(a, where)
        }
        return
      case "id":
        hardOpen(e.name)
        return
      case "member":
        hardOpen(e.name)
        expr(e.obj, where)
        return
      case "str":
        strings.push(e.value)
        return
      case "dict":
        // An animation's method track keyed in code (`track_insert_key(t, 0, {"method": "u" + s, "args": [x]})`, or
        // written as the track's keys property, or handed on by a dispatch): the engine calls the method by that name
        // on the track's node. Any Dictionary written in code whose key is "method", or is not a string written so
        // (`{k: "u" + s}`: a seventy-sixth red team's), and whose value is not one, names a method by a name not
        // constant (fine where it folds to strings; mine after `/25`, attackProjects126.ts).
        for (const [k, v] of e.entries) {
          if (((k.k === "str" && k.value === "method") || (k.k !== "str" && k.k !== "num")) && v.k !== "str") {
            names.push({ name: v, recv: null, at: where ?? nowhere })
            if (where === null) openAll = true
          }
        }
        break
      case "lambda":
        fnBody(e.fn, null, false)
        return
      case "bin":
        if (e.op === "=" && where !== null && (e.left.k === "id" || e.left.k === "member")) writes.push({ name: e.left.name, recv: e.left.k === "member" && e.left.obj.k !== "self" ? e.left.obj : null, value: e.right, ...where })
        // `f.function = name` (a FuncRef's method set as a property).
        if (isAssignment(e.op) && e.left.k === "member" && (dispatch.byName.get(e.left.name) ?? []).some((d) => d.kind === "member")) {
          names.push({ name: e.right, recv: null, at: where ?? nowhere })
          if (where === null) openAll = true
        }
        break
      default:
        break
    }
    forEachChild(e, (c) => expr(c, where))
  }

  const stmts = (body: ReadonlyArray<Stmt>, where: Where): void => {
    for (const s of body) {
      switch (s.k) {
        case "var":
          if (s.init !== null) expr(s.init, where)
          break
        case "expr":
          expr(s.expr, where)
          break
        case "return":
          if (s.expr !== null) expr(s.expr, where)
          break
        case "if":
          for (const b of s.branches) {
            if (b.cond !== null) expr(b.cond, where)
            stmts(b.body, where)
          }
          break
        case "while":
          expr(s.cond, where)
          stmts(s.body, where)
          break
        case "for":
          expr(s.iter, where)
          stmts(s.body, where)
          break
        case "match":
          expr(s.expr, where)
          for (const b of s.branches) {
            for (const p of b.patterns) expr(p, where)
            if (b.guard !== null) expr(b.guard, where)
            stmts(b.body, where)
          }
          break
        case "nested":
          cls(null, s.cls)
          break
        default:
          break
      }
    }
  }

  const fnBody = (f: FunctionDecl, ref: ClassRef | null, method: boolean): void => {
    for (const p of f.params) if (p.init !== null) expr(p.init, null)
    stmts(f.body, ref === null ? null : { cls: ref, fn: f, method })
  }

  const cls = (ref: ClassRef | null, decl: ClassDecl): void => {
    const own: Where = ref === null ? null : { cls: ref, fn: null, method: false }
    const rpc = decl.calledByEngine?.includes(RPC_CALLED) === true
    for (const f of decl.functions) {
      declared.set(f.name, (declared.get(f.name) ?? 0) + 1)
      if (rpc || ref === null) hardOpen(f.name)
      if (ref !== null && sdkMayCall(ref, f.name)) {
        open.add(f.name)
        sdk.add(f.name)
      }
      fnBody(f, ref, true)
    }
    for (const v of decl.vars) {
      for (const name of v.accessorNames ?? []) hardOpen(name)
      if (v.init !== null) expr(v.init, own)
      for (const a of v.accessors) fnBody(a, ref, false)
    }
    for (const c of decl.consts) expr(c.init, own)
    for (const e of decl.extra) expr(e, own)
    for (const inner of decl.classes) cls(ref === null || inner.name === null ? null : { script: ref.script, inner: [...ref.inner, inner.name] }, inner)
  }

  for (const s of scripts) cls({ script: s.key, inner: [] }, s.ast.root)
  for (const [name, count] of declared) {
    // Godot 3 calls by name only the callbacks engine-script-names.json lists: a helper named `_json` is the pack's own
    // (a thirty-seventh hunt's `items = _json("res://data/items.json")`); 4.x may call any `_` name it declares virtual.
    const engineNamed = grammar === 3 ? engineCallsByName(name) : name.startsWith("_")
    if (count > 1 || engineNamed || name === "" || VIRTUALS[grammar].has(name)) hardOpen(name)
  }
  // Unless the pack declares a function of the logger's name (Godot 4 may call it instead of the built-in one).
  for (const l of logged) if (declared.has(l.by)) strings.push(l.value)
  const words = new Set(strings.flatMap(wordsOf))
  return { open, hard, sdk, connectLiterals, openAll, calls, strings, words, names, writes }
}

/**
 * Whether a string of the pack's scripts may name the function `name`: holds it as a word (`"fade"`, `"fade,glow"`,
 * `"{\"on\": \"fade\"}"`), not only as a piece of a longer one (`"faded"`, `"_on_fade_done"`: a ninetieth hunt's
 * `signal faded` opened `fade`). A piece cut from a longer word reaches a dispatch folded to the name (which then names
 * it) or as a value not constant (which may name anything). A name past ASCII is looked for anywhere in the strings.
 */
export const namedByString = (index: CallerIndex, name: string): boolean => (isWord(name) ? index.words.has(name) : index.strings.some((s) => s.includes(name)))

/** The strings of the pack's scripts that may name the function `name` (namedByString). */
export const stringsNaming = (index: CallerIndex, name: string): ReadonlyArray<string> =>
  !namedByString(index, name) ? [] : index.strings.filter((s) => (isWord(name) ? wordsOf(s).includes(name) : s.includes(name)))

/** The runs of ASCII letters, digits and `_` of a string. */
const wordsOf = (text: string): ReadonlyArray<string> => text.split(/[^A-Za-z0-9_]+/)

const isWord = (name: string): boolean => /^[A-Za-z0-9_]+$/.test(name)
