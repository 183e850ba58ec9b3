// Judges one script against the policy, with the whole pack in view (values: evaluate.ts).
// Dangerous engine objects are capabilities: `OS` may only be the receiver of a member access
// (`OS.get_name()`); any other use is an error where it escapes. A call is judged on what it
// reaches: dispatch by a constant name (`call`, `callv`, `funcref`, `Callable`, `Thread.start`,
// `UndoRedo.add_do_method`, … from the engine's class reference) is judged exactly like the direct
// call it makes, arguments included; by a name that is not constant it is an error unless the target
// is the creator's own object. A receiver that may be any object (`instance_from_id(n)`) is judged as
// if it were each dangerous object. The branch a call sits in does not matter.
import { isObjectOfUnknownScript, packMayAnswer } from "./anyClassMember.ts"
import { engineMethodMayStartWith, isClosedEngineProperty } from "./engineScriptNames.ts"
import type { Policy, PolicyPattern } from "../policy/Policy.ts"
import type { DataBbcode } from "./linkMetas.ts"
import { type ClassDecl, type Expr, type FunctionDecl, type Pos, type Stmt, type TypeRef, valuesAtKey } from "./ast.ts"
import { ARGUMENTS_FOLLOW, ARGUMENTS_IN_ARRAY, type DispatchEntry, dispatchIndex, type DispatchIndex } from "./engineDispatch.ts"
import { classBodies, elementsUsedSafely } from "./containerUse.ts"
import { arrayArgs, Evaluator, forgetPackAnswers, type Fn, INVOKE, INVOKE_ARRAY, isScriptLike, opaqueArgs } from "./evaluate.ts"
import { forEachChild, isAssignment, label } from "./exprWalk.ts"
import { getterOf } from "./memberGetter.ts"
import { type BbcodeData, type DataRead, FileRules, type LoadData, type WriteData } from "./fileRules.ts"
import { bbcodePieces, bbcodeTemplate, bbcodeTemplates, type PackDataParts, type PieceContext } from "./bbcodeTemplate.ts"
import { isGlobalFunction } from "./engineClasses.ts"
import { mayBeEngineResource } from "./engineResources.ts"
import { engineBaseMethods } from "./engineBaseMethods.ts"
import { hasRuledMethod, IMPLICIT_BASE, ruledClassesBelow, engineDescends } from "./engineMethods.ts"
import { dispatchesByName, dispatchesOnSelfByName } from "./scriptAttach.ts"
import { isEngineInternal, isFilesystemAccessConstant, mayBeFileDialog, mayBeFilesystemAccess } from "./engineInternals.ts"
import { driving } from "./dialogDriving.ts"
import { guardedPrefix } from "./prefixGuard.ts"
import { dataExpr, GROUP_CALLS, type HitExtra, isNode, mayBeName, NODE, PROPERTY_PATHS, receiverNames, SETS_A_VALUE, type Site, webUrls, webUrlsBesidesSdk } from "./callSite.ts"
import type { ClassRef, PackModel, PackScript } from "./packModel.ts"
import { indexPolicy, type PatternHit, type PolicyIndex } from "./PolicyIndex.ts"
import type { Grammar } from "./tokenizer.ts"
import { ADVANCE_EXPRESSION, ADVANCE_EXPRESSION_CLASS, ADVANCE_EXPRESSION_SETTER, isEvaluated, mayBeTransition } from "./advanceExpression.ts"
import { propertySegments } from "./propertyPaths.ts"
import { BBCODE_METHODS, BBCODE_PROPERTIES, mayBeRichTextLabel, RICH_TEXT_LABEL, RICH_TEXT_LABEL_BBCODE } from "./richTextLabel.ts"
import { ADOPTS, evaluatedTexts, isLineEditClass, keepsText, mayBeSpinBoxLineEdit, REHOMES, SPIN_BOX, SPIN_BOX_TEXT, textChange } from "./spinBoxText.ts"
import { type DataSel, isAnyObject, isExternal, knownStrings, mayBeText, mayHoldScript, strs, truthOf, UNKNOWN, type Val, VALUE_TYPES } from "./values.ts"

export { judgePath } from "./values.ts"
export type { BbcodeData, DataRead, LoadData, WriteData } from "./fileRules.ts"
export { forEachChild } from "./exprWalk.ts"

/** An allowed use of a sensitive API, listed in the report's capability summary. */
export interface CapabilityUse {
  readonly capability: string
  readonly api: string
  readonly line: number
  readonly column: number
}


/** Constant text the engine evaluates as an Expression, and what holds it. */
export type ExpressionText = DataRead & { readonly text: string; readonly what: typeof ADVANCE_EXPRESSION | typeof SPIN_BOX_TEXT }

export interface ScriptAnalysis {
  readonly hits: ReadonlyArray<PatternHit>
  readonly uses: ReadonlyArray<CapabilityUse>
  /** Files of the pack read with ConfigFile.load by a constant path. */
  readonly dataFiles: ReadonlyArray<DataRead & { readonly path: string }>
  /** Constant text given to ConfigFile.parse. */
  readonly dataTexts: ReadonlyArray<DataRead & { readonly text: string }>
  /** Constant text the engine evaluates as an Expression: a Godot 4 transition's advance_expression (advanceExpression.ts), a SpinBox's text (spinBoxText.ts). */
  readonly expressionTexts: ReadonlyArray<ExpressionText>
  /** BBCode built from strings of the pack's own data files, judged with those files (contentScan). */
  readonly bbcodeData: ReadonlyArray<BbcodeData>
  /** Load paths read from the pack's own data files, judged with the strings of those files that can reach them (contentScan). */
  readonly loadData: ReadonlyArray<LoadData>
  /** user:// writes named by strings of the pack's own data files, judged with the strings that can reach them (contentScan). */
  readonly writeData: ReadonlyArray<WriteData>
  /** Writes whose file a later load may read as code (loadableWrites.ts). */
  readonly loadableWrites: ReadonlyArray<DataRead & { readonly shown: string; readonly mayClimb: boolean }>
  /** Methods on self named by strings of the pack's own data files, their arguments out of sight (contentScan). */
  readonly dispatchData: ReadonlyArray<DispatchData>
  /** `OS.shell_open` of link metas from the pack's own data, judged with those files (contentScan). */
  readonly shellData: ReadonlyArray<ShellData>
}

/**
 * `OS.shell_open` of a RichTextLabel's `meta_clicked` meta where some BBCode of the pack puts strings of its own data in
 * links (values.ts `linkData`), judged with those files by checks/shellData.ts: the web-address warning when every
 * meta is a web address, else the rule's error.
 */
export interface ShellData extends DataRead {
  readonly entry: PolicyPattern
  /** The warning's severity (the policy's webUrl). */
  readonly webSeverity: PatternHit["severity"]
  readonly matched: string
  /** The constant metas beside the data's. */
  readonly urls: ReadonlyArray<string>
  readonly data: ReadonlyArray<DataBbcode>
  /** Whether what the platform SDK passes may be the argument too. */
  readonly sdk: boolean
}

/** A method on self named by the pack's own data (`connect(q.on, self, q.check)`), judged by checks/dispatchData.ts. */
export interface DispatchData extends DataRead {
  /** The files: `res://a.json`, or `res://quests/*` for every file under a folder. */
  readonly sources: ReadonlyArray<string>
  readonly sels: ReadonlyArray<DataSel>
  /** The methods the class's script and its pack ancestors define: the only names allowed. */
  readonly methods: ReadonlyArray<string>
  /** The dispatch as the finding shows it. */
  readonly call: string
}

/**
 * Properties holding a path the engine reads a file from or writes into, by their setter (judged by the setter's
 * path rule): DynamicFontData.font_path, VideoStream*.file, StreamTexture/CompressedTexture*.load_path (its setter
 * is load), 3.x BakedLightmap.image_path (the folder bake() saves into, engine-file-writes.json).
 */
const PATH_PROPERTIES: ReadonlyMap<string, string> = new Map([["font_path", "set_font_path"], ["file", "set_file"], ["load_path", "load"], ["image_path", "set_image_path"]])

const MAX_NESTED_DISPATCH = 4

/** Binary operators whose result is never text (Variant::evaluate: String has only `+`, `%` and comparisons). */
const NO_TEXT_OPERATORS: ReadonlySet<string> = new Set(["-", "*", "/"])

/**
 * A value that is never text nor a Dictionary, whatever its parts: `-`, `*`, `/` or negation (no String or
 * Dictionary operator of either engine), or a built-in value type's constructor (`Vector2(w, 100)`, `Color(…)`).
 */
const isNoText = (e: Expr): boolean =>
  (e.k === "bin" && NO_TEXT_OPERATORS.has(e.op)) || (e.k === "unary" && e.op === "-") || (e.k === "call" && e.callee.k === "id" && VALUE_TYPES.has(e.callee.name))

/** The expression of a value written to a property, where it is in sight, with the function it is in. */
interface Written {
  readonly expr: Expr
  readonly fn: Fn
  readonly depth: number
}

/** A value that is no method key (a string, a number, an object of the pack, an engine object other than a Dictionary). */
const isPlain = (v: Val): boolean => v.t === "str" || v.t === "lit" || v.t === "own" || v.t === "script" || (v.t === "inst" && v.cls !== "Dictionary")

/** An object that may be an Animation (one, or an object of unknown class). */
const mayBeAnimation = (v: Val): boolean => !(v.t === "own" || v.t === "script" || v.t === "guard" || v.t === "lit" || v.t === "str" || v.t === "method" || (v.t === "inst" && v.cls !== "Animation"))
/** Translation methods that store a message `tr()` later hands out (3.x and 4.x Translation). */
const TRANSLATION_MESSAGES: ReadonlySet<string> = new Set(["add_message", "add_plural_message"])
const TRANSLATION_CLASSES: ReadonlySet<string> = new Set(["Translation", "PHashTranslation", "OptimizedTranslation"])
/** Engine classes a Translation is one of (a variable typed `Resource` may hold one: a fifty-fifth red team's). */
const TRANSLATION_BASES: ReadonlySet<string> = new Set(["Resource", "Reference", "RefCounted", "Object"])
/**
 * A node's scene file (3.x `filename`, 4.x `scene_file_path`): Node::_duplicate, SceneState::_parse_node (`PackedScene.pack`)
 * and SceneTree::reload_current_scene load it as a scene (scene/main/node.cpp, scene/resources/packed_scene.cpp).
 */
const SCENE_FILE_PROPERTIES: ReadonlySet<string> = new Set(["filename", "scene_file_path"])
const SCENE_FILE_SETTERS: ReadonlySet<string> = new Set(["set_filename", "set_scene_file_path"])
/** A Translation's property holding its messages (`_set_messages`: key, message, key, message…). */
const TRANSLATION_MESSAGES_PROPERTY = "messages"
/** Engine objects any pack may hold without naming their class: a script `load` gives, the Image a texture's `get_data` gives. */
const HANDED_OUT: ReadonlySet<string> = new Set(["GDScript", "Image"])

/** The methods that hand out the objects of an object's connections. */
const CONNECTION_READERS: ReadonlyArray<string> = ["get_signal_connection_list", "get_incoming_connections", "get_connections", "get_object"]

/** Functions that only look at an object: passing one that may be any engine object to them lets nothing escape. */
const LOOKS_ONLY = new Set(["is_instance_valid", "yield", "typeof", "str", "print", "prints", "printt", "printerr", "printraw", "print_debug", "push_error", "push_warning", "assert", "weakref", "hash", "is_instance_of"])
/** Methods that record their receiver where the code can read it back (a connection's source). */
const REGISTERS: ReadonlySet<string> = new Set(["connect"])
/** Container methods that put an element in. */
const PUTS_ELEMENT: ReadonlySet<string> = new Set(["append", "push_back", "push_front", "insert"])
/** The property holding a Resource's place in the engine's resource cache (Resource::set_path). */
const RESOURCE_PATH = "resource_path"
/** Classes with a property that turns on object decoding. */
const DECODING_PEERS = /^(PacketPeer|MultiplayerAPI|SceneMultiplayer|NetworkedMultiplayer|ENet|WebSocket|WebRTC)/

type Mode = "value" | "receiver" | "target"

/** What a write into a member that always holds plain data writes into (Evaluator.holdsPlainData). */
const PLAIN_CONTAINER: Val = { t: "inst", cls: "Dictionary" }

const evaluators = new WeakMap<PackModel, Map<PolicyIndex, Map<Grammar, Evaluator>>>()

/** One evaluator per pack, policy and grammar: values do not depend on the script being judged. */
const evaluatorFor = (model: PackModel, idx: PolicyIndex, grammar: Grammar, dispatch: DispatchIndex): Evaluator => {
  let byPolicy = evaluators.get(model)
  if (byPolicy === undefined) evaluators.set(model, (byPolicy = new Map()))
  let byGrammar = byPolicy.get(idx)
  if (byGrammar === undefined) byPolicy.set(idx, (byGrammar = new Map()))
  let ev = byGrammar.get(grammar)
  if (ev === undefined) byGrammar.set(grammar, (ev = new Evaluator(model, idx, grammar, dispatch)))
  // Judged by an evaluator of its own, and settled before any script is: what is worked out while the pack's answer
  // is not known yet (attachesAtRunTime answers yes meanwhile) is kept out of the values the scripts are judged with.
  if (model.writtenMayBeScript === null) {
    let judge: Evaluator | null = null
    model.writtenMayBeScript = (w) => (judge ??= new Evaluator(model, idx, grammar, dispatch)).writtenMayBeScript(w)
    model.attachesAtRunTime()
    forgetPackAnswers(model)
  }
  return ev
}

