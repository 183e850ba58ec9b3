// What the whole pack declares, for every script's analysis: its scripts and classes (class_name,
// inner classes, extends chains, members), and the value of every `const`, folded across scripts
// (`Consts.NAME`, `preload("res://c.gd").NAME`, inherited and outer-class constants).
// A `class_name` is a global name only where the engine makes it one: registered in the project
// settings (`_global_script_classes`, Godot 3) or the global class cache (Godot 4), and never for
// the name of an engine class or singleton, which always resolves to the engine's own
// (modules/gdscript/gdscript_compiler.cpp looks up the engine's global map before global classes;
// both engines refuse a class that shadows a native class).
import type { ClassDecl, Expr, ExtendsClause, FunctionDecl, Pos, ScriptAst, Stmt, TypeRef } from "./ast.ts"
import { forEachExpr, isAssignment, parentsOf } from "./exprWalk.ts"
import { EVERY_NAME, namesNotOnlyRead, type NotOnlyRead } from "./constantReads.ts"
import type { CallerIndex } from "./callers.ts"
import { throughNames, VALUE_SETTERS } from "./propertyPaths.ts"
import { localValues, partStrings, readParts } from "./nestedTables.ts"
import { type ControlsInPack, controlsInPack, mayCreateClass, walkClass } from "./dialogPresence.ts"
import { engineLookupPath, extendsLookup, packLookup, simplifyResPath } from "../pack/packPath.ts"
import { type DataArg, UNREAD } from "../resource/SceneFacts.ts"
import { attachWords, NAME_DISPATCHERS } from "./scriptAttach.ts"
import { settingBase } from "../packFiles/settingName.ts"
import type { DataProperties } from "./memberWrites.ts"
import type { Grammar } from "./tokenizer.ts"
import { type Val, UNKNOWN } from "./values.ts"
import type { UidResolution } from "../resource/uidCache.ts"

export interface ClassRef {
  /** Key of the script: its creator path (`res://a.gd`) or `scene::subResource` for a built-in script. */
  readonly script: string
  /** Inner class names from the file's class down to this one. */
  readonly inner: ReadonlyArray<string>
}

export interface PackScript {
  readonly key: string
  /** The path `load`/`preload`/`extends` name it by (the creator path; for built-in scripts, none). */
  readonly path: string | null
  /**
   * The paths a relative `preload` or `extends` is joined to, one per folder, when not `path`: the engine joins it to
   * the folder of the script's own path (GDScript::reload's base dir), which for a built-in script is the path its
   * scene or resource was loaded by (every path that reaches the file: PackContents.loadPaths).
   */
  readonly relativeTo?: ReadonlyArray<string>
  readonly ast: ScriptAst
  readonly grammar: Grammar
}

/** The paths a script's relative `preload`/`extends` are joined to (PackScript.relativeTo). */
export const relativeBases = (script: PackScript | undefined): ReadonlyArray<string> => script?.relativeTo ?? (script?.path === null || script?.path === undefined ? [] : [script.path])

/** A write of a property by a name that is not a literal: its function, receiver (null: self) and value (null: out of sight). */
export interface NamedWrite {
  readonly cls: ClassRef
  readonly f: FunctionDecl
  readonly method: boolean
  readonly recv: Expr | null
  readonly value: Expr | null
  /** In attachCalls: the name the method is called by (`"set_" + s`), which may or may not be set_script's. */
  readonly name?: Expr
  /** Of a dispatch by a name not followed that may reach a setter (`OS.call(n, "touch", [m])`): that name. */
  readonly setterName?: Expr
}

export interface WritesByName {
  readonly names: ReadonlySet<string>
  readonly writes: ReadonlyArray<NamedWrite>
  /**
   * Dispatches by a name not followed that hand one argument on (`o.call("set_" + s, B)`, `callv(n, [B])`, a
   * connection's one bind): the name may be set_script's, the argument the script attached (a hundred-and-eighteenth
   * red team's); `value` that argument.
   */
  readonly attachCalls: ReadonlyArray<NamedWrite>
}

/** The one item of an Array of arguments (undefined: not one; null: an Array not in sight). */
const onlyItem = (e: Expr | undefined): Expr | null | undefined => (e === undefined ? undefined : e.k !== "array" ? null : e.items.length === 1 ? e.items[0] : undefined)

/** The one argument a dispatch by a name not followed hands the method (undefined: not one; null: not in sight). */
const singleArgument = (dispatch: string, args: ReadonlyArray<Expr>): Expr | null | undefined =>
  dispatch !== "callv" ? (args.length === 2 ? args[1] : undefined) : onlyItem(args[1])

/**
 * Whether a dispatch by a name that is not constant (`call(n, …)`, `call_deferred(n, …)`, `callv(n, args)`) can
 * reach a setter: every setter takes a property and a value, and each dispatch on the way consumes a name, so
 * `call`/`call_deferred` need two arguments after the name and `callv` an array that is not a literal of fewer than
 * two elements (Object::call checks the count before the method runs: CALL_ERROR_TOO_FEW_ARGUMENTS, nothing is set).
 */
/** The containers a name may be typed as, whose `[k] = v` writes an item. */
const CONTAINER_TYPES: ReadonlySet<string> = new Set(["Array", "Dictionary"])

const mayReachSetter = (dispatch: string, args: ReadonlyArray<Expr>): boolean => {
  const rest = args[1]
  if (dispatch !== "callv") return args.length >= 3
  return rest !== undefined && (rest.k !== "array" || rest.items.length >= 2)
}

export const sameClass = (a: ClassRef, b: ClassRef): boolean => a.script === b.script && a.inner.join(".") === b.inner.join(".")

const MAX_CHAIN = 32

/** Built-in functions that set an instance's members from a Dictionary without the members' types (writesMembersRaw). */
const RAW_MEMBER_WRITERS: ReadonlySet<string> = new Set(["dict2inst", "dict_to_inst"])

/**
 * Resolves `path` as `preload` does: absolute `res://`, else relative to `from`'s folder, simplified
 * (GDScriptParser's preload: plus_file, then simplify_path). Paths the engine loads as written: packPath.ts.
 */
export const resolveScriptPath = (path: string, from: string | null): string => simplifyResPath(engineLookupPath(path, from))

/**
 * `preload(path)` of a script as resolveScriptPath makes it, or null when its bases (relativeBases) make a relative
 * path two files: which one the engine loads depends on how the script's resource was loaded.
 */
/** A class's member initialisers and its functions' parameter defaults, as the body of one function (they run too). */
const INITIALISERS = new WeakMap<ClassDecl, FunctionDecl>()
const initialisersOf = (d: ClassDecl): FunctionDecl => {
  const known = INITIALISERS.get(d)
  if (known !== undefined) return known
  const exprs = [...d.vars.flatMap((v) => (v.init === null ? [] : [v.init])), ...d.functions.flatMap((f) => f.params.flatMap((p) => (p.init === null ? [] : [p.init])))]
  const f: FunctionDecl = { name: "", params: [], body: exprs.map((e): Stmt => ({ k: "expr", expr: e, at: e.at })), isStatic: false, at: exprs[0]?.at ?? { line: 0, column: 0 } }
  INITIALISERS.set(d, f)
  return f
}

/** The lambdas of a body, nested ones included. */
const lambdasIn = (body: ReadonlyArray<Stmt>): ReadonlyArray<FunctionDecl> => {
  const out: Array<FunctionDecl> = []
  const visit = (stmts: ReadonlyArray<Stmt>): void =>
    forEachExpr(stmts, (e) => {
      if (e.k !== "lambda") return
      out.push(e.fn)
      visit(e.fn.body)
    })
  visit(body)
  return out
}

/** A constant of a number, a bool or null (`const W = 40`, an enum's value): no method's or property's name (the engine refuses one). */
const isNoText = (e: Expr): boolean => e.k === "num" || e.k === "const" || (e.k === "unary" && e.expr.k === "num")

export const preloadPath = (path: string, script: PackScript | undefined): string | null => {
  const bases = relativeBases(script)
  const resolved = new Set(bases.length === 0 ? [resolveScriptPath(path, null)] : bases.map((b) => resolveScriptPath(path, b)))
  return resolved.size === 1 ? ([...resolved][0] as string) : null
}

/** What is visible by name inside one class, computed once per class. */
interface ClassScope {
  /** Functions, variables, signals and constants of the class and its pack ancestors. */
  readonly members: ReadonlySet<string>
  readonly vars: ReadonlyMap<string, { readonly owner: ClassRef; readonly decl: ClassDecl["vars"][number] }>
  /** Functions of the class and its pack ancestors, the nearest definition of each name. */
  readonly methods: ReadonlyMap<string, { readonly owner: ClassRef; readonly decl: FunctionDecl }>
  /** Constants of the class, its ancestors and its outer classes (and their ancestors), nearest first. */
  readonly consts: ReadonlyMap<string, { readonly owner: ClassRef; readonly init: Expr }>
  /** Inner classes visible by name, likewise. */
  readonly inner: ReadonlyMap<string, ClassRef>
}

