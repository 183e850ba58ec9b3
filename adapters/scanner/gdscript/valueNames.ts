import type { ClassDecl, Expr, Param, Stmt, TypeRef } from "./ast.ts"
import { isAssignment } from "./exprWalk.ts"

// Which expressions of a function can only be values that are never an object (a number, a string, an Array or a
// Dictionary): a subscript of one reads an element, and a number names no property or constant. constantReads.ts
// asks, since any object may hand out a script's constants by a name built at run time.

/**
 * Types whose values are never an object (Godot 3 and 4). The engine holds a typed variable to its type (3.x
 * GDScriptInstance::set converts or refuses a value of another type; a typed local's assignment is checked).
 */
const VALUE_TYPES: ReadonlySet<string> = new Set([
  "Dictionary", "Array", "String", "StringName", "NodePath", "Vector2", "Vector2i", "Vector3", "Vector3i", "Vector4", "Vector4i", "Color", "Rect2", "Rect2i",
  "Transform", "Transform2D", "Transform3D", "Basis", "Quat", "Quaternion", "Plane", "AABB", "Projection", "int", "float", "bool",
  "PoolStringArray", "PoolByteArray", "PoolIntArray", "PoolRealArray", "PoolVector2Array", "PoolVector3Array", "PoolColorArray", "PackedStringArray",
  "PackedByteArray", "PackedInt32Array", "PackedInt64Array", "PackedFloat32Array", "PackedFloat64Array", "PackedVector2Array", "PackedVector3Array",
  "PackedVector4Array", "PackedColorArray",
])

const NUMBER_TYPES: ReadonlySet<string> = new Set(["int", "float", "bool"])

/** Global functions whose value is a number whatever they are given. */
const NUMBER_FUNCTIONS: ReadonlySet<string> = new Set(["randi", "randf", "rand_range", "randi_range", "randf_range", "int", "float", "len", "abs", "floor", "ceil", "round", "sign", "sqrt", "pow", "hash"])

/** Constructors of plain values (Variant types copied by value) that take numbers. */
const PLAIN_CONSTRUCTORS: ReadonlySet<string> = new Set(["Vector2", "Vector2i", "Vector3", "Vector3i", "Vector4", "Vector4i", "Rect2", "Rect2i", "Color", "Plane", "Quat", "Quaternion", "AABB", "Basis", "Transform2D", "Transform", "Transform3D"])

/** Global functions whose value is never an object: parsed JSON holds no object (str2var, which may, is not one). */
const VALUE_FUNCTIONS: ReadonlySet<string> = new Set(["parse_json", "to_json", "str", "range", "var2str", "PoolStringArray", "PackedStringArray"])

/** Methods of a value giving a number, and giving a value. */
const VALUE_NUMBER_METHODS: ReadonlySet<string> = new Set(["size", "length", "find", "rfind", "count", "hash", "to_int", "to_float"])
const VALUE_METHODS: ReadonlySet<string> = new Set(["duplicate", "keys", "values", "split", "join", "strip_edges", "to_lower", "to_upper", "substr", "left", "right", "replace", "get_file", "get_basename", "get_extension"])


/**
 * What an expression may hold: a number; data (no object at any depth: numbers, strings, parsed JSON, literals of
 * data, and their elements); a value that is never an object itself (a typed Dictionary may hold objects); a
 * JSONParseResult of the engine's JSON (whose `result` is data); or anything (null).
 */
export type Kind = "number" | "data" | "value" | "parsed" | null

/** Names of a body by what they hold (numbers are data, data are values), and the pack's names that hide the engine's. */
export interface ValueNames {
  readonly values: ReadonlySet<string>
  readonly data: ReadonlySet<string>
  readonly numbers: ReadonlySet<string>
  /** Locals holding the engine's JSONParseResult (`var p = JSON.parse(t)`, then `p.result`). */
  readonly parsed: ReadonlySet<string>
  /** Names the pack declares (constants, members, classes, functions, autoloads): `JSON` or `str` may then be the pack's. */
  readonly shadowed: ReadonlySet<string>
  /** What the class's own functions give back (`current_cooldowns()`), as far as known: see PackFacts. */
  readonly returns: ReadonlyMap<string, Kind>
  /** The body's own parameters and locals (they hide the class's constants and members). */
  readonly locals: ReadonlySet<string>
  /**
   * Loop variables over a constant table of data, given nothing else, and locals given only string literals or reads
   * of such a table (`var handler: String = HANDLERS[kind]`): each holds one of those strings.
   */
  readonly keysFrom: ReadonlyMap<string, ReadonlySet<string>>
  /** Names every declaration of which types with one class (`card: Card`): the engine holds them to it or null. */
  readonly classTyped: ReadonlyMap<string, string>
  /** What an autoload's member read by the autoload's name holds (`League.teams`), where its type says (PackFacts.heldMember). */
  readonly heldKind?: (holder: string, name: string) => Kind
}

