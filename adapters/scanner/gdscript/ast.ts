// The syntax tree of one GDScript file: a class (the file), its members, and expressions and
// statements with their positions. Parentheses leave no node: `(OS).execute` is `OS.execute`, as
// for the engine.
import type { StringFlavor } from "./tokenizer.ts"

export interface Pos {
  readonly line: number
  readonly column: number
}

export type Expr =
  | { readonly k: "id"; readonly name: string; readonly at: Pos }
  | { readonly k: "self"; readonly at: Pos }
  /** `super` (4.x) or the leading `.` of a Godot 3 parent call (`.method()`). */
  | { readonly k: "super"; readonly at: Pos }
  | { readonly k: "str"; readonly value: string; readonly flavor: StringFlavor; readonly at: Pos }
  | { readonly k: "num"; readonly text: string; readonly at: Pos }
  | { readonly k: "const"; readonly value: boolean | null | number; readonly at: Pos }
  | { readonly k: "member"; readonly obj: Expr; readonly name: string; readonly at: Pos; readonly nameAt: Pos }
  | { readonly k: "call"; readonly callee: Expr; readonly args: ReadonlyArray<Expr>; readonly at: Pos }
  | { readonly k: "index"; readonly obj: Expr; readonly index: Expr; readonly at: Pos }
  | { readonly k: "bin"; readonly op: string; readonly left: Expr; readonly right: Expr; readonly at: Pos }
  | { readonly k: "unary"; readonly op: string; readonly expr: Expr; readonly at: Pos }
  | { readonly k: "ternary"; readonly cond: Expr; readonly then: Expr; readonly else: Expr; readonly at: Pos }
  | { readonly k: "array"; readonly items: ReadonlyArray<Expr>; readonly at: Pos }
  | { readonly k: "dict"; readonly entries: ReadonlyArray<readonly [Expr, Expr]>; readonly at: Pos }
  /** `$Path/To`, `$"path"`, `%Unique`: get_node on self. */
  | { readonly k: "node"; readonly path: string; readonly at: Pos }
  | { readonly k: "lambda"; readonly fn: FunctionDecl; readonly at: Pos }
  | { readonly k: "cast"; readonly expr: Expr; readonly type: TypeRef; readonly at: Pos }
  | { readonly k: "is"; readonly expr: Expr; readonly type: TypeRef; readonly at: Pos }
  /** `await x` (4.x), `yield(a, b)` (3.x: a call), `preload(x)` keeps its own node. */
  | { readonly k: "await"; readonly expr: Expr; readonly at: Pos }
  | { readonly k: "preload"; readonly path: Expr; readonly at: Pos }
  | { readonly k: "error"; readonly at: Pos }

/** A type written in code: `File`, `Outer.Inner`, `Array[int]`. */
export interface TypeRef {
  readonly names: ReadonlyArray<string>
  readonly at: Pos
  /** Inferred from `:= Name.new()` (a class's own `static func new()` may return anything). */
  readonly fromNew?: true
}

export type Stmt =
  | { readonly k: "var"; readonly name: string; readonly type: TypeRef | null; readonly init: Expr | null; readonly isConst: boolean; readonly at: Pos; readonly inferred?: true }
  | { readonly k: "expr"; readonly expr: Expr; readonly at: Pos }
  | { readonly k: "return"; readonly expr: Expr | null; readonly at: Pos }
  | { readonly k: "if"; readonly branches: ReadonlyArray<{ readonly cond: Expr | null; readonly body: ReadonlyArray<Stmt> }>; readonly at: Pos }
  | { readonly k: "while"; readonly cond: Expr; readonly body: ReadonlyArray<Stmt>; readonly at: Pos }
  | { readonly k: "for"; readonly name: string; readonly type: TypeRef | null; readonly iter: Expr; readonly body: ReadonlyArray<Stmt>; readonly at: Pos }
  | { readonly k: "match"; readonly expr: Expr; readonly branches: ReadonlyArray<MatchBranch>; readonly at: Pos }
  /** A class, function or anything else declared inside a block (kept so nothing in it goes unread). */
  | { readonly k: "nested"; readonly cls: ClassDecl; readonly at: Pos }
  | { readonly k: "other"; readonly at: Pos }

