// A GDScript parser for both grammars (3.x and 4.x), after the structure of Godot's own
// (modules/gdscript/gdscript_parser.cpp): a class body of members, indented blocks of statements,
// and a precedence-climbing expression parser in which newlines inside brackets do not count.
// It never throws and always makes progress: on what the engine would reject, it skips a token and
// goes on, so whatever else the script says is still read.
import type { ClassDecl, Expr, ExtendsClause, FunctionDecl, MatchBranch, Param, Pos, ScriptAst, Stmt, TypeRef, VarDecl } from "./ast.ts"
import { scopeLocals } from "./blockScopes.ts"
import { nodePathText } from "../resource/nodePath.ts"
import { type Grammar, isNodePathFlavor, type Token, tokenize } from "./tokenizer.ts"

/** The type `:=` gives a variable whose value is a number or bool literal (`1`, `-0.5`, `true`), or null. */
const scalarType = (init: Expr): "int" | "float" | "bool" | null => {
  const e = init.k === "unary" && init.op === "-" ? init.expr : init
  if (e.k === "const" && typeof e.value === "boolean" && e === init) return "bool"
  if (e.k !== "num") return null
  return /^0[xXbB]/.test(e.text) || !/[.eE]/.test(e.text) ? "int" : "float"
}

/** Deeper nesting than this is not followed; the script is then reported as not reviewable. */
export const MAX_NESTING = 200

const ASSIGNMENT = new Set(["=", "+=", "-=", "*=", "/=", "%=", "**=", "&=", "|=", "^=", "<<=", ">>="])
const COMPARISON = new Set(["<", ">", "==", "!=", "<=", ">="])

/** Binary operators and their precedence (higher binds tighter). */
const BINARY: ReadonlyMap<string, number> = new Map([
  ["or", 3],
  ["||", 3],
  ["and", 4],
  ["&&", 4],
  ["in", 6],
  ["|", 8],
  ["^", 9],
  ["&", 10],
  ["<<", 11],
  [">>", 11],
  ["+", 12],
  ["-", 12],
  ["*", 13],
  ["/", 13],
  ["%", 13],
  ["**", 14],
])
const PREC_TERNARY = 2
const PREC_NOT = 5
const PREC_COMPARISON = 7
const PREC_UNARY = 15
const PREC_IS_AS = 16

const MEMBER_PREFIXES = new Set(["export", "onready", "static", "remote", "master", "puppet", "slave", "remotesync", "mastersync", "puppetsync", "sync", "tool"])

interface MutableClass {
  name: string | null
  nameAt: Pos | null
  extendsClause: ExtendsClause | null
  consts: Array<{ name: string; init: Expr; at: Pos }>
  vars: Array<VarDecl>
  functions: Array<FunctionDecl>
  classes: Array<ClassDecl>
  signals: Array<string>
  extra: Array<Expr>
  calledByEngine: Array<string>
  at: Pos
}

/** The 3.x keywords that let a remote peer call the function that follows (rpc), and 4.x's annotation. */
const RPC_MARKERS: ReadonlySet<string> = new Set(["remote", "master", "puppet", "slave", "remotesync", "mastersync", "puppetsync", "sync", "rpc"])
/** What `calledByEngine` holds for a class with a function open to remote calls. */
export const RPC_CALLED = "*rpc*"

const newClass = (at: Pos): MutableClass => ({ name: null, nameAt: null, extendsClause: null, consts: [], vars: [], functions: [], classes: [], signals: [], extra: [], calledByEngine: [], at })

/** Godot 3's keywords that "can always be literal" (GDScriptTokenizer::is_token_literal): names in expressions and declarations. */
const LITERAL_KEYWORDS: ReadonlySet<string> = new Set(["onready", "tool", "static", "export", "setget", "signal", "remote", "master", "puppet", "sync", "remotesync", "mastersync", "puppetsync"])

export const parseScript = (source: string, grammar: Grammar): ScriptAst => new Parser(tokenize(source, grammar), grammar).parse()

class Parser {
  readonly #tokens: ReadonlyArray<Token>
  readonly #grammar: Grammar
  #pos = 0
  /** An `export` (3.x) or `@export…` (4.x) was read: the next member variable can be set by scene data. */
  #exportNext = false
  /** Inside brackets newlines do not count; a lambda body inside brackets turns that off again. */
  readonly #multiline: Array<boolean> = [false]
  #lineIndent = 0
  #depth = 0
  #tooDeep = false

  constructor(tokens: ReadonlyArray<Token>, grammar: Grammar) {
    this.#tokens = tokens
    this.#grammar = grammar
  }

  parse(): ScriptAst {
    const root = newClass({ line: 1, column: 1 })
    this.#classBody(root, -1)
    return { root, tooDeep: this.#tooDeep }
  }

  // ---- the token cursor ----

  #skipNewlines(): void {
    if (!this.#multiline[this.#multiline.length - 1]) return
    while (this.#tokens[this.#pos]?.kind === "nl") {
      this.#lineIndent = this.#tokens[this.#pos]?.indent ?? 0
      this.#pos += 1
    }
  }

  #peek(): Token {
    this.#skipNewlines()
    return this.#tokens[this.#pos] ?? (this.#tokens[this.#tokens.length - 1] as Token)
  }

