// Judges one script against the policy, with the whole pack in view. Dangerous engine objects are
// capabilities: `OS` may only be the receiver of a member access (`OS.get_name()`); any other use
// is an error where it escapes. Dispatch by name (`call`, `callv`, `connect`, `funcref`,
// `Callable`, `UndoRedo.add_do_method`, … from the engine's class reference) is judged like the
// direct call when the name is constant, and is an error when it is not, unless the target is the
// creator's own object. Values are followed flow-insensitively: a local holds any of the values
// assigned to it anywhere in its function; the branch a call sits in does not matter.
import type { Policy, PolicyPattern } from "../policy/Policy.ts"
import type { ClassDecl, Expr, FunctionDecl, Pos, Stmt, TypeRef } from "./ast.ts"
import { type DispatchEntry, dispatchIndex, type DispatchIndex, UNIVERSAL_CLASSES } from "./engineDispatch.ts"
import { type ClassRef, type PackModel, type PackScript, resolveScriptPath } from "./packModel.ts"
import { indexPolicy, type PatternHit, type PolicyIndex } from "./PolicyIndex.ts"
import { derived, EXTERNAL, isExternal, join, strs, UNKNOWN, type Val } from "./values.ts"

/** An allowed use of a sensitive API, listed in the report's capability summary. */
export interface CapabilityUse {
  readonly capability: string
  readonly api: string
  readonly line: number
  readonly column: number
}

export interface ScriptAnalysis {
  readonly hits: ReadonlyArray<PatternHit>
  readonly uses: ReadonlyArray<CapabilityUse>
}

/** Methods whose result is data read at run time: a path or object built from it comes from outside the pack. */
const READS = new Set([
  "get_as_text", "get_line", "get_buffer", "get_csv_line", "get_pascal_string", "get_var", "get_string", "get_8", "get_16", "get_32", "get_64",
  "get_utf8_string", "get_file_as_string", "get_file_as_bytes", "get_packet", "get_data", "get_partial_data", "get_cmdline_args", "get_cmdline_user_args",
  "get_environment", "get_clipboard", "clipboard_get", "get_value", "get_available_packet_count", "get_string_from_utf8", "get_string_from_ascii",
])
const STRING_METHODS = new Set(["to_lower", "to_upper", "strip_edges", "capitalize", "to_snake_case", "to_camel_case", "to_pascal_case", "lstrip", "rstrip", "dedent"])
const WRITE_MODES = new Set(["WRITE", "READ_WRITE", "WRITE_READ"])
const MAX_NESTED_DISPATCH = 4

type Mode = "value" | "receiver" | "target"

interface Local {
  readonly type: TypeRef | null
  readonly inits: Array<Expr>
  /** A parameter, a loop or match binding, or a compound assignment: a value the analysis cannot follow. */
  opaque: boolean
  value?: Val
  evaluating?: boolean
}

interface Fn {
  readonly cls: ClassRef
  readonly locals: Map<string, Local>
  readonly parent: Fn | null
  readonly memo: WeakMap<Expr, Val>
}

const at = (p: Pos): { line: number; column: number } => ({ line: p.line, column: p.column })

export const analyzeScript = (script: PackScript, model: PackModel, policy: Policy): ScriptAnalysis => {
  const analysis = new Analysis(script, model, indexPolicy(policy), dispatchIndex(script.grammar, policy))
  analysis.run()
  return { hits: analysis.hits, uses: analysis.uses }
}

class Analysis {
  readonly hits: Array<PatternHit> = []
  readonly uses: Array<CapabilityUse> = []
  readonly #seen = new Set<string>()
  readonly #script: PackScript
  readonly #model: PackModel
  readonly #idx: PolicyIndex
  readonly #dispatch: DispatchIndex

  constructor(script: PackScript, model: PackModel, idx: PolicyIndex, dispatch: DispatchIndex) {
    this.#script = script
    this.#model = model
    this.#idx = idx
    this.#dispatch = dispatch
  }

  run(): void {
    this.#classDecl({ script: this.#script.key, inner: [] }, this.#script.ast.root)
  }

  // ---- reporting ----

  #hit(entry: PolicyPattern, pos: Pos, matched: string, extra: { readonly severity?: PatternHit["severity"]; readonly note?: string; readonly fix?: string } = {}): void {
    const severity = extra.severity ?? entry.severity
    const key = `${entry.id}:${pos.line}:${pos.column}:${severity}`
    if (this.#seen.has(key)) return
    this.#seen.add(key)
    this.hits.push({ entry, ...at(pos), severity, matched, ...(extra.note === undefined ? {} : { note: extra.note }), ...(extra.fix === undefined ? {} : { fix: extra.fix }) })
  }

  #use(capability: string, api: string, pos: Pos): void {
    const key = `use:${capability}:${api}:${pos.line}:${pos.column}`
    if (this.#seen.has(key)) return
    this.#seen.add(key)
    this.uses.push({ capability, api, ...at(pos) })
  }