/**
 * A branch of `match`: the expressions its patterns compare with (constants, dictionary keys), the
 * variables its `var` patterns bind, each with the value the engine gives it, written as an expression on
 * the subject (`var x` the subject itself, `[_, var x]` the subject's `[1]`, `{"k": var x}` its `["k"]`:
 * `_generate_pattern` of 3.x gdscript_parser.cpp, the 4.x compiler's match patterns), its guard (4.x `when`).
 */
export interface MatchBranch {
  readonly patterns: ReadonlyArray<Expr>
  readonly binds: ReadonlyArray<{ readonly name: string; readonly value: Expr; readonly at: Pos }>
  readonly guard: Expr | null
  readonly body: ReadonlyArray<Stmt>
}

export interface Param {
  readonly name: string
  readonly type: TypeRef | null
  readonly init: Expr | null
  readonly at: Pos
}

export interface FunctionDecl {
  readonly name: string
  readonly params: ReadonlyArray<Param>
  readonly returnType?: TypeRef | null
  readonly body: ReadonlyArray<Stmt>
  readonly isStatic: boolean
  readonly at: Pos
}

export interface VarDecl {
  readonly name: string
  readonly type: TypeRef | null
  /** Declared with `:=`: typed by its value's type, which `type` gives only where it is a literal's. */
  readonly inferred?: true
  readonly init: Expr | null
  readonly at: Pos
  /** setget / set()/get() bodies (4.x property syntax) and their functions' names (3.x). */
  readonly accessors: ReadonlyArray<FunctionDecl>
  /** Functions of the class named as its setter or getter (3.x `setget a, b`; 4.x `set = a, get = b`). */
  readonly accessorNames?: ReadonlyArray<string>
  /** Of those, the getter's name (3.x `setget a, b`'s `b`; 4.x `get = b`): property reads of the member call it. */
  readonly getter?: string
  /** Exported (`export var`, `@export var`): scenes and resources can set it. */
  readonly exported?: true
}

export type ExtendsClause = { readonly _tag: "Class"; readonly names: ReadonlyArray<string>; readonly at: Pos } | { readonly _tag: "Path"; readonly path: string; readonly names: ReadonlyArray<string>; readonly at: Pos }

export interface ClassDecl {
  /** `class_name` of the file, or the name of an inner class; null for an unnamed file. */
  readonly name: string | null
  readonly nameAt: Pos | null
  readonly extendsClause: ExtendsClause | null
  readonly consts: ReadonlyArray<{ readonly name: string; readonly init: Expr; readonly at: Pos }>
  readonly vars: ReadonlyArray<VarDecl>
  readonly functions: ReadonlyArray<FunctionDecl>
  readonly classes: ReadonlyArray<ClassDecl>
  readonly signals: ReadonlyArray<string>
  /** Expressions of annotations, export hints and the like, read for completeness. */
  readonly extra: ReadonlyArray<Expr>
  /**
   * Set (to the marker `*rpc*`) when the class marks a function for remote calls (3.x `remote`, `master`,
   * `puppet`, … before `func`; 4.x `@rpc`): a peer then calls it by name with values of its own.
   */
  readonly calledByEngine?: ReadonlyArray<string>
  readonly at: Pos
}

export interface ScriptAst {
  readonly root: ClassDecl
  /** Set when the script nests deeper than the parser follows; the script is then not reviewable. */
  readonly tooDeep: boolean
}

/**
 * The values a Dictionary literal holds at a string key: every entry whose key is a string of that text, whatever its
 * prefix. Godot 3 keeps a String key and a NodePath key of the same text apart (`{"k": a, @"k": b}` has two entries,
 * and `d["k"]` reads the String's), so the text alone does not tell which entry a read gets: a ninety-fifth red team's
 * `{"verb": "exe" + "cute", @"verb": "get_name"}` was read as its last entry.
 */
export const valuesAtKey = (dict: Extract<Expr, { k: "dict" }>, key: string): ReadonlyArray<Expr> =>
  dict.entries.filter(([k]) => k.k === "str" && k.value === key).map(([, v]) => v)
