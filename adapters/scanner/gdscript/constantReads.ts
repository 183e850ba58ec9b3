import type { ClassDecl, Expr, Stmt } from "./ast.ts"
import { parentsOf, writtenInto } from "./exprWalk.ts"

// A constant Array or Dictionary of the pack can be changed in Godot 3 (`const UPGRADES = {…}` then
// `UPGRADES["script"] = v`, or `helper(UPGRADES)` doing so: godot3-server 3.2.3 runs both), so its strings are
// followed exactly only where every use of its name in the pack reads it: a loop over it, a subscript that is not
// written into, or a method that only reads (`keys()`, `values()`, `has(k)`, `size()`, `get(k)`, …); names are
// matched pack-wide (`x.UPGRADES` counts), so a use anywhere else keeps it from being followed.

/** Methods of an Array or a Dictionary that read it and hand out no part of it that could be written into it again. */
const READS: ReadonlySet<string> = new Set(["keys", "values", "has", "has_all", "size", "empty", "is_empty", "get", "find", "rfind", "count", "hash", "duplicate"])

/** Whether the use `e` of a name only reads what the name holds (`parent` maps each expression to the one it stands in; `loops` are the containers `for` walks). */
const readsOnly = (e: Expr, parent: ReadonlyMap<Expr, Expr>, loops: ReadonlySet<Expr>): boolean => {
  if (loops.has(e)) return true
  const p = parent.get(e)
  if (p === undefined) return false
  if (p.k === "index" && p.obj === e) return !writtenInto(p, parent)
  if (p.k === "bin" && p.right === e) return p.op === "in"
  if (p.k !== "member" || p.obj !== e) return false
  const call = parent.get(p)
  if (call?.k === "call" && call.callee === p) return READS.has(p.name)
  // `TABLE.key`: Godot 3 reads a Dictionary's key so, as `TABLE["key"]` (a fifty-seventh hunt's colour table); not a
  // method taken as a value (4.x `TABLE.append`, a Callable that changes it).
  return !CONTAINER_CHANGES.has(p.name) && !writtenInto(p, parent)
}

/** Array and Dictionary methods that change the container (taken as a Callable, they change it later). */
const CONTAINER_CHANGES: ReadonlySet<string> = new Set(["append", "append_array", "push_back", "push_front", "insert", "erase", "clear", "remove", "remove_at", "pop_back", "pop_front", "pop_at", "sort", "sort_custom", "shuffle", "invert", "reverse", "resize", "fill", "merge", "assign"])

/** The containers every `for` of a body walks (lambdas' bodies included by the caller). */
const loopsOf = (body: ReadonlyArray<Stmt>, into: Set<Expr>): void => {
  for (const s of body) {
    if (s.k === "for") into.add(s.iter)
    if (s.k === "for" || s.k === "while") loopsOf(s.body, into)
    if (s.k === "if" || s.k === "match") for (const b of s.branches) loopsOf(b.body, into)
  }
}

// Godot 3 also hands a script's constants out by name: `get("NAME")` (GDScriptInstance::get looks the script's
// constants up), `self["NAME"]`, `get_script().get_script_constant_map()["NAME"]`: the same Array or Dictionary,
// which the game may then change (a fifteenth red team ran `get("ACTIONS")["execute"] = …` in godot3-server). So a
// string of the code spelling a name counts as a use that does not only read it; so does every name when the code
// calls `get_script_constant_map()`, or reads by a name that is not one constant string (`get(k)`, `get_indexed(k)`,
// `self[k]`; `d.get(k, default)` is a Dictionary's) and does more with what it reads than read it. A read by name
// whose value only goes into arithmetic, a comparison, a subscript read or a method that only reads, or is handed to
// a method no class of the pack defines and that does not keep it, hand it on or give it back (KEEPS, GIVES_BACK:
// `tween.interpolate_property(node, p, node.get(p), …)`), cannot change a constant.

/** Stands in the set for every name. */
export const EVERY_NAME = "*"