  #peekAt(offset: number): Token {
    this.#skipNewlines()
    let p = this.#pos
    let left = offset
    const multiline = this.#multiline[this.#multiline.length - 1]
    while (left > 0 && p < this.#tokens.length - 1) {
      p += 1
      if (!(multiline && this.#tokens[p]?.kind === "nl")) left -= 1
    }
    return this.#tokens[p] ?? (this.#tokens[this.#tokens.length - 1] as Token)
  }

  #next(): Token {
    const t = this.#peek()
    if (t.kind !== "eof") this.#pos += 1
    if (t.kind === "nl") this.#lineIndent = t.indent ?? 0
    return t
  }

  #is(text: string, kind: Token["kind"] = "op"): boolean {
    const t = this.#peek()
    return t.kind === kind && t.text === text
  }

  #isId(text: string): boolean {
    return this.#is(text, "id")
  }

  #accept(text: string, kind: Token["kind"] = "op"): boolean {
    if (!this.#is(text, kind)) return false
    this.#next()
    return true
  }

  #atStatementEnd(): boolean {
    const t = this.#peek()
    return t.kind === "nl" || t.kind === "eof" || (t.kind === "op" && t.text === ";")
  }

  #pos0(t: Token): Pos {
    return { line: t.line, column: t.column }
  }

  #withMultiline<A>(on: boolean, f: () => A): A {
    this.#multiline.push(on)
    try {
      return f()
    } finally {
      this.#multiline.pop()
    }
  }

  #nest<A>(fallback: () => A, f: () => A): A {
    if (this.#depth >= MAX_NESTING) {
      this.#tooDeep = true
      this.#next()
      return fallback()
    }
    this.#depth += 1
    try {
      return f()
    } finally {
      this.#depth -= 1
    }
  }

  // ---- blocks ----

  /**
   * Statements of a block after its `:`. A block on the same line holds what follows until the end
   * of the line; otherwise it is every following line indented deeper than the line that opened it.
   */
  #block(parse: (indent: number) => void, goesOn = false): void {
    const opener = this.#lineIndent
    if (!this.#withMultiline(false, () => this.#peek().kind === "nl")) {
      this.#withMultiline(false, () => {
        parse(opener)
        // 3.x: a block on its opener's line holds one statement; what follows a `;` is the enclosing block's
        // (GDScriptParser::_parse_block returns after the first line of a one-line block): `func f(): pass; const M = …`
        // is a constant of the class, `if c: pass; var m = …` a local of the function (a hundred-and-sixteenth red team's).
        // A class body or a match's branches (`goesOn`) go on instead with the rest of the line and every following
        // line indented as the opener, to the end of the enclosing block (_enter_indent_block pushes a copy of the
        // current level, and _parse_class and _parse_pattern_block leave it only at a line indented less): `class I:
        // var q = 1` then `const M = …` is I's constant, `match x: "a": pass` then `var m: OS.call(m, …)` a branch
        // binding m (the hundred-and-fifteenth and hundred-and-seventeenth red teams').
        if (this.#grammar === 3) {
          this.#accept(";")
          if (goesOn) this.#lines(opener, parse)
          return
        }
        while (this.#accept(";") && !this.#atStatementEnd()) parse(opener)
      })
      return
    }
    this.#withMultiline(false, () => {
      const first = this.#peek()
      const indent = first.indent ?? 0
      if (indent <= opener) return
      this.#next()
      this.#lines(indent, parse)
    })
  }

  /** Lines at `indent` or deeper, until a line less indented or the end. */
  #lines(indent: number, parse: (indent: number) => void, topLevel = false): void {
    for (;;) {
      const t = this.#peek()
      if (t.kind === "eof") return
      // A closing bracket ends a block (a lambda's inside a call); at the top it is stray and skipped.
      if (!topLevel && t.kind === "op" && (t.text === ")" || t.text === "]" || t.text === "}")) return
      if (t.kind === "nl") {
        if ((t.indent ?? 0) < indent) return
        this.#next()
        continue
      }
      const before = this.#pos
      parse(indent)
      if (this.#pos === before) this.#next()
    }
  }

  // ---- class bodies ----

  #classBody(cls: MutableClass, opener: number): void {
    if (opener < 0) {
      this.#withMultiline(false, () => this.#lines(0, () => this.#member(cls), true))
      return
    }
    this.#block(() => this.#member(cls), true)
  }

  #member(cls: MutableClass): void {
    const t = this.#peek()
    if (t.kind === "ann") {
      this.#next()
      if (t.text.startsWith("export")) this.#exportNext = true
      if (RPC_MARKERS.has(t.text)) cls.calledByEngine.push(RPC_CALLED)
      if (this.#is("(")) {
        const args = this.#callArguments()
        cls.extra.push(...args)
      }
      return
    }
    if (t.kind === "op" && t.text === ";") {
      this.#next()
      return
    }
    if (t.kind !== "id") {
      cls.extra.push(this.#expression())
      return
    }
    switch (t.text) {
      case "extends":
        this.#next()
        cls.extendsClause = this.#extendsClause()
        return
      case "class_name": {
        this.#next()
        const name = this.#peek()
        if (name.kind === "id") {
          this.#next()
          cls.name = name.text
          cls.nameAt = this.#pos0(name)
        }
        if (this.#accept(",")) cls.extra.push(this.#expression())
        if (this.#isId("extends")) {
          this.#next()
          cls.extendsClause = this.#extendsClause()
        }
        return
      }
      case "func":
        this.#next()
        cls.functions.push(this.#function(false))
        return
      case "class":
        this.#next()
        cls.classes.push(this.#innerClass(t))
        return
      case "signal":
        this.#next()
        if (this.#peek().kind === "id") cls.signals.push(this.#next().text)
        if (this.#is("(")) this.#params()
        return
      case "enum":
        this.#next()
        this.#enum(cls)
        return
      case "const": {
        this.#next()
        const v = this.#variable(true)
        if (v !== null) cls.consts.push({ name: v.name, init: v.init ?? { k: "error", at: v.at }, at: v.at })
        return
      }
      case "var": {
        this.#next()
        const v = this.#variable(false, true)
        if (v !== null) cls.vars.push(this.#exportNext ? { ...v, exported: true } : v)
        this.#exportNext = false
        return
      }
      default:
        if (MEMBER_PREFIXES.has(t.text) && this.#grammar === 3) {
          this.#next()
          if (RPC_MARKERS.has(t.text)) cls.calledByEngine.push(RPC_CALLED)
          if (t.text === "export") this.#exportNext = true
          // `export(int, 0, 10) var x`: the hint is read, then the declaration.
          if (t.text === "export" && this.#is("(")) cls.extra.push(...this.#callArguments())
          return
        }
        if (t.text === "static" || t.text === "remote" || t.text === "master" || t.text === "puppet") {
          this.#next()
          if (RPC_MARKERS.has(t.text)) cls.calledByEngine.push(RPC_CALLED)
          return
        }
        // Code outside any function (the engine rejects most of it) is still read, as an unnamed function.
        {
          const body: Array<Stmt> = []
          this.#statementInto(cls, body)
          if (body.length > 0) cls.functions.push({ name: "", params: [], body, isStatic: false, at: this.#pos0(t) })
        }
    }
  }

  #extendsClause(): ExtendsClause | null {
    const t = this.#peek()
    const at = this.#pos0(t)
    if (t.kind === "str") {
      this.#next()
      const names: Array<string> = []
      while (this.#accept(".")) if (this.#peek().kind === "id") names.push(this.#next().text)
      return { _tag: "Path", path: t.text, names, at }
    }
    if (t.kind !== "id") return null
    const names = [this.#next().text]
    while (this.#is(".") && this.#peekAt(1).kind === "id") {
      this.#next()
      names.push(this.#next().text)
    }
    return { _tag: "Class", names, at }
  }

  #innerClass(t: Token): ClassDecl {
    const cls = newClass(this.#pos0(t))
    const name = this.#peek()
    if (name.kind === "id") {
      this.#next()
      cls.name = name.text
      cls.nameAt = this.#pos0(name)
    }
    if (this.#isId("extends")) {
      this.#next()
      cls.extendsClause = this.#extendsClause()
    }
    if (this.#accept(":")) this.#nest(() => undefined, () => this.#classBody(cls, this.#lineIndent))
    return cls
  }

  #enum(cls: MutableClass): void {
    const name = this.#peek().kind === "id" ? this.#next() : null
    if (!this.#is("{")) return
    this.#withMultiline(true, () => {
      this.#next()
      let value = 0
      const members: Array<readonly [Expr, Expr]> = []
      while (!this.#is("}") && this.#peek().kind !== "eof") {
        const m = this.#next()
        if (m.kind !== "id") continue
        let init: Expr = { k: "num", text: String(value), at: this.#pos0(m) }
        if (this.#accept("=")) {
          init = this.#expression()
          const n = init.k === "num" ? Number(init.text) : Number.NaN
          if (Number.isFinite(n)) value = n
        }
        value += 1
        if (name === null) cls.consts.push({ name: m.text, init, at: this.#pos0(m) })
        members.push([{ k: "str", value: m.text, flavor: "", at: this.#pos0(m) }, init])
        this.#accept(",")
      }
      this.#accept("}")
      // A named enum is a constant Dictionary from its members' names to their values (`for k in T` gives the names).
      if (name !== null) cls.consts.push({ name: name.text, init: { k: "dict", entries: members, at: this.#pos0(name) }, at: this.#pos0(name) })
    })
  }

  #type(): TypeRef | null {
    const t = this.#peek()
    if (t.kind !== "id") return null
    const names = [this.#next().text]
    while (this.#is(".") && this.#peekAt(1).kind === "id") {
      this.#next()
      names.push(this.#next().text)
    }
    if (this.#is("[")) this.#withMultiline(true, () => {
      this.#next()
      this.#type()
      this.#accept("]")
    })
    return { names, at: this.#pos0(t) }
  }

  /** `name (: Type)? (:= | = expr)? (setget a, b)? (: accessors)?` after var/const. */
  #variable(isConst: boolean, member = false): VarDecl | null {
    const nameToken = this.#peek()
    if (nameToken.kind !== "id") return null
    this.#next()
    const at = this.#pos0(nameToken)
    let type: TypeRef | null = null
    let init: Expr | null = null
    let inferred = false
    const accessors: Array<FunctionDecl> = []
    const accessorNames: Array<string> = []
    const getter: { name?: string } = {}
    if (this.#accept(":")) {
      if (this.#is("=")) {
        this.#next()
        init = this.#expression()
        inferred = true
        // `:=` types the variable by its value, and the engine holds it to that type: a Dictionary or Array literal's.
        if (init.k === "dict" || init.k === "array") type = { names: [init.k === "dict" ? "Dictionary" : "Array"], at: init.at }
        // A member typed so by a number or bool holds only that type: the engine converts what other code sets it to
        // (3.x GDScriptInstance::set constructs the member's type from the value) or stops the script.
        const scalar = member ? scalarType(init) : null
        if (scalar !== null) type = { names: [scalar], at: init.at }
        // `:= Name.new()` is typed Name (a thirty-seventh hunt's `onready var name_edit := LineEdit.new()`).
        if (init.k === "call" && init.callee.k === "member" && init.callee.name === "new" && init.callee.obj.k === "id" && /^[A-Z]/.test(init.callee.obj.name)) type = { names: [init.callee.obj.name], at: init.at, fromNew: true }
      } else if (this.#peek().kind === "id") {
        // A name after the colon is the type, `set` and `get` too (3.x: no keywords; 4.x GDScriptParser::parse_variable
        // reads accessors after the colon only at the end of the line): `var y: set = OS.execute(…)` runs its value (a
        // hundred-and-twelfth red team's, with an inner class named `set`).
        type = this.#type()
      } else if (!isConst) {
        this.#accessors(accessors, accessorNames, getter)
      }
    }
    if (init === null && this.#accept("=")) init = this.#expression()
    if (this.#isId("setget")) {
      this.#next()
      // 3.x: `setget setter, getter` names functions of the class, which are read as members.
      if (this.#peek().kind === "id") accessorNames.push(this.#next().text)
      if (this.#accept(",") && this.#peek().kind === "id") accessorNames.push((getter.name = this.#next().text))
    }
    if (!isConst && this.#grammar === 4 && this.#accept(":")) this.#accessors(accessors, accessorNames, getter)
    return { name: nameToken.text, type, init, at, accessors, ...(inferred ? { inferred: true as const } : {}), ...(accessorNames.length === 0 ? {} : { accessorNames }), ...(getter.name === undefined ? {} : { getter: getter.name }) }
  }

  /** 4.x properties: `set(v): …`, `get: …`, or `set = f, get = g`, on the same line or indented below. */
  #accessors(into: Array<FunctionDecl>, names: Array<string>, getter: { name?: string }): void {
    const one = (): void => {
      const t = this.#peek()
      if (t.kind !== "id" || (t.text !== "set" && t.text !== "get")) {
        this.#next()
        return
      }
      this.#next()
      if (this.#accept("=")) {
        const named = this.#expression()
        if (named.k === "id") names.push(named.name)
        if (named.k === "id" && t.text === "get") getter.name = named.name
        this.#accept(",")
        return
      }
      const params = this.#is("(") ? this.#params() : []
      if (this.#accept(":")) into.push({ name: t.text, params, body: this.#body(), isStatic: false, at: this.#pos0(t) })
    }
    this.#block(() => {
      one()
      this.#accept(",")
    })
  }

  /**
   * The name a 3.x parameter or `for` variable is bound to: none for a keyword the tokenizer takes as a name "always"
   * (is_token_literal), which the parser accepts there but reads with get_token_identifier, an empty name for any
   * token that is no identifier. The body's `static` then reads the class's member of that name, as in the engine (a
   * hundred-and-nineteenth red team's `var remote = "execute"` then `for remote in ["get_name"]: OS.call(remote, …)`).
   */
  #boundName(t: Token): string {
    return this.#grammar === 3 && LITERAL_KEYWORDS.has(t.text) ? "" : t.text
  }

  #params(): Array<Param> {
    const params: Array<Param> = []
    this.#withMultiline(true, () => {
      if (!this.#accept("(")) return
      while (!this.#is(")") && this.#peek().kind !== "eof") {
        const t = this.#next()
        if (t.kind !== "id") continue
        let type: TypeRef | null = null
        let init: Expr | null = null
        if (this.#accept(":")) {
          if (this.#is("=")) {
            this.#next()
            init = this.#expression()
          } else type = this.#type()
        }
        if (init === null && this.#accept("=")) init = this.#expression()
        params.push({ name: this.#boundName(t), type, init, at: this.#pos0(t) })
        if (!this.#accept(",")) break
      }
      while (!this.#is(")") && this.#peek().kind !== "eof") this.#next()
      this.#accept(")")
    })
    return params
  }

  #function(isStatic: boolean): FunctionDecl {
    const nameToken = this.#peek()
    const name = nameToken.kind === "id" ? this.#next().text : ""
    const at = this.#pos0(nameToken)
    const params = this.#params()
    // 3.x `func _init(a).(0, a):` passes arguments to the parent constructor before the body runs: kept as the
    // body's first statement, a parent call `._init(0, a)`, so every rule sees what the parameters are handed to (a
    // seventy-second red team's `.(0, a)` handed a constant's inner table to the base's `_init`, which kept it).
    let superCall: Stmt | null = null
    if (this.#grammar === 3 && this.#is(".") && this.#peekAt(1).text === "(") {
      const dot = this.#next()
      const dotAt = this.#pos0(dot)
      const args = this.#callArguments()
      superCall = { k: "expr", expr: { k: "call", callee: { k: "member", obj: { k: "super", at: dotAt }, name: name, at: dotAt, nameAt: dotAt }, args, at: dotAt }, at: dotAt }
    }
    const returnType = this.#accept("->") ? this.#type() : null
    const body = this.#accept(":") ? this.#body() : []
    return scopeLocals({ name, params, returnType, body: superCall === null ? body : [superCall, ...body], isStatic, at })
  }

  #body(): ReadonlyArray<Stmt> {
    const body: Array<Stmt> = []
    this.#nest(
      () => undefined,
      () => this.#block(() => this.#statementInto(null, body)),
    )
    return body
  }

  // ---- statements ----

  /** One statement; class-level code (`cls` set) keeps functions and classes declared in it. */
  #statementInto(cls: MutableClass | null, out: Array<Stmt>): void {
    const t = this.#peek()
    const at = this.#pos0(t)
    if (t.kind === "ann") {
      this.#next()
      if (RPC_MARKERS.has(t.text)) cls?.calledByEngine.push(RPC_CALLED)
      if (this.#is("(")) for (const e of this.#callArguments()) out.push({ k: "expr", expr: e, at })
      return
    }
    if (t.kind === "op" && t.text === ";") {
      this.#next()
      return
    }
    if (t.kind === "id") {
      switch (t.text) {
        case "pass":
        case "break":
        case "continue":
        case "breakpoint":
          this.#next()
          out.push({ k: "other", at })
          return
        case "return":
          this.#next()
          out.push({ k: "return", expr: this.#atStatementEnd() ? null : this.#expression(), at })
          return
        case "var":
        case "const": {
          this.#next()
          const v = this.#variable(t.text === "const")
          if (v !== null) out.push({ k: "var", name: v.name, type: v.type, init: v.init, isConst: t.text === "const", at: v.at, ...(v.inferred === true ? { inferred: true as const } : {}) })
          for (const fn of v?.accessors ?? []) out.push(...fn.body)
          return
        }
        case "if": {
          const ifIndent = this.#lineIndent
          this.#next()
          const branches: Array<{ cond: Expr | null; body: ReadonlyArray<Stmt> }> = []
          const cond = this.#expression()
          this.#accept(":")
          branches.push({ cond, body: this.#body() })
          for (;;) {
            const save = this.#pos
            const saveIndent = this.#lineIndent
            // elif/else sit on a following line at the `if`'s own indentation.
            const nl = this.#withMultiline(false, () => this.#peek())
            if (nl.kind === "nl" && (nl.indent ?? 0) === ifIndent) this.#withMultiline(false, () => this.#next())
            if (this.#isId("elif")) {
              this.#next()
              const c = this.#expression()
              this.#accept(":")
              branches.push({ cond: c, body: this.#body() })
            } else if (this.#isId("else")) {
              this.#next()
              this.#accept(":")
              branches.push({ cond: null, body: this.#body() })
              break
            } else {
              this.#pos = save
              this.#lineIndent = saveIndent
              break
            }
          }
          out.push({ k: "if", branches, at })
          return
        }
        case "while": {
          this.#next()
          const cond = this.#expression()
          this.#accept(":")
          out.push({ k: "while", cond, body: this.#body(), at })
          return
        }
        case "for": {
          this.#next()
          const nameToken = this.#next()
          const type = this.#accept(":") ? this.#type() : null
          if (this.#isId("in")) this.#next()
          const iter = this.#expression()
          this.#accept(":")
          out.push({ k: "for", name: nameToken.kind === "id" ? this.#boundName(nameToken) : "", type, iter, body: this.#body(), at })
          return
        }
        case "match": {
          this.#next()
          const expr = this.#expression()
          this.#accept(":")
          const branches: Array<MatchBranch> = []
          const branchInto = (): void => {
            const branch = { patterns: [] as Array<Expr>, binds: [] as Array<MatchBranch["binds"][number]> }
            do this.#pattern(expr, branch)
            while (this.#accept(","))
            const guard = this.#isId("when") ? (this.#next(), this.#expression()) : null
            this.#accept(":")
            branches.push({ ...branch, guard, body: this.#body() })
          }
          this.#nest(
            () => undefined,
            () => this.#block(branchInto, true),
          )
          out.push({ k: "match", expr, branches, at })
          return
        }
        case "func":
        case "static":
        case "class":
        case "signal":
        case "enum":
        case "extends":
        case "class_name": {
          // In a 3.x function `static` and `signal` are names like any other (GDScriptTokenizer::is_token_literal takes
          // them "always"; _parse_block has no case for them): `var static = "get_name"` then `static = "execute"` is
          // an assignment (a hundred-and-eighteenth red team's, read as a declaration and dropped).
          if (this.#grammar === 3 && cls === null && (t.text === "static" || t.text === "signal")) break
          // Declarations where a statement belongs: read into a class so their code is still seen.
          const holder = cls ?? newClass(at)
          if (t.text === "static") {
            this.#next()
            if (this.#isId("func")) {
              this.#next()
              holder.functions.push(this.#function(true))
            }
          } else this.#member(holder)
          if (cls === null) out.push({ k: "nested", cls: holder, at })
          return
        }
        default:
          break
      }
    }
    out.push({ k: "expr", expr: this.#expression(), at })
  }

  // ---- expressions ----

  #expression(minPrecedence = 0): Expr {
    return this.#nest(
      () => ({ k: "error", at: this.#pos0(this.#peek()) }),
      () => this.#binary(minPrecedence),
    )
  }

  #binary(minPrecedence: number): Expr {
    let left = this.#unary()
    for (;;) {
      const t = this.#peek()
      const at = this.#pos0(t)
      if (t.kind === "op" && ASSIGNMENT.has(t.text) && minPrecedence <= 1) {
        this.#next()
        const right = this.#expression(1)
        left = { k: "bin", op: t.text, left, right, at: left.at }
        continue
      }
      if (t.kind === "id" && t.text === "if" && minPrecedence <= PREC_TERNARY) {
        // `a if cond else b`; at statement start `if` is a statement, never reached here.
        this.#next()
        const cond = this.#expression(PREC_TERNARY + 1)
        const otherwise = this.#isId("else") ? (this.#next(), this.#expression(PREC_TERNARY)) : ({ k: "error", at } as Expr)
        left = { k: "ternary", cond, then: left, else: otherwise, at: left.at }
        continue
      }
      if (t.kind === "op" && COMPARISON.has(t.text) && minPrecedence <= PREC_COMPARISON) {
        this.#next()
        left = { k: "bin", op: t.text, left, right: this.#expression(PREC_COMPARISON + 1), at: left.at }
        continue
      }
      if (t.kind === "id" && t.text === "not" && this.#peekAt(1).text === "in" && minPrecedence <= 6) {
        this.#next()
        this.#next()
        left = { k: "bin", op: "not in", left, right: this.#expression(7), at: left.at }
        continue
      }
      if ((t.kind === "id" && (t.text === "is" || t.text === "as")) && minPrecedence <= PREC_IS_AS) {
        this.#next()
        // 3.x reads the right of `is` as any expression and tests what it evaluates to (a type not known until run
        // time passes the parser): `n is arr[OS.execute(…)]` runs the call (a hundred-and-thirteenth red team's). A
        // dotted name is the type; anything else is kept as an operand the rules walk.
        if (t.text === "is" && this.#grammar === 3) {
          const right = this.#expression(PREC_IS_AS + 1)
          const names = dottedNames(right)
          left = names === null ? { k: "bin", op: "is", left, right, at: left.at } : { k: "is", expr: left, type: { names, at: right.at }, at: left.at }
          continue
        }
        if (t.text === "is" && this.#isId("not")) this.#next()
        const type = this.#type() ?? { names: [], at }
        left = t.text === "is" ? { k: "is", expr: left, type, at: left.at } : { k: "cast", expr: left, type, at: left.at }
        continue
      }
      const precedence = (t.kind === "op" || t.kind === "id") ? BINARY.get(t.text) : undefined
      if (precedence === undefined || precedence < minPrecedence) return left
      if (t.kind === "id" && t.text !== "and" && t.text !== "or" && t.text !== "in") return left
      this.#next()
      // `**` is right-associative; the rest left-associative.
      const right = this.#expression(t.text === "**" ? precedence : precedence + 1)
      left = { k: "bin", op: t.text, left, right, at: left.at }
    }
  }

  #unary(): Expr {
    const t = this.#peek()
    const at = this.#pos0(t)
    if (t.kind === "op" && (t.text === "-" || t.text === "+" || t.text === "~" || t.text === "!")) {
      this.#next()
      return { k: "unary", op: t.text, expr: this.#expression(t.text === "!" ? PREC_NOT : PREC_UNARY), at }
    }
    if (t.kind === "id" && t.text === "not") {
      this.#next()
      return { k: "unary", op: "not", expr: this.#expression(PREC_NOT), at }
    }
    if (t.kind === "id" && t.text === "await" && this.#grammar === 4) {
      this.#next()
      return { k: "await", expr: this.#expression(PREC_UNARY), at }
    }
    return this.#postfix(this.#primary())
  }

  #postfix(start: Expr): Expr {
    let e = start
    for (;;) {
      const t = this.#peek()
      if (t.kind !== "op") return e
      if (t.text === ".") {
        this.#next()
        const name = this.#peek()
        if (name.kind !== "id") return e
        this.#next()
        e = { k: "member", obj: e, name: name.text, at: e.at, nameAt: this.#pos0(name) }
      } else if (t.text === "(") {
        e = { k: "call", callee: e, args: this.#callArguments(), at: e.at }
      } else if (t.text === "[") {
        const index = this.#withMultiline(true, () => {
          this.#next()
          const i = this.#is("]") ? ({ k: "error", at: this.#pos0(t) } as Expr) : this.#expression()
          while (!this.#is("]") && this.#peek().kind !== "eof") this.#next()
          this.#accept("]")
          return i
        })
        e = { k: "index", obj: e, index, at: e.at }
      } else return e
    }
  }

  #callArguments(): Array<Expr> {
    return this.#withMultiline(true, () => {
      const args: Array<Expr> = []
      this.#next()
      while (!this.#is(")") && this.#peek().kind !== "eof") {
        const before = this.#pos
        args.push(this.#expression())
        if (!this.#accept(",") && !this.#is(")")) {
          if (this.#pos === before) this.#next()
          // Missing comma: the engine rejects it; keep reading what follows as more arguments.
        }
      }
      this.#accept(")")
      return args
    })
  }

  #nodePath(at: Pos): Expr {
    // `$a/b`, `$"a/b"`, `$%Unique/child`, `$/root`: names, keywords and strings joined by `/`.
    let path = ""
    let needName = true
    for (;;) {
      const t = this.#peek()
      if (needName && t.kind === "str") path += this.#next().text
      else if (needName && t.kind === "id") path += this.#next().text
      else if (needName && t.kind === "op" && t.text === "%" && this.#grammar === 4) {
        this.#next()
        path += "%"
        continue
      } else if (t.kind === "op" && t.text === "/" && (needName ? path === "" : true)) {
        this.#next()
        path += "/"
        needName = true
        continue
      } else if (needName && t.kind === "op" && t.text === ".." ) {
        this.#next()
        path += ".."
      } else break
      needName = false
    }
    return { k: "node", path, at }
  }

  #primary(): Expr {
    const t = this.#peek()
    const at = this.#pos0(t)
    switch (t.kind) {
      case "str":
        this.#next()
        // A NodePath's value is its normalised path, what it is wherever it becomes a String (`@"execute/"` is
        // `execute`: a ninety-sixth red team's `OS.callv(@"execute/", …)`; resource/nodePath.ts).
        return { k: "str", value: isNodePathFlavor(t.flavor, this.#grammar) ? nodePathText(t.text) : t.text, flavor: t.flavor ?? "", at }
      case "num":
        this.#next()
        return { k: "num", text: t.text, at }
      case "id":
        return this.#identifierLike(t, at)
      case "op":
        return this.#operatorPrimary(t, at)
      default:
        // A newline or the end where an expression was expected: nothing is consumed here.
        return { k: "error", at }
    }
  }

  #identifierLike(t: Token, at: Pos): Expr {
    switch (t.text) {
      case "true":
      case "false":
        this.#next()
        return { k: "const", value: t.text === "true", at }
      case "null":
        this.#next()
        return { k: "const", value: null, at }
      case "PI":
      case "TAU":
      case "INF":
      case "NAN":
        this.#next()
        return { k: "num", text: t.text, at }
      case "self":
        this.#next()
        return { k: "self", at }
      case "super":
        this.#next()
        return { k: "super", at }
      case "preload": {
        this.#next()
        if (!this.#is("(")) return { k: "id", name: "preload", at }
        const args = this.#callArguments()
        return { k: "preload", path: args[0] ?? { k: "error", at }, at }
      }
      case "func": {
        if (this.#grammar !== 4) break
        this.#next()
        const fn = this.#withMultiline(false, () => this.#lambda(at))
        return { k: "lambda", fn, at }
      }
      default:
        break
    }
    this.#next()
    return { k: "id", name: t.text, at }
  }

  #lambda(at: Pos): FunctionDecl {
    const name = this.#peek().kind === "id" ? this.#next().text : ""
    const params = this.#params()
    if (this.#accept("->")) this.#type()
    if (!this.#accept(":")) return { name, params, body: [], isStatic: false, at }
    const body: Array<Stmt> = []
    this.#nest(
      () => undefined,
      () => {
        const opener = this.#lineIndent
        if (this.#peek().kind !== "nl") {
          // One-line lambda: a single statement (a `;` list is not part of the lambda in the engine either).
          this.#statementInto(null, body)
          return
        }
        const first = this.#peek()
        const indent = first.indent ?? 0
        if (indent <= opener) return
        this.#next()
        this.#lines(indent, () => this.#statementInto(null, body))
      },
    )
    return { name, params, body, isStatic: false, at }
  }

  /**
   * One pattern of a match branch, matched against `subject` (3.x `_parse_pattern`, 4.x
   * `parse_match_pattern`): `var name` binds the subject; `[p, …, ..]` matches the subject's elements by
   * index, `{key: p, key, ..}` its values by key; `_` and `..` match anything; anything else is an
   * expression the subject is compared with.
   */
  #pattern(subject: Expr, out: { readonly patterns: Array<Expr>; readonly binds: Array<MatchBranch["binds"][number]> }): void {
    const t = this.#peek()
    const at = this.#pos0(t)
    if (t.kind === "id" && t.text === "var") {
      this.#next()
      const name = this.#peek()
      if (name.kind === "id") {
        this.#next()
        out.binds.push({ name: name.text, value: subject, at: this.#pos0(name) })
      }
      return
    }
    if (t.kind === "id" && t.text === "_") {
      this.#next()
      return
    }
    if (this.#rest()) return
    const element = (index: Expr): Expr => ({ k: "index", obj: subject, index, at: subject.at })
    if (t.kind === "op" && t.text === "[") {
      this.#withMultiline(true, () => {
        this.#next()
        for (let i = 0; !this.#is("]") && this.#peek().kind !== "eof"; i += 1) {
          const before = this.#pos
          this.#nest(() => undefined, () => this.#pattern(element({ k: "num", text: String(i), at }), out))
          if (!this.#accept(",") && this.#pos === before) this.#next()
        }
        this.#accept("]")
      })
      return
    }
    if (t.kind === "op" && t.text === "{") {
      this.#withMultiline(true, () => {
        this.#next()
        while (!this.#is("}") && this.#peek().kind !== "eof") {
          const before = this.#pos
          if (!this.#rest()) {
            const key = this.#expression(PREC_TERNARY)
            out.patterns.push(key)
            if (this.#accept(":")) this.#nest(() => undefined, () => this.#pattern(element(key), out))
          }
          if (!this.#accept(",") && this.#pos === before) this.#next()
        }
        this.#accept("}")
      })
      return
    }
    // Godot 3 reads a constant pattern as a whole expression, a conditional included (`_parse_pattern` hands it to
    // `_parse_and_reduce_expression`: `"a" if c else "b", var m:` is one pattern then a binding; a
    // hundred-and-twenty-second red team's array pattern counted its elements wrong otherwise).
    out.patterns.push(this.#expression(this.#grammar === 3 ? PREC_TERNARY : PREC_TERNARY + 1))
  }

  /** `..` in a pattern (one token in 4.x, two periods in 3.x). */
  #rest(): boolean {
    if (this.#accept("..")) return true
    if (!this.#is(".") || this.#peekAt(1).text !== ".") return false
    this.#next()
    this.#next()
    return true
  }

  #operatorPrimary(t: Token, at: Pos): Expr {
    switch (t.text) {
      case "(":
        return this.#withMultiline(true, () => {
          this.#next()
          const inner = this.#is(")") ? ({ k: "error", at } as Expr) : this.#expression()
          while (!this.#is(")") && this.#peek().kind !== "eof") {
            const before = this.#pos
            this.#expression()
            if (this.#pos === before) this.#next()
          }
          this.#accept(")")
          return inner
        })
      case "[":
        return this.#withMultiline(true, () => {
          this.#next()
          const items: Array<Expr> = []
          while (!this.#is("]") && this.#peek().kind !== "eof") {
            const before = this.#pos
            items.push(this.#expression())
            if (!this.#accept(",") && this.#pos === before) this.#next()
          }
          this.#accept("]")
          return { k: "array", items, at }
        })
      case "{":
        return this.#withMultiline(true, () => {
          this.#next()
          const entries: Array<readonly [Expr, Expr]> = []
          while (!this.#is("}") && this.#peek().kind !== "eof") {
            const before = this.#pos
            // `{key: value}` or the Lua style `{key = value}`: the key is then the name, a String in 3.x (whose parser
            // takes an identifier before `=` as its text: `{speed = 10}.keys()` is `["speed"]` in godot3-server 3.2.3),
            // a StringName in 4.x.
            const keyToken = this.#peek()
            let key: Expr
            if (keyToken.kind === "id" && this.#peekAt(1).text === "=") {
              this.#next()
              key = { k: "str", value: keyToken.text, flavor: this.#grammar === 4 ? "&" : "", at: this.#pos0(keyToken) }
              this.#next()
            } else {
              key = this.#expression(PREC_TERNARY)
              this.#accept(":")
            }
            const value = this.#is(",") || this.#is("}") ? ({ k: "error", at } as Expr) : this.#expression()
            entries.push([key, value])
            if (!this.#accept(",") && this.#pos === before) this.#next()
          }
          this.#accept("}")
          return { k: "dict", entries, at }
        })
      case "$":
        this.#next()
        return this.#nodePath(at)
      case "%":
        // In an operand position `%` is a scene-unique node (4.x); after an operand it is modulo.
        this.#next()
        return { k: "node", path: `%${(this.#nodePath(at) as { path: string }).path}`, at }
      case ".": {
        // 3.x `.method()` calls the parent's method.
        this.#next()
        const name = this.#peek()
        if (name.kind !== "id") return { k: "error", at }
        this.#next()
        return { k: "member", obj: { k: "super", at }, name: name.text, at, nameAt: this.#pos0(name) }
      }
      default:
        this.#next()
        return { k: "error", at }
    }
  }
}

/** The names of `A` or `A.B.C`, or null for any other expression. */
const dottedNames = (e: Expr): Array<string> | null => {
  if (e.k === "id") return [e.name]
  if (e.k !== "member") return null
  const obj = dottedNames(e.obj)
  return obj === null ? null : [...obj, e.name]
}
