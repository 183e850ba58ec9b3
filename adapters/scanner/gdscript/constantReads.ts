import type { ClassDecl, Expr, ExtendsClause, FunctionDecl, Param, Stmt } from "./ast.ts"
import { engineTableKnows } from "./engineMethods.ts"
import { type CallerIndex, type CallerSite, CONNECTION_LISTS, namedByString } from "./callers.ts"
import { parentsOf, writtenInto } from "./exprWalk.ts"
import { keepsSomeArgument } from "./engineKeepers.ts"
import type { ClassRef } from "./packModel.ts"
import { holdsArray, holdsContainer, indexKey, itemsOf, nestedTables, type ParamParts, type Parts, partStrings, type ReadFunction, readParts } from "./nestedTables.ts"
import { PATH_ARGUMENTS, VALUE_SETTERS } from "./propertyPaths.ts"
import { both, holdsNoContainer, type Kind, kindOf, type PackFacts, type ValueNames, valueNamesOf } from "./valueNames.ts"
import { containerMembersOf, givesNoObject } from "./containerMembers.ts"

// A constant Array or Dictionary of the pack can be changed in Godot 3 (`const UPGRADES = {…}` then
// `UPGRADES["script"] = v`, or `helper(UPGRADES)` doing so: godot3-server 3.2.3 runs both), so its strings are
// followed exactly only where every use of its name in the pack reads it: a loop over it, a subscript that is not
// written into, or a method that only reads (`keys()`, `values()`, `has(k)`, `size()`, `get(k)`, …); names are
// matched pack-wide (`x.UPGRADES` counts), so a use anywhere else keeps it from being followed.

/** Methods of an Array or a Dictionary that read it and hand out no part of it that could be written into it again. */
const READS: ReadonlySet<string> = new Set(["keys", "values", "has", "has_all", "size", "empty", "is_empty", "get", "find", "rfind", "count", "hash", "duplicate"])