/**
 * What hands out a script's constants or an object's members by reference, whatever their names: 3.x
 * `get_script_constant_map()`, 4.x `get_script_constant_map()` too, `inst2dict(o)` / 4.x `inst_to_dict(o)` (a
 * Dictionary of every member, the same Arrays and Dictionaries: a twentieth red team appended to a member Array
 * through it).
 */
const HANDS_OUT_ALL: ReadonlySet<string> = new Set(["get_script_constant_map", "inst2dict", "inst_to_dict"])

/** Methods that read a property (or, in Godot 3, a constant) by a name. */
const BY_NAME: ReadonlySet<string> = new Set(["get", "get_indexed"])

/** Operators whose result is a new value: an operand read by one is not changed. */
const VALUE_OPERATORS: ReadonlySet<string> = new Set(["+", "-", "*", "/", "%", "==", "!=", "<", ">", "<=", ">=", "and", "or", "&&", "||", "in", "not in"])

/** Whether `e` reads by a name that is not one constant string (`get(k)`, `o.get_indexed(k)`, `self[k]`). */
/** Calls by name and where their method's name is (`call("get", k)`: 0; `funcref(self, "get")`: 1). */
const DISPATCH_NAME_AT: Readonly<Record<string, number>> = { call: 0, callv: 0, call_deferred: 0, funcref: 1, Callable: 1 }

/**
 * Calls whose value may be an object carrying a script of the pack, or the script itself: Object::get of either hands
 * out the script's constants by name (3.x GDScriptInstance::get, GDScript::_get), as `self[k]` does.
 */
const OBJECT_GETTERS: ReadonlySet<string> = new Set(["get_script", "get_node", "get_node_or_null", "get_parent", "get_child", "find_node", "find_parent", "get_owner", "new", "instance", "instantiate", "load", "duplicate", "get_singleton", "instance_from_id", "get_root", "get_current_scene", "get_ref", "get_meta", "front", "back", "pop_front", "pop_back", "pop_at"])

/** Calls whose value is a list of nodes, any of which may carry a script of the pack (`for n in get_children()`). */
const NODE_LISTS: ReadonlySet<string> = new Set(["get_children", "get_nodes_in_group"])

/**
 * Whether `e` may be such an object: `self`, `$Node`, `preload(…)`, a call of OBJECT_GETTERS, a name in `scripted`
 * (a local given one, a constant holding a preload, a class or autoload of the pack), either side of a conditional, or
 * an element of a literal holding one (`[self][0]`: a fifty-ninth red team's).
 */
const mayBeScripted = (e: Expr, scripted: ReadonlySet<string>): boolean =>
  e.k === "self" ||
  e.k === "node" ||
  e.k === "preload" ||
  (e.k === "cast" && mayBeScripted(e.expr, scripted)) ||
  (e.k === "ternary" && (mayBeScripted(e.then, scripted) || mayBeScripted(e.else, scripted))) ||
  (e.k === "index" && mayHoldScripted(e.obj, scripted)) ||
  (e.k === "id" && scripted.has(e.name)) ||
  (e.k === "call" && (e.callee.k === "id" || e.callee.k === "member") && (OBJECT_GETTERS.has(e.callee.name) || scripted.has(`${e.callee.name}()`)))

/** Names in the `scripted` set that stand for containers holding such objects (`var arr = [self]`) are marked so. */
const HOLDER = "[]"

/**
 * Whether a container `e` may hold such an object: a literal holding one (`[self]`, `{"o": self}`), `Array(…)` of one,
 * a node list (`get_children()`, `get_nodes_in_group(g)`), or a local given one (a sixtieth red team's).
 */