const refKey = (ref: ClassRef): string => `${ref.script}#${ref.inner.join(".")}`

/** The files of the pack, as the engine finds them by res:// path. */
export interface PackFiles {
  /** Whether the engine finds a resource at this res:// path in the pack (the file, its `.remap` or `.import`). */
  has(path: string): boolean
  /** Whether some file of the pack has a path starting with `prefix`. */
  hasUnder(prefix: string): boolean
  /** The creator path of what the engine loads for `path` (a `.remap` target wins over a file of the same name). */
  loadedPath(path: string): string
  /** What a `uid://` path names for a Godot 4 engine (the pack's uid cache); absent for Godot 3 packs. */
  resolveUid?(uid: string): UidResolution
}

export interface PackModelOptions {
  /** The pack's files; without them, whether a path is in the pack is not judged. */
  readonly files?: PackFiles
  /** Autoloads the engine makes global names (`*` in `[autoload]`): name → key of the script of their node. */
  readonly autoloads?: ReadonlyMap<string, string>
  /** Every autoload's script path by name (singletons or not): what `extends Name` of an autoload names. */
  readonly baseAutoloads?: ReadonlyMap<string, string>
  /** The engine class of each text resource's main resource, by res:// path (`[gd_resource type="…"]`). */
  readonly resourceTypes?: ReadonlyMap<string, string>
  /** The res:// paths a `.remap`, a settings path remap or a translation remap may send elsewhere. */
  readonly redirectedPaths?: ReadonlySet<string>
  /** The project settings' values by whole key: a string's text, null for another type (projectSettingsCheck.ts settingValues). */
  readonly settings?: ReadonlyMap<string, ReadonlyArray<string | null>>
  /** Scene connections to dispatch APIs: a script emitting their signal passes the arguments their binds follow. */
  readonly connections?: ReadonlyArray<DataConnection>
  /** Methods scenes and resources call by name (connections, method tracks): their callers are out of the scripts' sight. */
  readonly dataMethods?: ReadonlySet<string>
  /** Those calls with the values their data gives (a method track key's `args`, a connection's binds). */
  readonly dataCalls?: ReadonlyArray<DataCall>
  /**
   * Whether a function reached only by the calls the pack's scripts write takes only their arguments
   * (callers.ts). False when scripts may come that are not among these (read from data later).
   */
  readonly closedCalls?: boolean
  /** What the pack's scenes and resources set on objects, by property (memberWrites.ts); none when not given. */
  readonly dataProperties?: DataProperties
  /** Engine classes of the nodes the pack's scenes create (a FileDialog node brings its internal children). */
  readonly sceneClasses?: ReadonlySet<string>
  /** The `[url]` metas of every string of the pack's scenes and resources (linkMetas.ts), and whether some were not read; none when not given. */
  readonly linkMetas?: { readonly urls: ReadonlySet<string>; readonly unread: boolean }
  /** The scenes' nodes by name: their engine classes, null for a node instanced, inherited or with a script; none when not given. */
  readonly sceneNodes?: ReadonlyMap<string, ReadonlySet<string | null>>
  /** The objects the pack's scenes and resources attach scripts to (script keys, engine classes; null: not known); when not given, any object may carry any script. */
  readonly scriptHosts?: ReadonlyArray<{ readonly script: string | null; readonly type: string | null }>
  /**
   * The platform SDK's classes (the policy's platformClasses): for one that lists `hooks`, the only functions of a
   * class extending it that the SDK calls. Without them, the SDK may call any function of such a class.
   */
  readonly platformClasses?: ReadonlyArray<{ readonly name: string; readonly path: string; readonly hooks?: ReadonlyArray<string> | undefined }>
}

/** Methods through which data (a connection, a method track) may write `script` with a value it binds. */
/** Engine methods that set a property named by an argument (its position; the value follows it), besides VALUE_SETTERS. */
const NAMED_PROPERTY_SETTERS: ReadonlyMap<string, number> = new Map([
  ["add_do_property", 1], ["add_undo_property", 1], ["set_group", 1], ["set_group_flags", 2], ["rset", 0], ["rset_id", 1], ["rset_unreliable", 0], ["rset_unreliable_id", 1],
])

export const DATA_ATTACHERS: ReadonlySet<string> = new Set(["set_script", ...VALUE_SETTERS, "call", "callv", "call_deferred"])

/** Whether a value data hands a method may be an object (a resource, or a value not followed). */
const mayBeObject = (arg: DataArg): boolean => (Array.isArray(arg) ? arg.some(mayBeObject) : arg === UNREAD || (typeof arg === "object" && arg !== null && "resource" in arg))

/** A connection a scene makes to a method by name (`set_indexed`, `call`, …), with its bound arguments. */
export interface DataConnection {
  readonly signal: string
  readonly method: string
  readonly binds: ReadonlyArray<DataArg>
}

/** A call data makes by name: a method track's key (its `args`), or a connection (its binds, after the signal's own arguments). */
export interface DataCall {
  readonly method: string
  readonly args: ReadonlyArray<DataArg>
  /** A connection: the signal's arguments, of unknown number, come first, so a bound value may stand at any position from the first on. */
  readonly afterSignal: boolean
  /** Read from a text resource's array of more items than it keeps numbers for (variantText.ts POSITIONS_KEPT): each value may stand at its position or a later one. */
  readonly sparse?: true
}

interface CodeWords {
  readonly words: ReadonlySet<string>
  readonly assigned: ReadonlySet<string>
  readonly mutated: ReadonlySet<string>
}

/** A `ProjectSettings.set_setting(key, …)` of the pack: the key, in its class and function (null: a member's default). */
export interface SettingsWrite {
  readonly cls: ClassRef
  readonly f: FunctionDecl | null
  readonly method: boolean
  readonly key: Expr
}

export interface SettingsWrites {
  readonly any: boolean
  readonly sites: ReadonlyArray<SettingsWrite>
}

/** Calls that hand out an object that may be any engine object, ProjectSettings too (evaluate.ts ANY_OBJECT). */
const ANY_OBJECT_SOURCES: ReadonlyArray<string> = ["instance_from_id", "get_incoming_connections", "get_signal_connection_list", "get_connections", "get_object"]

/** ProjectSettings methods that only read settings (3.x and 4.x class reference). */
const SETTINGS_READERS: ReadonlySet<string> = new Set(["get_setting", "get_setting_with_override", "get", "has_setting", "has", "globalize_path", "localize_path", "get_order", "property_can_revert", "property_get_revert", "get_global_class_list"])

export class PackModel {
  readonly #scopes = new Map<string, ClassScope>()
  readonly #decls = new Map<string, ClassDecl | null>()
  readonly #parents = new Map<string, ClassRef | null>()
  readonly #scripts = new Map<string, PackScript>()
  readonly #byPath = new Map<string, string>()
  readonly #constCache = new Map<string, Val>()
  readonly #inProgress = new Set<string>()
  /** `class_name` → script path, as registered for the engine (project settings, global class cache). */
  readonly #globalClasses: ReadonlyMap<string, string>
  readonly #isEngineName: (name: string) => boolean
  readonly #overrides = new Map<string, ReadonlyArray<ClassRef>>()

  /**
   * `globalClasses`: the registered global classes (name → path); `isEngineName`: whether a name is
   * an engine class or singleton (such a name is never a pack class).
   */
  readonly files: PackFiles | null
  readonly #autoloads: ReadonlyMap<string, string>
  readonly #baseAutoloads: ReadonlyMap<string, string>

  constructor(scripts: Iterable<PackScript>, globalClasses: ReadonlyMap<string, string> = new Map(), isEngineName: (name: string) => boolean = () => false, options: PackModelOptions = {}) {
    for (const s of scripts) {
      this.#scripts.set(s.key, s)
      if (s.path !== null) this.#byPath.set(s.path, s.key)
    }
    this.#globalClasses = globalClasses
    this.#isEngineName = isEngineName
    this.files = options.files ?? null
    this.#autoloads = options.autoloads ?? new Map()
    this.#baseAutoloads = options.baseAutoloads ?? new Map()
    this.connections = options.connections ?? []
    this.dataMethods = options.dataMethods ?? new Set()
    this.dataCalls = options.dataCalls ?? []
    this.closedCalls = options.closedCalls ?? true
    this.dataProperties = options.dataProperties ?? { values: new Map(), written: new Set() }
    this.#sceneClasses = options.sceneClasses ?? new Set()
    this.linkMetas = options.linkMetas ?? { urls: new Set(), unread: false }
    this.sceneNodes = options.sceneNodes ?? new Map()
    this.#scriptHosts = options.scriptHosts ?? null
    this.settings = options.settings ?? new Map()
    this.resourceTypes = options.resourceTypes ?? new Map()
    this.redirectedPaths = options.redirectedPaths ?? new Set()
    this.#platformClasses = options.platformClasses ?? []
  }