/** What the whole pack tells valueNamesOf. */
export interface PackFacts {
  readonly shadowed: ReadonlySet<string>
  /** Per class, what its functions that no other class of the pack declares give back (a call on self reaches them). */
  readonly returns: ReadonlyMap<ClassDecl, ReadonlyMap<string, Kind>>
  /** The pack calls dict2inst, which sets members without their types (3.x gdscript_functions.cpp DICT2INST). */
  readonly rawMemberWrites: boolean
  /** Constants of literal data no code changes by their name: their elements are data. */
  readonly dataConstants: ReadonlySet<string>
  /** The strings of each of those constants. */
  readonly tables: ReadonlyMap<string, ReadonlySet<string>>
  /**
   * The declaration of a member of an autoload read by the autoload's name (`League.teams`), where that name is the
   * autoload's (no member or constant of the pack has it) and the autoload's node keeps its script; null otherwise.
   */
  readonly heldMember?: (holder: string, name: string) => ClassDecl["vars"][number] | null
  /** The strings of an autoload's or a global class's constant table read by its name (`ItemDB.ITEMS`), or null. */
  readonly heldTable?: (holder: string, name: string) => ReadonlySet<string> | null
  /**
   * The declaration of member `name` of an object of the pack's class `cls` (a name one class alone has), declared in it
   * or a base of the pack's: a subclass cannot declare it again (Godot 3's parser refuses a member a base has). Null otherwise.
   */
  readonly classMember?: (cls: string, name: string) => ClassDecl["vars"][number] | null
  /** Untyped members that never hold an object, with what they hold (containerMembers.ts). */
  readonly containerMembers?: ReadonlyMap<string, Kind>
}

const typedAs = (t: TypeRef | null, types: ReadonlySet<string>): boolean => t !== null && t.names.length === 1 && types.has(t.names[0]!)

const RANK: Readonly<Record<"number" | "data" | "value", number>> = { number: 0, data: 1, value: 2 }

/** The kind holding both (the wider one): a JSONParseResult meets only itself. */
export const both = (a: Kind, b: Kind): Kind => {
  if (a === null || b === null) return null
  if (a === "parsed" || b === "parsed") return a === b ? a : null
  return RANK[a] >= RANK[b] ? a : b
}