const mayHoldScripted = (e: Expr, scripted: ReadonlySet<string>): boolean =>
  (e.k === "array" && e.items.some((item) => mayBeScripted(item, scripted))) ||
  (e.k === "dict" && e.entries.some(([, v]) => mayBeScripted(v, scripted))) ||
  (e.k === "id" && scripted.has(`${e.name}${HOLDER}`)) ||
  (e.k === "call" && (e.callee.k === "id" || e.callee.k === "member") && (NODE_LISTS.has(e.callee.name) || (e.callee.name === "Array" && e.args.some((a) => mayHoldScripted(a, scripted)))))

/**
 * The variables of a body given what mayBeScripted (`var o = self`, `s = get_script()`, `for o in [self]`, `for n in
 * get_children()`, a `match` binding of such a subject), through chains of them; `scripted` holds the names that are
 * such objects whatever the body does.
 */
const scriptedLocalsOf = (body: ReadonlyArray<Stmt>, all: ReadonlyArray<Expr>, scripted: ReadonlySet<string>): ReadonlySet<string> => {
  const given: Array<readonly [string, Expr]> = []
  const out = new Set<string>(scripted)
  const visit = (stmts: ReadonlyArray<Stmt>): void => {
    for (const st of stmts) {
      if (st.k === "var" && st.init !== null) given.push([st.name, st.init])
      if (st.k === "for") {
        if (st.iter.k === "array") for (const item of st.iter.items) given.push([st.name, item])
        else if (st.iter.k === "call" && (st.iter.callee.k === "id" || st.iter.callee.k === "member") && NODE_LISTS.has(st.iter.callee.name)) out.add(st.name)
      }
      if (st.k === "match") for (const b of st.branches) for (const bind of b.binds) given.push([bind.name, bind.value])
      if (st.k === "for" || st.k === "while") visit(st.body)
      if (st.k === "if" || st.k === "match") for (const b of st.branches) visit(b.body)
    }
  }
  visit(body)
  for (const e of all) if (e.k === "bin" && e.op === "=" && e.left.k === "id") given.push([e.left.name, e.right])
  for (let grew = true; grew; ) {
    grew = false
    for (const [name, value] of given) {
      if (!out.has(name) && mayBeScripted(value, out)) {
        out.add(name)
        grew = true
      }
      if (!out.has(`${name}${HOLDER}`) && mayHoldScripted(value, out)) {
        out.add(`${name}${HOLDER}`)
        grew = true
      }
    }
  }
  return out
}

/** A body's expressions and each one's parent (exprWalk.ts parentsOf), walked once however often asked for. */
type Walk = (body: ReadonlyArray<Stmt>) => ReturnType<typeof parentsOf>

const walkOnce = (): Walk => {
  const walked = new Map<ReadonlyArray<Stmt>, ReturnType<typeof parentsOf>>()
  return (body) => {
    const known = walked.get(body)
    if (known !== undefined) return known
    const fresh = parentsOf(body)
    walked.set(body, fresh)
    return fresh
  }
}

/** The pack's functions that may return such an object (`func me(): return self`), as `name()` entries of the `scripted` set. */
const scriptedReturnsOf = (classes: ReadonlyArray<ClassDecl>, scripted: ReadonlySet<string>, walk: Walk): ReadonlyArray<string> => {
  const returns = (stmts: ReadonlyArray<Stmt>, locals: ReadonlySet<string>): boolean =>
    stmts.some(
      (st) =>
        (st.k === "return" && st.expr !== null && mayBeScripted(st.expr, locals)) ||
        ((st.k === "for" || st.k === "while") && returns(st.body, locals)) ||
        ((st.k === "if" || st.k === "match") && st.branches.some((b) => returns(b.body, locals))),
    )
  return classes.flatMap((d) => d.functions.filter((f) => returns(f.body, scriptedLocalsOf(f.body, walk(f.body).all, scripted))).map((f) => `${f.name}()`))
}

/** Whether the string `e` is the method's name of a `call`/`callv`/`call_deferred`/`funcref`/`Callable`, which readsByBuiltName judges with what its value does. */
const namesDispatchedMethod = (e: Expr, parent: ReadonlyMap<Expr, Expr>): boolean => {
  const p = parent.get(e)
  if (p?.k !== "call" || (p.callee.k !== "id" && p.callee.k !== "member")) return false
  const at = DISPATCH_NAME_AT[p.callee.name]
  return at !== undefined && p.args[at] === e
}