  readonly #platformClasses: NonNullable<PackModelOptions["platformClasses"]>

  readonly #scriptHosts: ReadonlyArray<{ readonly script: string | null; readonly type: string | null }> | null
  #attaches: boolean | null = null

  /**
   * The engine classes of the objects the pack's data gives a script of class `ref` (or one extending it): a `.tres`
   * whose `[resource]` of type GDScript or Image holds `script = …`, a scene's node of its type. Self is then that
   * object, whatever the script extends (GDScript's instance_create checks only that the object descends from its base).
   */
  hostTypes(ref: ClassRef): ReadonlyArray<string> {
    if (this.#scriptHosts === null) return []
    const key = `${ref.script}#${ref.inner.join(".")}`
    let found = this.#hostTypes.get(key)
    if (found === undefined) this.#hostTypes.set(key, (found = [...new Set(this.#scriptHosts.flatMap((h) => (h.type !== null && (h.script === null || this.#scriptExtends(h.script, ref)) ? [h.type] : [])))]))
    return found
  }

  readonly #hostTypes = new Map<string, ReadonlyArray<string>>()

  /**
   * Whether a script of class `ref` may be attached to an object of an engine class `accepts` takes: the pack's data
   * attaches it (or a script extending it) to such an object or to one of a class it does not name (an instanced or
   * inherited node), or code or data may attach scripts at run time (scriptAttach.ts). Without the data's hosts, yes.
   */
  mayBeAttachedTo(ref: ClassRef, accepts: (type: string) => boolean): boolean {
    if (this.#scriptHosts === null || this.#attachesAtRunTime()) return true
    return this.#scriptHosts.some((h) => (h.type === null || accepts(h.type)) && (h.script === null || this.#scriptExtends(h.script, ref)))
  }

  /** Whether the class of script file `script` is `ref` or extends it. */
  #scriptExtends(script: string, ref: ClassRef): boolean {
    for (const cls of this.ancestry({ script, inner: [] })) if (sameClass(cls, ref)) return true
    return false
  }

  /**
   * Whether the pack may attach a script at run time: code names `set_script` or `script`, data calls a method that
   * may write it (DATA_ATTACHERS) or a track writes it, or a write by a name out of sight may be handed a Script
   * object some code or data holds (scriptAttach.ts), its value not known to be none (writtenMayBeScript).
   */
  /** Whether code or data may attach a script to an object at run time (below): an object of one class may then become one of another. */
  attachesAtRunTime(): boolean {
    return this.#attachesAtRunTime()
  }

  /**
   * Whether an object made of one class may carry another script when its members are read: as attachesAtRunTime, but
   * no while that is worked out. Until the first script is attached every object has the one it was made with, so
   * what decides whether code attaches one (the names and values of writes by name) is read with those scripts.
   */
  swapsScripts(): boolean {
    return !this.#attaching && this.#attachesAtRunTime()
  }

  #attachesAtRunTime(): boolean {
    if (this.#attaches !== null) return this.#attaches
    // Asked again while the values of the writes are judged: the safe answer, not kept.
    if (this.#attaching) return true
    this.#attaching = true
    try {
      this.#attaches = this.#attachWords()
    } finally {
      this.#attaching = false
    }
    return this.#attaches
  }

  #attaching = false

  /**
   * Whether the value a write by a name out of sight gives may be a Script object (set by the evaluator, which
   * reads the value where it is in sight: a string, a number, JSON data, a Dictionary's entry is none); unset, yes.
   */
  writtenMayBeScript: ((write: NamedWrite) => boolean) | null = null

  /** The property names the pack's data sets, or has in a property path (a track's `X:name`). */
  #dataNames(): ReadonlySet<string> {
    if (this.#dataNameSet !== null) return this.#dataNameSet
    const { values, written } = this.dataProperties
    this.#dataNameSet = new Set([...written, ...values.keys(), ...[...values.values()].flatMap((list) => list.flatMap((d) => throughNames(d.value ?? "")))])
    return this.#dataNameSet
  }

  #dataNameSet: ReadonlySet<string> | null = null

  /** Whether the pack's data calls a method attaching a script or writes a `script` property (scenes, tracks). */
  #dataAttaches(): boolean {
    return [...DATA_ATTACHERS].some((m) => this.dataMethods.has(m)) || this.dataProperties.written.has("script")
  }

  /** `through`: which writes by a name out of sight count (all, for any object; those that may reach one object, for it). */
  #attachWords(through: (write: NamedWrite) => boolean = () => true): boolean {
    this.#classes ??= this.#allClasses()
    const classNames = new Set([...this.#globalClasses.keys(), ...this.#classes.flatMap((c) => c.inner.slice(-1))])
    const words = attachWords([...this.#scripts.values()].map((s) => s.ast.root), classNames)
    const dataAttaches = this.#dataAttaches()
    const dataHolds = [...this.dataProperties.values.values()].some((list) => list.some((v) => v.value === null)) || this.dataCalls.some((c) => c.args.some(mayBeObject))
    if (words.attaches || dataAttaches || !(words.holdsScripts || dataHolds)) return words.attaches || dataAttaches
    const judge = this.writtenMayBeScript
    const { writes, attachCalls } = this.writesByName()
    // The judge reads the name a dispatch calls by, where in sight, before the value (writtenMayBeScript).
    return [...writes, ...attachCalls].some((w) => through(w) && (judge === null || judge(w)))
  }

  readonly linkMetas: { readonly urls: ReadonlySet<string>; readonly unread: boolean }
  readonly sceneNodes: ReadonlyMap<string, ReadonlySet<string | null>>

  readonly #sceneClasses: ReadonlySet<string>
  readonly #driven = new Map<Grammar, ControlsInPack>()
  readonly #creates = new Map<string, boolean>()

  /**
   * Whether some code may write a member without the engine holding it to its type: `dict2inst` (3.x
   * GDScriptFunctions: the values go straight into the instance's members; 4.x `dict_to_inst`), named anywhere, also
   * as a string. A twentieth red team stored a String with a NUL in `var slot := 1` that way.
   */
  writesMembersRaw(): boolean {
    return [...RAW_MEMBER_WRITERS].some((word) => this.mentions(word))
  }

  /** Whether some code of the pack names `word` (an identifier, a member or a whole string). */
  mentions(word: string): boolean {
    return this.#codeWords().words.has(word)
  }

  /** Whether some code of the pack assigns to a name (`name = v`, `x.name += v`): a member of that name may change. */
  assignedAnywhere(name: string): boolean {
    return this.#codeWords().assigned.has(name)
  }

  /**
   * Whether some code of the pack may change in place a String held by a name: `name.erase(…)` (3.x String.erase edits
   * the variable) or `name[i] = c` (a character written by index), which are no assignments of the name (a thirty-first
   * red team's `p.erase(0, 7)` made "user:///tmp/x" the path "/tmp/x").
   */
  mutatedInPlace(name: string): boolean {
    const mutated = this.#codeWords().mutated
    return mutated.has(name) || mutated.has(EVERY_NAME)
  }

  /** Every name and string the pack's code spells, every name it assigns to, and every name it may edit in place, from one walk of the scripts. */
  #codeWords(): CodeWords {
    if (this.#wordsSeen !== null) return this.#wordsSeen
    const words = new Set<string>()
    const assigned = new Set<string>()
    const mutated = new Set<string>()
    const named = (x: Expr): string | null => (x.k === "id" || x.k === "member" ? x.name : null)
    for (const s of this.#scripts.values()) {
      walkClass(s.ast.root, (e) => {
        if (e.k === "id" || e.k === "member") words.add(e.name)
        if (e.k === "str") words.add(e.value)
        if (e.k === "bin" && isAssignment(e.op) && (e.left.k === "id" || e.left.k === "member")) assigned.add(e.left.name)
        const target = e.k === "call" && e.callee.k === "member" && e.callee.name === "erase" ? e.callee.obj : e.k === "bin" && isAssignment(e.op) && e.left.k === "index" ? e.left.obj : null
        // `self["p"].erase(…)` edits the member p (3.x writes the String back through the property): the key names it,
        // any name when it is not constant on self (a thirty-second red team's); an Array's element is not written back.
        const edited = target === null ? null : target.k === "index" ? (target.index.k === "str" ? target.index.value : target.obj.k === "self" ? EVERY_NAME : null) : named(target)
        if (edited !== null) mutated.add(edited)
      }, () => {})
    }
    this.#wordsSeen = { words, assigned, mutated }
    return this.#wordsSeen
  }

  #wordsSeen: CodeWords | null = null

  /** Whether the pack may create an object of engine class `cls` (by its scenes' nodes, its scripts' words or ClassDB). */
  mayCreate(cls: string): boolean {
    const cached = this.#creates.get(cls)
    if (cached !== undefined) return cached
    const found = mayCreateClass([...this.#scripts.values()].map((s) => s.ast.root), this.#sceneClasses, cls)
    this.#creates.set(cls, found)
    return found
  }

  /** The driven controls (engineDialogs.ts) the pack may create (by its scenes' nodes or its scripts' words), and whether it attaches scripts at run time. */
  drivenControls(grammar: Grammar): ControlsInPack {
    const cached = this.#driven.get(grammar)
    if (cached !== undefined) return cached
    const found = controlsInPack([...this.#scripts.values()].map((s) => s.ast.root), this.#sceneClasses, grammar)
    this.#driven.set(grammar, found)
    return found
  }

  readonly dataProperties: DataProperties
  /** The engine class of each text resource's main resource (PackModelOptions.resourceTypes). */
  readonly resourceTypes: ReadonlyMap<string, string>
  /** The paths the engine may load something else for (PackModelOptions.redirectedPaths). */
  readonly redirectedPaths: ReadonlySet<string>
  /** The project settings' values by whole key (PackModelOptions.settings). */
  readonly settings: ReadonlyMap<string, ReadonlyArray<string | null>>

  /**
   * What `ProjectSettings.get_setting(key)` may give of the pack's settings files, or undefined where they do not set
   * it: the value of `key` itself and, for a key without a dot, of each feature override `key.<features>`
   * (ProjectSettings::_get reads the whole name, or the override `_set` pointed the part before the first dot at).
   */
  settingValue(key: string): ReadonlyArray<string | null> | undefined {
    const own = this.settings.get(key)
    const overrides = key.includes(".") ? [] : [...this.settings].filter(([k]) => k !== key && settingBase(k) === key).flatMap(([, v]) => v)
    return own === undefined && overrides.length === 0 ? undefined : [...(own ?? []), ...overrides]
  }
  #settingsWrites: SettingsWrites | null = null

  /**
   * Where the pack's code may change a project setting at run time: each `ProjectSettings.set_setting(key, v)`, its key
   * for the evaluator to read (evaluate.ts settingsChanged), or every setting (`any`) where code changes one otherwise
   * (`set`, a dispatch, ProjectSettings used other than as the receiver of a method that only reads, `set_setting` or
   * "ProjectSettings" named elsewhere, any engine object reached). Until code changes a setting it holds what the pack's
   * settings file gives it.
   */
  settingsWrites(): SettingsWrites {
    if (this.#settingsWrites !== null) return this.#settingsWrites
    const sites: Array<SettingsWrite> = []
    // Reached as any engine object (`instance_from_id(n).set("game/save", …)`: a hundred-and-ninth red team's).
    let any = ANY_OBJECT_SOURCES.some((w) => this.mentions(w))
    this.#classes ??= this.#allClasses()
    for (const cls of this.#classes) {
      const d = this.decl(cls)
      const defaults: ReadonlyArray<Stmt> = (d?.vars ?? []).flatMap((v) => (v.init === null ? [] : [{ k: "expr" as const, expr: v.init, at: v.init.at }]))
      const bodies = [{ f: null, method: false, body: defaults }, ...(d?.functions ?? []).map((f) => ({ f, method: true, body: f.body })), ...(d?.vars ?? []).flatMap((v) => v.accessors.map((f) => ({ f, method: false, body: f.body })))]
      for (const { f, method, body } of bodies) {
        const { all, parent } = parentsOf(body)
        for (const e of all) {
          // Spelled as text (`Engine.get_singleton("ProjectSettings")`): held by a name the scanner does not follow.
          if (e.k === "str" && e.value === "ProjectSettings") any = true
          if (e.k !== "id" || e.name !== "ProjectSettings") continue
          const member = parent.get(e)
          const name = member?.k === "member" && member.obj === e ? member.name : null
          const call = member === undefined ? undefined : parent.get(member)
          const key = call?.k === "call" && call.callee === member ? call.args[0] : undefined
          if (name === "set_setting" && key !== undefined) sites.push({ cls, f, method, key })
          else if (name === null || !SETTINGS_READERS.has(name)) any = true
        }
      }
    }
    // `set_setting` named otherwise (`call("set_setting", …)` on an alias): any setting.
    if (this.mentions("set_setting") && sites.length === 0) any = true
    this.#settingsWrites = { any, sites }
    return this.#settingsWrites
  }

  readonly dataMethods: ReadonlySet<string>
  readonly dataCalls: ReadonlyArray<DataCall>
  readonly closedCalls: boolean

  /** The engine class a class of the pack extends at the end of its chain of pack classes, when it names one class. */
  engineBase(ref: ClassRef): string | null {
    let last: ClassRef = ref
    for (const cls of this.ancestry(ref)) last = cls
    const ext = this.decl(last)?.extendsClause
    return ext?._tag === "Class" && ext.names.length === 1 ? (ext.names[0] ?? null) : null
  }

  /** Whether the class's chain of pack classes ends in a class without `extends` (the engine makes it a Reference, 4.x RefCounted). */
  extendsNothing(ref: ClassRef): boolean {
    let last: ClassRef = ref
    for (const cls of this.ancestry(ref)) last = cls
    const decl = this.decl(last)
    return decl !== null && decl.extendsClause === null
  }

  /**
   * Whether the class's chain of pack classes ends in a class neither the engine's nor the pack's (the
   * platform SDK's `EngineGame`, excluded from the pack): code out of sight may call its functions.
   */
  extendsOutside(ref: ClassRef): boolean {
    return this.#outsideBase(ref) !== null
  }

  /**
   * Whether code out of sight (the platform SDK) may call function `name` of a class: one whose chain ends outside
   * the pack, unless that base is a platform class of the policy whose `hooks` (names, or starts written `prefix*`)
   * leave the name out.
   */
  sdkMayCall(ref: ClassRef, name: string): boolean {
    const base = this.#outsideBase(ref)
    if (base === null) return false
    const platform = this.#platformClasses.find((c) => (base._tag === "Path" ? c.path === base.path : base.names.length === 1 && c.name === base.names[0]))
    const hooks = platform?.hooks
    return hooks === undefined || hooks.some((h) => (h.endsWith("*") ? name.startsWith(h.slice(0, -1)) : h === name))
  }

  /** The extends clause that takes a class's chain of pack classes outside the engine and the pack, or null. */
  #outsideBase(ref: ClassRef): ExtendsClause | null {
    let last = ref
    for (const cls of this.ancestry(ref)) last = cls
    const ext = this.decl(last)?.extendsClause
    if (ext === undefined || ext === null) return null
    if (ext._tag === "Path") return ext
    const first = ext.names[0]
    return first === undefined || !this.#isEngineName(first) ? ext : null
  }

  readonly connections: ReadonlyArray<DataConnection>

  get scripts(): ReadonlyMap<string, PackScript> {
    return this.#scripts
  }

  /** The pack's script the engine loads for a path (following a `.remap`), or null. */
  scriptAt(path: string): ClassRef | null {
    const key = this.#byPath.get(this.files?.loadedPath(path) ?? path)
    return key === undefined ? null : { script: key, inner: [] }
  }

  /**
   * The script of an autoload node named `name` (a global name for the engine), or null. An autoload and a
   * registered class of one name are both followed: Godot 3 resolves the name to the autoload, Godot 4's
   * analyzer folds constants from the class and its compiler takes the autoload for everything else.
   */
  autoload(name: string): ClassRef | null {
    if (this.#isEngineName(name)) return null
    const key = this.#autoloads.get(name)
    return key === undefined || !this.#scripts.has(key) ? null : { script: key, inner: [] }
  }

  /**
   * Whether `name` is an autoload whose node's script is not a script of the pack the scanner read (a scene whose root
   * script it cannot pin down, a resource): the name stands for that node, never for a registered class of that name
   * (a seventy-fourth red team's decoy `Towers` class beside an autoload scene instancing another).
   */
  autoloadUnknown(name: string): boolean {
    return !this.#isEngineName(name) && this.#autoloads.has(name) && this.autoload(name) === null
  }

  /** The pack class a global name stands for: a registered `class_name` that is not an engine name. */
  globalClass(name: string): ClassRef | null {
    if (this.#isEngineName(name)) return null
    const path = this.#globalClasses.get(name)
    const key = path === undefined ? undefined : this.#byPath.get(path)
    return key === undefined ? null : { script: key, inner: [] }
  }

  /** Whether a name is an engine class or singleton. */
  isEngineName(name: string): boolean {
    return this.#isEngineName(name)
  }

  decl(ref: ClassRef): ClassDecl | null {
    const key = refKey(ref)
    const cached = this.#decls.get(key)
    if (cached !== undefined) return cached
    let cls: ClassDecl | undefined = this.#scripts.get(ref.script)?.ast.root
    for (const name of ref.inner) {
      cls = cls?.classes.find((c) => c.name === name)
      if (cls === undefined) break
    }
    this.#decls.set(key, cls ?? null)
    return cls ?? null
  }

  #scope(ref: ClassRef): ClassScope {
    const key = refKey(ref)
    const cached = this.#scopes.get(key)
    if (cached !== undefined) return cached
    const members = new Set<string>()
    const vars = new Map<string, { owner: ClassRef; decl: ClassDecl["vars"][number] }>()
    const methods = new Map<string, { owner: ClassRef; decl: FunctionDecl }>()
    const consts = new Map<string, { owner: ClassRef; init: Expr }>()
    const inner = new Map<string, ClassRef>()
    // Placeholder against cycles (a class whose outer or parent chain comes back to it).
    this.#scopes.set(key, { members, vars, methods, consts, inner })
    for (const cls of this.ancestry(ref)) {
      const d = this.decl(cls)
      if (d === null) continue
      for (const f of d.functions) {
        members.add(f.name)
        if (!methods.has(f.name)) methods.set(f.name, { owner: cls, decl: f })
      }
      for (const v of d.vars) {
        members.add(v.name)
        if (!vars.has(v.name)) vars.set(v.name, { owner: cls, decl: v })
      }
      for (const sig of d.signals) members.add(sig)
      for (const c of d.consts) members.add(c.name)
    }
    for (const scope of [ref, ...this.outers(ref)]) {
      for (const cls of this.ancestry(scope)) {
        const d = this.decl(cls)
        if (d === null) continue
        for (const c of d.consts) if (!consts.has(c.name)) consts.set(c.name, { owner: cls, init: c.init })
        for (const c of d.classes) if (c.name !== null && !inner.has(c.name)) inner.set(c.name, { script: cls.script, inner: [...cls.inner, c.name] })
      }
    }
    // Godot 3.2.3 gives an inner class's bare constant name the outer class's constant before its base class's (a
    // thirty-third red team's `OS.call(M, …)`: `M` of the outer script was "execute", of the inner class's base
    // "get_name"): a name the two orders resolve to different constants is one not known (an expression of no value).
    const outerFirst = new Map<string, { readonly owner: ClassRef; readonly init: Expr; readonly at: Pos }>()
    for (const scope of [ref, ...this.outers(ref)]) {
      for (const c of this.decl(scope)?.consts ?? []) if (!outerFirst.has(c.name)) outerFirst.set(c.name, { owner: scope, init: c.init, at: c.at })
    }
    for (const [name, c] of outerFirst) {
      if (consts.get(name)?.init !== c.init) consts.set(name, { owner: c.owner, init: { k: "error", at: c.at } })
    }
    // The engine keeps a class's inner classes among its constants and looks a name up level by level (the class, its
    // outer classes, their bases; `obj.NAME` the object's class and its bases), while the scanner keeps two maps: a name
    // that is a constant somewhere and an inner class elsewhere in those levels may be either (a hundred-and-fourth red
    // team's `class Towers` beside a base's `const Towers`, attackProjects140.ts), so it is one not known.
    for (const name of inner.keys()) {
      const c = consts.get(name)
      if (c !== undefined) consts.set(name, { owner: c.owner, init: { k: "error", at: c.init.at } })
    }
    // So is an inner class of that name at two levels where the orders disagree: the outer class's before the base's (a
    // hundred-and-sixth red team's `class Holder` of the outer script and of an inner class's base) as for constants.
    const nearest = new Set<string>()
    for (const scope of [ref, ...this.outers(ref)]) {
      for (const c of this.decl(scope)?.classes ?? []) {
        if (c.name === null || nearest.has(c.name)) continue
        nearest.add(c.name)
        const found = inner.get(c.name)
        if (found === undefined || refKey(found) === refKey({ script: scope.script, inner: [...scope.inner, c.name] })) continue
        inner.delete(c.name)
        consts.set(c.name, { owner: scope, init: { k: "error", at: c.at } })
      }
    }
    return this.#scopes.get(key) as ClassScope
  }

  /** The pack class `ref` extends, or null when it extends an engine class (or nothing). */
  parent(ref: ClassRef): ClassRef | null {
    const key = refKey(ref)
    const cached = this.#parents.get(key)
    if (cached !== undefined) return cached
    this.#parents.set(key, null)
    const parent = this.#parentUncached(ref)
    this.#parents.set(key, parent)
    return parent
  }

  #parentUncached(ref: ClassRef): ClassRef | null {
    const decl = this.decl(ref)
    const ext = decl?.extendsClause
    if (ext === undefined || ext === null) return null
    const script = this.#scripts.get(ref.script)
    if (ext._tag === "Path") {
      const bases = relativeBases(script)
      const lookups = (bases.length === 0 ? [null] : bases).map((from) => extendsLookup(ext.path, from, script?.grammar ?? 3))
      const lookup = lookups.every((l) => l.path === lookups[0]?.path) ? lookups[0] : undefined
      const base = lookup !== undefined && lookup.untidy === null ? this.scriptAt(lookup.path) : null
      return base === null ? null : { script: base.script, inner: ext.names }
    }
    const [first, ...rest] = ext.names
    if (first === undefined) return null
    const key = refKey(ref)
    if (this.#resolving.has(key)) return null
    this.#resolving.add(key)
    try {
      // As the engine resolves it (3.x gdscript_parser.cpp _determine_inheritance): a global class, an autoload, then,
      // from the class's own outer class outward, that class's inner classes and then its constants (folded: a
      // constant holding `preload(…)`, another constant, `A.Inner`; a fiftieth and fifty-first red team's `class Sub
      // extends Base` of `const Base = preload("holder.gd")`, `const Base = A`, a nearer constant before a farther
      // inner class, `extends H` of an autoload H); each name after it an inner class or a constant of the class before.
      const start = this.globalClass(first) ?? this.#autoloadBase(first)
      if (start !== null) return rest.reduce<ClassRef>((cls, name) => this.#memberClass(cls, name) ?? { script: cls.script, inner: [...cls.inner, name] }, start)
      return this.#enclosingWalk(ref, ext.names)
    } finally {
      this.#resolving.delete(key)
    }
  }

  readonly #resolving = new Set<string>()

  /** The script of an autoload (singleton or not) named `name`, as a base class. */
  #autoloadBase(name: string): ClassRef | null {
    const path = this.#isEngineName(name) ? undefined : this.#baseAutoloads.get(name)
    return path === undefined ? null : this.scriptAt(path)
  }

  /**
   * The engine's walk for the names of `extends A.B` (3.x _determine_inheritance): from the class `ref` is declared in,
   * each name is looked for among the current class's own inner classes, then its own constants (a class they hold);
   * found, the walk goes on from there with the next name; not found, from the current class's outer class (a
   * fifty-second red team's `extends A.B` where A has no B but its outer class has; inherited inner classes and
   * constants are not looked at).
   */
  #enclosingWalk(ref: ClassRef, names: ReadonlyArray<string>): ClassRef | null {
    let at: ClassRef | null = ref.inner.length === 0 ? null : { script: ref.script, inner: ref.inner.slice(0, -1) }
    let found: ClassRef | null = null
    let i = 0
    for (let steps = 0; at !== null && i < names.length && steps < MAX_CHAIN; steps++) {
      const name = names[i] ?? ""
      const next: ClassRef | null = this.#memberClass(at, name)
      if (next !== null) {
        found = next
        at = next
        i += 1
      } else at = at.inner.length === 0 ? null : { script: at.script, inner: at.inner.slice(0, -1) }
    }
    return i === names.length ? found : null
  }

  /** The class a name stands for from `ref`'s outer classes outward: an inner class of each, then a constant of each holding a class. */
  #nearestClass(ref: ClassRef, name: string): ClassRef | null {
    return this.#enclosingWalk(ref, [name])
  }

  /** An own inner class of `cls` named `name`, or the class an own constant of it of that name holds. */
  #memberClass(cls: ClassRef, name: string): ClassRef | null {
    return this.#innerOf(cls, name) ?? this.#constantClass(cls, name, 0)
  }

  #innerOf(cls: ClassRef, name: string): ClassRef | null {
    return this.decl(cls)?.classes.some((x) => x.name === name) === true ? { script: cls.script, inner: [...cls.inner, name] } : null
  }

  /** The class an own constant `name` of `cls` holds (`preload(path)`, `load(path)`, another constant, a global class, `A.Inner`), or null. */
  #constantClass(cls: ClassRef, name: string, depth: number): ClassRef | null {
    const init = depth > 8 ? undefined : this.decl(cls)?.consts.find((c) => c.name === name)?.init
    return init === undefined ? null : this.#classOfExpr(cls, init, depth + 1)
  }

  #classOfExpr(scope: ClassRef, e: Expr, depth: number): ClassRef | null {
    if (depth > 8) return null
    // `preload` joins a relative path to the script's folder; `load` does not (ResourceLoader::load makes it `res://` + path).
    if (e.k === "preload") {
      const path = e.path.k === "str" ? preloadPath(e.path.value, this.#scripts.get(scope.script)) : null
      return path === null ? null : this.scriptAt(path)
    }
    const loaded = e.k === "call" && e.callee.k === "id" && e.callee.name === "load" && e.args.length === 1 ? e.args[0] : undefined
    if (loaded !== undefined) {
      const lookup = loaded.k === "str" ? packLookup(loaded.value, null, this.#scripts.get(scope.script)?.grammar ?? 3) : null
      return lookup === null || lookup.untidy !== null ? null : this.scriptAt(lookup.path)
    }
    if (e.k === "id") return this.#memberClass(scope, e.name) ?? this.#nearestClass(scope, e.name) ?? (this.autoloadUnknown(e.name) ? null : this.globalClass(e.name)) ?? this.#autoloadBase(e.name)
    if (e.k === "member") {
      const base = this.#classOfExpr(scope, e.obj, depth + 1)
      return base === null ? null : this.#memberClass(base, e.name)
    }
    return null
  }

  /** The chain `ref`, its parent, … while they are pack classes. */
  *ancestry(ref: ClassRef): Generator<ClassRef> {
    let current: ClassRef | null = ref
    for (let i = 0; current !== null && i < MAX_CHAIN; i++) {
      yield current
      current = this.parent(current)
    }
  }

  /** Outer classes of an inner class, innermost first. */
  *outers(ref: ClassRef): Generator<ClassRef> {
    for (let n = ref.inner.length - 1; n >= 0; n--) yield { script: ref.script, inner: ref.inner.slice(0, n) }
  }

  /** An inner class visible from `ref` by name: its own, its ancestors', its outer classes'. */
  innerClass(ref: ClassRef, name: string, skipSelfAncestry = false): ClassRef | null {
    if (!skipSelfAncestry) return this.#scope(ref).inner.get(name) ?? null
    const scopes = [...this.outers(ref)]
    for (const scope of scopes) {
      for (const cls of skipSelfAncestry && scope === ref ? [] : this.ancestry(scope)) {
        if (this.decl(cls)?.classes.some((c) => c.name === name)) return { script: cls.script, inner: [...cls.inner, name] }
      }
    }
    return null
  }

  /** Whether the class or one of its pack ancestors declares a function, variable, signal or constant of that name. */
  defines(ref: ClassRef, name: string): boolean {
    return this.#scope(ref).members.has(name)
  }

  variable(ref: ClassRef, name: string): { readonly owner: ClassRef; readonly decl: ClassDecl["vars"][number] } | null {
    return this.#scope(ref).vars.get(name) ?? null
  }

  /** The function `name` of the class or its nearest pack ancestor that defines it. */
  method(ref: ClassRef, name: string): { readonly owner: ClassRef; readonly decl: FunctionDecl } | null {
    return this.#scope(ref).methods.get(name) ?? null
  }

  /** Every class of the pack (each script's class and its inner classes, at any depth). */
  #allClasses(): ReadonlyArray<ClassRef> {
    const out: Array<ClassRef> = []
    const walk = (script: string, path: ReadonlyArray<string>, cls: ClassDecl): void => {
      out.push({ script, inner: path })
      for (const inner of cls.classes) if (inner.name !== null) walk(script, [...path, inner.name], inner)
    }
    for (const s of this.#scripts.values()) walk(s.key, [], s.ast.root)
    return out
  }

  #classes: ReadonlyArray<ClassRef> | null = null

  /**
   * The classes of the pack below `ref` (its subclasses at any depth) that define function `name`
   * themselves: an object of `ref`'s class may be one of them, so `obj.name()` may run any of these.
   */
  overrides(ref: ClassRef, name: string): ReadonlyArray<ClassRef> {
    const key = `${refKey(ref)}#${name}`
    const cached = this.#overrides.get(key)
    if (cached !== undefined) return cached
    const found = this.descendants(ref).filter((cls) => this.decl(cls)?.functions.some((f) => f.name === name) === true)
    this.#overrides.set(key, found)
    return found
  }

  /** Every class of the pack (scripts and their inner classes). */
  classes(): ReadonlyArray<ClassRef> {
    this.#classes ??= this.#allClasses()
    return this.#classes
  }

  /** The classes of the pack below `ref`, at any depth. */
  descendants(ref: ClassRef): ReadonlyArray<ClassRef> {
    this.#classes ??= this.#allClasses()
    return this.#classes.filter((cls) => {
      if (sameClass(cls, ref)) return false
      for (const ancestor of this.ancestry(cls)) if (sameClass(ancestor, ref)) return true
      return false
    })
  }

  /** Whether any class of the pack declares a member variable named `name`. */
  anyClassDeclares(name: string): boolean {
    this.#classes ??= this.#allClasses()
    this.#memberNames ??= new Set(this.#classes.flatMap((cls) => (this.decl(cls)?.vars ?? []).map((v) => v.name)))
    return this.#memberNames.has(name)
  }

  #memberNames: Set<string> | null = null

  /** Whether any script of the pack reads a member of that name on an object other than itself (`other.queue`). */
  readElsewhere(name: string): boolean {
    if (this.#readNames === null) {
      const names = new Set<string>()
      this.#classes ??= this.#allClasses()
      for (const cls of this.#classes) {
        const d = this.decl(cls)
        for (const body of [...(d?.functions ?? []).map((f) => f.body), ...(d?.vars ?? []).flatMap((v) => v.accessors.map((a) => a.body))]) {
          forEachExpr(body, (e) => {
            if (e.k === "member" && e.obj.k !== "self") names.add(e.name)
          })
        }
      }
      this.#readNames = names
    }
    return this.#readNames.has(name)
  }

  #readNames: Set<string> | null = null

  /** Whether any class of the pack defines a function named `name` (an unknown object calling it may be the creator's own). */
  anyClassDefines(name: string): boolean {
    if (this.#functionNames === null) {
      this.#classes ??= this.#allClasses()
      this.#functionNames = new Set(this.#classes.flatMap((cls) => (this.decl(cls)?.functions ?? []).map((f) => f.name)))
    }
    return this.#functionNames.has(name)
  }

  #functionNames: Set<string> | null = null

  /** Whether a class of the pack defines a function `name` that takes `count` arguments (a call with another count cannot reach it). */
  anyClassAccepts(name: string, count: number): boolean {
    if (!this.anyClassDefines(name)) return false
    this.#classes ??= this.#allClasses()
    return this.#classes.some((cls) => (this.decl(cls)?.functions ?? []).some((f) => f.name === name && f.params.filter((p) => p.init === null).length <= count && count <= f.params.length))
  }

  /** The class that declares a constant visible in `ref` by name, or null. */
  constantOwner(ref: ClassRef, name: string): ClassRef | null {
    return this.#scope(ref).consts.get(name)?.owner ?? null
  }

  /** The expression a constant visible in `ref` by name is declared with, or null. */
  constantInit(ref: ClassRef, name: string): Expr | null {
    return this.#scope(ref).consts.get(name)?.init ?? null
  }

  /** Whether every use of a name in the pack (`NAME`, `x.NAME`) only reads it (constantReads.ts): a constant Array or Dictionary held there is never changed. */
  onlyRead(name: string): boolean {
    return this.whyNotOnlyRead(name) === null
  }

  /**
   * Why a constant Array or Dictionary held by a name is not followed: the first use in the pack that may change it
   * (`res://a.gd:12 reads by a name built at run time …`), for a finding to name; null when every use only reads it.
   */
  whyNotOnlyRead(name: string): string | null {
    this.#classes ??= this.#allClasses()
    const callers = this.#callers
    this.#notOnlyRead ??= namesNotOnlyRead(this.#classes.flatMap((cls) => { const decl = this.decl(cls); return decl === null ? [] : [{ decl, script: cls.script }] }), {
      isEngineName: (name) => this.isEngineName(name),
      grammar4: [...this.scripts.values()].some((script) => script.grammar === 4),
      scriptNames: new Set([...this.#globalClasses.keys(), ...this.#autoloads.keys()]),
      heldMember: (holder, name) => {
        const ref = this.autoload(holder) === null ? null : this.tableHolder(holder)
        return ref === null ? null : (this.variable(ref, name)?.decl ?? null)
      },
      holdsConstant: (holder, name) => {
        const ref = this.tableHolder(holder)
        return ref !== null && this.constantInit(ref, name) !== null
      },
      rawMemberWrites: this.writesMembersRaw(),
      // Also a property written by a name not a literal (`o.set("scr" + "ipt", s)`, `o[k] = s`: a sixty-fourth red team's),
      // on anything but an engine singleton or class.
      scriptsSwap: this.#scriptsMaySwap(),
      callers: callers === null ? null : { index: callers(), declOf: (ref) => this.decl(ref) },
      dataNames: (name) => this.#dataNames().has(name),
      namedWrites: () => this.writesByName().writes.flatMap((w) => {
        const decl = this.decl(w.cls)
        return decl === null ? [] : [{ decl, f: w.f, value: w.value }]
      }),
    })
    // A track or a scene of the pack's data writing a property path through it (`.:LEVELS:a`) changes it in place.
    if (this.dataProperties.written.has(name) || this.dataProperties.values.has(name)) return `a track or a scene of the pack's data writes a property path through ${name}`
    const cause = this.#notOnlyRead.get(name) ?? this.#notOnlyRead.get(EVERY_NAME)
    return cause === undefined ? null : `${cause.script}:${cause.line} ${cause.how}`
  }

  #notOnlyRead: ReadonlyMap<string, NotOnlyRead> | null = null

  /**
   * Whether code or data may give an object another script after the engine set it up (set_script, a `script`
   * property written, data attaching one), also through a property written by a name not a literal (`o.set("scr" +
   * "ipt", s)`, `o[k] = s`: a sixty-fourth red team's) on anything but an engine singleton or class.
   */
  #scriptsMaySwap(): boolean {
    this.#swaps ??=
      this.mentions("set_script") ||
      this.mentions("script") ||
      this.#dataAttaches() ||
      this.writesByName().writes.some((w) => w.recv === null || w.recv.k !== "id" || (!this.isEngineName(w.recv.name) && !this.#intoContainer(w)))
    return this.#swaps
  }

  #swaps: boolean | null = null

  /**
   * Whether a write by name `o[k] = v` is into an Array or a Dictionary, never an object's property: `o` is a parameter
   * or every `var` of that name in the function typed so (or given a literal of one with `:=`), or else a member of the
   * class typed so, without a setter or getter, in a pack without dict2inst (a seventy-fourth hunt's `silo[crop] = n`
   * of `var silo: Dictionary`). The engine holds such a name to its type.
   */
  #intoContainer(w: NamedWrite): boolean {
    const recv = w.recv
    if (recv?.k !== "id" || w.value === null) return false
    const container = (t: TypeRef | null, init: Expr | null, inferred: boolean): boolean =>
      t !== null ? t.names.length === 1 && CONTAINER_TYPES.has(t.names[0] ?? "") : inferred && (init?.k === "dict" || init?.k === "array")
    const param = w.f.params.find((p) => p.name === recv.name)
    if (param !== undefined) return container(param.type, null, false)
    const locals: Array<boolean> = []
    const walk = (stmts: ReadonlyArray<Stmt>): void => {
      for (const st of stmts) {
        if (st.k === "var" && st.name === recv.name) locals.push(container(st.type, st.init, st.inferred === true))
        if ((st.k === "for" && st.name === recv.name) || (st.k === "match" && st.branches.some((b) => b.binds.some((x) => x.name === recv.name)))) locals.push(false)
        if (st.k === "for" || st.k === "while") walk(st.body)
        if (st.k === "if" || st.k === "match") for (const b of st.branches) walk(b.body)
      }
    }
    walk(w.f.body)
    if (locals.length > 0) return locals.every((x) => x)
    const member = this.#scope(w.cls).vars.get(recv.name)?.decl
    return member !== undefined && member.accessors.length === 0 && (member.accessorNames?.length ?? 0) === 0 && !this.writesMembersRaw() && container(member.type, member.init, member.inferred === true)
  }

  /**
   * The class whose constants `Holder.NAME` reads: an autoload's script, unless some object may get another script
   * at run time (the autoload's node given a script whose member of that name holds anything: a sixty-eighth
   * review's `get_node("/root/Towers").set_script(…)`); else a global class of that name (a script, which keeps its
   * constants). Asked while attachesAtRunTime is judging the values of writes by name (which may read such a
   * table), the safe answer is the one kept.
   */
  tableHolder(holder: string): ClassRef | null {
    const autoload = this.autoload(holder)
    if (autoload === null) return this.autoloadUnknown(holder) ? null : this.globalClass(holder)
    const key = refKey(autoload)
    if (!this.#holdersSwap.has(key)) {
      // A write by a name on self in a class outside the autoload's lineage (`set(s, stats[s])` in a Player of
      // its own), or on an engine singleton (`OS.callv(name, args)`), never reaches the autoload's node.
      const lineage = new Set([autoload, ...this.descendants(autoload), ...this.ancestry(autoload)].map(refKey))
      const reaches = (w: NamedWrite): boolean => (w.recv === null ? lineage.has(refKey(w.cls)) : w.recv.k !== "id" || (!this.isEngineName(w.recv.name) && !this.#intoContainer(w)))
      const swaps = this.#attachesAtRunTime() && (this.#attaching || this.#attachWords(reaches))
      if (!this.#holdersSwap.has(key)) this.#holdersSwap.set(key, swaps)
    }
    return this.#holdersSwap.get(key) === true ? null : autoload
  }

  readonly #holdersSwap = new Map<string, boolean>()

  /** Forgets the answers that depend on attachesAtRunTime, found while it was still being worked out (taken as yes then). */
  forgetAnswersWhileAttaching(): void {
    this.#holdersSwap.clear()
    this.#notOnlyRead = null
  }
  #callers: (() => CallerIndex) | null = null

  /** Who calls the pack's functions (the Evaluator's callers.ts index): onlyRead follows what closed functions are given. */
  useCallers(index: () => CallerIndex): void {
    this.#callers ??= index
  }

  /**
   * Every write of a property by its name in the pack's code: `set("name", v)` (set_deferred, set_indexed, 4.x's set_thread_safe,
   * call/callv/call_deferred of those, any other API handed a setter's name) and `x[k] = v`. Names written as literals are listed (every part of a
   * path); the others are kept with their receiver (null for self) and value, where in sight.
   */
  writesByName(): WritesByName {
    if (this.#byName !== null) return this.#byName
    const names = new Set<string>()
    const writes: Array<NamedWrite> = []
    const attachCalls: Array<NamedWrite> = []
    this.#classes ??= this.#allClasses()
    for (const cls of this.#classes) {
      const d = this.decl(cls)
      const fns = [...(d?.functions ?? []).map((f) => ({ f, method: true })), ...(d?.vars ?? []).flatMap((v) => v.accessors.map((f) => ({ f, method: false })))]
      // Member initialisers and parameters' defaults run too (`var _w = set(k, self)`, `func f(_w = set(k, self))`: a
      // hundred-and-twenty-ninth red team's), and so do lambdas, each read as a function of its own.
      if (d !== null) fns.push({ f: initialisersOf(d), method: false })
      for (const { f } of [...fns]) for (const lambda of lambdasIn(f.body)) fns.push({ f: lambda, method: false })
      for (const { f, method } of fns) {
        forEachExpr(f.body, (e) => {
          if (e.k === "bin" && e.op === "=" && e.left.k === "index") {
            if (e.left.index.k === "str") names.add(e.left.index.value)
            else writes.push({ cls, f, method, recv: e.left.obj.k === "self" ? null : e.left.obj, value: e.right })
            return
          }
          if (e.k !== "call" || (e.callee.k !== "id" && e.callee.k !== "member")) return
          // UndoRedo's property setters act on their first argument, set_group(_flags) on the group's nodes (out of sight).
          const on = e.callee.name.startsWith("add_") ? e.args[0] : e.callee.name.startsWith("set_group") ? e : undefined
          const recv = on !== undefined ? (on.k === "self" ? null : on) : e.callee.k === "member" && e.callee.obj.k !== "self" ? e.callee.obj : null
          let first = e.args[0]
          let value = e.args[1]
          // A name held in a constant (`const SETTER = "set"`) is that name (a fiftieth red team's `call_group("h", SETTER, …)`).
          // A local every value of which is constant text is that text (`var s = "set"` then `funcref(self, s)`,
          // `connect("go", self, s, [k, v])`: a hundred-and-thirtieth red team's), a setter's where one is.
          // So is a read of a constant table (`NAMES["w"]`, `NAMES.w`, `NAMES[0]`) and a loop's variable over a literal or
          // a table (`for s in ["set"]`: a hundred-and-thirty-first red team's).
          const named = (a: Expr | undefined): string | null => {
            if (a === undefined) return null
            const texts = this.#nameTexts(cls, f, a, 0)
            if (texts === null || texts.length === 0) return null
            return texts.find((t) => t === "?" || VALUE_SETTERS.has(t)) ?? texts[0] ?? null
          }
          if (NAME_DISPATCHERS.has(e.callee.name)) {
            const called = named(first)
            // A name not followed, or a dispatcher again (`call("call", "set", …)`: a fifty-first red team's), may reach a
            // setter; not one read from a table of the class naming only its own methods (#ownMethodTable).
            if (called === null && recv === null && first !== undefined && this.#ownMethodTable(cls, f, first)) return
            if (called === null || called === "?" || NAME_DISPATCHERS.has(called)) {
              if (mayReachSetter(e.callee.name, e.args)) writes.push({ cls, f, method, recv, value: null, ...(first === undefined ? {} : { setterName: first }) })
              const single = called === null || called === "?" ? singleArgument(e.callee.name, e.args) : undefined
              if (single !== undefined && first !== undefined) attachCalls.push({ cls, f, method, recv, value: single, name: first })
              return
            }
            if (!VALUE_SETTERS.has(called)) return
            first = e.args[1]
            value = e.callee.name === "callv" ? undefined : e.args[2]
          } else if (NAMED_PROPERTY_SETTERS.has(e.callee.name)) {
            // UndoRedo's add_do_property/add_undo_property, SceneTree's set_group/set_group_flags, the rset family: a
            // property set by its name, on an object given (or the group's nodes), as set() does (a forty-sixth red team's).
            const at = NAMED_PROPERTY_SETTERS.get(e.callee.name) ?? 0
            first = e.args[at]
            value = e.args[at + 1]
          } else if (!VALUE_SETTERS.has(e.callee.name)) {
            // Any other API handed a setter's name (`connect("s", o, "set", [name, v])`, `funcref(o, "set")`,
            // `call_group("g", "set", …)`, `Thread.start(o, "set", …)`) writes a property whose name and value the
            // engine passes later: a write on an object out of sight, with its value out of sight.
            if (e.args.some((a) => VALUE_SETTERS.has(named(a) ?? "") || named(a) === "?")) writes.push({ cls, f, method, recv: e, value: null })
            // 3.x `connect(signal, target, name, [bind])` by a name not followed: the bind may be set_script's script.
            const [, target, handler, binds] = e.args
            if (e.callee.name === "connect" && handler !== undefined && named(handler) === null) {
              const single = onlyItem(binds)
              if (single !== undefined) attachCalls.push({ cls, f, method, recv: target === undefined || target.k === "self" ? null : target, value: single, name: handler })
            }
            return
          }
          // The property's name: a literal is that name; anything else (a folded constant too: `"scr" + "ipt"`) is also a
          // write by a name the value's judges see (writtenMayBeScript).
          const property = first?.k === "str" ? first.value : null
          if (property !== null) for (const part of property.split(":")) names.add(part)
          else writes.push({ cls, f, method, recv, value: value ?? null })
        })
      }
    }
    this.#byName = { names, writes, attachCalls }
    return this.#byName
  }

  #byName: WritesByName | null = null

  /**
   * Whether a dispatch on self names one of the class's own methods: the name is a read of a constant table of
   * the class (`EVENT_HANDLERS[kind]`, `.get(kind)`), or a local of `f` every value of which is one, and every string
   * of the table names a method of the class or a pack class it extends (the engine runs the script's method before
   * its own). While the table holds its literal, the call runs the pack's code, judged as any call of it; a table
   * code may change is not followed, and the dispatch is then its own error (dynamic-dispatch).
   */
  /**
   * The texts a name handed to an engine API may be (writesByName): a constant's or a fold's, a constant table's read,
   * a local's or a loop variable's every value's; null where one is not known.
   */
  #nameTexts(cls: ClassRef, f: FunctionDecl, e: Expr, depth: number): ReadonlyArray<string> | null {
    const direct = this.#constantText(cls, e)
    if (direct !== null) return [direct]
    if (depth > 4) return null
    const scope = this.#scope(cls)
    const table = partStrings(readParts(e, f, (t) => (scope.vars.has(t) ? null : (scope.consts.get(t)?.init ?? null))))
    if (table !== null) return table
    const given = e.k === "id" ? localValues(e.name, f) : null
    if (given === null || given.length === 0) return null
    const out: Array<string> = []
    for (const g of given) {
      // A loop over a literal gives its items (one over a table readParts has read above).
      const values = g === null ? null : !g.walked ? [g.expr] : g.expr.k === "array" ? g.expr.items : null
      if (values === null) return null
      for (const v of values) {
        const texts = this.#nameTexts(cls, f, v, depth + 1)
        if (texts === null) return null
        out.push(...texts)
      }
    }
    return out
  }

  #ownMethodTable(cls: ClassRef, f: FunctionDecl, name: Expr): boolean {
    const scope = this.#scope(cls)
    // Tables of tables too (`var info = CROPS[crop]`, then `call(info["on_harvest"], …)`: a seventy-fourth hunt's farm).
    const parts = readParts(name, f, (t) => (scope.vars.has(t) ? null : (scope.consts.get(t)?.init ?? null)))
    return parts !== null && parts.length > 0 && parts.every((p) => p.k === "str" && scope.methods.has(p.value))
  }

  /**
   * The text a string literal, or a constant holding one, stands for in `cls` (`SETTER`, `Names.SETTER` of an inner,
   * global or preloaded class, `"se" + "t"`, a chain of such: a fifty-first red team's); null when it is no constant,
   * "?" when it is one whose text is not followed.
   */
  #constantText(cls: ClassRef, e: Expr, depth = 0): string | null {
    if (e.k === "str") return e.value
    if (depth > 8) return "?"
    if (e.k === "bin" && e.op === "+") {
      const [l, r] = [this.#constantText(cls, e.left, depth + 1), this.#constantText(cls, e.right, depth + 1)]
      return l === null || r === null ? null : l === "?" || r === "?" ? "?" : l + r
    }
    if (e.k === "member" && e.obj.k === "id") {
      // `Names.SETTER` reads the holder's constant as GDScript::_get does: of the class and its bases (memberConstant).
      const holder = this.#innerOf(cls, e.obj.name) ?? this.#classOfExpr(cls, e.obj, depth + 1)
      const found = holder === null ? null : this.memberConstant(holder, e.name)
      if (found === null || "inner" in found || isNoText(found.init)) return null
      return this.#constantText(found.owner, found.init, depth + 1) ?? "?"
    }
    if (e.k !== "id") return null
    const owner = [cls, ...this.outers(cls)].find((c) => this.constantInit(c, e.name) !== null)
    const init = owner === undefined ? null : this.constantInit(owner, e.name)
    if (init === null || owner === undefined || isNoText(init)) return null
    return this.#constantText(owner, init, depth + 1) ?? "?"
  }

  /** The value of a constant visible in `ref` by name (own, inherited, outer), or null when there is none. */
  constant(ref: ClassRef, name: string, evalIn: (expr: Expr, where: ClassRef) => Val): Val | null {
    const c = this.#scope(ref).consts.get(name)
    return c === undefined ? null : this.constantValue(c, name, evalIn)
  }

  /**
   * The constant or inner class `obj.NAME` reads on an object (or the script) of class `ref`: of the class and its bases
   * only, level by level, an inner class being one of its class's constants (GDScriptInstance::get and GDScript::_get
   * never look at outer classes: a hundred-and-fifth red team's `self.name` in an inner class read the outer `const
   * name` where the engine read the node's name); null for none.
   */
  memberConstant(ref: ClassRef, name: string): { readonly owner: ClassRef; readonly init: Expr } | { readonly inner: ClassRef } | null {
    for (const cls of this.ancestry(ref)) {
      const d = this.decl(cls)
      if (d === null) continue
      const c = d.consts.find((x) => x.name === name)
      if (c !== undefined) return { owner: cls, init: c.init }
      if (d.classes.some((x) => x.name === name)) return { inner: { script: cls.script, inner: [...cls.inner, name] } }
    }
    return null
  }

  /** The value of constant `name` declared by `c.owner` as `c.init` (constant, memberConstant), evaluated once. */
  constantValue(c: { readonly owner: ClassRef; readonly init: Expr }, name: string, evalIn: (expr: Expr, where: ClassRef) => Val): Val {
    // A name not known (two orders of lookup disagree: #scope) is never cached under the constant's owner, whose own
    // reading of it is the constant's value.
    if (c.init.k === "error") return evalIn(c.init, c.owner)
    const key = `${refKey(c.owner)}#${name}`
    const cached = this.#constCache.get(key)
    if (cached !== undefined) return cached
    if (this.#inProgress.has(key)) return UNKNOWN
    this.#inProgress.add(key)
    try {
      const value = evalIn(c.init, c.owner)
      this.#constCache.set(key, value)
      return value
    } finally {
      this.#inProgress.delete(key)
    }
  }
}