/** What `e` may hold, given the names known to hold values. */
export const kindOf = (e: Expr, names: ValueNames): Kind => {
  switch (e.k) {
    case "num":
      return "number"
    case "const":
      return e.value === null ? "data" : "number"
    case "str":
      return "data"
    case "array":
      return e.items.reduce<Kind>((k, item) => both(k, dataOf(kindOf(item, names))), "data")
    case "dict":
      return e.entries.reduce<Kind>((k, [key, v]) => both(k, both(dataOf(kindOf(key, names)), dataOf(kindOf(v, names)))), "data")
    case "id":
      return names.numbers.has(e.name) ? "number" : names.data.has(e.name) ? "data" : names.values.has(e.name) ? "value" : names.parsed.has(e.name) ? "parsed" : null
    case "index":
      // An element of data is data; of a value (a typed Dictionary), anything.
      return kindOf(e.obj, names) === "data" || kindOf(e.obj, names) === "number" ? "data" : null
    case "unary":
      return kindOf(e.expr, names) === "number" || e.op === "not" || e.op === "!" ? "number" : null
    case "ternary":
      return both(kindOf(e.then, names), kindOf(e.else, names))
    case "bin": {
      if (["==", "!=", "<", ">", "<=", ">=", "and", "or", "&&", "||", "in", "not in"].includes(e.op)) return "number"
      const left = kindOf(e.left, names)
      const right = kindOf(e.right, names)
      // Arithmetic with a number gives a number (or a vector, or stops the script: GDScript adds no string to a number);
      // `%` of anything else may be a string formatted (`"NA%s" % x`).
      if (e.op === "%") return left === "number" ? "number" : left === "data" ? "data" : null
      // Anything else keeps what both sides hold: `[self] + []` holds self, not data (a sixty-fifth red team's).
      if (e.op === "-" || e.op === "*" || e.op === "/" || e.op === "+") return left === "number" || right === "number" ? "number" : both(left, right)
      return null
    }
    case "call": {
      if (e.callee.k === "id" || (e.callee.k === "member" && e.callee.obj.k === "self")) {
        const returned = names.returns.get(e.callee.name)
        if (returned !== undefined || names.shadowed.has(e.callee.name)) return returned ?? null
        if (e.callee.k === "member") return null
        // A vector, colour or transform built of numbers is a value copied where it goes, holding no name (a seventy-ninth
        // hunt's sokoban moves `{"dir": Vector2(0, -1), "do": "_do_step"}`).
        if (PLAIN_CONSTRUCTORS.has(e.callee.name)) return e.args.every((a) => kindOf(a, names) === "number") ? "number" : null
        return NUMBER_FUNCTIONS.has(e.callee.name) ? "number" : VALUE_FUNCTIONS.has(e.callee.name) ? "data" : null
      }
      if (e.callee.k !== "member") return null
      // 3.x `JSON.parse(text)` (its `.result` below) and 4.x `JSON.parse_string(text)`, unless the pack names something JSON.
      if (e.callee.obj.k === "id" && e.callee.obj.name === "JSON" && !names.shadowed.has("JSON")) {
        return e.callee.name === "parse_string" ? "data" : e.callee.name === "parse" ? "parsed" : null
      }
      const receiver = kindOf(e.callee.obj, names)
      if (receiver === null || receiver === "parsed") return null
      return VALUE_NUMBER_METHODS.has(e.callee.name) ? "number" : VALUE_METHODS.has(e.callee.name) ? receiver : null
    }
    case "member": {
      // A constant of a plain value type (`Vector2.ZERO`, 3.x `Color.white`: an eighty-third hunt's wave table), where the
      // pack declares nothing of the type's name.
      if (e.obj.k === "id" && PLAIN_CONSTRUCTORS.has(e.obj.name) && !names.shadowed.has(e.obj.name) && !names.locals.has(e.obj.name)) return "number"
      // An autoload's typed member (`League.teams: Dictionary`): the engine holds it to its type as its own class's.
      const held = e.obj.k === "id" ? (names.heldKind?.(e.obj.name, e.name) ?? null) : null
      if (held !== null) return held
      const obj = kindOf(e.obj, names)
      if (obj === "parsed") return e.name === "result" ? "data" : e.name === "error" ? "number" : null
      // Godot 3 reads a Dictionary's key so (`recipe.needs`): an element of data is data.
      return obj === "data" ? "data" : null
    }
    default:
      return null
  }
}

/** The name a chain of reads starts from (`node` of `node["choices"][0]`), or null. */
const rootName = (e: Expr): string | null => (e.k === "id" ? e.name : e.k === "index" ? rootName(e.obj) : null)

/**
 * The strings of the constant table `e` reads (`T`, `T[a][b]`, `Holder.T`, `Holder.T[k]`), with the name that would
 * hide it (the table's, or the holder's), or null.
 */
const tableRead = (e: Expr, pack: PackFacts): { readonly name: string; readonly strings: ReadonlySet<string> } | null => {
  if (e.k === "index") return tableRead(e.obj, pack)
  if (e.k === "id") {
    const strings = pack.tables.get(e.name)
    return strings === undefined ? null : { name: e.name, strings }
  }
  const held = e.k === "member" && e.obj.k === "id" ? (pack.heldTable?.(e.obj.name, e.name) ?? null) : null
  return held === null || e.k !== "member" || e.obj.k !== "id" ? null : { name: e.obj.name, strings: held }
}

/** A kind as an element of a literal: numbers and data stay data, anything else makes the literal a value. */
const dataOf = (k: Kind): Kind => (k === "number" || k === "data" ? "data" : "value")

/** What a name is given: a declaration's type, or each value it is assigned (null: anything, as a loop's element). */
interface Given {
  /** The kind every typed declaration gives ("object" once one is not a value's type). */
  typed: Kind | "object"
  /** Declared without a type somewhere in the body, or typed with a default: its values count then. */
  untyped: boolean
  readonly values: Array<Expr | Known>
}

/** A value whose kind is known already (what a parameter is given at its calls; null: anything). */
interface Known {
  readonly known: Kind
}

const NOWHERE = { line: 0, column: 0 }
const ANYTHING: Known = { known: null }