/** Whether the use `e` of a name only reads what the name holds (`parent` maps each expression to the one it stands in; `loops` are the containers `for` walks). */
const readsOnly = (e: Expr, parent: ReadonlyMap<Expr, Expr>, loops: Loops): boolean => {
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

/** Calls that turn what they are given into text or a number, keeping nothing (String.format's values too). */
const SHOWS: ReadonlySet<string> = new Set(["print", "prints", "printt", "printraw", "printerr", "print_debug", "push_error", "push_warning", "str", "len", "format"])

/** Array and Dictionary methods that change the container (taken as a Callable, they change it later). */
const CONTAINER_CHANGES: ReadonlySet<string> = new Set(["append", "append_array", "push_back", "push_front", "insert", "erase", "clear", "remove", "remove_at", "pop_back", "pop_front", "pop_at", "sort", "sort_custom", "shuffle", "invert", "reverse", "resize", "fill", "merge", "assign"])

/** The containers `for` loops walk, each with the loop's variable. */
type Loops = ReadonlyMap<Expr, string>

/** The containers every `for` of a body walks (lambdas' bodies included by the caller). */
const loopsOf = (body: ReadonlyArray<Stmt>, into: Map<Expr, string>): void => {
  for (const s of body) {
    if (s.k === "for") into.set(s.iter, s.name)
    if (s.k === "for" || s.k === "while") loopsOf(s.body, into)
    if (s.k === "if" || s.k === "match") for (const b of s.branches) loopsOf(b.body, into)
  }
}

// Godot 3 also hands a script's constants out by name: `get("NAME")` (GDScriptInstance::get looks the script's
// constants up), `self["NAME"]`, `get_script().get_script_constant_map()["NAME"]`: the same Array or Dictionary,
// which the game may then change (a fifteenth red team ran `get("ACTIONS")["execute"] = …` in godot3-server). So a
// string of the code spelling a name counts as a use that does not only read it; so does every name when the code
// calls `get_script_constant_map()`, or reads by a name that is not one constant string (`get(k)`, `get_indexed(k)`,
// `o[k]` of anything but a value typed never to be an object; `d.get(k, default)` is a Dictionary's) and does more with what it reads than read it. A read by name
// whose value only goes into arithmetic, a comparison, a subscript read or a method that only reads, or is handed to
// a method no class of the pack defines and that does not keep it, hand it on or give it back (KEEPS, GIVES_BACK:
// `tween.interpolate_property(node, p, node.get(p), …)`), cannot change a constant.

/**
 * The engine methods taking a property path (propertyPaths.ts) that can store any value there: not 3.x Tween's
 * `interpolate_property`, `follow_property` and `targeting_property`, which write only what they interpolate (numbers,
 * vectors, colours: tween.cpp `_calc_delta_val` refuses a String), never a name or a path a rule follows.
 */
const STORING_PATH_ARGUMENTS: ReadonlyMap<string, ReadonlyArray<number>> = new Map([...PATH_ARGUMENTS].filter(([name]) => !["interpolate_property", "follow_property", "targeting_property"].includes(name)))

/**
 * Whether a property's name may be an Animation's track path (`tracks/0/path`): a literal that is one, text built
 * from a start that may begin one, a local given such literals. A name not known at all is not counted (Limits): a
 * game's `o.set(key, value)` over its saved fields would stop every table being followed.
 */
const mayNameTrackPath = (e: Expr, names: ValueNames): boolean => {
  const fits = (text: string): boolean => "tracks/".startsWith(text) || text.startsWith("tracks/")
  if (e.k === "str") return /^tracks\/\d+\/path$/.test(e.value)
  if (e.k === "bin" && (e.op === "+" || e.op === "%")) return e.left.k === "str" ? fits(e.left.value) : mayNameTrackPath(e.left, names)
  if (e.k === "id" && names.keysFrom.has(e.name)) return [...(names.keysFrom.get(e.name) ?? [])].some((t) => /^tracks\/\d+\/path$/.test(t))
  return false
}

/**
 * The value a write gives a property that may be an Animation's track path: `o.set(name, v)` and the other setters,
 * `call("set", name, v)`, `o[name] = v` on what may be an object. Null for anything else.
 */
const trackPathValue = (e: Expr, names: ValueNames, selfAnimation: boolean): Expr | null => {
  if (e.k === "bin" && e.op === "=" && e.left.k === "index") return kindOf(e.left.obj, names) === null && (e.left.obj.k !== "self" || selfAnimation) && mayNameTrackPath(e.left.index, names) ? e.right : null
  if (e.k !== "call" || (e.callee.k !== "id" && e.callee.k !== "member")) return null
  const dispatched = DISPATCH_NAME_AT[e.callee.name] === 0 && e.args[0]?.k === "str" && VALUE_SETTERS.has(e.args[0].value)
  const args = dispatched ? e.args.slice(1) : VALUE_SETTERS.has(e.callee.name) ? e.args : null
  // On self, an Animation for a script extending one.
  const onSelf = e.callee.k === "id" || e.callee.obj.k === "self"
  if (args === null || (onSelf && !selfAnimation)) return null
  const [name, value] = args
  return name !== undefined && value !== undefined && mayNameTrackPath(name, names) ? value : null
}

/**
 * Whether a property path is one of the code's own strings, each of which names what it reaches (namesNotOnlyRead
 * marks every segment of every string): a literal (`"a:b"`, `@"a:b"`, `NodePath("a:b")`), a local given only literals
 * or a loop over them (`for p in ["position:x", "position:y"]`), a read of a constant table.
 */
const isCodeString = (e: Expr, names: ValueNames, tableStrings: (e: Expr, names: ValueNames) => ReadonlySet<string> | null): boolean => {
  if (e.k === "call" && e.callee.k === "id" && e.callee.name === "NodePath" && e.args.length === 1 && e.args[0] !== undefined) return isCodeString(e.args[0], names, tableStrings)
  if (e.k === "str") return true
  if (e.k === "id") return names.keysFrom.has(e.name)
  return tableStrings(e, names) !== null
}

/** Stands in the set for every name. */
export const EVERY_NAME = "*"

/**
 * What hands out a script's constants or an object's members by reference, whatever their names: 3.x
 * `get_script_constant_map()`, 4.x `get_script_constant_map()` too, `inst2dict(o)` / 4.x `inst_to_dict(o)` (a
 * Dictionary of every member, the same Arrays and Dictionaries: a twentieth red team appended to a member Array
 * through it).
 */
const HANDS_OUT_ALL: ReadonlySet<string> = new Set(["get_script_constant_map", "inst2dict", "inst_to_dict"])

/**
 * Object's own dispatches that call the method they name and give back its value (`o.call("callv", "get", ["K"])` is
 * `o.callv("get", ["K"])`, then `o.get("K")`: a hundred-and-twelfth red team's), so a name that may be one of them may
 * reach a reader one call further; `call_deferred` is judged like them where it names the method (DISPATCH_NAME_AT).
 */
const RELAYS: ReadonlySet<string> = new Set(["call", "callv"])

/** How deep a dispatch naming another dispatch is unwrapped (relayedCall) before it counts as reaching anything. */
const MAX_RELAYS = 4

/** Methods that read a property (or, in Godot 3, a constant) by a name. */
const BY_NAME: ReadonlySet<string> = new Set(["get", "get_indexed"])

/** Operators whose result is a new value: an operand read by one is not changed. */
const VALUE_OPERATORS: ReadonlySet<string> = new Set(["+", "-", "*", "/", "%", "==", "!=", "<", ">", "<=", ">=", "and", "or", "&&", "||", "in", "not in"])

/**
 * Whether a method's name may be one that hands out what it reads by name (`get`, `get_indexed`) or every constant
 * (`get_script_constant_map`): the strings it is known to be (`table`), else one built after a start no such method
 * has is none of them (`"_apply_" + diff`; `"get_script_" + x` may be: a hundred-and-tenth red team's).
 */
const namesReader = (name: Expr, table: ReadonlySet<string> | null): boolean => {
  const readers = [...BY_NAME, ...HANDS_OUT_ALL, ...RELAYS]
  if (table !== null) return [...table].some((t) => readers.includes(t))
  const start = builtStart(name)
  return start === null || readers.some((n) => n.startsWith(start))
}

/**
 * The strings a method's name read from the pack's tables may be: a loop variable over one or a local given only its
 * reads (`keysFrom`), a read of a constant table of data, or of one that also holds preloads (`nameTables`); null else.
 */
const nameStrings = (name: Expr, names: ValueNames, tableStrings: TableStrings, nameTables: TableStrings): ReadonlySet<string> | null =>
  (name.k === "id" ? names.keysFrom.get(name.name) : undefined) ?? tableStrings(name, names) ?? nameTables(name, names)

/**
 * Engine calls that run a method by name later and give back what it returned elsewhere (`Thread.start(o, name)` then
 * `wait_to_finish()`, `FuncRef.set_function(name)` then `call_func()`): where the name may be a reader's, what it read
 * is out of sight (a hundred-and-tenth red team's `t.start(self, "g" + "et", "PA" + "THS")`). Where the name is.
 */
const LATER_DISPATCH_NAME_AT: Readonly<Record<string, number>> = { start: 1, set_function: 0 }

/** The engine classes a script may extend whose objects have those methods (Thread, FuncRef) or may be one (their bases). */
const LATER_DISPATCH_BASES: ReadonlySet<string> = new Set(["Object", "Reference", "Thread", "FuncRef"])

/** The text of a name spelled in literal parts (`"a" + "b"`, `"a%s" % "b"`, `"%s%s" % ["a", "b"]`); null otherwise. */
const foldedName = (e: Expr): string | null => {
  if (e.k === "str") return e.value
  if (e.k !== "bin") return null
  if (e.op === "+") {
    const left = foldedName(e.left)
    const right = left === null ? null : foldedName(e.right)
    return left === null || right === null ? null : left + right
  }
  if (e.op !== "%" || e.left.k !== "str") return null
  const args = e.right.k === "array" ? e.right.items.map(foldedName) : [foldedName(e.right)]
  if (args.some((a) => a === null) || /%(?!%|s)/.test(e.left.value.replace(/%%/g, ""))) return null
  let i = 0
  const out = e.left.value.replace(/%%|%s/g, (m) => (m === "%%" ? "%" : (args[i++] ?? "")))
  return i === args.length ? out : null
}

/** The text a name built at run time surely starts with: the literal first part of `"a" + x` or `"a%s" % x`; null otherwise. */
const builtStart = (e: Expr): string | null => {
  if (e.k !== "bin") return null
  if (e.op === "+") return e.left.k === "str" ? e.left.value : builtStart(e.left)
  return e.op === "%" && e.left.k === "str" ? (e.left.value.split("%")[0] ?? "") : null
}

/** The most names a dispatch's name joined of table reads and literals is followed as (namedStrings). */
const MAX_JOINED_NAMES = 64

/** Calls by name and where their method's name is (`call("get", k)`: 0; `funcref(self, "get")`: 1). */
const DISPATCH_NAME_AT: Readonly<Record<string, number>> = { call: 0, callv: 0, call_deferred: 0, funcref: 1, Callable: 1 }

/** Whether `e` is a value that is never an object (valueNames.ts): a subscript of one reads an element. */
const holdsValue = (e: Expr, names: ValueNames): boolean => kindOf(e, names) !== null

/**
 * Whether a key `e` names no constant: one constant string is judged by its name elsewhere; a number names none; nor
 * does a loop variable over a table none of whose strings is a constant's name (`for k in SAVED: data[k] = get(k)`).
 */
const namesNoConstant = (e: Expr, names: ValueNames, constants: ReadonlySet<string>, tableStrings: (e: Expr, names: ValueNames) => ReadonlySet<string> | null): boolean => {
  if (e.k === "str" || kindOf(e, names) === "number") return true
  // A loop variable over a table, or a read of one (`get(DONE_WHEN[step])`: a sixty-second hunt's tutorial).
  const keys = e.k === "id" ? names.keysFrom.get(e.name) : tableStrings(e, names)
  return keys !== undefined && keys !== null && ![...keys].some((k) => constants.has(k))
}

/** A body's expressions and each one's parent (exprWalk.ts parentsOf). */
type Walk = ReturnType<typeof parentsOf>

/** Whether the string `e` is the method's name of a `call`/`callv`/`call_deferred`/`funcref`/`Callable`, which readsByBuiltName judges with what its value does. */
const namesDispatchedMethod = (e: Expr, parent: ReadonlyMap<Expr, Expr>): boolean => {
  const p = parent.get(e)
  if (p?.k !== "call" || (p.callee.k !== "id" && p.callee.k !== "member")) return false
  const at = DISPATCH_NAME_AT[p.callee.name]
  return at !== undefined && p.args[at] === e
}

/** Whether `e` is a name typed with a class of the pack that neither it nor any class that may extend it gives a constant Array or Dictionary. */
const ofPlainClass = (e: Expr, names: ValueNames, plainClasses: ReadonlySet<string>): boolean => {
  const cls = e.k === "id" ? names.classTyped.get(e.name) : undefined
  return cls !== undefined && plainClasses.has(cls)
}

/** The pack's classes by name (`class_name` or inner name), and those of a name one class alone has (`byName`). */
const classesByName = (classes: ReadonlyArray<ClassDecl>) => {
  const named = classes.flatMap((d) => (d.name === null ? [] : [[d.name, d] as const]))
  // A name two classes declare (inner classes of two files) is not pinned to one.
  return { named, byName: new Map(named.filter(([name]) => named.filter(([other]) => other === name).length === 1)) }
}

/** PackFacts.classMember: a member of a class of the pack one class alone is named, or of its bases of the pack so named. */
const classMemberOf = (classes: ReadonlyArray<ClassDecl>, memberNames: ReadonlySet<string>): NonNullable<PackFacts["classMember"]> => {
  const { byName } = classesByName(classes)
  // A type named like a constant or a member of some class (`const Plot = preload("other.gd")`) may be that script's class.
  return (cls, name) => {
    if (memberNames.has(cls)) return null
    const seen = new Set<ClassDecl>()
    for (let d = byName.get(cls); d !== undefined && !seen.has(d); ) {
      seen.add(d)
      const v = d.vars.find((x) => x.name === name)
      if (v !== undefined) return v
      const ext = d.extendsClause
      d = ext === null || ext._tag === "Path" ? undefined : byName.get(ext.names.at(-1) ?? "")
    }
    return null
  }
}

/**
 * The pack's classes (by `class_name` or inner name) whose objects hand out no constant Array or Dictionary by name:
 * no class that is, or may extend, one of them declares a constant other than a string or number literal (a class
 * extending by path may extend any: a sixty-second hunt's `card: Card`, `s: Slot`).
 */
const plainClassesOf = (classes: ReadonlyArray<ClassDecl>, isEngineName: (name: string) => boolean): ReadonlySet<string> => {
  const { named, byName } = classesByName(classes)
  /** The pack class names `d` is or extends, or null when a path makes its chain unknown. */
  const chain = (d: ClassDecl): ReadonlySet<string> | null => {
    const out = new Set<string>()
    for (let cur: ClassDecl | undefined = d; cur !== undefined; ) {
      if (cur.name !== null) {
        if (out.has(cur.name)) break
        out.add(cur.name)
      }
      const ext: ExtendsClause | null = cur.extendsClause
      if (ext?._tag === "Path") return null
      const base: string | undefined = ext?.names.at(-1)
      // A base two classes are named (a sixty-third red team's `Mid`) may be either, and one that is neither a class of
      // the pack nor the engine's is a constant (`const B = preload("plain.gd")`, `const B = Plain`: a sixty-fifth
      // red team's `class H extends B`) that may hold any class: the chain is not known.
      if (base !== undefined && !byName.has(base) && (named.some(([name]) => name === base) || !isEngineName(base))) return null
      cur = base === undefined ? undefined : byName.get(base)
    }
    return out
  }
  const holders = classes.filter((d) => d.consts.some((c) => c.init.k !== "str" && c.init.k !== "num" && c.init.k !== "const"))
  const chains = holders.map(chain)
  // A type named like a constant or a member of some class may be that constant's script where it is read (`const Plain =
  // preload("x.gd")` then `var c: Plain`: a hundred-and-fifth red team's, x.gd holding the table), not the class so named.
  const declared = new Set(classes.flatMap((d) => [...d.consts.map((c) => c.name), ...d.vars.map((v) => v.name)]))
  return new Set([...byName.keys()].filter((name) => !declared.has(name) && chains.every((c) => c !== null && !c.has(name))))
}

/** Whether `e` is what a plain `=` sets (`o[k] = v` sets a property; a constant cannot be set so). */
const assignedTo = (e: Expr, parent: ReadonlyMap<Expr, Expr>): boolean => {
  const p = parent.get(e)
  return p?.k === "bin" && p.op === "=" && p.left === e
}

/**
 * Whether `e` reads by a name that is not one constant string (`get(k)`, `o.get_indexed(k)`, `o[k]`) on what may be an
 * object. Since a sixty-first review, on any object: Object::get of an instance, or of a script, hands out the script's
 * constants (3.x GDScriptInstance::get, GDScript::_get), and three red teams in a row reached one through yet another
 * way of holding `self` (a local, a container, a member of another object, a parameter). Only a value the engine holds
 * to a type that is never an object (ValueNames), or a key that is a number, is left out.
 */
type CallExpr = Extract<Expr, { k: "call" }>

/**
 * The calls a dispatch relays where its name may be `call` or `callv` (RELAYS): `o.call(m, a, b)` as `o.m(a, b)`,
 * `o.callv(m, [a, b])` as `o.m(a, b)`, for each such method its name's strings (`strings`: a literal, a name spelled in
 * parts, a table's) give; "unseen" where the relayed call's arguments are out of sight (a funcref's, a callv's Array
 * not written out) or the relays go deeper than MAX_RELAYS.
 */
const relayedCalls = (e: CallExpr, strings: (name: Expr) => ReadonlySet<string> | null, depth: number): ReadonlyArray<CallExpr> | "unseen" => {
  const dispatch = dispatchOf(e, strings)
  const methods = dispatch === null ? [] : dispatch.methods.filter((m) => RELAYS.has(m))
  if (dispatch === null || methods.length === 0) return []
  if (depth >= MAX_RELAYS || dispatch.rest === null) return "unseen"
  const rest = dispatch.rest
  return methods.map((m) => ({ ...e, callee: { ...dispatch.callee, name: m }, args: rest }))
}

/**
 * A dispatch by name (`call`, `call_deferred`, `callv`, `funcref`, `Callable`): the methods its name's strings may be
 * (a literal, a name spelled in parts, a table's strings) and the arguments the method then gets (null where they are
 * out of sight: a funcref's, a callv's Array not written out); null for any other call.
 */
const dispatchOf = (e: CallExpr, strings: (name: Expr) => ReadonlySet<string> | null): { readonly callee: Extract<Expr, { k: "id" | "member" }>; readonly methods: ReadonlyArray<string>; readonly rest: ReadonlyArray<Expr> | null } | null => {
  const callee = e.callee
  if (callee.k !== "id" && callee.k !== "member") return null
  const at = DISPATCH_NAME_AT[callee.name]
  const name = at === undefined ? undefined : e.args[at]
  if (name === undefined) return null
  const folded = foldedName(name)
  const methods = folded === null ? [...(strings(name) ?? [])] : [folded]
  const rest = callee.name === "funcref" || callee.name === "Callable" ? null : callee.name === "callv" ? (e.args[1]?.k === "array" ? e.args[1].items : null) : e.args.slice(1)
  return { callee, methods, rest }
}

/** The strings a read of a constant table may give, in a body whose names are `names`; null for no such read. */
type TableStrings = (e: Expr, names: ValueNames) => ReadonlySet<string> | null

const readsByBuiltName = (e: Expr, parent: ReadonlyMap<Expr, Expr>, isEngineName: (name: string) => boolean, names: ValueNames, tableStrings: TableStrings, constants: ReadonlySet<string>, plainClasses: ReadonlySet<string>, nameTables: TableStrings, depth = 0): boolean => {
  // An autoload's or a global class's table of data read by its name (`Towers.ON_BUILD[k]`) is data, as the table is.
  if (e.k === "index") return !namesNoConstant(e.index, names, constants, tableStrings) && !holdsValue(e.obj, names) && !(e.obj.k === "member" && tableStrings(e.obj, names) !== null) && !ofPlainClass(e.obj, names, plainClasses) && !assignedTo(e, parent)
  if (e.k !== "call" || (e.callee.k !== "id" && e.callee.k !== "member")) return false
  // `get` reached by name (`call("get", k)`, `callv("get", [k])`, `funcref(self, "get")`, a name not constant): it hands
  // out what it reads as surely as `get(k)` does (a thirty-second red team changed a constant's Array that way); not on
  // an engine singleton or class (`OS.callv(action, …)`), which holds no constant of the pack.
  const method = DISPATCH_NAME_AT[e.callee.name]
  const onEngine = e.callee.k === "member" && e.callee.obj.k === "id" && isEngineName(e.callee.obj.name)
  if (method !== undefined && !onEngine) {
    const name = e.args[method]
    if (name === undefined) return true
    // A dispatch naming another (`call("callv", "g" + "et", [k])`) is judged as the call it relays, whose name is one
    // argument further; where that call is out of sight (a funcref's), it may read anything.
    const relayed = relayedCalls(e, (n) => nameStrings(n, names, tableStrings, nameTables), depth)
    if (relayed === "unseen") return true
    if (relayed.some((inner) => readsByBuiltName(inner, parent, isEngineName, names, tableStrings, constants, plainClasses, nameTables, depth + 1))) return true
    // A method named by a read of a constant table of data (`funcref(self, STATES[state])`), or a local given only such
    // reads or literals (`var handler: String = HANDLERS[kind]`), or a parameter every call of its function gives one
    // (`apply(card[2], card[3])` then `callv(method, args)`: a seventy-seventh hunt's card battler), is one of their strings;
    // so is one read from a table that also holds preloaded scripts or scenes (`nameTables`: a hundred-and-first hunt's
    // `{"scene": preload("res://slime.tscn"), "ai": "wander"}`).
    const table = nameStrings(name, names, tableStrings, nameTables)
    if (name.k === "str") return BY_NAME.has(name.value)
    // A name built after a start no such method has (`call("_apply_" + diff)`: a hundred-and-ninth hunt's settings menu)
    // is none of them; what a method of the pack it reaches gives back is followed where it is used, as for any call.
    return namesReader(name, table)
  }
  if (!BY_NAME.has(e.callee.name)) return false
  // Object.get takes one argument: `d.get(k, default)` is a Dictionary's, as `d.get(k)` of a Dictionary is.
  if (e.callee.name === "get" && (e.args.length > 1 || (e.callee.k === "member" && holdsValue(e.callee.obj, names)))) return false
  if (e.callee.k === "member" && ofPlainClass(e.callee.obj, names, plainClasses)) return false
  return e.args[0] === undefined || !namesNoConstant(e.args[0], names, constants, tableStrings)
}

/**
 * Whether `e` hands a later dispatch (LATER_DISPATCH_NAME_AT) a name that may be a reader's (namesReader): called
 * directly (`t.start(o, name)`), or by a dispatch whose name may be one of them (`t.callv("start", [o, name])`,
 * `r.call("set_" + "function", name)`: a hundred-and-eleventh red team's), or relays to one (`call("call", "start", …)`);
 * arguments out of sight count.
 * A dispatch by a name not known on such an object is already an error of its own (the evaluator's).
 */
const laterReadByBuiltName = (e: Expr, names: ValueNames, tableStrings: TableStrings, nameTables: TableStrings, engineOnSelf: (name: string) => boolean, depth = 0): boolean => {
  if (e.k !== "call") return false
  const callee = e.callee
  if (callee.k !== "member" && (callee.k !== "id" || !engineOnSelf(callee.name))) return false
  const strings = (name: Expr): ReadonlySet<string> | null => nameStrings(name, names, tableStrings, nameTables)
  const readerAt = (name: Expr | undefined): boolean => name !== undefined && namesReader(name, name.k === "str" ? new Set([name.value]) : strings(name))
  const later = (method: string): number | undefined => (Object.hasOwn(LATER_DISPATCH_NAME_AT, method) ? LATER_DISPATCH_NAME_AT[method] : undefined)
  const direct = later(callee.name)
  if (direct !== undefined) return readerAt(e.args[direct])
  // The relayed method by its strings (`var m = "start"`, `t.call(m, …)`: a hundred-and-twelfth red team's), and a
  // relay of a relay (`t.call("call", "start", …)`) one call further.
  const dispatch = callee.name === "funcref" || callee.name === "Callable" ? null : dispatchOf(e, strings)
  if (dispatch === null) return false
  const { methods, rest } = dispatch
  return methods.some((method) => {
    if (RELAYS.has(method) || method === "call_deferred") return depth >= MAX_RELAYS || rest === null || laterReadByBuiltName({ ...e, callee: { ...callee, name: method }, args: rest }, names, tableStrings, nameTables, engineOnSelf, depth + 1)
    const at = later(method)
    return at !== undefined && (rest === null || rest[at] === undefined || readerAt(rest[at]))
  })
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

/** In Godot 3 `min`, `max` and `clamp` take numbers and give a number (GDScriptFunctions' MATH_* checks its arguments). */
const GIVES_BACK_3: ReadonlySet<string> = new Set([...GIVES_BACK].filter((name) => name !== "max" && name !== "min" && name !== "clamp"))

/** Whether the value of `e` is only read where it is used (see above); `packMethods`: the names of every function of the pack. */
const valueOnlyRead = (e: Expr, parent: ReadonlyMap<Expr, Expr>, packMethods: ReadonlySet<string>, givesBack: ReadonlySet<string> = GIVES_BACK): boolean => {
  const p = parent.get(e)
  if (p === undefined) return false
  // An element of an Array literal only formatted, printed or compared (`"%s: %d" % [k, v]`, `print([k, v])`: a sixty-third
  // hunt's); not one the literal gives back (`[x][0]`, `[x] + []`, `[x].duplicate()`: a sixty-fourth red team's).
  if (p.k === "array") return literalOnlyShown(p, parent, packMethods)
  if (p.k === "bin") return VALUE_OPERATORS.has(p.op)
  if (p.k === "unary") return true
  if (p.k === "index" && p.obj === e) return !writtenInto(p, parent)
  // A key a read looks up by (`CARDS[id]` of `var id = hand[index]`, a ninety-eighth hunt's card game): nothing keeps it.
  if (p.k === "index" && p.index === e) return !writtenInto(p, parent)
  if (p.k === "call" && p.callee !== e) {
    if (p.callee.k !== "id" && p.callee.k !== "member") return false
    const name = p.callee.name
    return !packMethods.has(name) && !KEEPS.has(name) && !KEEPS_BY_WORD.test(name) && !givesBack.has(name)
  }
  if (p.k !== "member" || p.obj !== e) return false
  const call = parent.get(p)
  return call?.k === "call" && call.callee === p && READS.has(p.name)
}

/** Methods of READS that hand out no element (`get`, `values` and a shallow `duplicate` hand out inner containers). */
const HANDS_OUT_NOTHING: ReadonlySet<string> = new Set([...READS].filter((name) => name !== "get" && name !== "values" && name !== "duplicate"))

/**
 * Whether what `x` gives, one of the literal `parts` of a table that holds Arrays or Dictionaries (the table's own
 * literals for its name), is only read where `x` is used (a string or a number is): an index or key read on to the
 * parts it picks, nothing written into; a method handing out nothing (`has`, `size`, `keys`; `duplicate(true)`, a
 * deep copy); a comparison, a condition, a text made of it; a walk over a Dictionary's keys; a local, a loop variable
 * or a parameter of a function of the pack given it whose every use is such a read. A part whose items are strings
 * and numbers is judged as a flat table is (readsOnly).
 */
/** What partOnlyRead found of each name of a body given some parts: null while it is being worked out (a cycle: not only read). */
type NamesRead = Map<BodyFlow, Map<string, Array<{ readonly given: Parts; result: boolean | null }>>>

const partOnlyRead = (x: Expr, parts: Parts, flow: BodyFlow, pack: PartReads, seen: NamesRead): boolean => {
  // A string or a number: nothing changes it in place.
  if (!holdsContainer(parts) || flow.tested.has(x)) return true
  // A name's every use reads what it is given (or gives it another value): `var info = POWERUPS[kind]`, `for a in LIST`.
  const usesRead = (name: string, given: Parts, where: BodyFlow): boolean => {
    // A name given the same parts again gives what it gave (a handler reached by two dispatches of one entry).
    const known = seen.get(where) ?? new Map<string, Array<{ readonly given: Parts; result: boolean | null }>>()
    seen.set(where, known)
    const tried = known.get(name) ?? []
    known.set(name, tried)
    const same = tried.find((t) => t.given.length === given.length && t.given.every((e, i) => e === given[i]))
    if (same !== undefined) return same.result ?? false
    const attempt: { readonly given: Parts; result: boolean | null } = { given, result: null }
    tried.push(attempt)
    attempt.result = (where.uses.get(name) ?? []).every((u) => {
      const up = where.parent.get(u)
      return (up?.k === "bin" && up.op === "=" && up.left === u) || partOnlyRead(u, given, where, pack, seen)
    })
    return attempt.result
  }
  const walked = flow.loops.get(x)
  if (walked !== undefined) return !holdsArray(parts) || usesRead(walked, itemsOf(parts.filter((p) => p.k === "array"), null), flow)
  const p = flow.parent.get(x)
  if (p === undefined) {
    const local = flow.initOf.get(x)
    return local !== undefined && usesRead(local, parts, flow)
  }
  if (p.k === "call" && p.callee !== x && (p.callee.k === "id" || p.callee.k === "member") && p.args.includes(x)) {
    const usesReadIn = (name: string, given: Parts, where: BodyFlow): boolean => usesRead(name, given, where)
    const handlers = ownHandlersNamedBy(p, x, parts, flow)
    if (handlers !== null) return handlers.every((handler) => handedOnlyRead({ k: "id", name: handler, at: p.at }, p.args.indexOf(x) - 1, parts, flow, pack, usesReadIn))
    return handedOnlyRead(p.callee, p.args.indexOf(x), parts, flow, pack, usesReadIn)
  }
  // An element only formatted, printed or compared in an Array literal (`"%s: %s" % [speaker["name"], …]`).
  if (p.k === "array") return literalOnlyShown(p, flow.parent, flow.packMethods) || boundOnlyRead(p, x, parts, flow, pack, usesRead)
  // A container of strings and numbers: arithmetic and comparisons give new values, and `+` a new Array of copies of the
  // items (a seventy-first hunt's `[id, price] + item.get("args", [])` handed to connect's binds).
  if (!holdsContainer(itemsOf(parts, null))) return readsOnly(x, flow.parent, flow.loops) || givesLeaf(p, x, flow.parent) || (p.k === "bin" && VALUE_OPERATORS.has(p.op))
  if (p.k === "index" && p.obj === x) return !writtenInto(p, flow.parent) && partOnlyRead(p, itemsOf(parts, indexKey(p.index)), flow, pack, seen)
  // A key a read looks up by (valueOnlyRead): nothing keeps it.
  if (p.k === "index" && p.index === x) return !writtenInto(p, flow.parent)
  // A comparison, a test, arithmetic (an error on a container): a new value. Not `+` of an Array, which holds its items.
  if (p.k === "bin") return VALUE_OPERATORS.has(p.op) && (p.op !== "+" || !holdsArray(parts))
  if (p.k === "unary") return true
  if (p.k !== "member" || p.obj !== x) return false
  const call = flow.parent.get(p)
  // `T.key`: Godot 3 reads a Dictionary's key so.
  if (call?.k !== "call" || call.callee !== p) return !CONTAINER_CHANGES.has(p.name) && !writtenInto(p, flow.parent) && partOnlyRead(p, itemsOf(parts, p.name), flow, pack, seen)
  const key = call.args[0]
  // `get(k)`, and `get(k, default)`, whose default is the code's own.
  if (p.name === "get" && (call.args.length === 1 || call.args.length === 2)) return partOnlyRead(call, itemsOf(parts, key?.k === "str" ? key.value : null), flow, pack, seen)
  // A deep copy shares nothing; a shallow one shares what its entries hold, so it is read only where its own uses are
  // (a ninety-first hunt's `var spec = BUTTONS[id].duplicate()` then `spec["on_press"]`).
  if (p.name === "duplicate") return (key?.k === "const" && key.value === true) || (call.args.length === 0 && partOnlyRead(call, parts, flow, pack, seen))
  return HANDS_OUT_NOTHING.has(p.name)
}

/**
 * The functions a dispatch on self names by an entry of the very part it hands on (`call(crop["on_harvest"], i, crop)`,
 * `call_deferred(entry.on_use, entry)`): the part's strings at that key, where each is a function the calling class
 * defines; null for any other call. The part handed to them is then handed to each as a direct call would (a
 * ninety-second hunt's farming and card games, whose handlers only read the entry). Not where a name is one of an
 * engine method that keeps what it is given (engineKeeps).
 */
const ownHandlersNamedBy = (call: Extract<Expr, { k: "call" }>, x: Expr, parts: Parts, flow: BodyFlow): ReadonlyArray<string> | null => {
  const { callee } = call
  const onSelf = callee.k === "id" || (callee.k === "member" && callee.obj.k === "self")
  const method = callee.k === "id" || callee.k === "member" ? callee.name : null
  if (!onSelf || (method !== "call" && method !== "call_deferred") || flow.packMethods.has(method) || x.k !== "id" || call.args.indexOf(x) < 1) return null
  const named = call.args[0]
  const key = named?.k === "index" && named.obj.k === "id" && named.obj.name === x.name && named.index.k === "str"
    ? named.index.value
    : named?.k === "member" && named.obj.k === "id" && named.obj.name === x.name
    ? named.name
    : null
  if (key === null) return null
  const leaves = itemsOf(parts, key)
  if (leaves.length === 0 || leaves.some((leaf) => leaf.k !== "str")) return null
  const names = [...new Set(leaves.map((leaf) => (leaf.k === "str" ? leaf.value : "")))]
  // A name like an engine method (one that keeps what it is given above all) is the engine's once the object has lost its script (a
  // deferred call reaches the object as it is then: a ninety-eighth red team's `set_meta` handler after
  // `set_script(null)`). Bound methods whose names start with `_` are in no table of the class reference: those of
  // Godot 3.2.3 that take a Variant, an Array or a Dictionary are listed (UNDERSCORE_ENGINE_METHODS).
  return names.every((n) => flow.own.some((f) => f.name === n) && !engineKeeps(n) && !engineTableKnows(3, n) && !engineTableKnows(4, n) && !UNDERSCORE_ENGINE_METHODS.has(n)) ? names : null
}

/**
 * Bound engine methods named with a leading `_` (left out of the class reference) that an instanceable class of
 * Godot 3.2.3 binds with a Variant, Array or Dictionary parameter, as a ninety-ninth red team listed them from the
 * running engine: ProximityGroup's broadcast calls the parent by the name it is handed, with the argument (the rest
 * start with `_set_`, `_add_` and the like, which engineKeeps refuses).
 */
const UNDERSCORE_ENGINE_METHODS: ReadonlySet<string> = new Set(["_proximity_group_broadcast", "_iter_init", "_iter_next", "_iter_get"])

/**
 * Engine calls that take an Array and hand on its items one by one, never the Array itself, with its position:
 * `callv`'s arguments, 3.x `connect`'s binds (kept as a copy of the items), `call_funcv`, `bindv`, `propagate_call`.
 */
const SPREADS_ITEMS: ReadonlyMap<string, number> = new Map([["callv", 1], ["connect", 3], ["call_funcv", 0], ["bindv", 0], ["propagate_call", 1]])

/**
 * Engine functions and methods that only read what they are handed (shown, measured, compared, written out as text):
 * every other engine call may keep a part or hand it to code (Object.set_meta, a server's `body_set_shape_metadata`,
 * `force_drag`, GDScriptFunctionState.resume: a sixty-ninth red team's), so only these count as reads.
 */
const READS_ARGUMENT: ReadonlySet<string> = new Set([
  ...SHOWS, "has", "has_all", "find", "rfind", "count", "erase", "bsearch", "to_json", "var2str", "var2bytes", "var_to_str", "var_to_bytes", "typeof", "hash", "deep_equal", "is_same",
  // Pool arrays copy the items by value (a seventieth hunt's `PoolStringArray(item["tags"]).join(", ")`).
  "PoolStringArray", "PoolIntArray", "PoolRealArray", "PoolByteArray", "PoolColorArray", "PoolVector2Array", "PoolVector3Array",
  "PackedStringArray", "PackedInt32Array", "PackedInt64Array", "PackedFloat32Array", "PackedFloat64Array", "PackedByteArray", "PackedColorArray", "PackedVector2Array", "PackedVector3Array",
  // Global functions of numbers (a container handed to one stops the script); 4.x max, min and clamp give back (GIVES_BACK).
  "abs", "sign", "floor", "ceil", "round", "sqrt", "pow", "clamp", "min", "max", "lerp", "inverse_lerp", "range_lerp", "range", "int", "float", "bool", "stepify", "wrapi", "wrapf", "posmod", "fposmod", "fmod", "is_nan", "is_inf", "is_equal_approx", "is_instance_valid", "assert",
])

/**
 * Whether a part handed to a call as argument `at` is only read there: the Array of an engine call that hands on its
 * items (SPREADS_ITEMS) holding only strings and numbers; an engine call that only reads (READS_ARGUMENT); a function of
 * the pack of that name, called on self (the calling class's own, whatever engine method shares its name), or `new` of a class of
 * the pack (its `_init`), whose parameter's every use reads it, in every class defining one.
 */
const handedOnlyRead = (
  callee: Extract<Expr, { k: "id" | "member" }>,
  at: number,
  parts: Parts,
  flow: BodyFlow,
  pack: PartReads,
  usesRead: (name: string, given: Parts, where: BodyFlow) => boolean,
): boolean => {
  const name = callee.name
  if (SPREADS_ITEMS.get(name) === at && !flow.packMethods.has(name)) return !holdsContainer(itemsOf(parts, null))
  if (READS_ARGUMENT.has(name) && !flow.packMethods.has(name) && !flow.givesBack.has(name)) return true
  // On another object the method may be the engine's, whatever the pack's classes define under that name (a
  // seventy-first red team's `JSONRPC.new().make_response(T["a"], 1)` beside a class's own `make_response`); `new`
  // of a class of the pack runs its `_init`.
  const onSelf = callee.k === "id" || callee.obj.k === "self"
  // `new` of a script runs its `_init`, whatever `Name` is where the call stands (a local, a member, an autoload, a
  // class of another file: each a script or an object whose `new` is the engine's), unless the pack itself has a
  // function named `new` (a seventy-fourth red team's `static func new(x)` changing the entry, a `func new` of an
  // autoload or of self): then the call may be that function.
  const constructs = name === "new" && callee.k === "member" && callee.obj.k === "id" && pack.packClasses.has(callee.obj.name) && !pack.isEngineName(callee.obj.name) && !pack.functions.has("new")
  if (!onSelf && !constructs) return false
  // On self, a function the calling class defines (one it inherits from the engine is the engine's: a seventy-second
  // red team's `class Rpc extends JSONRPC` calling `make_notification` beside another class's function of that name),
  // and then every function of the pack of that name: self may be of a class overriding it (a seventy-third's `Kid.f`).
  const own = constructs || flow.own.some((f) => f.name === name)
  const targets = !own ? [] : (pack.functions.get(constructs ? "_init" : name) ?? [])
  // A name like an engine method's that keeps (`add_card`, `set_card`: a seventy-seventh hunt's) is the pack's own here: GDScript
  // runs the script's function of that name before the engine's, and every function of that name is judged below.
  if (targets.length === 0 || flow.givesBack.has(name)) return false
  return targets.every((f) => {
    const param = f.params[at]
    const cls = pack.classOf(f)
    return param !== undefined && cls !== null && usesRead(param.name, parts, pack.flowOf(f.body, cls))
  })
}

/**
 * Whether `x`, an item of the binds of a Godot 3 `connect` to self (`board.connect("matched", self, combo["callback"],
 * [combo])`, a seventy-eighth hunt's match-3 game), is only read by the handlers. The method is a string or a key of
 * that same entry (then one of the entries' strings there); each name is a function of the calling class, and every
 * function of the pack of that name (self may be of a class overriding it) has no default values and only reads the
 * parameter the bind lands in: the engine passes the signal's values, then the binds (Object::emit_signal), so the
 * call reaches a handler only with every parameter given, the binds last. Not where the pack may read a connection list
 * (PartReads.listsConnections), which hands the binds out, nor for a connection persisted (unpersisted), nor for a
 * handler named like an engine method that may keep what it is given, nor where an object may lose or swap its script
 * (the connection holds the name: the engine's method of that name, or another script's, runs then).
 */
/** Whether two expressions read the same thing where both are evaluated in one call: one local, or one table's entry by one key that is a name or a literal. */
const sameEntryRead = (a: Expr, b: Expr): boolean => {
  if (a.k === "id" && b.k === "id") return a.name === b.name
  if (a.k !== "index" || b.k !== "index" || a.obj.k !== "id" || b.obj.k !== "id" || a.obj.name !== b.obj.name) return false
  const [i, j] = [a.index, b.index]
  return (i.k === "id" && j.k === "id" && i.name === j.name) || (i.k === "str" && j.k === "str" && i.value === j.value) || (i.k === "num" && j.k === "num" && i.text === j.text)
}

const boundOnlyRead = (
  binds: Extract<Expr, { k: "array" }>,
  x: Expr,
  parts: Parts,
  flow: BodyFlow,
  pack: PartReads,
  usesRead: (name: string, given: Parts, where: BodyFlow) => boolean,
): boolean => {
  const call = flow.parent.get(binds)
  if (call?.k !== "call" || call.args[3] !== binds || (call.callee.k !== "id" && call.callee.k !== "member") || call.callee.name !== "connect") return false
  if (pack.listsConnections || pack.scriptsSwap || flow.packMethods.has("connect") || call.args[1]?.k !== "self" || !unpersisted(call.args[4])) return false
  const method = call.args[2]
  // The handler named by the bound entry itself: a local holding it (`[ab]`, `ab["method"]`), or the same read written
  // out in both places (`[ABILITIES[id]]`, `ABILITIES[id]["method"]`: a hundred-and-fourteenth hunt's tactics game).
  const fromEntry = method?.k === "index" && sameEntryRead(method.obj, x) ? indexKey(method.index) : null
  const names = method?.k === "str" ? [method.value] : fromEntry === null ? null : partStrings(itemsOf(parts, fromEntry))
  const at = binds.items.indexOf(x)
  if (names === null || at < 0) return false
  return [...new Set(names)].every((name) => {
    const targets = flow.own.some((f) => f.name === name) && !engineKeeps(name) ? (pack.functions.get(name) ?? []) : []
    return (
      targets.length > 0 &&
      targets.every((f) => {
        const param = f.params[f.params.length - binds.items.length + at]
        const cls = pack.classOf(f)
        return param !== undefined && cls !== null && f.params.every((q) => q.init === null) && usesRead(param.name, parts, pack.flowOf(f.body, cls))
      })
    )
  })
}

/**
 * Whether an engine method named `name` may keep what it is given. A connection holds the name, not the function: an
 * object whose script is gone or swapped by the emit gets the engine's method of that name (an eightieth red team's
 * `set_meta` handler, its script set to null before the emit). Engine methods the class reference leaves out are bound
 * with a leading `_` (PopupMenu's `_set_items` keeps an item's metadata: an eighty-second red team's), so a keeping
 * word after one `_` counts too.
 */
const engineKeeps = (name: string): boolean => KEEPS.has(name) || KEEPS_BY_WORD.test(name.replace(/^_/, "")) || keepsSomeArgument(3, name) || keepsSomeArgument(4, name)

/** Connection flags other than CONNECT_PERSIST (2), written as a number or by name. */
const UNPERSISTED_FLAGS: ReadonlySet<string> = new Set(["CONNECT_DEFERRED", "CONNECT_ONESHOT", "CONNECT_REFERENCE_COUNTED"])

/**
 * Whether a `connect`'s flags leave CONNECT_PERSIST out: a persisted connection is saved with its binds by
 * `PackedScene.pack` (3.x packed_scene.cpp, SceneState::_parse_connections), and `SceneState.get_connection_binds`
 * hands the very Dictionaries back (a seventy-ninth red team's, run by godot3-server).
 */
const unpersisted = (flags: Expr | undefined): boolean => {
  if (flags === undefined) return true
  if (flags.k === "num") return /^\d+$/.test(flags.text) && (Number(flags.text) & 2) === 0
  return (flags.k === "id" || (flags.k === "member" && flags.obj.k === "id" && flags.obj.name === "Object")) && UNPERSISTED_FLAGS.has(flags.name)
}

/** Array methods giving one of the items, or a new Array of them: where the items are strings and numbers, no part of the table. */
const GIVES_ITEMS: ReadonlySet<string> = new Set(["front", "back", "max", "min", "slice"])

/** Whether `x` (a part whose items are strings and numbers) is the receiver of a method giving items (`tiers.max()`: a seventieth hunt's achievements). */
const givesLeaf = (p: Expr, x: Expr, parent: ReadonlyMap<Expr, Expr>): boolean => {
  if (p.k !== "member" || p.obj !== x || !GIVES_ITEMS.has(p.name)) return false
  const call = parent.get(p)
  return call?.k === "call" && call.callee === p
}

/** What partOnlyRead asks of the pack: every function by name, and each body's flow. */
interface PartReads {
  readonly isEngineName: (name: string) => boolean
  /** The names of the pack's classes (`class_name`s, inner classes): `Name.new(…)` runs its `_init`. */
  readonly packClasses: ReadonlySet<string>
  readonly functions: ReadonlyMap<string, ReadonlyArray<FunctionDecl>>
  readonly flowOf: (body: ReadonlyArray<Stmt>, cls: ClassDecl) => BodyFlow
  /** The class declaring a function of the pack. */
  readonly classOf: (f: FunctionDecl) => ClassDecl | null
  /** Some code may read a connection list (and so a connection's binds). */
  readonly listsConnections: boolean
  /** Some code or data may give an object another script, or none (PackReads.scriptsSwap). */
  readonly scriptsSwap: boolean
}

/** Where a body's values go that its expressions' parents do not show: conditions, and locals' initial values. */
interface BodyFlow {
  readonly parent: ReadonlyMap<Expr, Expr>
  readonly packMethods: ReadonlySet<string>
  readonly givesBack: ReadonlySet<string>
  /** Conditions of `if`, `elif` and `while`, `match` subjects, statements' values and values of locals typed to hold no container: only read. */
  readonly tested: ReadonlySet<Expr>
  /** The initial value of each `var` of the body, by the expression. */
  readonly initOf: ReadonlyMap<Expr, string>
  /** Every use of each name in the body. */
  readonly uses: ReadonlyMap<string, ReadonlyArray<Expr>>
  /** The containers the body's `for` loops walk (its lambdas' too), each with the loop's variable. */
  readonly loops: Loops
  /** The functions of the class declaring the body (a call on self reaches one of them, or the engine's method). */
  readonly own: ReadonlyArray<FunctionDecl>
}

const bodyFlow = (body: ReadonlyArray<Stmt>, all: ReadonlyArray<Expr>, parent: ReadonlyMap<Expr, Expr>, packMethods: ReadonlySet<string>, givesBack: ReadonlySet<string>, shadowed: ReadonlySet<string>, own: ReadonlyArray<FunctionDecl>): BodyFlow => {
  const tested = new Set<Expr>()
  const initOf = new Map<Expr, string>()
  const visit = (stmts: ReadonlyArray<Stmt>): void => {
    for (const st of stmts) {
      if (st.k === "var" && st.init !== null) initOf.set(st.init, st.name)
      // A local typed to hold no container (`var col: Color = COLORS[grade]`, a sixty-fifth hunt's) keeps no constant.
      if (st.k === "var" && st.init !== null && holdsNoContainer(st.type, shadowed)) tested.add(st.init)
      if (st.k === "if") for (const b of st.branches) if (b.cond !== null) tested.add(b.cond)
      if (st.k === "while") tested.add(st.cond)
      // A statement's value is dropped (`effects.call(card["effect"])`: a hundred-and-twelfth hunt's card game); not
      // where the statement stands for a member's value or a parameter's default, which keeps it.
      if (st.k === "expr" && !VALUES_KEPT.has(st)) tested.add(st.expr)
      // A match only tests its subject unless a pattern binds it (`var x:` is the same container, a sixty-third red team's).
      if (st.k === "match" && st.branches.every((b) => b.binds.length === 0)) tested.add(st.expr)
      if (st.k === "for" || st.k === "while") visit(st.body)
      if (st.k === "if" || st.k === "match") for (const b of st.branches) visit(b.body)
    }
  }
  visit(body)
  const uses = new Map<string, Array<Expr>>()
  for (const e of all) {
    if (e.k !== "id") continue
    const known = uses.get(e.name)
    if (known === undefined) uses.set(e.name, [e])
    else known.push(e)
  }
  const loops = new Map<Expr, string>()
  loopsOf(body, loops)
  for (const e of all) if (e.k === "lambda") loopsOf(e.fn.body, loops)
  return { parent, packMethods, givesBack, tested, initOf, uses, loops, own }
}

/**
 * Whether the value of `e` is only read (valueOnlyRead), also where its parent expression does not show it: a
 * condition only tests it (`if actor.get(status):`), and a local given it is only read where every use reads it or
 * gives the local another value (`var limit = actor.get(k)`, then `hp < limit`: a sixty-second hunt's battle).
 */
const onlyReadIn = (e: Expr, flow: BodyFlow): boolean => {
  if (flow.tested.has(e) || valueOnlyRead(e, flow.parent, flow.packMethods, flow.givesBack)) return true
  const local = flow.initOf.get(e)
  if (local === undefined) return false
  return (flow.uses.get(local) ?? []).every((u) => {
    const p = flow.parent.get(u)
    return flow.tested.has(u) || valueOnlyRead(u, flow.parent, flow.packMethods, flow.givesBack) || (p?.k === "bin" && p.op === "=" && p.left === u)
  })
}


/**
 * Whether an Array literal is only formatted (`"…" % [a, b]`), compared, or handed to a global function of SHOWS or to
 * `format` of a string literal: not to a function of the pack's of such a name, nor to a method of an object, which get
 * the same Array (a sixty-fifth red team's own `format(arr)` changing `arr[0]`).
 */
const literalOnlyShown = (literal: Expr, parent: ReadonlyMap<Expr, Expr>, packMethods: ReadonlySet<string>): boolean => {
  const p = parent.get(literal)
  if (p === undefined) return false
  if (p.k === "bin") return (p.op === "%" && p.right === literal) || ["==", "!=", "<", ">", "<=", ">=", "in", "not in"].includes(p.op)
  if (p.k !== "call" || p.callee === literal || packMethods.has(p.callee.k === "id" || p.callee.k === "member" ? p.callee.name : "")) return false
  return (p.callee.k === "id" && SHOWS.has(p.callee.name)) || (p.callee.k === "member" && p.callee.name === "format" && p.callee.obj.k === "str")
}

/** What the pack tells namesNotOnlyRead beyond its classes. */
export interface PackReads {
  readonly isEngineName: (name: string) => boolean
  /** Some script of the pack is Godot 4's (`max`, `min`, `clamp` of any Variant give it back). */
  readonly grammar4: boolean
  /** The pack's global classes and autoloads by name: they hide engine names (`JSON`) too. */
  readonly scriptNames: ReadonlySet<string>
  /** The declaration of a member of the autoload of that name (`League.teams`), where its node keeps its script; null otherwise. */
  readonly heldMember: (holder: string, name: string) => ClassDecl["vars"][number] | null
  /** Whether the class of an autoload or a global class of that name has a constant of that name (`Towers.ON_BUILD`). */
  readonly holdsConstant: (holder: string, name: string) => boolean
  /** The pack calls dict2inst (members set without their types). */
  readonly rawMemberWrites: boolean
  /** Code or data may give an object another script (`set_script`, a `script` property written, data attaching one). */
  readonly scriptsSwap: boolean
  /** Who calls the pack's functions (callers.ts), and the class declaration of a caller; null when not known. */
  readonly callers: { readonly index: CallerIndex; readonly declOf: (ref: ClassRef) => ClassDecl | null } | null
  /** Whether the pack's data sets a property of that name or has it in a property path (unset: any may be). */
  readonly dataNames?: (name: string) => boolean
  /** The pack's writes by a name not a literal, with the class and function each is in (value null: out of sight; PackModel.writesByName). */
  readonly namedWrites?: () => ReadonlyArray<{ readonly decl: ClassDecl; readonly f: FunctionDecl; readonly value: Expr | null }>
}

/** A function's body and parameters, with its name (null: accessors and a class's own expressions). */
interface Body {
  readonly name: string | null
  readonly body: ReadonlyArray<Stmt>
  readonly params: ReadonlyArray<Param>
}

/**
 * A function's body with what its parameters' default values hand it: `func fix(t = ON_BUILD)` called without `t`
 * gives `t` the constant's own Dictionary, which `t["go"] = …` then changes (an eighty-fifth red team's). A default is
 * judged as the same value passed by a call of the function on self (`fix(ON_BUILD)`, the parameters before it passed
 * as themselves), which counts as only read where every function of that name only reads that parameter (so `func
 * say(line, speaker = SPEAKERS["narrator"])` that only reads `speaker` keeps SPEAKERS followed: an eighty-sixth
 * hunt's); in an accessor without a name, as an assignment to the parameter.
 */
/** Statements made here of values something keeps (a member's or constant's initial value, a parameter's default). */
const VALUES_KEPT = new WeakSet<Stmt>()
const kept = (st: Stmt): Stmt => {
  VALUES_KEPT.add(st)
  return st
}

const withDefaults = (f: Pick<FunctionDecl, "params" | "body">, name: string | null): ReadonlyArray<Stmt> => [
  ...f.params.flatMap((p, i): ReadonlyArray<Stmt> => {
    if (p.init === null) return []
    const at = p.init.at
    const before = f.params.slice(0, i).map((q): Expr => ({ k: "id", name: q.name, at: q.at }))
    const expr: Expr = name === null ? { k: "bin", op: "=", left: { k: "id", name: p.name, at: p.at }, right: p.init, at } : { k: "call", callee: { k: "id", name, at }, args: [...before, p.init], at }
    return [kept({ k: "expr", expr, at })]
  }),
  ...f.body,
]

const bodiesOf = (d: ClassDecl): ReadonlyArray<Body> => {
  const own: ReadonlyArray<Expr> = [...d.consts.map((c) => c.init), ...d.vars.flatMap((v) => (v.init === null ? [] : [v.init])), ...d.extra]
  return [
    ...d.functions.map((f) => ({ name: f.name, body: withDefaults(f, f.name), params: f.params })),
    ...d.vars.flatMap((v) => v.accessors.map((f) => ({ name: null, body: withDefaults(f, null), params: f.params }))),
    { name: null, body: own.map((e) => kept({ k: "expr", expr: e, at: e.at })), params: [] },
  ]
}

const EMPTY_NAMES = (pack: Pick<PackFacts, "shadowed">): ValueNames => ({ values: new Set(), data: new Set(), numbers: new Set(), parsed: new Set(), shadowed: pack.shadowed, returns: new Map(), locals: new Set(), keysFrom: new Map(), classTyped: new Map() })

/**
 * What each closed function's parameters are given at every call the pack writes (callers.ts: no caller out of
 * sight, no dispatch by a name that is not a literal), judged in the caller with the callers' own parameters unknown.
 */
const givenAtCalls = (callers: NonNullable<PackReads["callers"]>, pack: PackFacts & { readonly constants: ReadonlySet<string> }, dispatchedNames: ReadonlySet<string> | null): ReadonlyMap<string, ReadonlyArray<Kind>> => {
  const { index, declOf } = callers
  const out = new Map<string, ReadonlyArray<Kind>>()
  // A dispatch by a name that is not a literal may reach any function, unless it reads a constant table of the pack
  // written in literals (directly or through a local given such a read: `var method = HANDLERS[kind]`, `call_deferred(method)`,
  // a hundred-and-eleventh hunt's breakout); the functions those strings name stay open.
  if (index.openAll || dispatchedNames === null) return out
  const namesIn = new Map<FunctionDecl, ValueNames>()
  const callerNames = (site: CallerSite): ValueNames => {
    const d = declOf(site.cls)
    if (site.fn === null || d === null) return EMPTY_NAMES(pack)
    let known = namesIn.get(site.fn)
    if (known === undefined) {
      known = valueNamesOf(site.fn.body, site.fn.params, parentsOf(site.fn.body).all, d, pack)
      namesIn.set(site.fn, known)
    }
    return known
  }
  for (const [name, sites] of index.calls) {
    if (index.open.has(name) || namedByString(index, name) || dispatchedNames.has(name) || sites.length === 0) continue
    const kinds: Array<Kind | undefined> = []
    for (const site of sites) {
      const names = callerNames(site)
      site.args.forEach((arg, i) => {
        const kind = kindOf(arg, names)
        const before = kinds[i]
        kinds[i] = before === undefined ? kind : both(before, kind)
      })
    }
    // A parameter no call passes holds its default, which valueNamesOf reads: no call constrains it.
    out.set(name, Array.from(kinds, (k) => (k === undefined ? "number" : k)))
  }
  return out
}

/** The strings of a table `Holder.NAME` names (an autoload's or a global class's constant), or null. */
type HeldTable = (holder: string, name: string) => ReadonlySet<string> | null
const NO_HELD_TABLES: HeldTable = () => null

/**
 * The strings of the literal table `e` reads (`STATES[s]`, `T.get(k)`, `T[a][b]`, `Towers.ON_BUILD[k]` through `held`;
 * not `T.get(k, default)`, which may give its default), or null; `hidden` says whether a local or parameter of that
 * name hides the constant (or the autoload).
 */
const tableOf = (e: Expr, hidden: (name: string) => boolean, tables: ReadonlyMap<string, ReadonlySet<string>>, held: HeldTable = NO_HELD_TABLES, locals: ReadonlyMap<string, ReadonlySet<string>> = new Map()): ReadonlySet<string> | null => {
  // A local given only reads of a table (`var info = POWERUPS[kind]`: ValueNames.keysFrom) holds one of its parts.
  if (e.k === "id") return hidden(e.name) ? (locals.get(e.name) ?? null) : (tables.get(e.name) ?? null)
  // `Towers.ON_BUILD`; a key read with Godot 3's member syntax on an entry or a local holding one (`POWERUPS[kind].apply`).
  if (e.k === "member" && e.obj.k === "id" && !hidden(e.obj.name)) return held(e.obj.name, e.name)
  if (e.k === "member") return e.obj.k === "index" || e.obj.k === "id" ? tableOf(e.obj, hidden, tables, held, locals) : null
  // An index of a string is one of its characters (`HANDLERS[k][0]`, `info[0]` of a local holding a string).
  if (e.k === "index") return withCharacters(tableOf(e.obj, hidden, tables, held, locals))
  if (e.k !== "call" || e.callee.k !== "member" || e.callee.name !== "get") return null
  // `T.get(k, "_default")`: an entry or the default string (a hundredth hunt's combo handlers).
  const fallback = e.args[1]
  if (e.args.length === 1 || (e.args.length === 2 && fallback?.k === "str")) {
    const found = tableOf(e.callee.obj, hidden, tables, held, locals)
    return found === null || fallback?.k !== "str" ? found : new Set([...found, fallback.value])
  }
  return null
}

const withCharacters = (strings: ReadonlySet<string> | null): ReadonlySet<string> | null => (strings === null ? null : new Set([...strings, ...[...strings].flatMap((t) => [...t])]))

/** What hides a constant in a function (its parameters and locals); nothing outside one. */
const hiddenIn = (fn: FunctionDecl | null) => (name: string): boolean => fn !== null && declares(fn, name)

/** Whether a function declares `name` (a parameter, a local, a loop's variable), hiding a constant of that name. */
const declares = (fn: FunctionDecl, name: string): boolean => {
  const inBody = (stmts: ReadonlyArray<Stmt>): boolean =>
    stmts.some(
      (st) =>
        ((st.k === "var" || st.k === "for") && st.name === name) ||
        ((st.k === "for" || st.k === "while") && inBody(st.body)) ||
        (st.k === "match" && st.branches.some((b) => b.binds.some((bind) => bind.name === name))) ||
        ((st.k === "if" || st.k === "match") && st.branches.some((b) => inBody(b.body))),
    )
  return fn.params.some((p) => p.name === name) || inBody(fn.body)
}

/**
 * The strings of a table written only with literals (strings, numbers, Arrays and Dictionaries of them); null when
 * any part is an expression: Godot folds `"ACT" + "IONS"` into a string no literal spells (a sixty-second red team's).
 */
const literalStrings = (e: Expr, preloads = false, isNumber: (x: Expr) => boolean = () => false): ReadonlySet<string> | null => {
  const out = new Set<string>()
  const visit = (x: Expr): boolean => {
    if (x.k === "str") out.add(x.value)
    if (x.k === "array") return x.items.every(visit)
    if (x.k === "dict") return x.entries.every(([k, v]) => visit(k) && visit(v))
    return x.k === "str" || x.k === "num" || x.k === "const" || (preloads && isPlainPreload(x)) || isNumber(x)
  }
  return visit(e) ? out : null
}

/** A literal Dictionary of numbers (`{"WIDE": 0, "MULTI": 1}`: a named enum as parser.ts #enum gives it). */
const isNumberTable = (e: Expr): boolean => e.k === "dict" && e.entries.every(([k, v]) => k.k === "str" && (v.k === "num" || (v.k === "unary" && v.op === "-" && v.expr.k === "num")))

/**
 * `preload("….gd")` or of a scene: a Script or a PackedScene, whose text as a name (`[GDScript:1234]`) is no constant's or
 * method's (Object::to_string asks a script only of an object it is attached to, which neither is).
 */
const isPlainPreload = (e: Expr): boolean => e.k === "preload" && e.path.k === "str" && /\.(gd|tscn|scn)$/.test(e.path.value)

/** Every `return` of a body (a lambda's aside), null for a bare one. */
const returnsOf = (stmts: ReadonlyArray<Stmt>, out: Array<Expr | null>): Array<Expr | null> => {
  for (const st of stmts) {
    if (st.k === "return") out.push(st.expr)
    if (st.k === "for" || st.k === "while") returnsOf(st.body, out)
    if (st.k === "if" || st.k === "match") for (const b of st.branches) returnsOf(b.body, out)
  }
  return out
}

/**
 * What each function the pack declares once gives back (`func current(): return cooldowns.duplicate()`), into
 * `returns` by its class (a call on self, the only one kindOf reads, reaches it: no other class of the pack overrides
 * it); grown a few rounds, as functions return what others return.
 */
const returnedKinds = (classes: ReadonlyArray<ClassDecl>, pack: PackFacts, given: ReadonlyMap<string, ReadonlyArray<Kind>>, walk: (body: ReadonlyArray<Stmt>) => Walk, returns: Map<ClassDecl, Map<string, Kind>>): void => {
  const count = new Map<string, number>()
  for (const d of classes) for (const f of d.functions) count.set(f.name, (count.get(f.name) ?? 0) + 1)
  const once = classes.flatMap((d) => d.functions.filter((f) => count.get(f.name) === 1).map((f) => ({ name: f.name, f, d })))
  for (let round = 0; round < 4; round++) {
    let grew = false
    for (const { name, f, d } of once) {
      const own = returns.get(d) ?? new Map<string, Kind>()
      returns.set(d, own)
      if (own.has(name)) continue
      const names = valueNamesOf(f.body, f.params, walk(f.body).all, d, pack, given.get(name) ?? [])
      let kind: Kind = "data"
      for (const r of returnsOf(f.body, [])) kind = both(kind, r === null ? "data" : kindOf(r, names))
      if (kind !== null) {
        own.set(name, kind)
        grew = true
      }
    }
    if (!grew) return
  }
}

/** The first use that keeps a name's constant from being followed: where it is, and what it does. */
export interface NotOnlyRead {
  readonly script: string
  readonly line: number
  readonly how: string
}

/** A class declaration of the pack with the key of its script (`res://a.gd`, or a scene's built-in script). */
export interface ScriptClass {
  readonly decl: ClassDecl
  readonly script: string
}

/**
 * The names (`NAME`, `x.NAME`) some use in the classes' code does not only read (see above), EVERY_NAME when all
 * are, each with the first such use (for a finding to name it).
 */
export const namesNotOnlyRead = (scriptClasses: ReadonlyArray<ScriptClass>, reads: PackReads): ReadonlyMap<string, NotOnlyRead> => {
  const classes = scriptClasses.map((c) => c.decl)
  const out = new Map<string, NotOnlyRead>()
  const mark = (name: string, script: string, e: Expr, how: string): void => {
    if (!out.has(name)) out.set(name, { script, line: e.at.line, how })
  }
  const packMethods = new Set(classes.flatMap((d) => d.functions.map((f) => f.name)))
  const walks = new Map<ReadonlyArray<Stmt>, Walk>()
  const walk = (body: ReadonlyArray<Stmt>): Walk => {
    const known = walks.get(body) ?? parentsOf(body)
    walks.set(body, known)
    return known
  }
  const shadowed = new Set([...reads.scriptNames, ...classes.flatMap((d) => [...(d.name === null ? [] : [d.name]), ...d.consts.map((c) => c.name), ...d.vars.map((v) => v.name), ...d.functions.map((f) => f.name), ...d.classes.flatMap((c) => (c.name === null ? [] : [c.name]))])])
  const nested = nestedTables(classes)
  const nestedLiterals = [...nested.values()].flat()
  const givesBack = reads.grammar4 ? GIVES_BACK : GIVES_BACK_3
  const flows = new Map<ReadonlyArray<Stmt>, BodyFlow>()
  const flowOf = (body: ReadonlyArray<Stmt>, cls: ClassDecl): BodyFlow => {
    const known = flows.get(body) ?? bodyFlow(body, walk(body).all, walk(body).parent, packMethods, givesBack, shadowed, cls.functions)
    flows.set(body, known)
    return known
  }
  const functions = new Map<string, Array<FunctionDecl>>()
  const declaring = new Map<FunctionDecl, ClassDecl>()
  for (const d of classes) {
    for (const f of d.functions) {
      functions.set(f.name, [...(functions.get(f.name) ?? []), f])
      declaring.set(f, d)
    }
  }
  const packClasses = new Set(classes.flatMap((d) => [...(d.name === null ? [] : [d.name]), ...d.classes.flatMap((c) => (c.name === null ? [] : [c.name]))]))
  // A connection's binds come back from its target's connection list (3.x Object::_get_signal_connection_list hands out
  // `binds`, the same Dictionaries): a pack naming one anyhow, or dispatching by names not known, may change a bound entry.
  const listsConnections =
    reads.callers === null ||
    reads.callers.index.openAll ||
    scriptClasses.some(({ decl }) => bodiesOf(decl).some(({ body }) => walk(body).all.some((e) => (e.k === "str" && e.value.includes("connection")) || ((e.k === "id" || e.k === "member") && CONNECTION_LISTS.has(e.name)))))
  const parts: PartReads = { isEngineName: reads.isEngineName, packClasses, functions, flowOf, classOf: (f) => declaring.get(f) ?? null, listsConnections, scriptsSwap: reads.scriptsSwap }
  // Names used otherwise than read, and strings naming them (below): a constant of literal data none changes so keeps data.
  for (const { decl: d, script } of scriptClasses) {
    for (const { body } of bodiesOf(d)) {
      const { all, parent } = walk(body)
      const flow = flowOf(body, d)
      for (const e of all) {
        if (e.k !== "id" && e.k !== "member") continue
        const literals = nested.get(e.name)
        if (literals === undefined ? !readsOnly(e, parent, flow.loops) : !partOnlyRead(e, literals, flow, parts, new Map())) mark(e.name, script, e, `uses ${e.name} otherwise than reading it`)
      }
      for (const e of all) {
        // A string naming it, or a property path through it (`set_indexed("LEVELS:a", v)` changes the constant in place).
        if (e.k === "str") for (const name of [e.value, ...e.value.split(":")]) mark(name, script, e, `spells ${JSON.stringify(name)} in a string (get(), set_indexed() and the like reach a constant by its name)`)
      }
    }
  }
  const returns = new Map<ClassDecl, Map<string, Kind>>()
  // Constants by name, pack-wide: a read of a name is judged by every constant of that name (tableOf looks a table up by
  // its name alone), so a name is a data constant only where each is, and a table's strings are those of all of them;
  // one that is not a table of literals (`{"a": "g" + "et"}`), or a member or an inner class of that name anywhere,
  // leaves the name out (a hundred-and-sixth red team's `MOVES` folded to "get" beside another class's literal `MOVES`).
  const declarations = new Map<string, Array<Expr>>()
  for (const d of classes) for (const c of d.consts) declarations.set(c.name, [...(declarations.get(c.name) ?? []), c.init])
  // So does an autoload, a global class or an engine class of that name: a class that declares no such constant reads
  // that instead (a hundred-and-seventh red team's autoload `KEYS` beside another class's `const KEYS`).
  const varNames = classes.flatMap((d) => d.vars.map((v) => v.name))
  const innerNames = classes.flatMap((d) => d.classes.flatMap((c) => (c.name === null ? [] : [c.name])))
  const notConstants = new Set([...varNames, ...innerNames, ...reads.scriptNames])
  const isConstantName = (name: string): boolean => !notConstants.has(name) && !reads.isEngineName(name)
  // A named enum (parser.ts #enum: a constant Dictionary of numbers) none changes, by a name no other kind of
  // declaration has: its members (`PowerUp.WIDE`) are numbers where a table uses them as keys or values (a hundred-and-
  // eleventh hunt's `{PowerUp.WIDE: "_power_wide"}`).
  const enumNames = new Set([...declarations].filter(([name, inits]) => !out.has(name) && isConstantName(name) && inits.every(isNumberTable)).map(([name]) => name))
  const isEnumMember = (x: Expr): boolean => x.k === "member" && x.obj.k === "id" && enumNames.has(x.obj.name)
  const none: ValueNames = { ...EMPTY_NAMES({ shadowed }), data: enumNames }
  const isData = (e: Expr): boolean => ["data", "number"].includes(kindOf(e, none) ?? "")
  const dataConstants = new Set([...declarations].filter(([name, inits]) => !out.has(name) && inits.every(isData)).map(([name]) => name))
  const unionOf = (inits: ReadonlyArray<Expr>, preloads: boolean): ReadonlySet<string> | null => {
    const all = new Set<string>()
    for (const init of inits) {
      const literal = literalStrings(init, preloads, isEnumMember)
      if (literal === null) return null
      for (const text of literal) all.add(text)
    }
    return all
  }
  const tablesOf = (keep: (name: string) => boolean, preloads: boolean): ReadonlyMap<string, ReadonlySet<string>> =>
    new Map([...declarations].filter(([name]) => keep(name) && isConstantName(name)).flatMap(([name, inits]) => {
      const all = unionOf(inits, preloads)
      return all === null ? [] : [[name, all] as const]
    }))
  // The strings of each constant table of literals and preloaded scripts or scenes none changes: what a method's name read
  // from one may be (readsByBuiltName). Not data (an element may be a Script), so no other reading takes them. Not where
  // scripts may be swapped: a script attached to the preloaded Script would give its text (`_to_string`).
  const preloadTables = tablesOf((name) => !reads.scriptsSwap && !out.has(name) && !dataConstants.has(name), true)
  // The strings of each constant table of data, for a name read from one (`STATES[state]`, `T.get(k)`, `T[a][b]`).
  const strings = tablesOf((name) => dataConstants.has(name), false)
  // A table of an autoload or a global class read by its name (`Towers.ON_BUILD[kind]`: a sixty-fifth hunt's tower
  // defence), where one class of the pack alone declares a constant of that name.
  // Counted once here: tableOf asks for every read of a table.
  const declaredOnce = new Set([...declarations].filter(([, inits]) => inits.length === 1).map(([name]) => name))
  // A member or constant of the holder's name in any class may be what a read by that name means instead of the autoload.
  const memberNames = new Set([...declarations.keys(), ...varNames])
  // So may an inner class of that name, which the compiler finds before an autoload or a global class (a hundred-and-third
  // red team's `class Towers` beside an autoload `Towers`): any class of the pack declaring one leaves the name unfollowed.
  const holderNames = new Set([...memberNames, ...innerNames])
  const held: HeldTable = (holder, name) => (reads.holdsConstant(holder, name) && !holderNames.has(holder) && declaredOnce.has(name) ? (strings.get(name) ?? null) : null)
  const tableStrings = (e: Expr, names: ValueNames): ReadonlySet<string> | null => tableOf(e, (name) => names.locals.has(name), strings, held, names.keysFrom)
  const nameTables: TableStrings = (e, names) => tableOf(e, (name) => names.locals.has(name), preloadTables)
  const heldMember = (holder: string, name: string): ClassDecl["vars"][number] | null => (holderNames.has(holder) ? null : reads.heldMember(holder, name))
  // The strings a dispatch's name reads from a constant table of data: also through a local of the function given a
  // part of one (`var info = CROPS[crop]`, `call(info["on_harvest"], …)`: a seventy-fourth hunt's farm), or a parameter
  // of a function the pack's calls alone reach (`make_button(item)`), each of which passes such a read.
  const index = reads.callers?.index ?? null
  const literalIn = (d: ClassDecl | null) => (c: string): Expr | null => (d !== null && dataConstants.has(c) && !d.vars.some((v) => v.name === c) ? (d.consts.find((x) => x.name === c)?.init ?? null) : null)
  // The functions whose parameters were taken to hold only what the calls in sight pass: no dispatch may name one.
  const takenClosed = new Set<string>()
  const paramParts: ParamParts = (f, at, depth) => {
    if (index === null || index.openAll || index.open.has(f.name) || f.name === "_init" || (functions.get(f.name)?.length ?? 0) !== 1 || namedByString(index, f.name)) return null
    const sites = index.calls.get(f.name) ?? []
    const out: Array<Expr> = []
    takenClosed.add(f.name)
    // A call leaving the parameter out gives it its default, read in the function's own class (`say(line, speaker =
    // SPEAKERS["narrator"])` called as `say("…")`: an eighty-sixth hunt's visual novel).
    const decl = functions.get(f.name)?.[0]
    const init = f.params[at]?.init ?? null
    const byDefault = (): Parts | null => (init === null || decl === undefined ? null : readParts(init, decl, literalIn(declaring.get(decl) ?? null), depth + 1, paramParts))
    for (const site of sites) {
      const arg = site.args[at]
      const parts = site.fn === null ? null : arg === undefined ? byDefault() : readParts(arg, site.fn, literalIn(reads.callers?.declOf(site.cls) ?? null), depth, paramParts)
      if (parts === null) return null
      out.push(...parts)
    }
    return out.length > 0 ? out : null
  }
  const namedStrings = (name: Expr, at: Omit<CallerSite, "args">): ReadonlyArray<string> | null => {
    // A name joined of such reads and literals (`method + "_end"`, `"_on_" + KINDS[k]`) is each of their joins.
    if (name.k === "str") return [name.value]
    if (name.k === "bin" && name.op === "+") {
      const left = namedStrings(name.left, at)
      const right = left === null ? null : namedStrings(name.right, at)
      if (left === null || right === null || left.length * right.length > MAX_JOINED_NAMES) return null
      return left.flatMap((l) => right.map((r) => l + r))
    }
    const table = tableOf(name, hiddenIn(at.fn), strings, held)
    if (table !== null) return [...table]
    if (at.fn === null) return null
    return partStrings(readParts(name, at.fn, literalIn(reads.callers?.declOf(at.cls) ?? null), 0, paramParts))
  }
  // A name built after a known start (`"_state_" + current`) reaches, of the pack's functions, those with that start:
  // the others keep the parameters their calls in sight give (a hundred-and-twelfth hunt's state machine beside a
  // breakout's closed `hit_brick(0)`).
  const startedFunctions = (name: Expr): ReadonlyArray<string> | null => {
    const start = builtStart(name)
    return start === null || start === "" ? null : [...functions.keys()].filter((f) => f.startsWith(start))
  }
  // An object's script may be swapped after the engine checked its type (set_script, a `script` write, dict2inst).
  // So may a method called by a name not a literal (`call("set_scr" + "ipt", s)`), or callers out of sight.
  const dispatched =
    index === null || index.openAll
      ? null
      : index.names.filter((n) => n.name.k !== "str" && (n.recv === null || n.recv.k !== "id" || !reads.isEngineName(n.recv.name))).map((n) => namedStrings(n.name, n.at) ?? startedFunctions(n.name))
  // Where every dispatch's name is known and none names a function taken to be closed, the functions no dispatch
  // names are reached by the calls in sight alone (a least fixpoint, as evaluate.ts #dispatchNames): their parameters
  // may be followed below too (a seventy-fifth hunt's `call(ab["method"], unit, target)` in `use_ability(unit, ab, …)`).
  const dispatchedNames = dispatched === null || dispatched.some((names) => names === null || names.some((t) => takenClosed.has(t))) ? null : new Set(dispatched.flatMap((names) => names ?? []))
  const dispatchesByBuiltName = dispatchedNames === null || dispatchedNames.has("set_script")
  const laterParamParts: ParamParts = (f, at, depth) => (dispatchedNames === null || dispatchedNames.has(f.name) ? null : paramParts(f, at, depth))
  /** tableStrings, and in a function's body also a read readParts follows to a table (through locals and parameters). */
  const bodyStrings = (fn: ReadFunction | null, d: ClassDecl) => (e: Expr, names: ValueNames): ReadonlySet<string> | null => {
    const table = tableStrings(e, names)
    if (table !== null || fn === null) return table
    const found = partStrings(readParts(e, fn, literalIn(d), 0, laterParamParts))
    return found === null ? null : new Set(found)
  }
  // Such an object's members are then those of its new script, whatever the name's type says.
  const retyped = reads.scriptsSwap || reads.rawMemberWrites || dispatchesByBuiltName
  const pack: PackFacts & { readonly constants: ReadonlySet<string> } = { shadowed, returns, rawMemberWrites: reads.rawMemberWrites, dataConstants, tables: strings, heldMember, heldTable: held, classMember: retyped ? () => null : classMemberOf(classes, memberNames), constants: new Set(classes.flatMap((d) => d.consts.map((c) => c.name))) }
  const given = reads.callers === null ? new Map<string, ReadonlyArray<Kind>>() : givenAtCalls(reads.callers, pack, dispatchedNames)
  const plainClasses = retyped ? new Set<string>() : plainClassesOf(classes, reads.isEngineName)
  returnedKinds(classes, pack, given, walk, returns)
  // Members only ever holding an Array or a Dictionary, read with the names of each body as they stand without them.
  // None where a write by a name not a literal (`set("t" + "bl", self)`) may give one of them an object: its value read
  // with the names of the function it is in (`flags[k] = start[k]` of parsed JSON gives none).
  const byName = reads.namedWrites?.() ?? null
  const givesNone = (w: { readonly decl: ClassDecl; readonly f: FunctionDecl; readonly value: Expr | null }): boolean =>
    givesNoObject(w.value) || (w.value !== null && ["data", "value", "number"].includes(kindOf(w.value, valueNamesOf(w.f.body, w.f.params, walk(w.f.body).all, w.decl, pack, given.get(w.f.name) ?? [])) ?? ""))
  // (A script attached at run time starts its members at their literals; a call by a name not known that may reach a
  // setter is such a write, its value out of sight.)
  const containerMembers = reads.rawMemberWrites || reads.dataNames === undefined || byName === null || !byName.every(givesNone) ? new Map<string, Kind>() : containerMembersOf(classes, (d) => bodiesOf(d).map(({ name, body, params }) => ({ all: walk(body).all, names: () => valueNamesOf(body, params, walk(body).all, d, pack, name === null ? [] : (given.get(name) ?? [])) })), reads.dataNames)
  const packFacts = { ...pack, containerMembers }
  for (const { decl: d, script } of scriptClasses) {
    // A bare call reaches the script's own method of that name, else its base's: the engine's Thread.start or
    // FuncRef.set_function only where the script may extend Thread or FuncRef (`extends Thread`, then `start(…)`).
    const base = d.extendsClause?._tag === "Class" ? d.extendsClause.names.at(-1) : undefined
    const selfMayDispatchLater = d.extendsClause === null || base === undefined || !reads.isEngineName(base) || LATER_DISPATCH_BASES.has(base)
    for (const { name, body, params } of bodiesOf(d)) {
      const { all, parent } = walk(body)
      const names = valueNamesOf(body, params, all, d, packFacts, name === null ? [] : (given.get(name) ?? []))
      const flow = flowOf(body, d)
      const bodyTables = bodyStrings(name === null ? null : { name, params, body }, d)
      const laterOnSelf = (method: string): boolean => selfMayDispatchLater && !d.functions.some((f) => f.name === method)
      for (const e of all) {
        // The constants by name (also a call of the method by name), or every member of an object (`inst2dict(self)`).
        if (e.k === "call" && (e.callee.k === "id" || e.callee.k === "member") && HANDS_OUT_ALL.has(e.callee.name)) mark(EVERY_NAME, script, e, `calls ${e.callee.name}(), which hands out every constant or member`)
        if (e.k === "str" && HANDS_OUT_ALL.has(e.value)) mark(EVERY_NAME, script, e, `names ${e.value}, which hands out every constant or member`)
        // Spelled in parts (`"get_script_" + "constant_map"`, `"get_script_%s" % "constant_map"`): the engine calls it
        // by the folded name (a hundred-and-tenth red team's `get_script().call(…)`, then `m.values()` changed).
        const folded = e.k === "bin" ? foldedName(e) : null
        if (folded !== null && HANDS_OUT_ALL.has(folded)) mark(EVERY_NAME, script, e, `names ${folded} in parts, which hands out every constant or member`)
        if (laterReadByBuiltName(e, names, bodyTables, nameTables, laterOnSelf)) mark(EVERY_NAME, script, e, `hands ${e.k === "call" && e.callee.k === "member" ? e.callee.name : "a call"}() a method's name built at run time, whose value comes back later out of sight`)
        if (readsByBuiltName(e, parent, reads.isEngineName, names, bodyTables, pack.constants, plainClasses, nameTables)) {
          if (!onlyReadIn(e, flow)) mark(EVERY_NAME, script, e, "reads by a name built at run time from something that may be an object, and changes or hands on what it read")
          // What it read may be a table of tables, whose inner ones it may hand on even where it only reads the table.
          else if (!partOnlyRead(e, nestedLiterals, flow, parts, new Map())) for (const name of nested.keys()) mark(name, script, e, "reads by a name built at run time from something that may be an object, and hands on an inner table of what it read")
        }
        // A property path the engine walks (set_indexed's, a track's, a tween's) takes each segment but the last from
        // the object before it (Object::set_indexed gets the first, then writes into what it gave back), so
        // `set_indexed("T" + "Y:op", v)` changes the constant TY in place (a sixty-eighth red team's, godot3-server 3.2.3).
        // A path that is one of the code's strings is judged by them (above); one built at run time, or such a method
        // named by a string (`call("set_indexed", NodePath(p), v)`), may reach any constant.
        if (e.k === "call" && (e.callee.k === "id" || e.callee.k === "member")) {
          for (const at of STORING_PATH_ARGUMENTS.get(e.callee.name) ?? []) {
            const path = e.args[at]
            if (path !== undefined && !isCodeString(path, names, tableStrings)) mark(EVERY_NAME, script, e, `hands ${e.callee.name}() a property path built at run time, which can write into a constant through its name`)
          }
        }
        // An Animation's track path written as a property (`a.set("tracks/0/path", p)`, `a["tracks/0/path"] = p`): the
        // value is a property path the player walks (a seventieth red team's); so is any property named at run time.
        const track = trackPathValue(e, names, d.extendsClause?._tag === "Class" && d.extendsClause.names[0] === "Animation")
        if (track !== null && !isCodeString(track, names, tableStrings) && kindOf(track, names) !== "number") mark(EVERY_NAME, script, e, "writes a value built at run time to a property that may be an Animation's track path, which can write into a constant through its name")
        if (e.k === "str" && STORING_PATH_ARGUMENTS.has(e.value)) mark(EVERY_NAME, script, e, `names the method ${JSON.stringify(e.value)}, which writes through a property path a later call may build`)
        // `get` named anywhere but as the method of call/callv/funcref (judged above by what their value does): an engine
        // API may call it later and hand its value back (`FuncRef.set_function("get")`, `Thread.start(self, "get", k)`
        // then `wait_to_finish()`: a fifty-eighth red team's), or a variable may carry the name there.
        if (e.k === "str" && BY_NAME.has(e.value) && !namesDispatchedMethod(e, parent)) mark(EVERY_NAME, script, e, `names the method ${JSON.stringify(e.value)} where a later call by that name may read a constant`)
      }
    }
  }
  return out
}