const readsByBuiltName = (e: Expr, isEngineName: (name: string) => boolean, scriptedLocals: ReadonlySet<string>): boolean => {
  // `self[k]`, and as a fifty-eighth red team did, `o[k]` of `var o = self`, `get_script()[k]`.
  if (e.k === "index") return e.index.k !== "str" && mayBeScripted(e.obj, scriptedLocals)
  if (e.k !== "call" || (e.callee.k !== "id" && e.callee.k !== "member")) return false
  // `get` reached by name (`call("get", k)`, `callv("get", [k])`, `funcref(self, "get")`, a name not constant): it hands
  // out what it reads as surely as `get(k)` does (a thirty-second red team changed a constant's Array that way); not on
  // an engine singleton or class (`OS.callv(action, …)`), which holds no constant of the pack.
  const method = DISPATCH_NAME_AT[e.callee.name]
  const onEngine = e.callee.k === "member" && e.callee.obj.k === "id" && isEngineName(e.callee.obj.name)
  if (method !== undefined && !onEngine) {
    const name = e.args[method]
    return name === undefined || name.k !== "str" || BY_NAME.has(name.value)
  }
  if (!BY_NAME.has(e.callee.name)) return false
  // Object.get takes one argument: `d.get(k, default)` is a Dictionary's.
  if (e.callee.name === "get" && e.args.length > 1) return false
  return e.args[0] === undefined || e.args[0].k !== "str"
}

/**
 * Engine methods that keep what they are handed (a container's element, a meta, a property, a bound argument) or
 * hand it to other code (dispatch by name, signals): a constant handed to one may be changed later.
 */
const KEEPS: ReadonlySet<string> = new Set([
  "append", "append_array", "push_back", "push_front", "insert", "fill", "merge", "set", "set_meta", "set_deferred", "set_indexed",
  "call", "callv", "call_deferred", "call_group", "call_group_flags", "propagate_call", "connect", "emit_signal", "bind", "bindv",
  "add_do_method", "add_undo_method", "add_do_property", "add_undo_property", "interpolate_callback", "interpolate_deferred_callback",
  "start", "funcref", "tween_callback", "tween_method", "rpc", "rpc_id", "rpc_unreliable", "rpc_unreliable_id", "class_set_property",
])

/**
 * Engine methods that keep what they are handed by their names' first word (`ProjectSettings.set_setting(k, v)`,
 * `ItemList.set_item_metadata`, `ConfigFile.set_value`, `add_child`, `register_…`, `store_…`): the value may come back
 * later, the same Array or Dictionary (a twentieth red team changed a constant this way, godot3-server 3.2.3).
 */
const KEEPS_BY_WORD = /^(set|add|push|insert|append|register|store|bind|connect|emit)(_|$)/

/**
 * Engine calls whose value may be the very container they are handed (`{}.get(k, x)`'s default, `Dictionary(x)`,
 * `Array(x)`, `convert(x, t)`, `ConfigFile.get_value(s, k, x)`, 4.x `max(a, b)` of Variants, `weakref(x)`): a constant
 * read by name and handed to one comes back to be changed (a fifty-seventh red team's `{}.get("z", get("COL" + "ORS"))`).
 */
const GIVES_BACK: ReadonlySet<string> = new Set(["get", "get_value", "get_meta", "Dictionary", "Array", "convert", "type_convert", "weakref", "max", "min", "clamp", "instance_from_id"])