/** The kind a declared type holds: numbers, data (strings, vectors, pool arrays), values (Dictionary, Array), or "object". */
/**
 * Whether a variable typed `t` can never hold an Array, a Dictionary or an object (`var col: Color = …`): the engine
 * refuses to put a container there (3.x checks a typed local's assignment), so a value given it is only read.
 */
export const holdsNoContainer = (t: TypeRef | null, shadowed: ReadonlySet<string>): boolean => t !== null && ["number", "data"].includes(typeKind(t, shadowed) ?? "")

/**
 * What a variable typed `t` holds. A type the pack names itself is its class (`class Quaternion`, `class_name Vector2i`,
 * a constant: Godot 3 has no such built-in type, so the engine holds the variable to the pack's class: a sixty-sixth red
 * team's), whatever the engine's own types are called.
 */
const typeKind = (t: TypeRef, shadowed: ReadonlySet<string>): Kind | "object" =>
  shadowed.has(t.names[0] ?? "") ? "object" : typedAs(t, NUMBER_TYPES) ? "number" : typedAs(t, CONTAINER_TYPES) ? "value" : typedAs(t, VALUE_TYPES) ? "data" : "object"

const CONTAINER_TYPES: ReadonlySet<string> = new Set(["Dictionary", "Array"])

/** The class a declared type names when it holds objects (`card: Card`; not `:= Card.new()`, whose `new()` may give anything). */
const classOf = (t: TypeRef | null, shadowed: ReadonlySet<string>): string | null => (t !== null && t.fromNew !== true && t.names.length === 1 && typeKind(t, shadowed) === "object" ? (t.names[0] ?? null) : null)

/** A member the engine holds to its declared type: no setter or getter, and no dict2inst in the pack. */
const heldToType = (v: ClassDecl["vars"][number], pack: PackFacts): boolean => v.accessors.length === 0 && (v.accessorNames?.length ?? 0) === 0 && !pack.rawMemberWrites

/**
 * The ValueNames of a function's body: its parameters typed so (and given a default of such a value: the engine does
 * not check a default against the type), or untyped and given such values at every call (`given`: constantReads.ts
 * givenAtCalls); its locals typed so, or, untyped, given only such values (every `var` and assignment of the name
 * in the body: locals are out of other code's reach); a `for` over `range(…)` counts numbers; and the class's members
 * typed so (without a setter or getter: other code may set an untyped member to anything; none when the pack calls
 * dict2inst) and constants of a literal, where the body does not declare the name.
 */
