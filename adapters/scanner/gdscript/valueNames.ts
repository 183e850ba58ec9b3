import type { ClassDecl, Expr, Param, Stmt, TypeRef } from "./ast.ts"

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

/** Global functions whose value is never an object: parsed JSON holds no object (str2var, which may, is not one). */
const VALUE_FUNCTIONS: ReadonlySet<string> = new Set(["parse_json", "to_json", "str", "range", "var2str", "PoolStringArray", "PackedStringArray"])

/** Methods of a value giving a number, and giving a value. */
const VALUE_NUMBER_METHODS: ReadonlySet<string> = new Set(["size", "length", "find", "rfind", "count", "hash", "to_int", "to_float"])
const VALUE_METHODS: ReadonlySet<string> = new Set(["duplicate", "keys", "values", "split", "join", "strip_edges", "to_lower", "to_upper", "substr", "left", "right", "replace", "get_file", "get_basename", "get_extension"])

const NOWHERE = { line: 0, column: 0 }

/** What an expression may hold: a number, a value that is never an object, or anything (null). */
type Kind = "number" | "value" | null

/** Names of a body holding only numbers, and only values (numbers among them). */
export interface ValueNames {
  readonly values: ReadonlySet<string>
  readonly numbers: ReadonlySet<string>
}

const typedAs = (t: TypeRef | null, types: ReadonlySet<string>): boolean => t !== null && t.names.length === 1 && types.has(t.names[0]!)

const both = (a: Kind, b: Kind): Kind => (a === null || b === null ? null : a === "number" && b === "number" ? "number" : "value")

/** What `e` may hold, given the names known to hold values. */
export const kindOf = (e: Expr, names: ValueNames): Kind => {
  switch (e.k) {
    case "num":
      return "number"
    case "const":
      return e.value === null ? "value" : "number"
    case "str":
    case "array":
    case "dict":
      return "value"
    case "id":
      return names.numbers.has(e.name) ? "number" : names.values.has(e.name) ? "value" : null
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
      if (e.op === "%") return left === "number" ? "number" : left === "value" ? "value" : null
      if (e.op === "-" || e.op === "*" || e.op === "/" || e.op === "+") return left === "number" || right === "number" ? "number" : both(left, right)
      return null
    }
    case "call": {
      if (e.callee.k === "id") return NUMBER_FUNCTIONS.has(e.callee.name) ? "number" : VALUE_FUNCTIONS.has(e.callee.name) ? "value" : null
      if (e.callee.k !== "member") return null
      // 3.x `JSON.parse(text).result` is read as a member below; 4.x `JSON.parse_string(text)`.
      if (e.callee.obj.k === "id" && e.callee.obj.name === "JSON" && e.callee.name === "parse_string") return "value"
      if (kindOf(e.callee.obj, names) === null) return null
      return VALUE_NUMBER_METHODS.has(e.callee.name) ? "number" : VALUE_METHODS.has(e.callee.name) ? "value" : null
    }
    case "member":
      return e.name === "result" && e.obj.k === "call" && e.obj.callee.k === "member" && e.obj.callee.name === "parse" && e.obj.callee.obj.k === "id" && e.obj.callee.obj.name === "JSON" ? "value" : null
    default:
      return null
  }
}

/** What a name is given: a declaration's type, or each value it is assigned (null: anything, as a parameter or a loop's element). */
interface Given {
  /** The type every typed declaration gives ("object" once one is not a value's). */
  typed: Kind | "object"
  /** Declared without a type somewhere in the body: its values count then. */
  untyped: boolean
  readonly values: Array<Expr | null>
}

/**
 * The ValueNames of a function's body: its parameters typed so; its locals typed so, or, untyped, given only values
 * (every `var` and assignment of the name in the body: locals are out of other code's reach); a `for` over `range(…)`
 * counts numbers; and the class's members typed so (without a setter or getter: other code may set an untyped
 * member to anything) and constants of a literal, where the body does not declare the name.
 */
export const valueNamesOf = (body: ReadonlyArray<Stmt>, params: ReadonlyArray<Param>, all: ReadonlyArray<Expr>, d: ClassDecl): ValueNames => {
  const given = new Map<string, Given>()
  const entry = (name: string): Given => {
    const known = given.get(name) ?? { typed: null, untyped: false, values: [] }
    given.set(name, known)
    return known
  }
  const declare = (name: string, type: TypeRef | null, value: Expr | null | "unknown"): void => {
    const g = entry(name)
    const typed: Kind | "object" = type === null ? null : typedAs(type, NUMBER_TYPES) ? "number" : typedAs(type, VALUE_TYPES) ? "value" : "object"
    if (typed === "object" || g.typed === "object") g.typed = "object"
    else if (typed !== null) g.typed = g.typed === null || g.typed === typed ? typed : "value"
    if (type !== null) return
    g.untyped = true
    g.values.push(value === "unknown" ? null : (value ?? { k: "const", value: null, at: NOWHERE }))
  }
  const visit = (stmts: ReadonlyArray<Stmt>): void => {
    for (const st of stmts) {
      if (st.k === "var") declare(st.name, st.type, st.init)
      if (st.k === "for") {
        const counts = st.iter.k === "num" || (st.iter.k === "call" && st.iter.callee.k === "id" && st.iter.callee.name === "range")
        declare(st.name, st.type, counts ? { k: "num", text: "0", at: st.at } : "unknown")
      }
      if (st.k === "match") for (const b of st.branches) for (const bind of b.binds) declare(bind.name, null, "unknown")
      if (st.k === "for" || st.k === "while") visit(st.body)
      if (st.k === "if" || st.k === "match") for (const b of st.branches) visit(b.body)
    }
  }
  for (const p of params) declare(p.name, p.type, "unknown")
  visit(body)
  for (const e of all) {
    if (e.k === "lambda") {
      for (const p of e.fn.params) declare(p.name, p.type, "unknown")
      visit(e.fn.body)
    }
    if (e.k === "bin" && e.left.k === "id" && given.has(e.left.name) && e.op.endsWith("=") && !["==", "!=", "<=", ">="].includes(e.op)) {
      entry(e.left.name).values.push(e.op === "=" ? e.right : { k: "bin", op: e.op.slice(0, -1), left: e.left, right: e.right, at: e.at })
    }
  }
  const values = new Set<string>()
  const numbers = new Set<string>()
  for (const v of d.vars) {
    if (given.has(v.name) || v.accessors.length > 0 || (v.accessorNames?.length ?? 0) > 0) continue
    if (typedAs(v.type, VALUE_TYPES)) values.add(v.name)
    if (typedAs(v.type, NUMBER_TYPES)) numbers.add(v.name)
  }
  for (const c of d.consts) if (!given.has(c.name) && (c.init.k === "dict" || c.init.k === "array" || c.init.k === "str")) values.add(c.name)
  // Untyped locals given other locals: grown from none until nothing changes (a name given itself stays out).
  for (let grew = true; grew; ) {
    grew = false
    for (const [name, g] of given) {
      if (g.typed === "object") continue
      // A name only ever declared with a type holds that type; one also declared without holds what it is given too.
      const kind = g.untyped ? g.values.reduce<Kind>((k, v) => (v === null ? null : both(k, kindOf(v, { values, numbers }))), g.typed ?? "number") : g.typed
      if (kind !== null && !values.has(name)) {
        values.add(name)
        grew = true
      }
      if (kind === "number" && !numbers.has(name)) {
        numbers.add(name)
        grew = true
      }
    }
  }
  return { values, numbers }
}