  #escape(name: string, pos: Pos, how: string): void {
    const entry = this.#idx.escape
    if (entry === null) return
    this.#hit(entry, pos, name, {
      note: `${name} is ${how}, where the methods called on it are out of sight`,
      fix: `Call ${name}'s methods directly on ${name} (${name}.method(…)) instead of storing, passing, returning or subscripting it`,
    })
  }

  #dynamic(pos: Pos, matched: string, why: string): void {
    const entry = this.#idx.dynamicDispatch
    if (entry === null) return
    this.#hit(entry, pos, matched, { note: why, fix: "Call the method directly (object.method(…)) or name it with a constant string, or dispatch on your own object (self or an instance of one of your classes)" })
  }

  // ---- declarations ----

  #classDecl(ref: ClassRef, decl: ClassDecl): void {
    const fn: Fn = { cls: ref, locals: new Map(), parent: null, memo: new WeakMap() }
    const ext = decl.extendsClause
    if (ext?._tag === "Class" && ext.names[0] !== undefined) this.#typeName(ext.names[0], ext.at, fn, true)
    if (ext?._tag === "Path") this.#loadPath({ k: "str", value: ext.path, flavor: "", at: ext.at }, fn, "extends")
    for (const c of decl.consts) this.#visit(c.init, "value", fn)
    for (const v of decl.vars) {
      if (v.type !== null) this.#type(v.type, fn)
      if (v.init !== null) this.#visit(v.init, "value", fn)
      for (const a of v.accessors) this.#function(ref, a, null)
    }
    for (const e of decl.extra) this.#visit(e, "value", fn)
    for (const f of decl.functions) this.#function(ref, f, null)
    for (const inner of decl.classes) if (inner.name !== null) this.#classDecl({ script: ref.script, inner: [...ref.inner, inner.name] }, inner)
    // Unnamed inner classes (from code the engine rejects) are still read.
    for (const inner of decl.classes) if (inner.name === null) this.#classDecl(ref, inner)
  }

  #function(cls: ClassRef, f: FunctionDecl, parent: Fn | null): void {
    const fn: Fn = { cls, locals: new Map(), parent, memo: new WeakMap() }
    if (f.returnType !== undefined && f.returnType !== null) this.#type(f.returnType, fn)
    for (const p of f.params) {
      fn.locals.set(p.name, { type: p.type, inits: p.init === null ? [] : [p.init], opaque: true })
      if (p.type !== null) this.#type(p.type, fn)
      if (p.init !== null) this.#visit(p.init, "value", fn)
    }
    this.#collectLocals(f.body, fn)
    this.#statements(f.body, fn)
  }

  /** Every local of the function and every value assigned to it, wherever it is in the function. */
  #collectLocals(body: ReadonlyArray<Stmt>, fn: Fn): void {
    const assignments: Array<{ name: string; expr: Expr; compound: boolean }> = []
    const walkExpr = (e: Expr): void => {
      if (e.k === "bin" && (e.op === "=" || e.op.endsWith("=")) && e.op !== "==" && e.op !== "!=" && e.op !== "<=" && e.op !== ">=" && e.left.k === "id") {
        assignments.push({ name: e.left.name, expr: e.right, compound: e.op !== "=" })
      }
      forEachChild(e, walkExpr)
    }
    const walk = (stmts: ReadonlyArray<Stmt>): void => {
      for (const s of stmts) {
        switch (s.k) {
          case "var":
            if (!fn.locals.has(s.name)) fn.locals.set(s.name, { type: s.type, inits: [], opaque: false })
            if (s.init !== null) fn.locals.get(s.name)?.inits.push(s.init)
            if (s.init !== null) walkExpr(s.init)
            break
          case "for":
            fn.locals.set(s.name, { type: s.type, inits: [], opaque: true })
            walkExpr(s.iter)
            walk(s.body)
            break
          case "expr":
            walkExpr(s.expr)
            break
          case "return":
            if (s.expr !== null) walkExpr(s.expr)
            break
          case "if":
            for (const b of s.branches) {
              if (b.cond !== null) walkExpr(b.cond)
              walk(b.body)
            }
            break
          case "while":
            walkExpr(s.cond)
            walk(s.body)
            break
          case "match":
            walkExpr(s.expr)
            for (const b of s.branches) {
              for (const p of b.patterns) for (const name of bindings(p)) fn.locals.set(name, { type: null, inits: [], opaque: true })
              walk(b.body)
            }
            break
          default:
            break
        }
      }
    }
    walk(body)
    for (const a of assignments) {
      const local = fn.locals.get(a.name)
      if (local === undefined) continue
      if (a.compound) local.opaque = true
      else local.inits.push(a.expr)
    }
  }

  #statements(stmts: ReadonlyArray<Stmt>, fn: Fn): void {
    for (const s of stmts) {
      switch (s.k) {
        case "var":
          if (s.type !== null) this.#type(s.type, fn)
          if (s.init !== null) this.#visit(s.init, "value", fn)
          break
        case "expr":
          // A statement's own value is dropped: only what it passes on can escape.
          this.#visit(s.expr, "receiver", fn)
          break
        case "return":
          if (s.expr !== null) {
            const v = this.#eval(s.expr, fn)
            if (v.t === "guard") this.#escape(v.name, s.expr.at, "returned")
            this.#visit(s.expr, "receiver", fn)
          }
          break
        case "if":
          for (const b of s.branches) {
            if (b.cond !== null) this.#visit(b.cond, "value", fn)
            this.#statements(b.body, fn)
          }
          break
        case "while":
          this.#visit(s.cond, "value", fn)
          this.#statements(s.body, fn)
          break
        case "for":
          if (s.type !== null) this.#type(s.type, fn)
          this.#visit(s.iter, "value", fn)
          this.#statements(s.body, fn)
          break
        case "match":
          this.#visit(s.expr, "value", fn)
          for (const b of s.branches) {
            for (const p of b.patterns) this.#visit(p, "value", fn)
            if (b.guard !== null) this.#visit(b.guard, "value", fn)
            this.#statements(b.body, fn)
          }
          break
        case "nested":
          this.#classDecl(fn.cls, s.cls)
          break
        default:
          break
      }
    }
  }

  #type(t: TypeRef, fn: Fn): void {
    const first = t.names[0]
    if (first !== undefined) this.#typeName(first, t.at, fn, false)
  }

  /** A class named as a type or in `extends`: banned classes count; a dangerous object there is an escape. */
  #typeName(name: string, pos: Pos, fn: Fn, isExtends: boolean): void {
    if (this.#model.innerClass(fn.cls, name) !== null || this.#model.globalClass(name) !== null) return
    for (const entry of this.#idx.identifiers.get(name) ?? []) this.#hit(entry, pos, name)
    const guard = this.#idx.guarded.get(name)
    if (isExtends && guard !== undefined) this.#escape(guard, pos, "extended by the script's class")
  }

  // ---- names ----

  #local(name: string, fn: Fn): { local: Local; owner: Fn } | null {
    for (let f: Fn | null = fn; f !== null; f = f.parent) {
      const local = f.locals.get(name)
      if (local !== undefined) return { local, owner: f }
    }
    return null
  }

  /** Whether `name` is the script's own (a local, a member, a constant, a class of the pack). */
  #isOwnName(name: string, fn: Fn): boolean {
    return this.#local(name, fn) !== null || this.#model.defines(fn.cls, name) || this.#model.innerClass(fn.cls, name) !== null || this.#model.globalClass(name) !== null
  }

  #typeVal(t: TypeRef | null, fn: Fn): Val {
    const first = t?.names[0]
    if (t === null || first === undefined) return UNKNOWN
    const inner = this.#model.innerClass(fn.cls, first)
    const global = inner ?? this.#model.globalClass(first)
    if (global !== null) return { t: "own", ref: t.names.length > 1 ? { script: global.script, inner: [...global.inner, ...t.names.slice(1)] } : global }
    if (first === "String" || first === "StringName" || first === "NodePath") return UNKNOWN
    return { t: "inst", cls: first }
  }

  #evalName(name: string, fn: Fn): Val {
    const found = this.#local(name, fn)
    if (found !== null) {
      const { local, owner } = found
      if (local.value !== undefined) return local.value
      if (local.opaque) return local.type === null ? UNKNOWN : this.#typeVal(local.type, owner)
      if (local.evaluating === true) return UNKNOWN
      local.evaluating = true
      let value: Val | null = local.type === null ? null : this.#typeVal(local.type, owner)
      if (value === null || value.t === "unknown") {
        value = null
        for (const init of local.inits) value = value === null ? this.#eval(init, owner) : join(value, this.#eval(init, owner))
      }
      local.evaluating = false
      local.value = value ?? UNKNOWN
      return local.value
    }
    const member = this.#model.variable(fn.cls, name)
    if (member !== null) return member.decl.type === null ? UNKNOWN : this.#typeVal(member.decl.type, { ...fn, cls: member.owner })
    const constant = this.#model.constant(fn.cls, name, (expr, where) => this.#eval(expr, { cls: where, locals: new Map(), parent: null, memo: new WeakMap() }))
    if (constant !== null) return constant
    const cls = this.#model.innerClass(fn.cls, name) ?? this.#model.globalClass(name)
    if (cls !== null) return { t: "script", ref: cls }
    const guard = this.#idx.guarded.get(name)
    if (guard !== undefined) return { t: "guard", name: guard }
    return UNKNOWN
  }

  // ---- values ----

  #eval(e: Expr, fn: Fn): Val {
    const cached = fn.memo.get(e)
    if (cached !== undefined) return cached
    fn.memo.set(e, UNKNOWN)
    const v = this.#evalUncached(e, fn)
    fn.memo.set(e, v)
    return v
  }

  #evalUncached(e: Expr, fn: Fn): Val {
    switch (e.k) {
      case "str":
        return strs([e.value])
      case "num":
        return { t: "lit", value: Number(e.text) }
      case "const":
        return { t: "lit", value: e.value }
      case "id":
        return this.#evalName(e.name, fn)
      case "self":
        return { t: "own", ref: fn.cls }
      case "node":
        return { t: "inst", cls: "Node" }
      case "preload": {
        const p = this.#eval(e.path, fn)
        return this.#scriptAt(p, fn)
      }
      case "cast": {
        const inner = this.#eval(e.expr, fn)
        return inner.t === "unknown" && !isExternal(inner) ? this.#typeVal(e.type, fn) : inner
      }
      case "ternary":
        return join(this.#eval(e.then, fn), this.#eval(e.else, fn))
      case "member":
        return this.#evalMember(e, fn)
      case "call":
        return this.#evalCall(e, fn)
      case "bin":
        return this.#evalBinary(e, fn)
      case "index":
        return derived(this.#eval(e.obj, fn), this.#eval(e.index, fn))
      case "array":
      case "dict":
        return derived(...(e.k === "array" ? e.items : e.entries.map(([, v]) => v)).map((x) => this.#eval(x, fn)))
      default:
        return UNKNOWN
    }
  }

  #scriptAt(p: Val, fn: Fn): Val {
    if (p.t !== "str" || p.values.length !== 1) return UNKNOWN
    const ref = this.#model.scriptAt(resolveScriptPath(p.values[0] ?? "", this.#model.scripts.get(fn.cls.script)?.path ?? null))
    return ref === null ? UNKNOWN : { t: "script", ref }
  }

  #evalMember(e: Extract<Expr, { k: "member" }>, fn: Fn): Val {
    const obj = this.#eval(e.obj, fn)
    if (obj.t === "script" || obj.t === "own") {
      const ctx: Fn = { cls: obj.ref, locals: new Map(), parent: null, memo: new WeakMap() }
      const inner = this.#model.innerClass(obj.ref, e.name)
      if (inner !== null && this.#model.decl(obj.ref)?.classes.some((c) => c.name === e.name)) return { t: "script", ref: inner }
      const constant = this.#model.constant(obj.ref, e.name, (expr, where) => this.#eval(expr, { ...ctx, cls: where }))
      if (constant !== null) return constant
      const member = this.#model.variable(obj.ref, e.name)
      if (member?.decl.type !== null && member?.decl.type !== undefined) return this.#typeVal(member.decl.type, { ...ctx, cls: member.owner })
      return UNKNOWN
    }
    if (obj.t === "guard") return { t: "lit" }
    return derived(obj)
  }

  #evalBinary(e: Extract<Expr, { k: "bin" }>, fn: Fn): Val {
    const l = this.#eval(e.left, fn)
    const r = this.#eval(e.right, fn)
    if (e.op === "+") {
      if (l.t === "str" && r.t === "str") return strs(l.values.flatMap((a) => r.values.map((b) => a + b)))
      if (l.t === "str" && l.values.length === 1) return { t: "unknown", prefix: l.values[0] ?? "", ...(isExternal(r) ? { external: true } : {}) }
      if (l.t === "unknown" && l.prefix !== undefined) return { t: "unknown", prefix: l.prefix, ...(isExternal(l) || isExternal(r) ? { external: true } : {}) }
      return derived(l, r)
    }
    if (e.op === "%" && l.t === "str") {
      const args = e.right.k === "array" ? e.right.items.map((x) => this.#eval(x, fn)) : [r]
      if (l.values.length === 1) {
        const formatted = formatString(l.values[0] ?? "", args)
        if (formatted !== null) return strs([formatted])
        const text = l.values[0] ?? ""
        return { t: "unknown", prefix: text.slice(0, text.indexOf("%") < 0 ? text.length : text.indexOf("%")), ...(args.some(isExternal) ? { external: true } : {}) }
      }
      return derived(...args)
    }
    if (e.op === "=" || e.op.endsWith("=")) return r
    return derived(l, r)
  }

  #evalCall(e: Extract<Expr, { k: "call" }>, fn: Fn): Val {
    const callee = e.callee
    const args = e.args.map((a) => this.#eval(a, fn))
    if (callee.k === "id") {
      const name = callee.name
      if (this.#model.defines(fn.cls, name)) return derived(...args)
      if (name === "load") return this.#scriptAt(args[0] ?? UNKNOWN, fn)
      if ((name === "str" || name === "String" || name === "StringName" || name === "NodePath") && args.every((a) => a.t === "str")) {
        return args.reduce<Val>((a, b) => (a.t === "str" && b.t === "str" ? strs(a.values.flatMap((x) => b.values.map((y) => x + y))) : UNKNOWN), strs([""]))
      }
      if ((name === "char" || name === "String.chr") && args[0]?.t === "lit" && typeof args[0].value === "number") return strs([String.fromCodePoint(args[0].value)])
      if (name === "get_tree") return { t: "inst", cls: "SceneTree" }
      if (name === "Callable") return { t: "inst", cls: "Callable" }
      if (READS.has(name)) return EXTERNAL
      return derived(...args)
    }
    if (callee.k !== "member") return derived(...args)
    const recv = this.#eval(callee.obj, fn)
    const name = callee.name
    if (name === "new") {
      if (recv.t === "script") return { t: "own", ref: recv.ref }
      if (recv.t === "guard") return { t: "inst", cls: recv.name }
      if (callee.obj.k === "id") return { t: "inst", cls: callee.obj.name }
    }
    if (recv.t === "guard") {
      if (recv.name === "Engine" && name === "get_singleton") return this.#namedObject(args[0], "singleton")
      if (recv.name === "ClassDB" && (name === "instance" || name === "instantiate")) return this.#namedObject(args[0], "class")
      if (recv.name === "ResourceLoader" && name === "load") return this.#scriptAt(args[0] ?? UNKNOWN, fn)
      const cls = this.#idx.constructors.get(`${recv.name}.${name}`)
      if (cls !== undefined) return { t: "inst", cls }
    }
    if (recv.t === "own" && this.#model.defines(recv.ref, name)) return derived(...args)
    if (recv.t === "str" && STRING_METHODS.has(name) && args.length === 0) return strs(recv.values.map((v) => applyStringMethod(name, v)))
    if (recv.t === "str" && (name === "replace" || name === "trim_prefix" || name === "trim_suffix" || name === "plus_file" || name === "path_join" || name === "substr" || name === "left" || name === "right")) {
      const folded = recv.values.map((v) => applyStringMethod2(name, v, args))
      if (folded.every((x): x is string => x !== null)) return strs(folded)
    }
    if ((recv.t === "str" || (recv.t === "unknown" && recv.prefix !== undefined)) && (name === "plus_file" || name === "path_join")) {
      const prefix = recv.t === "str" ? (recv.values.length === 1 ? recv.values[0] : undefined) : recv.prefix
      if (prefix !== undefined) return { t: "unknown", prefix: prefix.endsWith("/") ? prefix : `${prefix}/`, ...(args.some(isExternal) || isExternal(recv) ? { external: true } : {}) }
    }
    if (name === "get_tree") return { t: "inst", cls: "SceneTree" }
    if (READS.has(name)) return EXTERNAL
    if (name === "join" && recv.t === "str" && callee.obj.k === "str" && e.args[0]?.k === "array") {
      const parts = e.args[0].items.map((x) => this.#eval(x, fn))
      if (parts.every((p) => p.t === "str" && p.values.length === 1)) return strs([parts.map((p) => (p as { values: ReadonlyArray<string> }).values[0]).join(recv.values[0] ?? "")])
    }
    return derived(recv, ...args)
  }

  /** `Engine.get_singleton(x)` / `ClassDB.instance(x)` with x folded: the object it gives. */
  #namedObject(arg: Val | undefined, kind: "singleton" | "class"): Val {
    if (arg?.t !== "str" || arg.values.length !== 1) return UNKNOWN
    const name = arg.values[0] ?? ""
    const guard = this.#idx.guarded.get(name)
    if (guard !== undefined && (kind === "singleton" || name.startsWith("_"))) return { t: "guard", name: guard }
    return kind === "singleton" ? { t: "inst", cls: name } : { t: "inst", cls: name }
  }

  // ---- the walk ----

  #visit(e: Expr, mode: Mode, fn: Fn): void {
    if (mode === "value") {
      const v = this.#eval(e, fn)
      if (v.t === "guard" && (e.k === "id" || e.k === "call" || e.k === "member" || e.k === "index" || e.k === "cast")) {
        this.#escape(v.name, e.at, e.k === "cast" ? "cast" : "used as a value (stored, passed or compared)")
        mode = "receiver"
      }
    }
    switch (e.k) {
      case "id":
        this.#identifier(e, fn)
        return
      case "member":
        this.#visit(e.obj, "receiver", fn)
        this.#memberAccess(e, this.#eval(e.obj, fn), false, fn)
        return
      case "call":
        this.#call(e, fn)
        return
      case "index": {
        const obj = this.#eval(e.obj, fn)
        if (obj.t === "guard") this.#escape(obj.name, e.obj.at, "subscripted")
        this.#visit(e.obj, "receiver", fn)
        this.#visit(e.index, "value", fn)
        return
      }
      case "bin":
        if (e.op === "=" || (e.op.endsWith("=") && !["==", "!=", "<=", ">="].includes(e.op))) this.#assignment(e, fn)
        else {
          this.#visit(e.left, "value", fn)
          this.#visit(e.right, "value", fn)
        }
        return
      case "lambda":
        this.#function(fn.cls, e.fn, fn)
        return
      case "preload":
        this.#loadPath(e.path, fn, "preload")
        this.#visit(e.path, "value", fn)
        return
      case "cast":
      case "is":
        this.#type(e.type, fn)
        this.#visit(e.expr, "value", fn)
        return
      default:
        forEachChild(e, (child) => this.#visit(child, "value", fn))
    }
  }

  #identifier(e: Extract<Expr, { k: "id" }>, fn: Fn): void {
    if (this.#isOwnName(e.name, fn)) return
    for (const entry of this.#idx.identifiers.get(e.name) ?? []) this.#hit(entry, e.at, e.name)
  }

  /** `G.member` on a dangerous object: banned members, dispatch methods taken without their arguments, sensitive APIs. */
  #memberAccess(e: Extract<Expr, { k: "member" }>, recv: Val, called: boolean, fn: Fn): void {
    if (recv.t === "guard") {
      for (const { entry, match } of this.#idx.members.get(e.name) ?? []) {
        if (match.receivers.includes(recv.name)) this.#hit(entry, e.at, `${recv.name}.${e.name}`)
      }
      if (!called && (this.#dispatch.objectMethods.has(e.name) || (this.#dispatch.byName.get(e.name) ?? []).some((d) => d.class === recv.name))) {
        this.#dynamic(e.at, `${recv.name}.${e.name}`, `${recv.name}.${e.name} is taken as a value, so the name it will dispatch to is out of sight`)
      }
    }
    const cls = this.#receiverClass(recv, e.obj, fn)
    if (cls !== null) {
      const capability = this.#idx.sensitive.get(`${cls}.${e.name}`)
      if (capability !== undefined && !this.#idx.writeModes.has(`${cls}.${e.name}`)) this.#use(capability, `${cls}.${e.name}`, e.at)
    }
  }

  /** The engine class a receiver is known to be, for `Class.method` tables. */
  #receiverClass(recv: Val, expr: Expr, fn: Fn): string | null {
    if (recv.t === "guard") return recv.name
    if (recv.t === "inst") return recv.cls
    if (expr.k === "id" && recv.t === "unknown" && !this.#isOwnName(expr.name, fn) && /^[A-Z]/.test(expr.name)) return expr.name
    return null
  }

  #assignment(e: Extract<Expr, { k: "bin" }>, fn: Fn): void {
    const left = e.left
    const assignedProperty = (recv: Val, prop: string, pos: Pos): void => {
      const own = recv.t === "own" && this.#model.defines(recv.ref, prop)
      if (!own) for (const entry of this.#idx.assignments.get(prop) ?? []) this.#hit(entry, pos, `.${prop} =`)
      for (const d of this.#dispatch.byName.get(prop) ?? []) {
        if (d.kind !== "member" || !(recv.t === "unknown" || (recv.t === "inst" && recv.cls === d.class))) continue
        this.#judgeName(UNKNOWN, this.#eval(e.right, fn), "method", [], pos, `${d.class}.${prop} =`, 0)
      }
    }
    if (left.k === "member") {
      const recv = this.#eval(left.obj, fn)
      this.#visit(left.obj, "receiver", fn)
      assignedProperty(recv, left.name, left.at)
    } else if (left.k === "index") {
      const recv = this.#eval(left.obj, fn)
      const key = this.#eval(left.index, fn)
      this.#visit(left.obj, "value", fn)
      this.#visit(left.index, "value", fn)
      if (key.t === "str") for (const k of key.values) assignedProperty(recv, k, left.at)
    } else if (left.k === "id") {
      if (!this.#isOwnName(left.name, fn)) for (const entry of this.#idx.assignments.get(left.name) ?? []) this.#hit(entry, left.at, `${left.name} =`)
    } else this.#visit(left, "value", fn)
    this.#visit(e.right, "value", fn)
  }

  #call(e: Extract<Expr, { k: "call" }>, fn: Fn): void {
    const callee = e.callee
    let name: string
    let recv: Val
    let recvExpr: Expr | null = null
    if (callee.k === "member") {
      name = callee.name
      recvExpr = callee.obj
      recv = this.#eval(callee.obj, fn)
      this.#visit(callee.obj, "receiver", fn)
      this.#memberAccess(callee, recv, true, fn)
    } else if (callee.k === "id") {
      name = callee.name
      recv = { t: "own", ref: fn.cls }
      if (!this.#model.defines(fn.cls, name) && this.#local(name, fn) === null) for (const entry of this.#idx.identifiers.get(name) ?? []) this.#hit(entry, callee.at, name)
    } else {
      this.#visit(callee, "value", fn)
      for (const a of e.args) this.#visit(a, "value", fn)
      return
    }
    const ownMethod = recv.t === "own" && this.#model.defines(recv.ref, name)
    const targets = new Set<number>()
    if (!ownMethod) {
      this.#patternsOnCall(e, name, recv, recvExpr, fn)
      for (const entry of this.#applicableDispatch(name, recv, recvExpr, e.args, fn)) {
        if (entry.target !== undefined) targets.add(entry.target)
        this.#judgeEntry(entry, e, name, recv, fn)
      }
    }
    e.args.forEach((a, i) => this.#visit(a, targets.has(i) ? "target" : "value", fn))
  }

  /** Member, argument, path, setter, runtime-load and sensitive-API rules on a call. */
  #patternsOnCall(e: Extract<Expr, { k: "call" }>, name: string, recv: Val, recvExpr: Expr | null, fn: Fn): void {
    const pos = e.at
    const receiverName = recv.t === "guard" ? recv.name : recv.t === "inst" ? recv.cls : null
    const shown = `${receiverName ?? (recvExpr === null ? "" : label(recvExpr))}${recvExpr === null ? "" : "."}${name}`
    if (recvExpr !== null && recv.t !== "guard") {
      for (const { entry, match } of this.#idx.members.get(name) ?? []) {
        if ((match.anyReceiver ?? []).includes(name)) this.#hit(entry, pos, `${shown}(…)`)
      }
    }
    if (recv.t !== "own" || recvExpr !== null) for (const entry of this.#idx.setters.get(name) ?? []) this.#hit(entry, pos, `${shown}(…)`)
    for (const { entry, match } of this.#idx.arguments.get(name) ?? []) {
      if (!match.receivers.includes("*") && !(receiverName !== null && match.receivers.includes(receiverName))) continue
      const arg = e.args[match.argument]
      if (arg === undefined) continue
      const v = this.#eval(arg, fn)
      if (v.t === "lit" && String(v.value) === match.equals) this.#hit(entry, pos, `${shown}(${e.args.slice(0, match.argument).map(() => "…").concat(match.equals).join(", ")})`)
      else if (v.t !== "lit" && v.t !== "str" && match.otherwise !== undefined) {
        this.#hit(entry, pos, `${shown}(…)`, { severity: match.otherwise, note: `argument ${match.argument + 1} is not a literal, so it cannot be shown to be ${match.equals === "true" ? "false" : "safe"}` })
      }
    }
    this.#pathRules(e, name, recv, receiverName ?? (recvExpr === null ? null : label(recvExpr)), shown, fn)
    this.#runtimeLoad(e, name, recv, recvExpr, receiverName, fn)
    const cls = recvExpr === null ? null : this.#receiverClass(recv, recvExpr, fn)
    if (cls !== null) {
      const modeAt = this.#idx.writeModes.get(`${cls}.${name}`)
      if (modeAt !== undefined) {
        const mode = e.args[modeAt]
        const writes = mode === undefined ? false : mode.k === "member" ? WRITE_MODES.has(mode.name) : this.#eval(mode, fn).t !== "lit"
        if (writes) this.#use(this.#idx.sensitive.get(`${cls}.${name}`) ?? "file-writes", `${cls}.${name}`, pos)
      }
    }
  }

  #pathRules(e: Extract<Expr, { k: "call" }>, name: string, recv: Val, receiverName: string | null, shown: string, fn: Fn): void {
    for (const { entry, match } of this.#idx.paths) {
      const staticArgs = recv.t === "guard" ? match.static[recv.name]?.[name] : undefined
      const instanceArgs = recv.t === "inst" ? match.instances[recv.cls]?.[name] : undefined
      const unknownReceiver = recv.t === "unknown" && Object.values(match.instances).some((m) => m[name] !== undefined)
      const indexes = staticArgs ?? instanceArgs ?? (unknownReceiver ? Object.values(match.instances).find((m) => m[name] !== undefined)?.[name] : undefined)
      if (indexes === undefined) continue
      for (const n of indexes) {
        const arg = e.args[n]
        if (arg === undefined) continue
        const v = this.#eval(arg, fn)
        const call = `${receiverName ?? "…"}.${name}`
        const verdict = judgePath(v, match.allowedPrefixes, staticArgs === undefined)
        const shownPath = v.t === "str" && v.values.length === 1 ? `${call}(${JSON.stringify(v.values[0])})` : v.t === "unknown" && v.prefix !== undefined && v.prefix !== "" ? `${call}(${JSON.stringify(v.prefix)} …)` : `${call}(…)`
        if (verdict === "outside") this.#hit(entry, e.at, shownPath)
        else if (verdict === "unknown" && !unknownReceiver) {
          const note = v.t === "unknown" && v.prefix !== undefined ? `the path is built at run time from ${JSON.stringify(v.prefix)}, so it cannot be shown to stay inside ${match.allowedPrefixes.join(" or ")}` : `path argument ${n + 1} is not a string literal, so it cannot be shown to stay inside ${match.allowedPrefixes.join(" or ")}`
          this.#hit(entry, e.at, shownPath, { severity: match.otherwise, note })
        }
      }
      void shown
    }
  }

  #runtimeLoad(e: Extract<Expr, { k: "call" }>, name: string, recv: Val, recvExpr: Expr | null, receiverName: string | null, fn: Fn): void {
    const rule = this.#idx.runtimeLoad
    if (rule === null) return
    const { match } = rule
    const keys = recvExpr === null ? [name] : [...(receiverName === null ? [] : [`${receiverName}.${name}`]), `*.${name}`]
    for (const key of keys) {
      for (const n of match.calls[key] ?? []) {
        const arg = e.args[n]
        if (arg !== undefined) this.#loadPath(arg, fn, `${recvExpr === null ? "" : `${receiverName ?? "…"}.`}${name}`)
      }
    }
    if (match.scripts.includes(name) && e.args[0] !== undefined) {
      const v = this.#eval(e.args[0], fn)
      if (v.t !== "script" && v.t !== "own" && !(v.t === "lit" && v.value === null)) {
        const external = isExternal(v)
        this.#hit(rule.entry, e.at, `${name}(…)`, {
          severity: external ? rule.entry.severity : match.otherwise,
          note: external ? "the script comes from data read at run time" : "the script cannot be shown to be one of the pack's own (a preload or a res:// load of a script in the pack)",
          fix: `Pass ${name} a script of the pack: preload("res://….gd")`,
        })
      }
    }
    if (match.objects.includes(name) && recvExpr === null && e.args[0] !== undefined) {
      const data = e.args[0]
      const path = data.k === "dict" ? data.entries.find(([k]) => k.k === "str" && k.value === "@path")?.[1] : undefined
      const value = path === undefined ? null : this.#eval(path, fn)
      const inside = value?.t === "str" && value.values.every((p) => judgePath(strs([p]), match.allowedPrefixes, true) === "inside")
      if (!inside) {
        this.#hit(rule.entry, e.at, `${name}(…)`, { note: "the object's class and script come from data that can come from outside the pack", fix: `Rebuild the object with its class's .new() and set its fields from a Dictionary (keep the data in ConfigFile or JSON)` })
      }
    }
  }

  /** A path a resource is loaded from: a res:// literal is fine; built at run time under res://, a warning; anything else, an error. */
  #loadPath(arg: Expr, fn: Fn, call: string): void {
    const rule = this.#idx.runtimeLoad
    if (rule === null) return
    const v = this.#eval(arg, fn)
    if (v.t === "script" || v.t === "own" || v.t === "guard" || v.t === "inst") return
    const verdict = judgePath(v, rule.match.allowedPrefixes, true)
    const shown = v.t === "str" && v.values.length === 1 ? `${call}(${JSON.stringify(v.values[0])})` : v.t === "unknown" && v.prefix !== undefined && v.prefix !== "" ? `${call}(${JSON.stringify(v.prefix)} …)` : `${call}(…)`
    const fix = "Load only paths inside the pack (res://…); keep save data in ConfigFile or JSON under user:// instead of resources"
    if (verdict === "inside") {
      if (v.t !== "str") this.#hit(rule.entry, arg.at, shown, { severity: rule.match.otherwise, note: `the path is built at run time from ${JSON.stringify((v as { prefix?: string }).prefix ?? "")}; it stays under res://, check in context what it can name`, fix })
      return
    }
    if (verdict === "outside" || isExternal(v)) {
      this.#hit(rule.entry, arg.at, shown, { note: isExternal(v) ? "the path comes from data read at run time" : "the path is outside the pack", fix })
      return
    }
    this.#hit(rule.entry, arg.at, shown, { severity: rule.match.otherwise, note: "the path is not a literal, so it cannot be shown to stay inside the pack", fix })
  }

  // ---- dispatch by name ----

  #applicableDispatch(name: string, recv: Val, recvExpr: Expr | null, args: ReadonlyArray<Expr>, fn: Fn): ReadonlyArray<DispatchEntry> {
    const entries = this.#dispatch.byName.get(name) ?? []
    if (entries.length === 0) return []
    const cls = recvExpr === null ? null : this.#receiverClass(recv, recvExpr, fn)
    return entries.filter((d) => {
      if (d.kind === "member") return false
      if (d.class === "@GDScript") return recvExpr === null
      if (d.class === "Callable" && d.method === "Callable") return recvExpr === null
      if (d.kind === "class" || d.kind === "singleton") return cls === d.class
      if (d.class === "Object" || d.class === "Node") {
        // 4.x Callable.call()/callv() share the names: no string first argument means a Callable.
        if (this.#script.grammar !== 3 && (name === "call" || name === "callv" || name === "call_deferred") && recvExpr !== null) {
          if (cls === "Callable") return false
          const first = args[0] === undefined ? null : this.#eval(args[0], fn)
          if (first === null || first.t === "lit" || first.t === "own" || first.t === "inst" || first.t === "script") return false
        }
        if ((name === "get" || name === "set") && recv.t !== "guard" && recv.t !== "own") return args[0] !== undefined && this.#eval(args[0], fn).t === "str"
        return true
      }
      if (d.shared === true) return cls === d.class
      return true
    })
  }

  #judgeEntry(entry: DispatchEntry, e: Extract<Expr, { k: "call" }>, name: string, recv: Val, fn: Fn): void {
    const args = e.args
    const shown = `${recv.t === "guard" ? `${recv.name}.` : ""}${name}`
    if (entry.kind === "target") {
      const target = entry.target === undefined ? recv : this.#evalArg(args[entry.target], fn)
      if (target !== null && target.t !== "own" && target.t !== "lit") this.#dynamic(e.at, `${entry.class}.${name}(…)`, "the methods it calls are named by data received at run time")
      this.#use("dynamic-dispatch", `${entry.class}.${name}`, e.at)
      return
    }
    if (entry.name === undefined) return
    const nameArg = args[entry.name]
    if (nameArg === undefined) return
    const nameVal = this.#eval(nameArg, fn)
    if (entry.kind === "class" || entry.kind === "singleton") {
      this.#use("dynamic-dispatch", `${entry.class}.${name}`, e.at)
      if (nameVal.t === "str") {
        for (const n of nameVal.values) for (const p of this.#idx.identifiers.get(n) ?? []) this.#hit(p, e.at, `${entry.class}.${name}(${JSON.stringify(n)})`)
      } else if (nameVal.t !== "lit") {
        this.#dynamic(e.at, `${entry.class}.${name}(…)`, `the ${entry.kind} is named by a value that is not constant`)
      }
      return
    }
    let target: Val | null = recv
    if (entry.target !== undefined) target = this.#evalArg(args[entry.target], fn)
    if (target === null) return
    const rest = args.slice(entry.name + 1)
    this.#judgeName(target, nameVal, entry.kind === "property" && !/^(get|_get|class_get)/.test(entry.method) ? "property-write" : entry.kind === "property" ? "property-read" : "method", rest, e.at, shown, 0, fn)
  }

  #evalArg(arg: Expr | undefined, fn: Fn): Val | null {
    return arg === undefined ? null : this.#eval(arg, fn)
  }

  #judgeName(target: Val, nameVal: Val, kind: "method" | "property-write" | "property-read", rest: ReadonlyArray<Expr>, pos: Pos, shown: string, depth: number, fn?: Fn): void {
    if (nameVal.t === "lit") return
    this.#use("dynamic-dispatch", shown, pos)
    if (nameVal.t !== "str") {
      if (target.t === "own" || target.t === "lit") return
      if (kind !== "method" && target.t !== "guard") return
      const on = target.t === "guard" ? target.name : "an object that could be an engine object"
      this.#dynamic(pos, `${shown}(…)`, `the ${kind === "method" ? "method" : "property"} name is not a constant, and the target is ${on}`)
      return
    }
    for (const n of nameVal.values) this.#judgeConstantName(target, n, kind, rest, pos, shown, depth, fn)
  }

  #judgeConstantName(target: Val, n: string, kind: "method" | "property-write" | "property-read", rest: ReadonlyArray<Expr>, pos: Pos, shown: string, depth: number, fn?: Fn): void {
    const matched = `${shown}(${JSON.stringify(n)})`
    if (target.t === "guard") {
      for (const { entry, match } of this.#idx.members.get(n) ?? []) if (match.receivers.includes(target.name)) this.#hit(entry, pos, matched)
      if (kind === "property-write") for (const entry of this.#idx.assignments.get(n) ?? []) this.#hit(entry, pos, matched)
    } else if (!(target.t === "own" && this.#model.defines(target.ref, n))) {
      for (const { entry, match } of this.#idx.members.get(n) ?? []) if (kind === "method" && match.dispatch === "any-receiver") this.#hit(entry, pos, matched)
      if (kind === "method") for (const entry of this.#idx.setters.get(n) ?? []) this.#hit(entry, pos, matched)
      if (kind === "property-write") for (const entry of this.#idx.assignments.get(n) ?? []) this.#hit(entry, pos, matched)
    } else return
    // A dispatch method reached by name (`call("call", "execute")`): judge the call it makes in turn.
    if (kind === "method" && this.#dispatch.objectMethods.has(n) && fn !== undefined) {
      const inner = (this.#dispatch.byName.get(n) ?? []).find((d) => d.class === "Object" && d.target === undefined)
      if (inner?.name === undefined || depth >= MAX_NESTED_DISPATCH) return
      let innerArgs: ReadonlyArray<Expr> = rest
      if (n === "callv") innerArgs = rest[0]?.k === "array" ? rest[0].items : []
      const innerName = innerArgs[inner.name]
      const innerVal = innerName === undefined ? UNKNOWN : this.#eval(innerName, fn)
      this.#judgeName(target, innerVal, inner.kind === "property" ? (n.startsWith("get") ? "property-read" : "property-write") : "method", innerArgs.slice(inner.name + 1), pos, `${shown}("${n}")`, depth + 1, fn)
    }
  }
}

// ---- helpers ----

/** A short rendering of a receiver for messages: `f`, `self.file`, `get_tree()`, or `…`. */
const label = (e: Expr): string => {
  switch (e.k) {
    case "id":
      return e.name
    case "self":
      return "self"
    case "member":
      return `${label(e.obj)}.${e.name}`
    case "call":
      return e.callee.k === "id" || e.callee.k === "member" ? `${label(e.callee)}()` : "…"
    default:
      return "…"
  }
}

/** Calls `f` on every direct sub-expression (lambda bodies are walked by their own function). */
export const forEachChild = (e: Expr, f: (child: Expr) => void): void => {
  switch (e.k) {
    case "member":
      f(e.obj)
      return
    case "call":
      f(e.callee)
      for (const a of e.args) f(a)
      return
    case "index":
      f(e.obj)
      f(e.index)
      return
    case "bin":
      f(e.left)
      f(e.right)
      return
    case "unary":
    case "await":
    case "cast":
    case "is":
      f(e.expr)
      return
    case "ternary":
      f(e.cond)
      f(e.then)
      f(e.else)
      return
    case "array":
      for (const x of e.items) f(x)
      return
    case "dict":
      for (const [k, v] of e.entries) {
        f(k)
        f(v)
      }
      return
    case "preload":
      f(e.path)
      return
    default:
      return
  }
}

/** Names a match pattern binds (`var x`, parsed as identifiers). */
const bindings = (p: Expr): ReadonlyArray<string> => (p.k === "id" && p.name !== "_" ? [p.name] : p.k === "array" ? p.items.flatMap(bindings) : p.k === "dict" ? p.entries.flatMap(([, v]) => bindings(v)) : [])

/**
 * A path stays inside when it starts with an allowed prefix (or, for methods of an opened
 * directory and for res:// loads, is relative) and has no `..` segment. A path known only by its
 * start is judged on what that start already proves.
 */
export const judgePath = (v: Val, allowedPrefixes: ReadonlyArray<string>, relativeAllowed: boolean): "inside" | "outside" | "unknown" => {
  const one = (path: string, whole: boolean): "inside" | "outside" | "unknown" => {
    if (path.split(/[/\\]/).includes("..")) return "outside"
    if (allowedPrefixes.some((p) => path.startsWith(p))) return "inside"
    if (/^([/\\~]|[A-Za-z]:|[A-Za-z][A-Za-z0-9+.-]*:\/\/)/.test(path)) return "outside"
    if (!whole) return relativeAllowed && path.length > 0 ? "inside" : "unknown"
    return relativeAllowed && path.length > 0 ? "inside" : "outside"
  }
  if (v.t === "str") {
    const verdicts = v.values.map((p) => one(p, true))
    return verdicts.includes("outside") ? "outside" : verdicts.includes("unknown") ? "unknown" : "inside"
  }
  if (v.t === "unknown" && v.prefix !== undefined && v.prefix !== "") return one(v.prefix, false)
  return "unknown"
}

const applyStringMethod = (name: string, v: string): string => {
  switch (name) {
    case "to_lower":
      return v.toLowerCase()
    case "to_upper":
      return v.toUpperCase()
    case "strip_edges":
      return v.trim()
    case "lstrip":
      return v.trimStart()
    case "rstrip":
      return v.trimEnd()
    default:
      return v
  }
}

const applyStringMethod2 = (name: string, v: string, args: ReadonlyArray<Val>): string | null => {
  const s = (i: number): string | null => {
    const a = args[i]
    return a?.t === "str" && a.values.length === 1 ? (a.values[0] ?? null) : null
  }
  const num = (i: number): number | null => {
    const a = args[i]
    return a?.t === "lit" && typeof a.value === "number" ? a.value : null
  }
  switch (name) {
    case "replace": {
      const from = s(0)
      const to = s(1)
      return from === null || to === null || from === "" ? null : v.split(from).join(to)
    }
    case "trim_prefix": {
      const p = s(0)
      return p === null ? null : v.startsWith(p) ? v.slice(p.length) : v
    }
    case "trim_suffix": {
      const p = s(0)
      return p === null ? null : v.endsWith(p) && p !== "" ? v.slice(0, -p.length) : v
    }
    case "plus_file":
    case "path_join": {
      const p = s(0)
      return p === null ? null : `${v.replace(/\/$/, "")}/${p}`
    }
    case "substr": {
      const from = num(0)
      const len = args.length > 1 ? num(1) : -1
      return from === null || len === null ? null : len < 0 ? v.slice(from) : v.slice(from, from + len)
    }
    case "left": {
      const n = num(0)
      return n === null ? null : n < 0 ? v.slice(0, n) : v.slice(0, n)
    }
    case "right": {
      const n = num(0)
      return n === null ? null : n < 0 ? v.slice(-n) : v.slice(Math.max(0, v.length - n))
    }
    default:
      return null
  }
}

/** `"%s%s" % [a, b]` with constant arguments; null when a placeholder cannot be filled. */
const formatString = (format: string, args: ReadonlyArray<Val>): string | null => {
  let i = 0
  let out = ""
  for (let k = 0; k < format.length; k++) {
    const ch = format[k]
    if (ch !== "%") {
      out += ch
      continue
    }
    const next = format[k + 1]
    k += 1
    if (next === "%") {
      out += "%"
      continue
    }
    const a = args[i++]
    if (next === "s" && a?.t === "str" && a.values.length === 1) out += a.values[0]
    else if (next === "s" && a?.t === "lit") out += String(a.value)
    else if (next === "c" && a?.t === "lit" && typeof a.value === "number") out += String.fromCodePoint(a.value)
    else if (next === "c" && a?.t === "str" && a.values.length === 1) out += a.values[0]?.[0] ?? ""
    else if (next === "d" && a?.t === "lit" && typeof a.value === "number") out += String(Math.trunc(a.value))
    else return null
  }
  return i === args.length || args.length === 1 ? out : null
}