export const analyzeScript = (script: PackScript, model: PackModel, policy: Policy): ScriptAnalysis => {
  const idx = indexPolicy(policy)
  const analysis = new Analysis(script, evaluatorFor(model, idx, script.grammar, dispatchIndex(script.grammar, policy)), idx, dispatchIndex(script.grammar, policy))
  analysis.run()
  return { hits: analysis.hits, uses: analysis.uses, dataFiles: analysis.files.dataFiles, dataTexts: analysis.files.dataTexts, expressionTexts: analysis.expressionTexts, bbcodeData: analysis.files.bbcodeData, loadData: analysis.files.loadData, writeData: analysis.files.writeData, loadableWrites: analysis.files.loadableWrites, dispatchData: analysis.dispatchData, shellData: analysis.shellData }
}

const at = (p: Pos): { line: number; column: number } => ({ line: p.line, column: p.column })

/** Why a method self's engine base lacks may be another engine class's: self is the object the script is attached to. */
const selfNote = (base: string, name: string): string =>
  `self (or a value that may be self) may be any engine object whose class is ${base} or extends it: set_script attaches a script to such an object (an engine singleton included), whose methods then run with self being that object, and ${base} has no ${name}(), so this may be the engine's`

/** A policy table's entry for a name from the script: its own keys only (`valueOf`, `constructor` are names too). */
const entryOf = <V>(table: Readonly<Record<string, V>> | undefined, key: string): V | undefined => (table !== undefined && Object.hasOwn(table, key) ? table[key] : undefined)

class Analysis {
  readonly hits: Array<PatternHit> = []
  readonly uses: Array<CapabilityUse> = []
  readonly dispatchData: Array<DispatchData> = []
  readonly shellData: Array<ShellData> = []
  readonly expressionTexts: Array<ExpressionText> = []
  readonly #seen = new Set<string>()
  readonly #script: PackScript
  readonly #ev: Evaluator
  readonly #model: PackModel
  readonly #idx: PolicyIndex
  readonly #dispatch: DispatchIndex
  /** The rules about files, paths and data (fileRules.ts). */
  readonly files: FileRules

  constructor(script: PackScript, ev: Evaluator, idx: PolicyIndex, dispatch: DispatchIndex) {
    this.#script = script
    this.#ev = ev
    this.#model = ev.model
    this.#idx = idx
    this.#dispatch = dispatch
    this.files = new FileRules(script, ev.model, idx, { eval: (e, fn) => this.#eval(e, fn), hit: (entry, pos, matched, extra) => this.#hit(entry, pos, matched, extra) })
  }

  run(): void {
    this.#classDecl({ script: this.#script.key, inner: [] }, this.#script.ast.root)
  }

  #eval(e: Expr, fn: Fn): Val {
    return this.#ev.eval(e, fn)
  }

  // ---- reporting ----

  #hit(entry: PolicyPattern, pos: Pos, matched: string, extra: HitExtra = {}): void {
    const severity = extra.severity ?? entry.severity
    const key = `${entry.id}:${pos.line}:${pos.column}:${severity}`
    if (this.#seen.has(key)) return
    this.#seen.add(key)
    this.hits.push({ entry, ...at(pos), severity, matched, ...(extra.note === undefined ? {} : { note: extra.note }), ...(extra.fix === undefined ? {} : { fix: extra.fix }), ...(extra.unpinnedLoad === undefined ? {} : { unpinnedLoad: extra.unpinnedLoad }) })
  }

  #use(capability: string, api: string, pos: Pos): void {
    const key = `use:${capability}:${api}:${pos.line}:${pos.column}`
    if (this.#seen.has(key)) return
    this.#seen.add(key)
    this.uses.push({ capability, api, ...at(pos) })
  }

  #escape(name: string, pos: Pos, how: string, fix = `Call ${name}'s methods directly on ${name} (${name}.method(…)) instead of storing, passing, returning or subscripting it`): void {
    const entry = this.#idx.escape
    if (entry === null) return
    this.#hit(entry, pos, name, { note: `${name} is ${how}, where the methods called on it are out of sight`, fix })
  }

  /**
   * A script attached (`set_script`, `script =`, by any name or channel) to an object that may be a dangerous engine
   * object: GDScript's instance_create checks only that the object's class descends from the script's base, so a
   * script that extends Object runs on OS with self being OS, where the methods it calls on self are out of sight.
   */
  #scriptAttached(recv: Val, pos: Pos, matched: string, script?: Val): void {
    const how = `given a script (${matched}), whose code then runs with self being ${recv.t === "guard" ? recv.name : "that object"}`
    const fix = "Attach scripts only to your own nodes and objects (a node of your scenes, Reference.new() / RefCounted.new()), never to an engine singleton or a file object"
    if (recv.t === "guard") this.#escape(recv.name, pos, how, fix)
    else if (recv.t === "inst" && this.#idx.guarded.has(recv.cls)) this.#escape(recv.cls, pos, how.replace("that object", `a ${recv.cls}`), fix)
    // A script object (`load("res://z.gd").script = H`): self is then a GDScript, whose set_source_code and new a call on
    // self by a name out of sight may reach (a hundred-and-twenty-seventh red team's).
    else if (recv.t === "script" && script?.t !== "lit" && dispatchesOnSelfByName(this.#model)) this.#escape("GDScript", pos, `${how.replace("that object", "a script object")}, whose own methods (set_source_code, new) a call on self by a name out of sight may reach`, fix)
    else if (isAnyObject(recv)) this.#anyEscape(pos, how)
    // An engine object with a method a rule judges by name (`get_tree()`, a SceneTree: `change_scene`), in a pack some
    // class of which dispatches on self by a name out of sight, which may then call it (a hundred-and-twenty-second red
    // team's `get_tree().set_script(…)`, then `call(n, a)` naming change_scene of a scene written in user://).
    else if (recv.t === "inst" && hasRuledMethod(this.#idx, this.#dispatch, this.#script.grammar, recv.cls) && dispatchesOnSelfByName(this.#model)) this.#escape(recv.cls, pos, `${how.replace("that object", `a ${recv.cls}`)}, whose own methods a call on self by a name out of sight may reach`, fix)
    // An object the analysis lost (an element, a parameter, metadata) may be any engine object of a class below the
    // script's base: the SceneTree, which every game has (a hundred-and-twenty-fourth red team's `[get_tree()][0]
    // .set_script(S)`, `give(get_tree())`), or a GDScript resource in an exported member given a helper extending
    // Reference (the hundred-and-twenty-seventh's `img.script = H`, then set_source_code by a name out of sight).
    else if (recv.t === "unknown" && recv.plain !== true && script !== undefined && dispatchesOnSelfByName(this.#model)) {
      const runsOn = this.#ruledHostOf(script)
      if (runsOn !== null) this.#escape(runsOn, pos, `${how.replace("that object", `an object that may be a ${runsOn}`)}, whose own methods a call on self by a name out of sight may reach`, fix)
    }
  }

  /**
   * An engine class an object of which may run the script given (its engine base or a class below it with a method a
   * rule names; the SceneTree, which every game has, first), or null. A script not known may run on the tree.
   */
  #ruledHostOf(script: Val): string | null {
    const grammar = this.#script.grammar
    if (script.t !== "script") return script.t === "unknown" && script.plain !== true ? "SceneTree" : null
    const base = this.#engineBase(script.ref) ?? (this.#model.extendsNothing(script.ref) ? IMPLICIT_BASE[grammar] : null)
    if (base === null || !this.#model.isEngineName(base)) return null
    if (engineDescends(grammar, "SceneTree", base)) return "SceneTree"
    // Objects every pack may hold (a script loaded from a `.gd`, a texture's Image) first; others where the pack may make one.
    const below = ruledClassesBelow(this.#idx, this.#dispatch, grammar, base)
    return below.find((c) => HANDED_OUT.has(c)) ?? below.find((c) => this.#model.mayCreate(c)) ?? null
  }

  /**
   * An object that may be any engine object (`instance_from_id(n)`) put where the calls made on it are
   * out of sight. Put in a container of the script whose elements are only ever looked at or called
   * with methods no policy pattern or dispatch API names, it is a warning instead.
   */
  #anyEscape(pos: Pos, how: string, container?: { readonly name: string; readonly fn: Fn }): void {
    const entry = this.#idx.escape
    if (entry === null) return
    const safe = container !== undefined && this.#containerKeepsElementsSafe(container.name, container.fn)
    this.#hit(entry, pos, "instance_from_id(…)", {
      ...(safe ? { severity: "warning" as const } : {}),
      note: `an object that may be any engine object, OS included (from instance_from_id, a name that is not constant, or a local read in its own initializer: a value an earlier expression left in its slot), is ${how}${safe ? `; the elements of ${container.name} are only looked at or called with methods no policy names, so check in context what it holds` : ""}`,
      fix: "Cast the object to your own class where you get it (instance_from_id(id) as MyClass) or keep it in a variable typed with your class",
    })
  }

  /** A local container of `fn`, or a member no other object reads, whose elements are only used safely (containerUse.ts). */
  #containerKeepsElementsSafe(name: string, fn: Fn): boolean {
    const local = this.#ev.local(name, fn)
    const rules = {
      dangerousMethod: (m: string) => this.#idx.members.has(m) || this.#idx.setters.has(m) || this.#idx.arguments.has(m) || this.#dispatch.byName.has(m) || this.#dispatch.objectMethods.has(m),
      dangerousProperty: (p: string) => this.#idx.assignments.has(p),
      looksOnly: LOOKS_ONLY,
    }
    if (local !== null) return local.owner.body.length > 0 && elementsUsedSafely([local.owner.body], name, rules)
    const member = this.#model.variable(fn.cls, name)
    // A member with a getter: a read may give another container (memberGetter.ts).
    if (member === null || this.#model.readElsewhere(name) || getterOf(member.decl) !== null) return false
    // The owner's functions and its subclasses', which reach the member by its bare name.
    const decls = [member.owner, ...this.#model.descendants(member.owner)].map((c) => this.#model.decl(c))
    return elementsUsedSafely(decls.flatMap((d) => (d === null ? [] : classBodies(d))), name, rules)
  }

  /**
   * A banned method name called on an object the analysis cannot pin down (neither a dangerous engine
   * object nor the creator's own): when a class of the pack defines a method of that name the object may
   * be one of the creator's (a command pattern's `execute`), a warning for the reviewer; when none does,
   * the call can only reach the engine's method, an error. (Dangerous objects that escape are errors where
   * they escape, so an object reaching here is not one the analysis lost track of.)
   */
  #maybeOwnCall(entry: PolicyPattern, recv: Val, name: string, pos: Pos, matched: string, selfOf?: string): void {
    // An object also given instances of other engine classes (a member assigned create_tween()) may be one of those.
    const others = recv.t === "unknown" ? (recv.insts ?? []).filter((c) => this.#model.isEngineName(c) && !this.#idx.guarded.has(c)) : []
    if (isAnyObject(recv) || (!this.#model.anyClassDefines(name) && others.length === 0)) {
      this.#hit(entry, pos, matched, selfOf === undefined ? {} : { note: selfNote(selfOf, name), fix: `Call ${name}() on the object that has it, written where the reviewer sees it; never attach your scripts to engine objects` })
      return
    }
    this.#hit(entry, pos, matched, {
      severity: "warning",
      note: others.length > 0 && !this.#model.anyClassDefines(name) ? `the receiver cannot be pinned down; it may be a ${others.join(" or ")}, whose ${name}() this may be` : `the receiver cannot be pinned down and a class of the pack defines its own ${name}(), so this may be that one`,
      fix: `Type the receiver with its class (var t: ${others[0] ?? "MyCommand"}) so the call is provably that class's ${name}()`,
    })
  }

  /**
   * An engine class's internal bound method (engineInternals.ts) called on an engine object, on self's engine
   * class, or by a constant name: an error. On an object the analysis cannot pin down, when a class of the
   * pack defines a method of that name, the object may be the creator's: a warning.
   */
  #internalCall(site: Site): void {
    const entry = this.#idx.engineInternal
    const { name, recv } = site
    if (entry === null || !isEngineInternal(this.#script.grammar, name) || recv.t === "script" || recv.t === "method" || recv.t === "str" || recv.t === "lit") return
    const shown = site.via ?? `${site.bare ? "" : `${recv.t === "guard" ? recv.name : (site.cls ?? site.label)}.`}${name}(…)`
    const maybeOwn = recv.t !== "own" && recv.t !== "guard" && !isAnyObject(recv) && this.#model.anyClassDefines(name)
    const fix = `Call the class's documented methods instead (a FileDialog's popup() and its signals), or rename your own method so it does not share ${name}'s name`
    if (!maybeOwn) return this.#hit(entry, site.at, shown, { note: `${name} is an internal method the engine registers for its own use, not API`, fix })
    this.#hit(entry, site.at, shown, { severity: "warning", note: `a class of the pack defines its own ${name}(), so this may be that one; on an engine object it is the engine's internal method`, fix: `Type the receiver with your class (var t: MyNode) so the call is provably yours` })
  }

  /**
   * Code driving an engine control of the pack whose children's signals the engine wires to internal methods
   * (a FileDialog's make-folder dialog, a SpinBox's Expression): emitting such a signal on an object that may
   * be one of its children, or feeding the GUI synthesized input (dialogDriving.ts). An error.
   */
  #drives(site: Site, signal: Val | null): void {
    const entry = this.#idx.engineInternal
    if (entry === null) return
    const found = driving({ site, signal, ownBase: site.recv.t === "own" ? this.#engineBase(site.recv.ref) : null }, this.#script.grammar, this.#model.drivenControls(this.#script.grammar))
    if (found === null) return
    this.#hit(entry, site.at, found.matched, {
      note: found.note,
      fix: "Let the player use the dialog's own buttons and read the choice from its signals (file_selected, value_changed); emit signals only on your own nodes, and never feed the GUI input events from code while such a control exists",
    })
  }

  /** An object that may be a file dialog: self or an object of the pack without its own `access` (its class may extend FileDialog), or see mayBeFileDialog. */
  #mayBeFileDialog(recv: Val): boolean {
    return recv.t === "own" ? !this.#model.defines(recv.ref, "access") : mayBeFileDialog(recv)
  }

  /** A file dialog given the whole file system (FileDialog.ACCESS_FILESYSTEM): a warning the reviewer sees. */
  #fileDialogAccess(pos: Pos, matched: string): void {
    const entry = this.#idx.paths.find((p) => p.entry.capability === "filesystem-outside-sandbox")?.entry
    if (entry === undefined) return
    this.#hit(entry, pos, matched, {
      severity: "warning",
      note: "the file dialog browses the player's whole file system (access = FileDialog.ACCESS_FILESYSTEM); fine for a picker of the player's own files, which the reviewer checks here",
      fix: "Use FileDialog.ACCESS_USERDATA (user://) unless the player must pick a file of their own; never drive the dialog from code",
    })
  }