/** Whether the value of `e` is only read where it is used (see above); `packMethods`: the names of every function of the pack. */
const valueOnlyRead = (e: Expr, parent: ReadonlyMap<Expr, Expr>, packMethods: ReadonlySet<string>): boolean => {
  const p = parent.get(e)
  if (p === undefined) return false
  if (p.k === "bin") return VALUE_OPERATORS.has(p.op)
  if (p.k === "unary") return true
  if (p.k === "index" && p.obj === e) return !writtenInto(p, parent)
  if (p.k === "call" && p.callee !== e) {
    if (p.callee.k !== "id" && p.callee.k !== "member") return false
    const name = p.callee.name
    return !packMethods.has(name) && !KEEPS.has(name) && !KEEPS_BY_WORD.test(name) && !GIVES_BACK.has(name)
  }
  if (p.k !== "member" || p.obj !== e) return false
  const call = parent.get(p)
  return call?.k === "call" && call.callee === p && READS.has(p.name)
}

/**
 * The names (`NAME`, `x.NAME`) some use in the classes' code does not only read (see above); EVERY_NAME when all are.
 * `scriptNames`: the pack's classes and autoloads by name (`Enemy[k]`, `Global[k]` read a script's constants too).
 */
export const namesNotOnlyRead = (classes: ReadonlyArray<ClassDecl>, isEngineName: (name: string) => boolean, scriptNames: ReadonlySet<string> = new Set()): ReadonlySet<string> => {
  const out = new Set<string>()
  const packMethods = new Set(classes.flatMap((d) => d.functions.map((f) => f.name)))
  // Constants holding a script (`const Lib = preload("res://lib.gd")`: `Lib[k]` is GDScript::_get, a fifty-ninth red team's).
  const constants = new Set([...scriptNames, ...classes.flatMap((d) => d.consts.filter((c) => mayBeScripted(c.init, new Set())).map((c) => c.name))])
  const walk = walkOnce()
  const scripted = new Set([...constants, ...scriptedReturnsOf(classes, constants, walk)])
  for (const d of classes) {
    const own: ReadonlyArray<Expr> = [...d.consts.map((c) => c.init), ...d.vars.flatMap((v) => (v.init === null ? [] : [v.init])), ...d.extra]
    const bodies: ReadonlyArray<ReadonlyArray<Stmt>> = [...d.functions.map((f) => f.body), ...d.vars.flatMap((v) => v.accessors.map((a) => a.body)), own.map((e) => ({ k: "expr" as const, expr: e, at: e.at }))]
    for (const body of bodies) {
      const { all, parent } = walk(body)
      const scriptedLocals = scriptedLocalsOf(body, all, scripted)
      const loops = new Set<Expr>()
      loopsOf(body, loops)
      for (const e of all) {
        if (e.k === "lambda") loopsOf(e.fn.body, loops)
      }
      for (const e of all) {
        if ((e.k === "id" || e.k === "member") && !readsOnly(e, parent, loops)) out.add(e.name)
        // A string naming it, or a property path through it (`set_indexed("LEVELS:a", v)` changes the constant in place).
        if (e.k === "str") for (const name of [e.value, ...e.value.split(":")]) out.add(name)
        // The constants by name (also a call of the method by name), or every member of an object (`inst2dict(self)`).
        if (e.k === "call" && (e.callee.k === "id" || e.callee.k === "member") && HANDS_OUT_ALL.has(e.callee.name)) out.add(EVERY_NAME)
        if (e.k === "str" && HANDS_OUT_ALL.has(e.value)) out.add(EVERY_NAME)
        if (readsByBuiltName(e, isEngineName, scriptedLocals) && !valueOnlyRead(e, parent, packMethods)) out.add(EVERY_NAME)
        // `get` named anywhere but as the method of call/callv/funcref (judged above by what their value does): an engine
        // API may call it later and hand its value back (`FuncRef.set_function("get")`, `Thread.start(self, "get", k)`
        // then `wait_to_finish()`: a fifty-eighth red team's), or a variable may carry the name there.
        if (e.k === "str" && BY_NAME.has(e.value) && !namesDispatchedMethod(e, parent)) out.add(EVERY_NAME)
      }
    }
  }
  return out
}