export const valueNamesOf = (body: ReadonlyArray<Stmt>, params: ReadonlyArray<Param>, all: ReadonlyArray<Expr>, d: ClassDecl, pack: PackFacts, given: ReadonlyArray<Kind> = []): ValueNames => {
  const named = new Map<string, Given>()
  const loops: Array<readonly [string, string, ReadonlySet<string>]> = []
  /** Loops over a part of a name (`for choice in node["choices"]`), by the loop's variable: followed once the name holds a table's strings. */
  const localLoops: Array<readonly [string, string]> = []
  const entry = (name: string): Given => {
    const known = named.get(name) ?? { typed: null, untyped: false, values: [] }
    named.set(name, known)
    return known
  }
  const classes = new Map<string, string | null>()
  const declare = (name: string, type: TypeRef | null, value: Expr | Known | null): void => {
    const g = entry(name)
    const cls = classOf(type, pack.shadowed)
    classes.set(name, classes.has(name) && classes.get(name) !== cls ? null : cls)
    const typed = type === null ? null : typeKind(type, pack.shadowed)
    if (typed === "object" || g.typed === "object") g.typed = "object"
    else if (typed !== null) g.typed = g.typed === null ? typed : both(g.typed, typed)
    if (type !== null) return
    g.untyped = true
    g.values.push(value ?? { k: "const", value: null, at: NOWHERE })
  }
  // Every value each local is given, typed or not (null: one not known, a parameter's, a loop's or a binding's).
  const givenTo = new Map<string, Array<Expr | null>>()
  const give = (name: string, value: Expr | null): void => {
    givenTo.set(name, [...(givenTo.get(name) ?? []), value])
  }
  const visit = (stmts: ReadonlyArray<Stmt>): void => {
    for (const st of stmts) {
      if (st.k === "var") declare(st.name, st.type, st.init)
      if (st.k === "var") give(st.name, st.init)
      if (st.k === "for") give(st.name, null)
      if (st.k === "match") for (const b of st.branches) for (const bind of b.binds) give(bind.name, null)
      if (st.k === "for") {
        const counts = st.iter.k === "num" || (st.iter.k === "call" && st.iter.callee.k === "id" && st.iter.callee.name === "range" && !pack.shadowed.has("range"))
        // A loop over a constant table (an autoload's too: `for syn in ItemDB.SYNERGIES`), or over an Array literal of
        // strings (`for p in ["position:x", "position:y"]`).
        const strings = st.iter.k === "array" && st.iter.items.length > 0 ? st.iter.items.flatMap((i) => (i.k === "str" ? [i.value] : [])) : []
        // Or over a part of one (`for choice in NODES[id]["choices"]`: a seventy-second hunt's dialogue): its strings.
        const root = tableRead(st.iter, pack)
        const table = st.iter.k === "array" && strings.length === st.iter.items.length ? new Set(strings) : root?.strings
        if (table !== undefined) loops.push([st.name, root?.name ?? "", table])
        else if (rootName(st.iter) !== null) localLoops.push([st.name, rootName(st.iter) ?? ""])
        declare(st.name, st.type, { known: counts ? "number" : table !== undefined ? "data" : null })
      }
      if (st.k === "match") for (const b of st.branches) for (const bind of b.binds) declare(bind.name, null, ANYTHING)
      if (st.k === "for" || st.k === "while") visit(st.body)
      if (st.k === "if" || st.k === "match") for (const b of st.branches) visit(b.body)
    }
  }
  params.forEach((p, i) => {
    declare(p.name, p.type, { known: given[i] ?? null })
    // A typed Dictionary or Array every call gives data (parsed JSON) holds data.
    const g = entry(p.name)
    if (p.type !== null && g.typed === "value" && given[i] === "data") g.typed = "data"
    // A default is not checked against the parameter's type, nor its class (3.x GDScriptFunction::call checks only what is passed).
    if (p.init !== null) {
      classes.set(p.name, null)
      g.untyped = true
      g.values.push(p.init)
    }
  })
  visit(body)
  for (const e of all) {
    if (e.k === "lambda") {
      for (const p of e.fn.params) declare(p.name, p.type, ANYTHING)
      visit(e.fn.body)
    }
    if (e.k === "bin" && e.left.k === "id" && named.has(e.left.name) && e.op.endsWith("=") && !["==", "!=", "<=", ">="].includes(e.op)) {
      entry(e.left.name).values.push(e.op === "=" ? e.right : { k: "bin", op: e.op.slice(0, -1), left: e.left, right: e.right, at: e.at })
      give(e.left.name, e.op === "=" ? e.right : null)
    }
    // A write into a local (`m[0] = "g"`) makes a String it holds another (3.x Variant::set puts the character: a
    // hundred-and-thirteenth red team's `var m = ACTIONS["a"]`, `m[0] = …`, then `call(m, …)`): no longer one of the
    // strings it was given. What it holds keeps its kind (a String stays one, a container stays one).
    const root = e.k === "bin" && e.left.k !== "id" && isAssignment(e.op) ? rootName(e.left) : null
    if (root !== null && named.has(root)) give(root, null)
  }
  const values = new Set<string>()
  const data = new Set<string>()
  const numbers = new Set<string>()
  const add = (name: string, kind: Kind): boolean => {
    if (kind === null || kind === "parsed") return false
    const before = values.size + data.size + numbers.size
    values.add(name)
    if (kind === "data" || kind === "number") data.add(name)
    if (kind === "number") numbers.add(name)
    return values.size + data.size + numbers.size > before
  }
  for (const v of d.vars) {
    if (named.has(v.name) || !heldToType(v, pack)) continue
    const kind = v.type === null ? (pack.containerMembers?.get(v.name) ?? "object") : typeKind(v.type, pack.shadowed)
    if (kind !== "object") add(v.name, kind)
  }
  for (const c of d.consts) {
    if (named.has(c.name)) continue
    if (pack.dataConstants.has(c.name)) add(c.name, "data")
    else if (c.init.k === "dict" || c.init.k === "array" || c.init.k === "str") add(c.name, "value")
  }
  // Untyped locals given other locals: grown from none until nothing changes (a name given itself stays out).
  const parsed = new Set<string>()
  // A loop variable over a table (or a literal of strings) that nothing else gives a value (and no local hides the
  // table) holds its strings.
  // A name several loops give values (`for p in [...]` twice) holds one of all their strings.
  const keysFrom = new Map<string, ReadonlySet<string>>()
  for (const [name] of loops) {
    const own = loops.filter(([other]) => other === name)
    if (keysFrom.has(name) || named.get(name)?.values.length !== own.length || own.some(([, table]) => named.has(table))) continue
    keysFrom.set(name, new Set(own.flatMap(([, , strings]) => [...strings])))
  }
  /** The strings `e` is: a literal, or a read of a constant table of data no local hides (`T[k]`, `T[a][b]`, `T.get(k)`, `Holder.T[k]`). */
  const stringsOf = (e: Expr | null): ReadonlySet<string> | null => {
    if (e === null) return null
    if (e.k === "str") return new Set([e.value])
    // `T.get(k, "_default")`: an entry or the default string.
    const fallback = e.k === "call" && e.args.length === 2 ? e.args[1] : undefined
    if (fallback !== undefined) {
      const found = fallback.k === "str" && e.k === "call" && e.callee.k === "member" && e.callee.name === "get" ? stringsOf({ ...e, args: e.args.slice(0, 1) }) : null
      return found === null || fallback.k !== "str" ? null : new Set([...found, fallback.value])
    }
    const table = e.k === "index" ? e.obj : e.k === "call" && e.callee.k === "member" && e.callee.name === "get" && e.args.length === 1 ? e.callee.obj : null
    if (table === null) return null
    if (table.k === "member" && table.obj.k === "id" && !named.has(table.obj.name)) return pack.heldTable?.(table.obj.name, table.name) ?? null
    return table.k === "id" && !named.has(table.name) ? (pack.tables.get(table.name) ?? null) : table.k === "index" ? stringsOf(table) : null
  }
  for (const [name, values] of givenTo) {
    if (keysFrom.has(name) || params.some((p) => p.name === name)) continue
    const sets = values.map(stringsOf)
    if (sets.length > 0 && sets.every((set) => set !== null)) keysFrom.set(name, new Set(sets.flatMap((set) => [...(set ?? [])])))
  }
  // A loop over a part of a local holding a table's strings holds them too (nested loops: until nothing changes), with
  // those of the loops of the name over a table (`for c in section["controls"]` and `for c in SECTIONS[0]["controls"]`:
  // a seventy-first hunt's settings screen).
  for (let grew = true; grew; ) {
    grew = false
    for (const [name] of localLoops) {
      const own = localLoops.filter(([other]) => other === name)
      const tables = loops.filter(([other]) => other === name)
      const roots = own.map(([, root]) => keysFrom.get(root))
      if (keysFrom.has(name) || params.some((p) => p.name === name) || named.get(name)?.values.length !== own.length + tables.length || roots.some((r) => r === undefined) || tables.some(([, table]) => named.has(table))) continue
      keysFrom.set(name, new Set([...roots.flatMap((r) => [...(r ?? [])]), ...tables.flatMap(([, , strings]) => [...strings])]))
      grew = true
    }
  }
  const classTyped = new Map([...classes].flatMap(([name, cls]) => (cls === null ? [] : [[name, cls] as const])))
  for (const v of d.vars) {
    const cls = classOf(v.type, pack.shadowed)
    if (cls !== null && !named.has(v.name) && heldToType(v, pack)) classTyped.set(v.name, cls)
  }
  const heldKind = (holder: string, name: string): Kind => {
    // A name typed with a class of the pack (`plot: Plot`, then `plot.durations`: a seventy-fourth hunt's farm).
    const cls = classTyped.get(holder)
    const v = cls !== undefined ? (pack.classMember?.(cls, name) ?? null) : named.has(holder) ? null : (pack.heldMember?.(holder, name) ?? null)
    const kind = v === null || v.type === null || !heldToType(v, pack) ? null : typeKind(v.type, pack.shadowed)
    return kind === "object" ? null : kind
  }
  const names: ValueNames = { values, data, numbers, parsed, shadowed: pack.shadowed, returns: pack.returns.get(d) ?? new Map(), locals: new Set(named.keys()), keysFrom, classTyped, heldKind }
  const kindOfValue = (v: Expr | Known): Kind => ("known" in v ? v.known : kindOf(v, names))
  for (let grew = true; grew; ) {
    grew = false
    for (const [name, g] of named) {
      if (g.typed === "object") continue
      // A name only ever declared with a type holds that type; one also declared without holds what it is given too.
      let kind: Kind | undefined = g.typed ?? undefined
      if (g.untyped) for (const v of g.values) kind = kind === undefined ? kindOfValue(v) : both(kind, kindOfValue(v))
      if (kind === "parsed" && !parsed.has(name)) {
        parsed.add(name)
        grew = true
      }
      if (kind !== undefined && add(name, kind)) grew = true
    }
  }
  return names
}