  /**
   * For a name read from a constant table of the pack that is not followed: which table, and the use that keeps it
   * from being followed (PackModel.whyNotOnlyRead), so the creator can see which line to change.
   */
  #unfollowedNote(nameVal: Val): string {
    const table = nameVal.t === "unknown" ? nameVal.unfollowed : undefined
    const why = table === undefined ? null : this.#model.whyNotOnlyRead(table)
    return why === null ? "" : `; the name comes from the constant ${table}, whose strings are not followed because code may change it: ${why}`
  }

  #dynamic(pos: Pos, matched: string, why: string): void {
    const entry = this.#idx.dynamicDispatch
    if (entry === null) return
    this.#hit(entry, pos, matched, {
      note: why,
      fix: 'Call the method directly (object.method(…)) or name it with a constant string, or dispatch on your own object (self or an instance of one of your classes); for names that come from data (a dialogue\'s actions), match the name against the ones you know and call each directly (match action: "give_item": give_item(args[0]))',
    })
  }

  // ---- declarations ----

  #classDecl(ref: ClassRef, decl: ClassDecl): void {
    const fn = this.#ev.classFn(ref)
    const shadow = this.#idx.classNameShadow
    if (shadow !== null && decl.name !== null && this.#model.isEngineName(decl.name)) {
      const how = ref.inner.length === 0 ? `class_name ${decl.name}` : `class ${decl.name}`
      this.#hit(shadow, decl.nameAt ?? decl.at, how, { note: `${decl.name} is an engine class or singleton, so ${decl.name} in code still means the engine's` })
    }
    const ext = decl.extendsClause
    if (ext?._tag === "Class" && ext.names[0] !== undefined) this.#typeName(ext.names[0], ext.at, fn, true)
    if (ext?._tag === "Path") this.files.loadPath({ k: "str", value: ext.path, flavor: "", at: ext.at }, fn, "extends")
    for (const c of decl.consts) this.#visit(c.init, "value", fn)
    for (const v of decl.vars) {
      if (v.type !== null) this.#type(v.type, fn)
      if (v.init !== null) this.#visit(v.init, "value", fn)
      for (const a of v.accessors) this.#function(ref, a, null, false)
    }
    for (const e of decl.extra) this.#visit(e, "value", fn)
    for (const f of decl.functions) this.#function(ref, f, null, true)
    for (const inner of decl.classes) if (inner.name !== null) this.#classDecl({ script: ref.script, inner: [...ref.inner, inner.name] }, inner)
    // Unnamed inner classes (from code the engine rejects) are still read.
    for (const inner of decl.classes) if (inner.name === null) this.#classDecl(ref, inner)
  }

  #function(cls: ClassRef, f: FunctionDecl, parent: Fn | null, method: boolean): void {
    const fn = this.#ev.fnOf(cls, f, parent, method)
    if (f.returnType !== undefined && f.returnType !== null) this.#type(f.returnType, fn)
    for (const p of f.params) {
      if (p.type !== null) this.#type(p.type, fn)
      if (p.init !== null) this.#visit(p.init, "value", fn)
    }
    this.#statements(f.body, fn)
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
    if (!this.#model.isEngineName(name) && (this.#model.innerClass(fn.cls, name) !== null || this.#model.globalClass(name) !== null)) return
    for (const entry of this.#idx.identifiers.get(name) ?? []) this.#hit(entry, pos, name)
    const guard = this.#idx.guarded.get(name)
    if (isExtends && guard !== undefined) this.#escape(guard, pos, "extended by the script's class")
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
        this.#memberAccess(e, this.#eval(e.obj, fn), fn)
        if (isFilesystemAccessConstant(e) && e.obj.k === "id" && !this.#ev.isOwnName(e.obj.name, fn)) this.#fileDialogAccess(e.at, label(e))
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
        if (isAssignment(e.op)) this.#assignment(e, fn)
        else {
          this.#visit(e.left, "value", fn)
          this.#visit(e.right, "value", fn)
        }
        return
      case "lambda":
        this.#function(fn.cls, e.fn, fn, false)
        return
      case "preload":
        this.files.loadPath(e.path, fn, "preload")
        this.#visit(e.path, "value", fn)
        return
      case "cast":
      case "is":
        this.#type(e.type, fn)
        this.#visit(e.expr, "value", fn)
        return
      case "array":
      case "dict":
        forEachChild(e, (child) => {
          if (isAnyObject(this.#eval(child, fn))) this.#anyEscape(child.at, "put in a container")
          this.#visit(child, "value", fn)
        })
        return
      default:
        forEachChild(e, (child) => this.#visit(child, "value", fn))
    }
  }

  #identifier(e: Extract<Expr, { k: "id" }>, fn: Fn): void {
    if (this.#ev.isOwnName(e.name, fn)) return
    for (const entry of this.#idx.identifiers.get(e.name) ?? []) this.#hit(entry, e.at, e.name)
  }

  /** `G.member` not called: banned members, dispatch methods taken without their arguments; sensitive APIs. */
  #memberAccess(e: Extract<Expr, { k: "member" }>, recv: Val, fn: Fn): void {
    // 4.x `OS.set_script` taken as a Callable attaches a script wherever it is called.
    if (e.name === "set_script") this.#scriptAttached(recv, e.at, `${label(e)} taken as a value`)
    if (recv.t === "guard" || isAnyObject(recv)) {
      this.#memberRules(recv, e.name, e.at, `${recv.t === "guard" ? recv.name : label(e.obj)}.${e.name}`)
      if (recv.t === "guard" && (this.#dispatch.objectMethods.has(e.name) || (this.#dispatch.byName.get(e.name) ?? []).some((d) => d.class === recv.name))) {
        this.#dynamic(e.at, `${recv.name}.${e.name}`, `${recv.name}.${e.name} is taken as a value, so the name it will dispatch to is out of sight`)
      }
    }
    this.#sensitive(this.#ev.receiverClass(recv, e.obj, fn), e.name, e.at)
  }

  #sensitive(cls: string | null, name: string, pos: Pos): void {
    if (cls === null) return
    const capability = this.#idx.sensitive.get(`${cls}.${name}`)
    if (capability !== undefined && !this.#idx.writeModes.has(`${cls}.${name}`)) this.#use(capability, `${cls}.${name}`, pos)
  }

  /** Member patterns on a dangerous receiver, or on one that may be any of them. */
  #memberRules(recv: Val, name: string, pos: Pos, matched: string, call?: { readonly args: ReadonlyArray<Expr>; readonly fn: Fn }): void {
    for (const { entry, match } of this.#idx.members.get(name) ?? []) {
      const url = match.webUrl !== undefined && match.webUrl.members.includes(name) && call !== undefined ? this.#eval(call.args[match.webUrl.argument] ?? { k: "error", at: pos }, call.fn) : null
      const web = url === null ? null : webUrls(url)
      // A handler's parameter the pack gives only web addresses, in a class the platform SDK may call into (values.ts `sdk`).
      const sdkWeb = url === null || web !== null ? null : webUrlsBesidesSdk(url)
      const shown = web ?? sdkWeb
      const linked = url?.t === "unknown" && shown === null ? url.linkData : undefined
      if (recv.t === "guard" && match.receivers.includes(recv.name) && linked !== undefined && url?.t === "unknown" && match.webUrl !== undefined && this.#ev.linkMetaData().length > 0) {
        // Link metas of the pack's data: judged with its files (checks/shellData.ts).
        this.shellData.push({ entry, webSeverity: match.webUrl.severity, matched, urls: url.some ?? [], data: this.#ev.linkMetaData(), sdk: linked.sdk, ...at(pos) })
      } else if (recv.t === "guard" && match.receivers.includes(recv.name) && shown !== null && match.webUrl !== undefined) {
        const sdk = sdkWeb === null ? "" : "; the function it is in belongs to a class that extends the platform SDK's, whose code the scanner cannot see: if the SDK calls a function of that name, it opens what the SDK passes, so check that the function is no hook of the SDK"
        this.#hit(entry, pos, `${matched}(${shown.map((u) => JSON.stringify(u)).join(" or ")})`, {
          severity: match.webUrl.severity,
          note: `it opens the constant web address ${shown.join(" or ")} in the player's browser; check that it is the game's own page${sdk}`,
          fix: "Keep the address a constant http:// or https:// URL; anything else (a file, a path, a URL built at run time) is an error",
        })
      } else if (recv.t === "guard" && match.receivers.includes(recv.name)) {
        const guarded = match.webUrl !== undefined && match.webUrl.members.includes(name) && call !== undefined ? this.#webGuard(call.args[match.webUrl.argument], call.fn) : null
        if (guarded === null || match.webUrl === undefined) this.#hit(entry, pos, matched)
        else {
          this.#hit(entry, pos, `${matched}(${guarded.name})`, {
            severity: match.webUrl.severity,
            note: `it opens a web address decided at run time, guarded by the prefix check ${guarded.name}.begins_with(${JSON.stringify(guarded.prefix)}) around the call; check what the game can open there`,
            fix: "Keep the address a constant http:// or https:// URL, or open it only inside a check that it begins with https://",
          })
        }
      } else if (isAnyObject(recv) && match.dispatch !== "never") {
        this.#hit(entry, pos, matched, {
          note: `the receiver may be ${match.receivers.join(" or ")} (an object from instance_from_id, or fetched by a name that is not constant)`,
          fix: "Cast the object to your own class where you get it (instance_from_id(id) as MyClass), or call the method on an object the reviewer can see",
        })
      }
    }
  }

  /**
   * A web address checked by its start around the call (prefixGuard.ts): the argument a String local of the function
   * (declared `String`, or every value it is given a `str(…)` or a string literal), the call in the body of a branch
   * whose condition checks it with `begins_with("https://")` or `("http://")`, nothing in that body writing it.
   */
  #webGuard(arg: Expr | undefined, fn: Fn): { readonly name: string; readonly prefix: string } | null {
    if (arg?.k !== "id") return null
    const found = this.#ev.local(arg.name, fn)
    if (found === null || found.owner !== fn) return null
    const { local } = found
    const typed = local.type !== null && local.type.names.length === 1 && local.type.names[0] === "String"
    const strings = local.param === undefined && local.inits.length > 0 && local.inits.every((e) => e.k === "str" || (e.k === "call" && e.callee.k === "id" && e.callee.name === "str"))
    if (local.opaque || local.appends.length > 0 || (local.puts ?? []).length > 0 || (!typed && !strings)) return null
    const prefix = guardedPrefix(fn.body, arg, arg.name)
    return prefix === null ? null : { name: arg.name, prefix }
  }

  #assignment(e: Extract<Expr, { k: "bin" }>, fn: Fn): void {
    const left = e.left
    const value = this.#eval(e.right, fn)
    if (e.op === "+=") this.#bbcodeAppended(left, value, fn)
    // `x.bbcode_text = v`, `x["bbcode_text"] = v` are #propertyWrite's; a bare `bbcode_text = v` writes self's.
    const bbcode = BBCODE_PROPERTIES.get(left.k === "id" ? left.name : "")
    if (bbcode !== undefined && left.k === "id" && !this.#ev.isOwnName(left.name, fn)) this.#bbcode(e.right, fn, left.at, `${label(left)} =`, bbcode)
    if (left.k === "member") {
      const recv = this.#eval(left.obj, fn)
      this.#visit(left.obj, "receiver", fn)
      this.#propertyWrite(recv, left.name, left.at, `.${left.name} =`, value, { expr: e.right, fn, depth: 0 })
      const setter = PATH_PROPERTIES.get(left.name)
      // `file` is a common key of the game's own data: only on an engine object known to be one.
      if (setter !== undefined && (recv.t === "inst" || (recv.t === "unknown" && left.name === "font_path"))) this.files.pathRules({ name: setter, recv, bare: false, cls: recv.t === "inst" ? recv.cls : null, label: label(left.obj), args: [e.right], at: left.at }, fn)
    } else if (left.k === "index") {
      const recv = this.#eval(left.obj, fn)
      const key = this.#eval(left.index, fn)
      this.#visit(left.obj, "value", fn)
      this.#visit(left.index, "value", fn)
      if (isAnyObject(value)) this.#anyEscape(e.right.at, "put in a container", left.obj.k === "id" ? { name: left.obj.name, fn } : undefined)
      if (key.t === "str") for (const k of key.values) this.#propertyWrite(recv, k, left.at, `.${k} =`, value, { expr: e.right, fn, depth: 0 })
      // A member that always holds plain data (Evaluator.holdsPlainData) is no script whose source a key could name (a
      // forty-third hunt's `recipes[r["id"]] = r` in an autoload other scripts read).
      else this.#dynamicWrite(this.#ev.holdsPlainData(left.obj, fn) ? PLAIN_CONTAINER : recv, key, value, left.obj.k === "id" && this.#ev.isReloaded(left.obj.name, fn), left.at, `${label(left.obj)}[…] =`, { expr: e.right, fn, depth: 0 })
    } else if (left.k === "id") {
      if (!this.#ev.isOwnName(left.name, fn)) for (const entry of this.#idx.assignments.get(left.name) ?? []) this.#hit(entry, left.at, `${left.name} =`)
      if (SCENE_FILE_PROPERTIES.has(left.name) && !this.#ev.isOwnName(left.name, fn)) this.files.loadPath(e.right, fn, `${left.name} =`)
      // A script extending the transition sets its own expression.
      if (left.name === ADVANCE_EXPRESSION && !this.#ev.isOwnName(left.name, fn)) this.#advanceExpression(value, left.at, `${left.name} =`)
      // A script attached to a SpinBox's LineEdit sets its own text.
      if (left.name === "text" && !this.#ev.isOwnName(left.name, fn)) this.#spinBoxText({ t: "own", ref: fn.cls }, value, left.at, "text =")
      // A script that extends FileDialog sets its own dialog's access.
      if (left.name === "access" && !this.#ev.isOwnName(left.name, fn) && mayBeFilesystemAccess(value, e.right)) this.#fileDialogAccess(left.at, "access =")
    } else this.#visit(left, "value", fn)
    this.#visit(e.right, "value", fn)
  }

  /** BBCode given to a RichTextLabel (FileRules.bbcode), with constant parts judged around translations (bbcodeTemplate.ts). */
  #bbcode(arg: Expr, fn: Fn, pos: Pos, call: string, warnBuilt: boolean): void {
    // `-`, `*` and `/` give no String in either engine (a String takes only `+` and `%`): a number or a vector holds no tag.
    if (isNoText(arg)) return
    const value = this.#eval(arg, fn)
    const parts: PackDataParts = { sources: [], constants: [] }
    const evaluate = (e: Expr): Val => this.#eval(e, fn)
    const helper = (call: Extract<Expr, { k: "call" }>): ReturnType<Evaluator["helperReturns"]> => this.#ev.helperReturns(call, fn)
    const templates = value.t === "str" ? null : bbcodeTemplates(arg, evaluate, this.#script.grammar, parts, (name) => this.#model.anyClassDefines(name), helper)
    // The pieces' parts apart from those the template read before it gave up.
    const pieceParts: PackDataParts = { sources: [], constants: [] }
    const pieces = templates === null && value.t !== "str" ? this.#bbcodePieces(arg, fn, pieceParts, { evaluate, helper }) : null
    const read = pieces === null ? parts : pieceParts
    const sels = read.sels === null || read.sels === undefined ? {} : { sels: read.sels }
    const data = { sources: [...new Set(read.sources)], constants: [...new Set(read.constants)], ...sels }
    if (pieces !== null) return this.files.bbcode(strs(pieces), pos, call, warnBuilt, { ...data, joined: pieces })
    // Built at run time (or data that may be built instead): each part not pinned down in its place (bbcodeTemplate.ts, shape).
    const shape = parts.built === true || (templates === null && value.t === "unknown") ? (bbcodeTemplate(arg, evaluate, this.#script.grammar, { sources: [], constants: [] }, true, (name) => this.#model.anyClassDefines(name), helper) ?? undefined) : undefined
    this.files.bbcode(templates === null ? value : strs(templates), pos, call, warnBuilt, data, shape)
  }

  /**
   * A message a Translation is given at run time (`t.add_message(key, text)`, `add_plural_message(key, texts)`):
   * `tr(key)` then hands it to BBCode, where a translation of the pack is judged only where it is stored, so the
   * message is judged here as BBCode is. On a Translation, or on an object of unknown class when no class of the
   * pack has a method of that name (a chat log's own `add_message(name, text)` is the pack's).
   */
  #translationMessage(site: Site, fn: Fn, pos: Pos, call: string): void {
    if (!TRANSLATION_MESSAGES.has(site.name) || site.args[1] === undefined) return
    const translation = site.cls !== null && (TRANSLATION_CLASSES.has(site.cls) || TRANSLATION_BASES.has(site.cls))
    if (!translation && (site.cls !== null || this.#model.anyClassDefines(site.name))) return
    const message = site.args[1]
    for (const text of site.name === "add_plural_message" && message.k === "array" ? message.items : [message]) this.#bbcode(text, fn, pos, call, true)
  }

  /** BBCode held by a local built up piece by piece (bbcodeTemplate.ts bbcodePieces). */
  #bbcodePieces(arg: Expr, fn: Fn, parts: PackDataParts, outer: PieceContext): ReadonlyArray<string> | null {
    return bbcodePieces(
      arg,
      (name) => {
        const found = this.#ev.local(name, fn)
        if (found === null) return null
        const param = found.local.param
        const args = param === undefined || param.fn === null ? null : this.#ev.closedArgExprs(param.fn, param.index)
        return {
          local: found.local,
          edited: this.#model.mutatedInPlace(name),
          evaluate: (e: Expr): Val => this.#eval(e, found.owner),
          helper: (call) => this.#ev.helperReturns(call, found.owner),
          args: args?.map((a) => ({ expr: a.expr, evaluate: (e: Expr): Val => this.#eval(e, a.fn), helper: (call: Extract<Expr, { k: "call" }>) => this.#ev.helperReturns(call, a.fn) })) ?? null,
        }
      },
      this.#script.grammar,
      parts,
      (name) => this.#model.anyClassDefines(name),
      outer,
    )
  }

  /**
   * `label.bbcode_text += piece`: the engine parses the whole text again, so a tag may span pieces (`+= "Hi [im"` then
   * `+= "g]user://x.tres[/img]"`, a forty-first red team's). A piece that is not constant text whose brackets all close
   * within it (no `]` before its first `[`, no tag or [img]/[font] path left open at its end) makes the text BBCode
   * built at run time, judged as such besides the piece itself.
   */
  #bbcodeAppended(left: Expr, piece: Val, fn: Fn): void {
    const prop = left.k === "id" || left.k === "member" ? left.name : left.k === "index" && left.index.k === "str" ? left.index.value : null
    const warnBuilt = prop === null ? undefined : BBCODE_PROPERTIES.get(prop)
    if (warnBuilt === undefined || (left.k === "id" && this.#ev.isOwnName(left.name, fn))) return
    if (left.k === "member" || left.k === "index") {
      const recv = this.#eval(left.obj, fn)
      if (recv.t === "own" && prop !== null && this.#model.defines(recv.ref, prop)) return
    }
    if (piece.t === "str" && piece.values.every(closedPiece)) return
    this.files.bbcode(UNKNOWN, left.at, `${label(left)} +=`, warnBuilt)
  }

  /** BBCode written to a RichTextLabel's property `prop` (bbcode_text, text), from its expression where it is in sight. */
  #bbcodeWrite(prop: string, pos: Pos, matched: string, value: Val, written?: Written): void {
    const warnBuilt = BBCODE_PROPERTIES.get(prop)
    if (warnBuilt === undefined) return
    if (written === undefined) this.files.bbcode(value, pos, matched, warnBuilt)
    else this.#bbcode(written.expr, written.fn, pos, matched, warnBuilt)
  }

  /**
   * Whether an object may be a RichTextLabel (richTextLabel.ts), in a pack that may create one: self when the chain
   * of its pack classes ends in RichTextLabel or in a class the scanner cannot see (the platform SDK's), or in one of
   * RichTextLabel's engine bases where the script may be attached to a RichTextLabel (PackModel.mayBeAttachedTo); a
   * node of the scene tree, an object typed with one of those classes. An object of unknown class
   * is judged by stronger rules (a write by a name not constant on it may be any script's source_code; a call, a
   * dynamic-dispatch error).
   */
  #mayBeRichTextLabel(recv: Val): boolean {
    if ((recv.t !== "inst" && recv.t !== "own") || !this.#model.mayCreate(RICH_TEXT_LABEL)) return false
    if (recv.t === "inst") return mayBeRichTextLabel(recv.cls)
    if (recv.t !== "own") return false
    const base = this.#engineBase(recv.ref)
    if (base === null) return !this.#model.extendsNothing(recv.ref)
    if (!this.#model.isEngineName(base) || base === RICH_TEXT_LABEL) return true
    // A script extending one of its engine bases is a RichTextLabel's only where it may be attached to one.
    return mayBeRichTextLabel(base) && this.#model.mayBeAttachedTo(recv.ref, (type) => type === RICH_TEXT_LABEL)
  }

  /** The RichTextLabel properties taking BBCode (richTextLabel.ts) a name that is not constant may write on `recv`. */
  #richTextProperties(recv: Val, key: Val): ReadonlyArray<string> {
    if (!this.#mayBeRichTextLabel(recv)) return []
    return RICH_TEXT_LABEL_BBCODE[this.#script.grammar].properties.filter((prop) => mayBeName(key, prop) && !(recv.t === "own" && this.#model.defines(recv.ref, prop)))
  }

  /** A write by a name that is not constant on an object that may be a RichTextLabel: judged as each BBCode property the name may be. */
  #richTextWrite(recv: Val, key: Val, value: Val, pos: Pos, matched: string, written?: Written): void {
    for (const prop of this.#richTextProperties(recv, key)) this.#bbcodeWrite(prop, pos, `${matched} as ${prop}`, value, written)
  }

  /** `x.property = v`, `x["property"] = v`, `x.set("property", v)`; `written` is the value's expression where it is in sight. */
  #propertyWrite(recv: Val, prop: string, pos: Pos, matched: string, value: Val, written?: Written): void {
    if (prop === "script") this.#scriptAttached(recv, pos, matched, value)
    this.#animationProperty(recv, prop, pos, matched, value, written)
    if (prop === "access" && this.#mayBeFileDialog(recv) && mayBeFilesystemAccess(value, written?.expr)) this.#fileDialogAccess(pos, matched)
    const own = recv.t === "own" && this.#model.defines(recv.ref, prop)
    if (!own) this.#bbcodeWrite(prop, pos, matched, value, written)
    if (!own) for (const entry of this.#idx.assignments.get(prop) ?? []) this.#hit(entry, pos, matched)
    if (prop === ADVANCE_EXPRESSION && !own && (recv.t === "own" || mayBeTransition(recv))) this.#advanceExpression(value, pos, matched)
    if (prop === TRANSLATION_MESSAGES_PROPERTY && !own && this.#mayBeTranslation(recv)) this.#translationMessages(value, pos, matched, written)
    // A node's scene file, which `duplicate()`, `PackedScene.pack()` and `reload_current_scene()` load (a fifty-sixth red team's).
    if (SCENE_FILE_PROPERTIES.has(prop) && !own && written !== undefined && recv.t !== "own" && recv.t !== "script") this.files.loadPath(written.expr, written.fn, `.${prop} =`)
    if (prop === "text" && !own) this.#spinBoxText(recv, value, pos, matched)
    if (!own && recv.t !== "own") this.#spinBoxRehome({ recv, args: [] }, prop, pos, matched)
    for (const d of this.#dispatch.byName.get(prop) ?? []) {
      if (d.kind !== "member" || !(recv.t === "unknown" || (recv.t === "inst" && recv.cls === d.class))) continue
      // `FuncRef.function = name`: the name is dispatched later, on an object out of sight here.
      this.#judgeName({ name: "", recv: UNKNOWN, bare: false, cls: null, label: "…", args: opaqueArgs(pos), argsUnseen: true, at: pos }, value, `${d.class}.${prop} =`, UNKNOWN, "method", `${d.class}.${prop} =`, 0)
    }
  }

  /** Whether an object may be a Translation: of unknown class (not plain data: a Dictionary's `messages` key), of a Translation class or a base of one, or a script extending one. */
  #mayBeTranslation(recv: Val): boolean {
    if (recv.t === "unknown") return recv.plain !== true
    if (recv.t === "inst") return TRANSLATION_CLASSES.has(recv.cls) || TRANSLATION_BASES.has(recv.cls)
    if (recv.t !== "own") return false
    const base = this.#engineBase(recv.ref)
    return base === null || TRANSLATION_CLASSES.has(base) || TRANSLATION_BASES.has(base)
  }

  /**
   * A Translation's `messages` written (`t.messages = PoolStringArray([key, text, …])`, `t.set("messages", …)`: a
   * fifty-fifth red team's): each item of a literal is judged as BBCode, as an added message is (#translationMessage);
   * another value as BBCode of which nothing is known.
   */
  #translationMessages(value: Val, pos: Pos, matched: string, written?: Written): void {
    const expr = written?.expr
    const literal = expr?.k === "call" && expr.args.length === 1 && expr.args[0]?.k === "array" ? expr.args[0] : expr?.k === "array" ? expr : undefined
    if (written !== undefined && literal?.k === "array") for (const item of literal.items) this.#bbcode(item, written.fn, pos, matched, true)
    else this.files.bbcode(value.t === "str" ? value : UNKNOWN, pos, matched, true)
  }

  /**
   * Text given to a Godot 4 state machine transition's advance_expression, which the engine evaluates on a
   * node (advanceExpression.ts): constant text is kept to be judged as that expression (contentScan), other
   * text is code no reviewer saw, an error of the Expression pattern. A number or null is no code.
   */
  #advanceExpression(value: Val, pos: Pos, matched: string): void {
    if (this.#script.grammar !== 4 || value.t === "lit") return
    if (value.t === "str") {
      for (const text of value.values) if (isEvaluated(text)) this.expressionTexts.push({ text, line: pos.line, column: pos.column, what: ADVANCE_EXPRESSION })
      return
    }
    for (const entry of this.#idx.identifiers.get("Expression") ?? []) {
      this.#hit(entry, pos, matched, {
        note: "the text of a state machine transition's advance_expression is not constant here; the AnimationTree evaluates it as an Expression on its base node, with every method call allowed",
        fix: "Write the advance_expression as a constant string (or set it in the editor), or drive the transition with advance_condition",
      })
    }
  }

  /**
   * Text written into what may be a SpinBox's LineEdit, in a pack that may create a SpinBox (spinBoxText.ts): the
   * SpinBox evaluates it as an Expression. Constant text is kept to be judged as that expression (contentScan); a
   * number or an object gives no code; other text (or `edited`: part of the text changed) is an error.
   */
  #spinBoxText(recv: Val, value: Val, pos: Pos, matched: string, edited = false): void {
    const grammar = this.#script.grammar
    const pack = this.#model.drivenControls(grammar)
    if (!pack.controls.some((c) => c.cls === SPIN_BOX)) return
    const base = recv.t === "own" ? this.#engineBase(recv.ref) : null
    if (recv.t === "own" ? !(pack.attachesScripts && base !== null && isLineEditClass(base)) : !mayBeSpinBoxLineEdit(recv)) return
    if (!edited && value.t === "str") {
      for (const text of value.values) for (const t of evaluatedTexts(text, grammar)) if (isEvaluated(t)) this.expressionTexts.push({ text: t, line: pos.line, column: pos.column, what: SPIN_BOX_TEXT })
      return
    }
    if (!edited && value.t !== "unknown") return
    for (const entry of this.#idx.identifiers.get("Expression") ?? []) {
      this.#hit(entry, pos, matched, {
        note: `the pack creates a SpinBox, and ${recv.t === "own" ? "this object" : "the receiver"} may be its internal LineEdit (${recv.t === "own" ? "a script of a LineEdit's class, attached at run time" : "get_line_edit(), a child the code walks to, a node by a path that is not constant or holds @, the focus owner"}): the SpinBox evaluates the box's text as an Expression (whose ${grammar === 3 ? "str2var" : "str_to_var"} loads a resource and runs its script) when it is entered, when the box loses the focus and on apply(), and ${edited ? "this call changes part of the text, which can complete a call the rest of it holds" : "this text is not constant"}`,
        fix: "Set the SpinBox's value (spin_box.value = 42) instead of its text, or reach the node by a constant path ($Label) or a variable typed with its own class (var label: Label = …) so it is provably no SpinBox's LineEdit",
      })
    }
  }

  /**
   * What makes a node that may be a SpinBox's LineEdit reachable where the analysis no longer sees it is: a new
   * name (then a constant path names it), an owner (find_node finds it), a group, another parent (that parent's
   * children walks the analysis may clear). An error in a pack that may create a SpinBox.
   */
  #spinBoxRehome(site: { readonly recv: Val; readonly args: ReadonlyArray<Val> }, name: string, pos: Pos, matched: string): void {
    const moves = REHOMES.has(name) ? mayBeSpinBoxLineEdit(site.recv) : ADOPTS.has(name) && site.args.some(mayBeSpinBoxLineEdit)
    if (!moves || !this.#model.drivenControls(this.#script.grammar).controls.some((c) => c.cls === SPIN_BOX)) return
    for (const entry of this.#idx.identifiers.get("Expression") ?? []) {
      this.#hit(entry, pos, matched, {
        note: "the pack creates a SpinBox, and this may rename or re-home its internal LineEdit (got by get_line_edit(), a children walk or a path with @), which then reaches code by a constant path, find_node, a group or another parent's children, where the scanner no longer judges the text written to it as the Expression the SpinBox evaluates",
        fix: "Leave the SpinBox's LineEdit where the engine put it, under its own name; set the SpinBox's value instead of its text",
      })
    }
  }

  /**
   * propagate_call reaches every node below its receiver (Node::propagate_call walks all children, 4.x's internal
   * ones included), so a SpinBox's internal LineEdit below any node: in a pack that may create a SpinBox the call
   * is judged once more on that LineEdit (a text it sets is the Expression the SpinBox evaluates), and a method
   * name that is not constant may be one that sets or edits the text (an error). Group calls do not reach it:
   * the engine puts it in no group, and adding it to one is an error of its own (#spinBoxRehome).
   */
  #propagatedBelow(target: Site, nameVal: Val, shown: string, depth: number, fn: Fn): void {
    if (!this.#model.drivenControls(this.#script.grammar).controls.some((c) => c.cls === SPIN_BOX)) return
    const below: Val = { t: "inst", cls: "LineEdit", lineEdit: true }
    if (nameVal.t === "str") this.#judgeName({ ...target, recv: below, cls: "LineEdit", label: "a node below it" }, nameVal, shown, UNKNOWN, "method", shown, depth, fn)
    else if (nameVal.t === "unknown") this.#spinBoxText(below, UNKNOWN, target.at, `${shown}(…)`, true)
  }

  /** LineEdit methods that set or edit its text (set_text, append_at_cursor, insert_text_at_caret, delete_text, menu_option, …), judged by #spinBoxText. */
  #spinBoxTextCall(site: Site, fn: Fn, shown: string): void {
    const { name, recv } = site
    if (recv.t === "own" && this.#model.defines(recv.ref, name)) return
    if (REHOMES.has(name) || ADOPTS.has(name)) this.#spinBoxRehome({ recv, args: site.args.map((a) => this.#eval(a, fn)) }, name, site.at, site.via ?? `${shown}(…)`)
    const change = textChange(this.#script.grammar, name)
    if (change === null) return
    const arg = site.args[0]
    const value = arg === undefined ? UNKNOWN : this.#eval(arg, fn)
    if (name === "menu_option" && keepsText(arg, value)) return
    this.#spinBoxText(recv, value, site.at, site.via ?? `${shown}(…)`, change === "edits")
  }

  /**
   * A property written by a name that is not constant (`s[key] = v`, `s.set(key, v)`): an error when
   * the object is a script (its `source_code`), a peer that can decode objects, one that may be any
   * engine object, one the function reloads afterwards, or when the name may be a dangerous property.
   * An object the analysis cannot pin down may be a script it lost on the way (put in a container or a
   * meta, passed through a signal, a weakref, another object's member or a helper that reloads it): text
   * written to it is a script-source-code error, unless the object is provably no Script (self, the
   * pack's instances, nodes, other engine classes, plain data).
   */
  #dynamicWrite(recv: Val, key: Val, value: Val, reloaded: boolean, pos: Pos, matched: string, written?: Written): void {
    this.#richTextWrite(recv, key, value, pos, matched, written)
    if (recv.t === "own") this.#ownResourcePath(recv.ref, key, value, pos, matched)
    if (recv.t === "own" || recv.t === "guard") return
    if (recv.t === "inst" && recv.cls === ADVANCE_EXPRESSION_CLASS && key.t !== "str" && mayBeText(value)) this.#advanceExpression(UNKNOWN, pos, matched)
    const dangerous = new Set<string>(knownStrings(key).filter((k) => this.#idx.assignments.has(k)))
    for (const k of this.#dangerousProperties(recv)) dangerous.add(k)
    if (reloaded) dangerous.add("source_code")
    const lost = !dangerous.has("source_code") && key.t !== "lit" && mayHoldScript(recv) && mayBeText(value)
    if (lost) dangerous.add("source_code")
    for (const prop of dangerous) {
      const why = lost && prop === "source_code" ? " (the object's class is not known, so it may be a script; the value may be text)" : reloaded ? " (the script is reloaded in the same function)" : ""
      for (const entry of this.#idx.assignments.get(prop) ?? []) {
        this.#hit(entry, pos, matched, {
          note: `the property is named by a value that is not constant and can be ${prop} on this object${why}`,
          fix: lost && prop === "source_code" ? "Name the property with a constant string, or make the object's class provable (type the variable with your class or an engine class: var n: Node), or keep the data in a Dictionary of your own" : "Name the property with a constant string, or keep the data in a Dictionary of your own",
        })
      }
    }
  }

  /**
   * The object and property a property path writes: `a:b:c` writes `c` on `recv.a.b`. The members of
   * the pack's own objects are followed; anything else is an object the analysis cannot pin down.
   */
  #propertyPath(recv: Val, path: string): { readonly owner: Val; readonly property: string } | null {
    const parts = [...propertySegments(path)]
    const property = parts.pop()
    if (property === undefined) return null
    let owner = recv
    for (const part of parts) {
      const member = owner.t === "own" || owner.t === "script" ? this.#model.variable(owner.ref, part) : null
      owner = member === null ? UNKNOWN : this.#ev.memberRead(member.owner, member.decl, null)
    }
    return { owner, property }
  }

  /** A write through a property path (`set_indexed("s:source_code", v)`): its last part on the object the rest names; an empty path writes nothing. */
  #pathWrite(recv: Val, path: string, pos: Pos, matched: string, value: Val, written?: Written): void {
    const target = this.#propertyPath(recv, path)
    if (target !== null) this.#propertyWrite(target.owner, target.property, pos, matched, value, written)
  }

  /**
   * A write by a name that is not constant on the pack's own object whose class extends an engine Resource (`self[k] =
   * d[k]` of a stats class filled from data): the name may be `resource_path`, which puts the object in the engine's
   * resource cache under any path (a hundred-and-third red team's, resource-path-takeover).
   */
  #ownResourcePath(ref: ClassRef, key: Val, value: Val, pos: Pos, matched: string): void {
    const base = this.#engineBase(ref)
    if (base === null || !mayBeEngineResource(this.#script.grammar, base) || key.t === "lit" || !mayBeText(value)) return
    if (key.t === "str" && !key.values.includes(RESOURCE_PATH)) return
    for (const entry of this.#idx.assignments.get(RESOURCE_PATH) ?? []) {
      this.#hit(entry, pos, matched, {
        note: `the property is named by a value that is not constant and can be resource_path on this object (its class extends ${base})`,
        fix: "Name each property with a constant string (stats.hp = d[\"hp\"]), or keep the data in a Dictionary of your own",
      })
    }
  }

  /** Properties of the object that turn on code loading or object decoding, or take over a path (`source_code`, `allow_object_decoding`, `resource_path`). */
  #dangerousProperties(recv: Val): ReadonlyArray<string> {
    if (isAnyObject(recv)) return [...this.#idx.assignments.keys()]
    // Any such write on a script or a PackedScene is already an error (its source, its bundle).
    if (isScriptLike(recv)) return ["source_code"]
    if (recv.t === "inst" && recv.cls === "PackedScene") return ["_bundled"]
    // A Resource's path puts it in the engine's cache in place of the file there (resource-path-takeover).
    const cached = recv.t === "inst" && mayBeEngineResource(this.#script.grammar, recv.cls) ? [RESOURCE_PATH] : []
    if (recv.t === "inst" && DECODING_PEERS.test(recv.cls)) return ["allow_object_decoding", ...cached]
    return cached
  }

  #writesAreDangerous(recv: Val): boolean {
    return this.#dangerousProperties(recv).length > 0
  }

  #call(e: Extract<Expr, { k: "call" }>, fn: Fn): void {
    const callee = e.callee
    let site: Site
    if (callee.k === "member") {
      const recv = this.#eval(callee.obj, fn)
      this.#visit(callee.obj, "receiver", fn)
      this.#sensitive(this.#ev.receiverClass(recv, callee.obj, fn), callee.name, callee.at)
      site = { name: callee.name, recv, bare: false, cls: this.#ev.receiverClass(recv, callee.obj, fn), label: label(callee.obj), args: e.args, at: e.at }
    } else if (callee.k === "id") {
      const name = callee.name
      if ((!this.#model.defines(fn.cls, name) || this.#builtinCall({ name, bare: true })) && this.#ev.local(name, fn) === null) for (const entry of this.#idx.identifiers.get(name) ?? []) this.#hit(entry, callee.at, name)
      site = { name, recv: { t: "own", ref: fn.cls }, bare: true, cls: null, label: "", args: e.args, at: e.at }
    } else {
      this.#visit(callee, "value", fn)
      for (const a of e.args) this.#visit(a, "value", fn)
      return
    }
    this.#registers(site, callee)
    const targets = this.#judgeCall(site, fn, 0)
    this.#emitted(e, site, fn)
    // 4.x `node.text_submitted.emit(t)`, `confirmed.emit()`: the signal's object emits it.
    if (this.#script.grammar === 4 && site.name === "emit" && callee.k === "member" && (callee.obj.k === "member" || callee.obj.k === "id")) {
      const signal = callee.obj
      const owner = signal.k === "member" ? signal.obj : null
      const recv: Val = owner === null ? { t: "own", ref: fn.cls } : this.#eval(owner, fn)
      if (!(recv.t === "own" && this.#ev.local(signal.name, fn) !== null)) this.#drives({ ...site, name: "emit_signal", recv, bare: owner === null, cls: null, label: owner === null ? "" : label(owner), via: `${label(callee.obj)}.emit(…)` }, strs([signal.name]))
    }
    // Calling a bound method: `f.call_func(a)` is the call it was bound to.
    const recv = site.recv
    if (recv.t === "method" && (INVOKE.has(site.name) || INVOKE_ARRAY.has(site.name))) {
      const args = INVOKE_ARRAY.has(site.name) ? arrayArgs(e.args[0], e.at) : e.args
      this.#judgeCall({ name: recv.name, recv: recv.target, bare: false, cls: this.#ev.receiverClass(recv.target, null, fn), label: this.#shownReceiver(recv.target), args, at: e.at }, fn, 1)
    }
    // Arguments of the class's own functions are followed (evaluate.ts); anywhere else, an object that may be any engine object escapes.
    const followed = (site.bare || callee.k === "member" && callee.obj.k === "self") && this.#model.method(fn.cls, site.name) !== null
    e.args.forEach((a, i) => {
      if (!followed && !targets.has(i) && !(site.bare && LOOKS_ONLY.has(site.name)) && isAnyObject(this.#eval(a, fn))) {
        const container = callee.k === "member" && callee.obj.k === "id" && PUTS_ELEMENT.has(site.name) ? { name: callee.obj.name, fn } : undefined
        this.#anyEscape(a.at, `passed to ${site.label === "" ? "" : `${site.label}.`}${site.name}(), where the calls made on it are out of sight`, container)
      }
      this.#visit(a, targets.has(i) ? "target" : "value", fn)
    })
  }

  /**
   * A dangerous object connected to a signal (`OS.connect("script_changed", self, "_noop")`, 4.x
   * `OS.script_changed.connect(f)`): the connection lists of the target give it back
   * (`get_incoming_connections()[0].source`), out of sight, so it escapes there.
   */
  #registers(site: Site, callee: Expr): void {
    if (!REGISTERS.has(site.name) || site.bare) return
    const recv = site.recv
    const guard = recv.t === "guard" ? recv.name : recv.t === "method" && recv.target.t === "guard" ? recv.target.name : null
    if (guard === null) return
    this.#escape(guard, callee.at, `connected to a signal (${site.name}), so the connection lists of its target (get_incoming_connections, get_signal_connection_list) hand it back`)
  }

  /**
   * `emit_signal(s, a, b)` (or 4.x `s.emit(a, b)`): every scene connection of that signal to a dispatch API
   * (`[connection signal="go" … method="set_indexed"]`) receives these arguments, then its binds. Each is
   * judged as that call on a node.
   */
  #emitted(e: Extract<Expr, { k: "call" }>, site: Site, fn: Fn): void {
    const connections = this.#model.connections
    const signal = site.name === "emit_signal" ? (e.args[0] === undefined ? null : this.#eval(e.args[0], fn)) : site.name === "emit" && e.callee.k === "member" && e.callee.obj.k === "id" ? strs([e.callee.obj.name]) : null
    if (signal === null || signal.t === "lit") return
    const args = site.name === "emit_signal" ? e.args.slice(1) : e.args
    // 3.x connections in code to an engine method by a constant name: these arguments, then the binds (Object::emit_signal).
    if (site.name === "emit_signal" && signal.t === "str") {
      for (const s of signal.values) {
        for (const c of this.#ev.codeConnections(s)) {
          for (const m of c.methods) this.#judgeCall({ name: m, recv: c.target, bare: false, cls: this.#ev.receiverClass(c.target, null, fn), label: this.#shownReceiver(c.target), args: [...args, ...c.binds], at: e.at, via: `emit_signal(${JSON.stringify(s)}) → ${m}` }, fn, 1)
        }
      }
    }
    for (const c of connections) {
      if (!mayBeName(signal, c.signal)) continue
      const binds = c.binds.map((b) => dataExpr(b, e.at))
      this.#judgeCall({ name: c.method, recv: NODE, bare: false, cls: "Node", label: `a node connected to ${c.signal}`, args: [...args, ...binds], at: e.at, via: `emit_signal(${JSON.stringify(c.signal)}) → ${c.method}` }, fn, 1)
    }
  }

  #shownReceiver(v: Val): string {
    return v.t === "guard" ? v.name : v.t === "inst" ? v.cls : v.t === "own" ? "self" : "…"
  }

  /**
   * Whether a bare call is the engine's global function whatever the class defines: Godot 3's tokenizer makes `load` a
   * built-in function's token, which the parser calls as such, and Godot 4's analyzer looks utility functions up
   * before the class's methods (a method of that name is reached only as `self.load` or by name: a
   * hundred-and-twentieth red team's `func load(path): return null` beside `load("user://mod.gd")`).
   */
  #builtinCall(site: Pick<Site, "name" | "bare">): boolean {
    return site.bare && isGlobalFunction(this.#script.grammar, site.name)
  }

  /** Judges a call, and each call it makes by name; returns the argument indexes that are dispatch targets. */
  #judgeCall(written: Site, fn: Fn, depth: number): ReadonlySet<number> {
    let site = written
    const { name } = site
    let recv = site.recv
    const targets = new Set<number>()
    if ((recv.t === "own" || recv.t === "script") && this.#model.defines(recv.ref, name) && !this.#builtinCall(site)) return targets
    if (name === "set_script") this.#scriptAttached(recv, site.at, site.via ?? `${site.label === "" ? "" : `${this.#shownReceiver(recv)}.`}set_script(…)`, site.argsUnseen === true || site.args[0] === undefined ? UNKNOWN : this.#eval(site.args[0], fn))
    this.#internalCall(site)
    if (name === "emit_signal" || name === "register_text_enter" || !site.bare) this.#drives(site, name === "emit_signal" ? (site.args[0] === undefined ? null : this.#eval(site.args[0], fn)) : null)
    if (name === "set_access" && this.#mayBeFileDialog(recv) && site.args[0] !== undefined && mayBeFilesystemAccess(this.#eval(site.args[0], fn), site.args[0])) this.#fileDialogAccess(site.at, site.via ?? `${site.label}.set_access(…)`)
    site = this.#asEngineBase(site)
    recv = site.recv
    // A sensitive API reached on self's engine class or by dispatch is listed like one written on its object.
    if (site !== written || site.via !== undefined) this.#sensitive(site.cls, name, site.at)
    if (recv.t === "guard" || isAnyObject(recv)) this.#memberRules(recv, name, site.at, site.via ?? `${recv.t === "guard" ? recv.name : site.label}.${name}`, site.argsUnseen === true ? undefined : { args: site.args, fn })
    this.#patternsOnCall(site, fn)
    this.#animationCall(site, fn, depth)
    for (const entry of this.#applicableDispatch(site, fn)) {
      if (entry.target !== undefined) targets.add(entry.target)
      if (entry.target !== undefined && entry.method === "connect") this.#connectedTarget(site.args[entry.target], site.at, fn)
      this.#judgeEntry(entry, site, fn, depth)
    }
    return targets
  }

  /**
   * A dangerous singleton made the target of a connection: the object's connection list hands it out
   * (`get_signal_connection_list(s)[0]["target"]`), to code that may not name it (a hundred-and-twenty-sixth red team's
   * `h.connect("sig", Engine, …)`, then a call by a name out of sight reading the list, then `get_singleton`).
   */
  #connectedTarget(arg: Expr | undefined, pos: Pos, fn: Fn): void {
    const target = arg === undefined ? null : this.#eval(arg, fn)
    if (target?.t !== "guard") return
    if (!CONNECTION_READERS.some((w) => this.#model.mentions(w)) && !dispatchesByName(this.#model)) return
    this.#escape(target.name, pos, "made the target of a signal connection, which the object's connection list (get_signal_connection_list, get_incoming_connections) hands out", `Connect the signal to a method of your own object and call ${target.name}'s method there`)
  }

  /**
   * A call on the creator's own object (self, an instance of a class of the pack) of a method its chain of
   * pack classes does not define: the engine class at the end of the chain has it (`class S extends
   * ConfigFile` then `S.new().save(p)`, or `save(p)` in S's code), so it is judged exactly as on that class's
   * object (`ConfigFile.new().save(p)`) by every rule. A bare call of a global function (`load(p)`) is that
   * function (engineClasses.ts isGlobalFunction); Object's and Node's methods that dispatch or write by a
   * name (`call`, `set`, `connect`) keep the own-object reading, which knows the creator's own methods.
   */
  #asEngineBase(site: Site): Site {
    const recv = site.recv
    // A capitalised bare name is a built-in type's constructor (`Callable(self, "m")`, `Vector2(1, 2)`), never an engine method.
    if (recv.t !== "own" || (site.bare && (isGlobalFunction(this.#script.grammar, site.name) || /^[A-Z]/.test(site.name)))) return site
    if (REGISTERS.has(site.name) || (this.#dispatch.byName.get(site.name) ?? []).some((d) => d.class === "Object" || d.class === "Node")) return site
    const label = site.bare || site.label === "" ? "self" : site.label
    // Self may be any engine object of a subclass of the base (a script attached with set_script): a method the base lacks may be another class's.
    const beyond = this.#ev.selfBeyondBase(recv.ref, site.name)
    if (beyond !== null) return { ...site, recv: UNKNOWN, bare: false, cls: null, label, selfOf: beyond }
    const base = this.#engineBase(recv.ref)
    if (base === null || !this.#model.isEngineName(base)) return site
    return { ...site, recv: this.#ev.engineInstance(base), bare: false, cls: base, label }
  }

  /** Member (any receiver), setter, argument, path, runtime-load and file-write rules on a call. */
  #patternsOnCall(site: Site, fn: Fn): void {
    const { name, recv, at: pos } = site
    const shown = `${site.bare ? "" : `${recv.t === "guard" ? recv.name : (site.cls ?? site.label)}.`}${name}`
    // Names flagged on any receiver, but not on one known to be another engine class (a tween's kill()) or the creator's own object.
    if (!site.bare && recv.t !== "guard" && recv.t !== "own" && !(recv.t === "inst" && !this.#idx.guarded.has(recv.cls))) {
      for (const { entry, match } of this.#idx.members.get(name) ?? []) if ((match.anyReceiver ?? []).includes(name)) this.#maybeOwnCall(entry, recv, name, pos, site.via ?? `${shown}(…)`, site.selfOf)
    }
    // A setter's name on the pack's own object whose class defines a method of that name calls that method (a path-following
    // enemy's `set_path(points)`).
    const ownMethod = recv.t === "own" && this.#model.defines(recv.ref, name)
    if ((!site.bare || recv.t !== "own") && !ownMethod) for (const entry of this.#idx.setters.get(name) ?? []) this.#hit(entry, pos, site.via ?? `${shown}(…)`)
    const expression = site.args[0]
    if (name === ADVANCE_EXPRESSION_SETTER && expression !== undefined && (recv.t === "own" ? !this.#model.defines(recv.ref, name) : mayBeTransition(recv))) {
      this.#advanceExpression(this.#eval(expression, fn), pos, site.via ?? `${shown}(…)`)
    }
    this.#spinBoxTextCall(site, fn, shown)
    const receivers = receiverNames(site, this.#idx)
    for (const { entry, match } of this.#idx.arguments.get(name) ?? []) {
      if (!match.receivers.includes("*") && !receivers.some((r) => match.receivers.includes(r))) continue
      const arg = site.args[match.argument]
      if (arg === undefined) continue
      const v = this.#eval(arg, fn)
      const shownArgs = `${shown}(${site.args.slice(0, match.argument).map(() => "…").concat(match.equals).join(", ")})`
      if (match.equals === "true") {
        const truth = truthOf(v)
        if (truth === true) this.#hit(entry, pos, shownArgs)
        else if (truth === null && match.otherwise !== undefined) this.#hit(entry, pos, `${shown}(…)`, { severity: match.otherwise, note: `argument ${match.argument + 1} is not a constant, so it cannot be shown to be false`, fix: `Pass false (or leave the argument out): ${name}(${site.args.slice(0, match.argument).map(() => "…").concat("false").join(", ")})` })
      } else if (v.t === "lit" && String(v.value) === match.equals) this.#hit(entry, pos, shownArgs)
      else if (v.t !== "lit" && v.t !== "str" && match.otherwise !== undefined) {
        this.#hit(entry, pos, `${shown}(…)`, { severity: match.otherwise, note: `argument ${match.argument + 1} is not a literal, so it cannot be shown to be safe` })
      }
    }
    this.files.pathRules(site, fn)
    this.files.userDataSetting(site, fn)
    this.files.runtimeLoad(site, fn)
    // A node's scene file set by its setter (`set_filename`, 4.x `set_scene_file_path`), on an object not of the pack's class defining it.
    const ownSetter = site.bare ? this.#model.defines(fn.cls, name) : site.recv.t === "own" && this.#model.defines(site.recv.ref, name)
    if (SCENE_FILE_SETTERS.has(name) && site.args[0] !== undefined && !ownSetter) this.files.loadPath(site.args[0], fn, site.via ?? shown)
    const bbcode = BBCODE_METHODS.get(name)
    if (bbcode !== undefined && site.args[0] !== undefined) this.#bbcode(site.args[0], fn, pos, site.via ?? shown, bbcode)
    this.#translationMessage(site, fn, pos, site.via ?? shown)
    this.files.dataDecoding(site, fn)
    if (site.cls !== null) {
      const modeAt = this.#idx.writeModes.get(`${site.cls}.${name}`)
      if (modeAt !== undefined) {
        if (this.files.mayWrite(site.args[modeAt], fn)) this.#use(this.#idx.sensitive.get(`${site.cls}.${name}`) ?? "file-writes", `${site.cls}.${name}`, pos)
      }
    }
  }

  /**
   * An animation built in code (Animation API): a track's path names a node and the property path its
   * keys write (`track_set_path(t, ".:s:source_code")`), judged like that write; a method track's key
   * (`{"method": "set_indexed", "args": [...]}`) calls that method on the track's node, judged like that
   * dispatch. A key that is not a dictionary written in the call may be a method key whose
   * method is out of sight: a dynamic-dispatch error, unless it is a plain value (a string, a number, a Vector2).
   */
  #animationCall(site: Site, fn: Fn, depth: number): void {
    const { name, recv } = site
    if (site.bare || recv.t === "own" || recv.t === "script" || recv.t === "guard" || (recv.t === "inst" && recv.cls !== "Animation")) return
    if (name === "track_set_path") {
      const arg = site.args[1]
      if (arg === undefined) return
      const v = this.#eval(arg, fn)
      const property = (p: string): string | null => (p.includes(":") ? p.slice(p.indexOf(":") + 1) : null)
      const matched = `Animation.track_set_path(${v.t === "str" && v.values.length === 1 ? JSON.stringify(v.values[0]) : "…"})`
      if (v.t === "str") {
        for (const p of v.values.map(property)) {
          if (p === null) continue
          this.#pathWrite(UNKNOWN, p, site.at, matched, UNKNOWN)
        }
      } else if (v.t !== "lit") this.#dynamicPath(UNKNOWN, { t: "unknown", some: knownStrings(v).flatMap((p) => property(p) ?? []) }, UNKNOWN, site.at, matched)
      return
    }
    if (name !== "track_insert_key" && name !== "track_set_key_value") return
    const arg = site.args[2]
    if (arg === undefined) return
    // Only a dictionary written in the call is followed: a variable holding one can be changed before it is passed.
    this.#trackKey(arg, site.at, `Animation.${name}`, fn, depth)
    this.#trackValue(this.#eval(arg, fn), site.at, `Animation.${name}(…)`, { expr: arg, fn, depth })
  }

  /**
   * A value track's key written in code: the value the animation writes to its track's property. Which track
   * the key is on, and the path that track was given (in a scene, by another function, through a variable), are
   * not followed, so the key is judged as a write by a name that is not constant on the track's node: every
   * property it may have (a RichTextLabel's BBCode among them, with the key as the BBCode).
   */
  #trackValue(value: Val, pos: Pos, matched: string, written?: Written): void {
    this.#dynamicWrite(NODE, UNKNOWN, value, false, pos, `${matched} on the track's property`, written)
  }

  /**
   * One key of a method track: a dictionary written here (`{"method": "set_indexed", "args": […]}`) calls that
   * method on the track's node, judged like that dispatch; anything else but a plain value may be such a key
   * whose method is out of sight (a dynamic-dispatch error).
   */
  #trackKey(key: Expr, at: Pos, shown: string, fn: Fn, depth: number): void {
    // Only a dictionary written in the call is followed: a variable holding one can be changed before it is passed.
    if (key.k === "dict") {
      // Each entry of the text "method" and of "args" (ast.ts valuesAtKey: a String key and a NodePath key are two).
      const argLists = valuesAtKey(key, "args")
      for (const method of valuesAtKey(key, "method")) {
        for (const args of argLists.length === 0 ? [null] : argLists) {
          const site: Site = { name: "", recv: NODE, bare: false, cls: "Node", label: "the track's node", args: args === null ? [] : arrayArgs(args, at), at }
          this.#judgeName(site, this.#eval(method, fn), shown, UNKNOWN, "method", `${shown}({"method": …})`, depth, fn)
        }
      }
      return
    }
    if (isNoText(key) || isPlain(this.#eval(key, fn)) || this.#closedPropertyRead(key, fn)) return
    this.#dynamic(at, `${shown}(…)`, "the key is not a dictionary written here: on a method track it names the method the animation calls on its node, which is out of sight")
  }

  /**
   * A Godot 3 read of an engine property on a node or other engine object (`$Banner.rect_position`) whose every
   * declaration is a type other than Dictionary or Variant, where no class of the pack could answer the name first
   * (a `_get`, a member, constant or inner class of that name) and the pack has no InstancePlaceholder (a scene's
   * placeholder node keeps and answers any property): never a Dictionary, so never a method-track key.
   */
  #closedPropertyRead(key: Expr, fn: Fn): boolean {
    if (this.#script.grammar !== 3 || key.k !== "member" || !isClosedEngineProperty(key.name)) return false
    // An InstancePlaceholder (a scene's placeholder node) answers any name with what it was given.
    return isObjectOfUnknownScript(this.#eval(key.obj, fn)) && !packMayAnswer(this.#model, key.name) && !this.#model.mayCreate("InstancePlaceholder")
  }

  /**
   * An Animation's generic properties (Animation::_set): `tracks/N/path` is track_set_path, `tracks/N/keys` sets
   * every key of a track at once (a method track's under "values"), judged like track_insert_key.
   */
  #animationProperty(recv: Val, prop: string, pos: Pos, matched: string, value: Val, written?: Written): void {
    const track = /^tracks\/\d+\/(path|keys)$/.exec(prop)?.[1]
    if (track === undefined || !mayBeAnimation(recv)) return
    if (track === "path") {
      if (value.t === "str") {
        for (const p of value.values) {
          if (!p.includes(":")) continue
          this.#pathWrite(UNKNOWN, p.slice(p.indexOf(":") + 1), pos, matched, UNKNOWN)
        }
      } else if (value.t !== "lit") this.#dynamicPath(UNKNOWN, { t: "unknown", some: knownStrings(value).flatMap((p) => (p.includes(":") ? [p.slice(p.indexOf(":") + 1)] : [])) }, UNKNOWN, pos, matched)
      return
    }
    const keys = written?.expr
    if (keys === undefined || written === undefined) {
      if (!isPlain(value)) this.#dynamic(pos, matched, "the keys are not written here: on a method track they name the methods the animation calls on its node, which are out of sight")
      this.#trackValue(UNKNOWN, pos, matched)
      return
    }
    const key = (item: Expr): void => {
      this.#trackKey(item, pos, matched, written.fn, written.depth)
      this.#trackValue(this.#eval(item, written.fn), pos, matched, { ...written, expr: item })
    }
    if (keys.k !== "dict") return key(keys)
    for (const values of valuesAtKey(keys, "values")) {
      if (values.k === "array") for (const item of values.items) key(item)
      else key(values)
    }
  }

  // ---- dispatch by name ----

  #applicableDispatch(site: Site, fn: Fn): ReadonlyArray<DispatchEntry> {
    const { name, recv, args } = site
    const entries = this.#dispatch.byName.get(name) ?? []
    if (entries.length === 0) return []
    const cls = site.bare ? null : site.cls
    return entries.filter((d) => {
      if (d.kind === "member") return false
      // The creator's own method of that name (`func process_action()` on self) is reviewed code, not the engine's.
      if (!site.bare && recv.t === "own" && d.class !== "Object" && d.class !== "Node" && this.#model.defines(recv.ref, name)) return false
      if (d.class === "@GDScript") return site.bare
      if (d.class === "Callable" && d.method === "Callable") return site.bare
      if (d.kind === "class" || d.kind === "singleton") return cls === d.class || (isAnyObject(recv) && this.#idx.guarded.has(d.class)) || (d.shared === true && this.#mayBeClassDb(site, d))
      if (d.class === "Object" || d.class === "Node") {
        // 4.x Callable.call()/callv() share the names: no string first argument means a Callable.
        if (this.#script.grammar !== 3 && (name === "call" || name === "callv" || name === "call_deferred") && !site.bare) {
          if (cls === "Callable" || recv.t === "method") return false
          const first = args[0] === undefined ? null : this.#eval(args[0], fn)
          if (first === null || first.t === "lit" || first.t === "own" || first.t === "inst" || first.t === "script" || first.t === "method") return false
        }
        if ((name === "get" || (name === "set" && !mayHoldScript(recv))) && recv.t !== "guard" && recv.t !== "own" && !this.#writesAreDangerous(recv)) {
          const key = args[0] === undefined ? null : this.#eval(args[0], fn)
          // A node's set(k, v) may write a RichTextLabel's BBCode.
          return key !== null && (key.t === "str" || knownStrings(key).some((k) => this.#idx.assignments.has(k)) || (name === "set" && this.#richTextProperties(recv, key).length > 0))
        }
        return true
      }
      if (d.shared === true) return cls === d.class
      return true
    })
  }

  /**
   * A receiver of unknown class calling ClassDB's instance (a name shared with PackedScene's): it may be
   * ClassDB handed back from elsewhere (a connection list, a helper), so it is judged by its argument,
   * which for a scene is a number (`PackedScene.GEN_EDIT_STATE_…`).
   */
  #mayBeClassDb(site: Site, d: DispatchEntry): boolean {
    if (site.bare || site.cls !== null || site.recv.t !== "unknown" || d.name === undefined) return false
    const arg = site.args[d.name]
    return arg !== undefined && !(arg.k === "member" && arg.obj.k === "id" && this.#model.isEngineName(arg.obj.name) && /^[A-Z0-9_]+$/.test(arg.name))
  }

  #judgeEntry(entry: DispatchEntry, site: Site, fn: Fn, depth: number): void {
    const { args, name, recv } = site
    // A call reached by a name that is not constant shows the dispatch as written (`call(…) as set_indexed`).
    const shown = site.via?.endsWith(` as ${name}`) === true ? site.via : `${recv.t === "guard" ? `${recv.name}.` : ""}${name}`
    if (entry.kind === "target") {
      const target = entry.target === undefined ? recv : this.#evalArg(args[entry.target], fn)
      // Even on your own object: every object inherits set_indexed, call, set_script, … which the data can name.
      if (target !== null && target.t !== "lit") this.#dynamic(site.at, `${entry.class}.${name}(…)`, `the methods it calls are named by data received at run time, and every object (self included) inherits engine methods such as set_indexed and call that such a name can reach${entry.target === undefined ? " (a method outside every scope is called on the JSONRPC object itself)" : ""}`)
      this.#use("dynamic-dispatch", `${entry.class}.${name}`, site.at)
      return
    }
    if (entry.name === undefined) return
    const nameArg = args[entry.name]
    if (nameArg === undefined) return
    const nameVal = this.#eval(nameArg, fn)
    if (entry.kind === "class" || entry.kind === "singleton") {
      this.#use("dynamic-dispatch", `${entry.class}.${name}`, site.at)
      // On a receiver of unknown class (that may be ClassDB handed back from elsewhere): a dangerous class named is an error too.
      const unsure = site.cls !== entry.class && site.recv.t === "unknown" && !isAnyObject(site.recv)
      if (nameVal.t === "str") {
        for (const n of nameVal.values) for (const p of this.#idx.identifiers.get(n) ?? []) this.#hit(p, site.at, `${entry.class}.${name}(${JSON.stringify(n)})`)
        for (const n of unsure ? nameVal.values : []) {
          const guard = this.#idx.guarded.get(n)
          if (guard !== undefined) this.#escape(guard, site.at, `made by ${site.label}.${name}(${JSON.stringify(n)}) on an object of unknown class, which may be ClassDB`)
        }
      } else if (nameVal.t !== "lit") {
        this.#dynamic(site.at, `${unsure ? `${site.label}` : entry.class}.${name}(…)`, `the ${entry.kind} is named by a value that is not constant${unsure ? ", on an object of unknown class that may be ClassDB (a scene's instance() takes a number: PackedScene.GEN_EDIT_STATE_…)" : ""}`)
      }
      return
    }
    const targetExpr = entry.target === undefined ? null : args[entry.target]
    if (entry.target !== undefined && targetExpr === undefined) return
    const target = targetExpr === null || targetExpr === undefined ? recv : this.#eval(targetExpr, fn)
    const targetSite: Site =
      targetExpr === null || targetExpr === undefined
        ? // call_group and its like call the method on the nodes of a group, not on the tree.
          GROUP_CALLS.has(entry.method)
          ? { ...site, recv: NODE, bare: false, cls: "Node", label: "the group's nodes" }
          : { ...site, bare: false, label: site.bare ? "self" : site.label }
        : { ...site, recv: target, bare: false, cls: this.#ev.receiverClass(target, targetExpr, fn), label: label(targetExpr) }
    const follows = ARGUMENTS_FOLLOW.has(entry.method) || ARGUMENTS_IN_ARRAY.has(entry.method)
    const rest = ARGUMENTS_FOLLOW.has(entry.method) ? args.slice(entry.name + 1) : ARGUMENTS_IN_ARRAY.has(entry.method) ? arrayArgs(args[entry.name + 1], site.at) : opaqueArgs(site.at)
    const kind = entry.kind === "property" ? (/^(get|_get|class_get)/.test(entry.method) ? "property-read" : "property-write") : "method"
    // A write without its value (`set_indexed(path)`) is a call the engine refuses: nothing is written.
    if (kind === "property-write" && site.argsUnseen !== true && args[entry.name + 1] === undefined && SETS_A_VALUE.has(entry.method)) return
    // The value a setter writes; a tween's values (its initial and final) are taken as unknown.
    const value = kind === "property-write" && args[entry.name + 1] !== undefined && SETS_A_VALUE.has(entry.method) ? this.#eval(args[entry.name + 1] as Expr, fn) : UNKNOWN
    const valueExpr = kind === "property-write" && SETS_A_VALUE.has(entry.method) ? args[entry.name + 1] : undefined
    const how = { reloaded: targetExpr?.k === "id" && this.#ev.isReloaded(targetExpr.name, fn), path: PROPERTY_PATHS.has(entry.method), ...(valueExpr === undefined ? {} : { written: { expr: valueExpr, fn, depth } }) }
    if (entry.method === "propagate_call") this.#propagatedBelow({ ...targetSite, args: rest }, nameVal, shown, depth, fn)
    if (entry.method === "connect") this.#boundConnection(targetSite, args, nameVal, shown, depth, fn)
    const onClasses = entry.targetClass === undefined ? [targetSite] : this.#namedClasses(args[entry.targetClass], targetSite, fn)
    // Where the arguments are out of sight (connect, funcref: they come with the signal or the later call), so is the call.
    for (const on of onClasses) this.#judgeName({ ...on, args: rest, ...(follows ? {} : { argsUnseen: true as const }) }, nameVal, shown, value, kind, `${shown}`, depth, fn, how)
  }

  /**
   * The engine classes whose static method a dispatch calls (`ClassDB.class_call_static("FileAccess", "open", …)`),
   * each as the receiver of that method, judged like `FileAccess.open(…)`; a class that is not constant is the
   * class entry's dynamic-dispatch error, so none here.
   */
  #namedClasses(arg: Expr | undefined, site: Site, fn: Fn): ReadonlyArray<Site> {
    const named = this.#evalArg(arg, fn)
    if (named?.t !== "str") return []
    return named.values.map((cls) => {
      const recv = this.#ev.engineClass(cls)
      return { ...site, recv, bare: false, cls: recv.t === "guard" ? recv.name : cls, label: cls }
    })
  }

  /**
   * 3.x `connect(signal, target, "method", [binds])` to a method by a constant name: the engine passes the
   * signal's arguments, then the binds (Object::emit_signal). With the binds written as an array, the method is
   * judged with them after as many arguments as the pack's emissions of the signal pass (none included), those
   * arguments out of sight; the call with every argument out of sight is judged too (the engine's own signals).
   */
  #boundConnection(target: Site, args: ReadonlyArray<Expr>, nameVal: Val, shown: string, depth: number, fn: Fn): void {
    const [first, , , binds] = args
    if (this.#script.grammar !== 3 || nameVal.t !== "str" || binds?.k !== "array" || binds.items.length === 0 || first === undefined) return
    const signal = this.#eval(first, fn)
    const counts = new Set([0, ...(signal.t === "str" ? signal.values.flatMap((s) => this.#ev.emissionCounts(s)) : [])])
    for (const n of counts) this.#judgeName({ ...target, args: [...opaqueArgs(target.at).slice(0, n), ...binds.items] }, nameVal, shown, UNKNOWN, "method", shown, depth, fn)
  }

  #evalArg(arg: Expr | undefined, fn: Fn): Val | null {
    return arg === undefined ? null : this.#eval(arg, fn)
  }

  /**
   * A dispatch to the method or property `nameVal` names on `target.recv` (with `target.args` as the
   * call's arguments): constant names are judged like the direct call or write; names that are not
   * constant by what they could reach.
   */
  #judgeName(target: Site, nameVal: Val, shown: string, value: Val, kind: "method" | "property-write" | "property-read", matchedPrefix: string, depth: number, fn?: Fn, how: { readonly reloaded?: boolean; readonly path?: boolean; readonly written?: Written } = {}): void {
    const recv = target.recv
    // A number, a bool, null or an object is no name: the engine refuses the call.
    if (nameVal.t === "lit" || nameVal.t === "own" || nameVal.t === "script" || nameVal.t === "inst" || nameVal.t === "guard" || nameVal.t === "method") return
    this.#use("dynamic-dispatch", shown, target.at)
    if (nameVal.t !== "str") {
      if (recv.t === "lit") return
      if (kind === "property-write") {
        // A property path can reach `script:source_code` of any object, its own script included.
        if (how.path === true) this.#dynamicPath(recv, nameVal, value, target.at, `${matchedPrefix}(…)`, how.written)
        else this.#dynamicWrite(recv, nameVal, value, how.reloaded === true, target.at, `${matchedPrefix}(…)`, how.written)
        if (recv.t !== "guard") return
      }
      if (kind === "property-read" && recv.t !== "guard") return
      if (recv.t === "own" || isNode(recv)) {
        if (fn !== undefined) this.#dynamicOnOwnObject(target, nameVal, `${matchedPrefix}(…)`, depth, fn)
        return
      }
      // 3.x: a name built after a start no engine class's method has (`"_on_state_" + s`; every `_` method of the
      // engine binary is known: engineScriptNames.ts) is a method of the pack's scripts, judged where they are written
      // (a hundred-and-twelfth and a hundred-and-thirteenth hunt's state machines holding their owner).
      if (kind === "method" && recv.t !== "guard" && this.#script.grammar === 3 && nameVal.t === "unknown" && nameVal.prefix !== undefined && !engineMethodMayStartWith(nameVal.prefix)) return
      const on = recv.t === "guard" ? recv.name : "an object that could be an engine object"
      this.#dynamic(target.at, `${matchedPrefix}(…)`, `the ${kind === "method" ? "method" : "property"} name is not a constant, and the target is ${on}${this.#unfollowedNote(nameVal)}`)
      return
    }
    for (const n of nameVal.values) {
      const matched = `${matchedPrefix}(${JSON.stringify(n)})`
      // A dangerous object's member named in any dispatch, reads and writes included (`OS.get("execute")`).
      if (recv.t === "guard" || isAnyObject(recv)) this.#memberRules(recv, n, target.at, matched)
      if (kind === "property-write") {
        // A property path (`set_indexed("s:source_code", v)`, a tween's `"s:source_code"`) writes its last part on the object the rest names.
        this.#pathWrite(recv, n, target.at, matched, value, how.written)
        continue
      }
      if (kind === "property-read" || (recv.t === "own" && this.#model.defines(recv.ref, n))) continue
      if (recv.t !== "guard") {
        // Names distinctive enough to flag by dispatch on any receiver (`x.call("execute")`).
        for (const { entry, match } of this.#idx.members.get(n) ?? []) if (match.dispatch === "any-receiver") this.#maybeOwnCall(entry, recv, n, target.at, matched)
      }
      if (fn !== undefined && depth < MAX_NESTED_DISPATCH) this.#judgeCall({ ...target, name: n, via: matched }, fn, depth + 1)
    }
  }

  /**
   * A method named by a value that is not constant, on the creator's own object or a node of the scene
   * tree: it cannot be a dangerous singleton's method, but every object inherits engine methods that
   * write properties or dispatch again (`set_indexed`, `set`, `call`, `propagate_call`, `set_script`, …).
   * With the call's arguments in sight, it is judged as each of them; with its arguments out of sight
   * (a signal's, a FuncRef's) it is an error, unless what is known of the name rules them all out.
   */
  #dynamicOnOwnObject(target: Site, nameVal: Val, matched: string, depth: number, fn: Fn): void {
    const recv = target.recv
    const base = recv.t === "own" ? this.#engineBase(recv.ref) : null
    const reachable = (m: string): boolean => mayBeName(nameVal, m) && !(recv.t === "own" && this.#model.defines(recv.ref, m))
    // The engine classes of the objects the pack's data gives the script (a `.tres` of type GDScript or Image holding it:
    // a hundred-and-twenty-fifth red team's `extends Reference` helper whose `call(n, src)` was GDScript's set_source_code).
    const hosts = recv.t === "own" ? this.#model.hostTypes(recv.ref).filter((t) => t !== base && this.#model.isEngineName(t)) : []
    const inherited = [...new Set([base, ...hosts].flatMap((b) => this.#inheritedDispatch(b)))]
    const candidates = inherited.filter(reachable)
    // On your own object whose class extends an engine class, the name may be any method of that class a rule names (`extends ConfigFile`: save, load, …).
    const engineBase = [...(base !== null && this.#model.isEngineName(base) ? [base] : []), ...hosts].flatMap((b) => engineBaseMethods(this.#idx, this.#script.grammar, b))
    // On an object that may be a RichTextLabel (a script extending Node attached to one), the methods that take BBCode too.
    const bbcode = this.#mayBeRichTextLabel(recv) ? RICH_TEXT_LABEL_BBCODE[this.#script.grammar].methods : []
    const ofBase = [...new Set([...engineBase, ...bbcode])].filter((m) => reachable(m) && !inherited.includes(m))
    if (candidates.length === 0 && ofBase.length === 0) return
    if (target.argsUnseen === true) {
      const all = [...candidates, ...ofBase]
      if (this.#dispatchFromPackData(target, nameVal, matched)) return
      this.#dynamic(target.at, matched, `the method name is not a constant and the call's arguments come later (from a signal or a later call), so it may be ${all.slice(0, 4).join(", ")}${all.length > 4 ? ", …" : ""}, which ${ofBase.length > 0 ? `the object inherits from ${base ?? "the engine"}` : "every object inherits from the engine"} and which write files or properties or call other methods by name${this.#unfollowedNote(nameVal)}`)
      return
    }
    // Once already judged as a method by a name that is not constant, a second such name is not expanded again
    // (the work would multiply): it is an error when any argument left could be a name or a path.
    if (target.via?.includes(" as ") === true || depth >= MAX_NESTED_DISPATCH) {
      const open = target.args.some((a) => {
        const v = this.#eval(a, fn)
        return v.t === "unknown" || (v.t === "str" && v.values.some((x) => this.#idx.assignments.has(x.split(":").at(-1) ?? x) || candidates.includes(x)))
      })
      if (open && candidates.length > 0) this.#dynamic(target.at, matched, `the method name is not a constant, nor is the method it may call by name in turn, and the arguments left can name a property to write${target.tableNote ?? this.#unfollowedNote(nameVal)}`)
      // The engine class's own methods dispatch no further: each is judged with the arguments left.
      for (const m of ofBase) this.#judgeCall({ ...target, name: m, via: `${matched} as ${m}` }, fn, depth + 1)
      return
    }
    const tableNote = target.tableNote ?? this.#unfollowedNote(nameVal)
    for (const m of [...candidates, ...ofBase]) this.#judgeCall({ ...target, name: m, via: `${matched} as ${m}`, ...(tableNote === "" ? {} : { tableNote }) }, fn, depth + 1)
  }

  /**
   * A method on self named by strings of the pack's own data files, its arguments out of sight (`connect(q.on, self,
   * q.check, [q])` with `q` from a res:// JSON): kept for contentScan, which judges the strings that can reach the
   * name (checks/dispatchData.ts); each must name a method the class's script defines, which is then called with the
   * signal's arguments and the binds as any function of the script may be. False when the name is anything else.
   */
  #dispatchFromPackData(target: Site, nameVal: Val, matched: string): boolean {
    const recv = target.recv
    if (recv.t !== "own" || target.label !== "self" || nameVal.t !== "unknown" || nameVal.external !== true || nameVal.packData === undefined || nameVal.dataSel === undefined) return false
    if (nameVal.host === true || nameVal.any === true || nameVal.prefix !== undefined || nameVal.some !== undefined || nameVal.sdk === true) return false
    const methods = new Set<string>()
    for (const cls of this.#model.ancestry(recv.ref)) for (const f of this.#model.decl(cls)?.functions ?? []) methods.add(f.name)
    this.dispatchData.push({ sources: nameVal.packData, sels: nameVal.dataSel, methods: [...methods], call: matched, ...at(target.at) })
    return true
  }

  readonly #inherited = new Map<string, ReadonlyArray<string>>()

  /**
   * The engine methods that write a property or dispatch by a name argument an object may have, and
   * set_script: Object's and Node's, and those of `base` (the engine class the creator's class extends);
   * for a node of the scene tree (`base` null), those of every class that is a Node (a Tween in Godot 3).
   */
  #inheritedDispatch(base: string | null): ReadonlyArray<string> {
    const key = base ?? "(node)"
    const cached = this.#inherited.get(key)
    if (cached !== undefined) return cached
    const names = new Set<string>(["set_script"])
    const applies = (d: DispatchEntry): boolean => d.class === "Object" || d.class === "Node" || (base === null ? d.node === true : d.class === base)
    for (const [name, entries] of this.#dispatch.byName) if (entries.some((d) => (d.kind === "method" || d.kind === "property") && d.name !== undefined && applies(d))) names.add(name)
    const list = [...names].sort()
    this.#inherited.set(key, list)
    return list
  }

  /** The engine class a class of the pack extends at the end of its chain (`extends Tween`), or null. */
  #engineBase(ref: ClassRef): string | null {
    return this.#model.engineBase(ref)
  }

  /**
   * A property path named by a value that is not constant (`set_indexed(k, v)`, a tween's property): it
   * can name `source_code` of a script the object holds (`script:source_code` on every object) or
   * `allow_object_decoding` of a peer one holds. Strings it is known to possibly be are judged as written;
   * beyond those, a value that may be text can be code (script-source-code), one the engine may take for
   * true can turn decoding on (object-decoding-flag); an object or false can be neither.
   */
  #dynamicPath(recv: Val, path: Val, value: Val, pos: Pos, matched: string, written?: Written): void {
    // A path of one part names a property of the object itself, which may be a RichTextLabel's BBCode.
    this.#richTextWrite(recv, path, value, pos, matched, written)
    for (const k of knownStrings(path)) {
      this.#pathWrite(recv, k, pos, matched, value)
    }
    const text = value.t === "str" || value.t === "unknown"
    const truthy = value.t === "unknown" || (value.t === "lit" && truthOf(value) !== false) || (value.t === "str" && truthOf(value) !== false)
    const fix = "Name the property path with a constant string (set_indexed(\"position:x\", v))"
    for (const [property, applies] of [["source_code", text], ["allow_object_decoding", truthy && !text]] as const) {
      if (!applies) continue
      for (const entry of this.#idx.assignments.get(property) ?? []) {
        this.#hit(entry, pos, matched, { note: `the property path is not a constant, so it can name ${property} of an object the target holds${property === "source_code" ? " (every object's own script: script:source_code)" : ""}`, fix })
      }
    }
  }
}

/** Text whose brackets all close within it: no `]` before a `[`, no `[` left open, no [img]/[font] path running to its end. */
const closedPiece = (text: string): boolean => {
  let open = false
  for (const c of text) {
    if (c === "[") {
      if (open) return false
      open = true
    } else if (c === "]") {
      if (!open) return false
      open = false
    }
  }
  const lower = text.toLowerCase()
  return !open && Math.max(lower.lastIndexOf("[img"), lower.lastIndexOf("[font")) <= Math.max(lower.lastIndexOf("[/img"), lower.lastIndexOf("[/font"))
}
