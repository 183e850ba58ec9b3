// What an expression's value can be, with the whole pack in view (see values.ts for what is known of a
// value). Values are followed flow-insensitively: a local holds any of the values assigned to it
// anywhere in its function; a member any of the values its class gives it, and anything else (it can
// be set from elsewhere); a parameter any of the arguments its class's own calls pass, and anything
// else; a call of one of the pack's functions any value it returns. Dispatch by a constant name is
// followed to the method it reaches (`Engine.call("get_singleton", "OS")` is OS), bound methods to
// their calls (`funcref(Engine, "get_singleton").call_func("OS")` too). Evaluation has no effects: one
// Evaluator serves every script of a pack.
import { isNumeric, parseFormat, takesValue, textAfterLast } from "./formatSpecs.ts"
import { builtinReturnsNumber, returnsNumber } from "./engineNumberReturns.ts"
import { extensionOf, SCRIPT_EXTENSIONS } from "../pack/packPath.ts"
import { nodePathText } from "../resource/nodePath.ts"
import { type Expr, type FunctionDecl, type Stmt, type TypeRef, type VarDecl, valuesAtKey } from "./ast.ts"
import { type CallerIndex, callerIndex, type CallerSite, CONNECTION_LISTS, namedByString, stringsNaming } from "./callers.ts"
import { type ParamOf, reachingArgs } from "./reachingCalls.ts"
import { containerUnchanged, entryKept } from "./containerUse.ts"
import { connectionArgs, handlerArgs } from "./signals.ts"
import { codeLinkMetas, type DataBbcode, isRichTextLabel } from "./linkMetas.ts"
import { bbcodePieces, bbcodeTemplate, type HelperReturns, LINK_DATA, PACK_DATA, type PackDataParts, type PieceLocal, TRANSLATED } from "./bbcodeTemplate.ts"
import { engineSignalArgs, isEngineNodeClass, isEngineProperty } from "./engineScriptNames.ts"
import { JSON_DATA, jsonCall, parsedTexts, partPut } from "./jsonData.ts"
import type { DispatchIndex } from "./engineDispatch.ts"
import { IMPLICIT_BASE, reachesBeyondBase } from "./engineMethods.ts"
import { deepCopy, deepCopyReadsLeaves, madeByCopy, onlyEntriesRead } from "./copiedContainers.ts"
import { forEachChild, forEachExpr, isAssignment, returnedExprs } from "./exprWalk.ts"
import { COMPOUND_WRITE, MemberWrites } from "./memberWrites.ts"
import { paramsGivenBack } from "./givenBack.ts"
import { keepsArgument, keepsProperty } from "./engineKeepers.ts"
import { STALE_SLOT } from "./blockScopes.ts"
import { confined, fromAnywhere, holdsNothing, isPackData, packDataWrittenInto, writesIntoData, writesIntoRunTimeData } from "./packDataMembers.ts"
import { isGlobalFunction } from "./engineClasses.ts"
import { type ClassRef, DATA_ATTACHERS, type NamedWrite, type PackModel, preloadPath, sameClass } from "./packModel.ts"
import { memberKey, sealedCandidate, sealedMembers, type SealedKind } from "./sealedMembers.ts"
import { isNode } from "./callSite.ts"
import { packLookup } from "../pack/packPath.ts"
import type { PolicyIndex } from "./PolicyIndex.ts"
import { type FoldArg, foldStringMethod, formatString, stringOfArg } from "./stringFold.ts"
import { foldArg, formatOf, strOf } from "./builtStrings.ts"
import { type Grammar, isNodePathFlavor } from "./tokenizer.ts"
import { readValue } from "./packDataReads.ts"
import { keepsLineEdit, mayBeSpinBox, reachesLineEdit } from "./spinBoxText.ts"
import { isObjectOfUnknownScript, membersOfAnyClass } from "./anyClassMember.ts"
import { type Getter, getterOf } from "./memberGetter.ts"
import { ANY_OBJECT, asLineEdit, isBuiltInValue, commonStart, holdsNoPack, isNumberLike, startOf, dataPart, derived, endOf, HOST_DATA, readFrom, withElements, withSel, stepInto, MAX_CLASSES, externalParts, elementOf, JSON_COPY, JSON_PART, parsedFrom, mayHoldScript, exactInt, EXTERNAL, godotTruth, instsOf, isAnyObject, isExternal, isLineEdit, isPlainData, join, joinAll, knownStrings, LIT, MAX_ALTERNATIVES, mayBeScript, NULL, numberLiteral, numbersBetween, SCRIPT_CLASSES, SDK_CALLS, strs, UNKNOWN, UNSEEN_CALLS, type Val, VALUE_TYPES } from "./values.ts"

export interface Local {
  readonly type: TypeRef | null
  /** Declared with `:=` (typed by its value). */
  readonly inferred?: true
  readonly inits: Array<Expr>
  /** Values appended by compound assignments (`name += part`). */
  readonly appends: Array<Expr>
  /** Values put into the container the variable holds (`name.append(v)`, `name[k] = v`): only whether one may be a SpinBox's LineEdit is kept. */
  puts?: Array<Expr>
  /** Values written into parts of that container (`name["a"]["b"] = v`, `name["a"].append(v)`): only whether one is not JSON's is kept. */
  parts?: Array<Expr>
  /** Those of `parts` written below the container's own entries (`name["a"]["b"] = v`, `name["a"].append(v)`): what a shallow copy shares. */
  innerParts?: Array<Expr>
  /** A loop variable: a value the analysis cannot follow, but an element of one of `loopsOver`. */
  opaque: boolean
  /**
   * The containers `for` loops take this variable's values from: every loop of the function with this name (and a
   * `var` or parameter of the name too, whose values it then also holds), as a name may be reused block by block.
   */
  loopsOver?: Array<Expr>
  /** A parameter: it takes any argument; those of the class's own calls of its function (`fn`) are known. */
  readonly param?: ParamOf
  /** A parameter's default value (`slot: int = up`), which Godot 3 stores as it is, whatever the parameter's type. */
  readonly defaultValue?: Expr
  value?: Val
  evaluating?: boolean
  /** While it is evaluated: what a use of it inside its own values gives (Evaluator #reentry). */
  reentry?: Val
}

/** A literal part of a constant table, with the function (the class's own) it is evaluated in. */
interface TablePart {
  readonly e: Expr
  readonly in: Fn
}

/** How deep #constantParts follows reads of reads (`T[a][b]…`, locals given them). */
const MAX_TABLE_DEPTH = 16

export interface Fn {
  readonly cls: ClassRef
  readonly locals: Map<string, Local>
  readonly parent: Fn | null
  readonly memo: WeakMap<Expr, Val>
  /** Locals on which `.reload()` is called in the function (a script whose source may have been changed). */
  readonly reloaded: Set<string>
  /** Locals on which a method is called by a name (`s.call("reload")`): the name's expression, for `reload` by dispatch. */
  readonly dispatched: Array<{ readonly name: string; readonly method: Expr }>
  /** The function's statements (none for a class's own expressions). */
  readonly body: ReadonlyArray<Stmt>
  /**
   * Where a local's container may reach another name (`var e = d`, `var o = d["o"]`, `fill(d)`): what a write through
   * that name changes is the same Array or Dictionary (#changedElsewhere).
   */
  readonly reaches?: Array<{ readonly from: string; readonly to: string; readonly shallow?: true } | { readonly from: string; readonly callee: string; readonly index: number; readonly member: boolean } | { readonly from: string; readonly escapes: true }>
}

/** The memo of an expression being evaluated (Evaluator.eval): a value not known, told apart from one computed. */
const IN_PROGRESS: Val = { t: "unknown" }

/** Any value at all: data read at run time from anywhere, a path of the machine, any object (OS included). */
const STALE_VALUE: Val = { t: "unknown", external: true, host: true, any: true }

/** Declared types whose elements the parser gives no type (an index of them is checked when stored in a typed variable). */
const CONTAINER_DECLARATIONS: ReadonlySet<string> = new Set(["Array", "Dictionary"])

/** Engine methods and built-in functions that return a Variant (any value): the parser gives their calls no type. */
const VARIANT_RETURNS: ReadonlySet<string> = new Set(["get", "get_value", "get_meta", "parse_json", "str2var", "bytes2var", "get_var", "call", "callv", "call_deferred", "get_indexed", "pop_front", "pop_back", "front", "back"])

/** Methods whose result is data read at run time: a path or object built from it comes from outside the pack. */
const READS = new Set([
  "get_as_text", "get_line", "get_buffer", "get_csv_line", "get_pascal_string", "get_var", "get_string", "get_8", "get_16", "get_32", "get_64",
  "get_utf8_string", "get_file_as_string", "get_file_as_bytes", "get_packet", "get_data", "get_partial_data", "get_cmdline_args", "get_cmdline_user_args",
  "get_environment", "get_clipboard", "clipboard_get", "get_value", "get_available_packet_count", "get_string_from_utf8", "get_string_from_ascii",
  // A folder's listing: the names of what is on the disk.
  "get_next", "get_files", "get_directories",
])

/** Of those, what may be any path of the machine: the environment (HOME, XDG_*), the command line. */
const HOST_READS: ReadonlySet<string> = new Set(["get_environment", "get_cmdline_args", "get_cmdline_user_args"])

export { SCRIPT_CLASSES }

/** Calling a bound method: `f.call_func(a)`, `c.call(a)`; and with the arguments in one array. */
export const INVOKE: ReadonlySet<string> = new Set(["call", "call_func", "call_deferred", "call_thread_safe"])
export const INVOKE_ARRAY: ReadonlySet<string> = new Set(["callv", "call_funcv"])

/** Object's own methods that call a method of the receiver by name, with the arguments that follow (or in an array for callv). */
const OBJECT_DISPATCH: ReadonlySet<string> = new Set(["call", "call_deferred", "callv", "call_thread_safe", "call_deferred_thread_group"])

/** Declared types that say nothing about which object a variable holds. */
const UNINFORMATIVE_TYPES: ReadonlySet<string> = new Set(["Object", "Variant", "Reference", "RefCounted", "String", "StringName", "NodePath"])

/**
 * Containers: a variable typed as one still holds what it was given, so data read at run time keeps being that
 * (`var items: Dictionary = parse_json(text from user://)`, then `load(items["icon"])`). Only the run-time data of
 * what it is given is kept (a parameter's unknown callers do not make it an object of any class).
 */
const CONTAINER_TYPES: ReadonlySet<string> = new Set(["Dictionary", "Array", "PoolStringArray", "PackedStringArray"])
const isContainerType = (v: Val): boolean => v.t === "inst" && CONTAINER_TYPES.has(v.cls)
/** What a variable typed as `typed` holds when given `given`: the type, or for a container the run-time data it was given. */
const typedHolding = (typed: Val, given: ReadonlyArray<Val>): Val => {
  // An Array only ever given folder listing entries (`var files := []`, `files.append(name)`) holds them (values.ts
  // listItems), and an empty start holds what is put into it (`var cards := {}`, `cards[c["id"]] = c`: withElements).
  const listed = given.length > 0 ? joinAll(given) : null
  if (isContainerType(typed) && listed?.t === "unknown" && (listed.listItems === true || listed.empty === true)) return listed
  const read = isContainerType(typed) ? given.filter(isExternal) : []
  return read.length === 0 ? typed : joinAll(read)
}

/** The value a member of one of those types (or untyped) holds before anything is assigned: "" for the string types, null for the others. */
const TEXT_TYPES: ReadonlySet<string> = new Set(["String", "StringName", "NodePath"])
const zeroValue = (t: TypeRef | null): Val => (t !== null && t.names.length === 1 && TEXT_TYPES.has(t.names[0] ?? "") ? strs([""]) : NULL)

/** Methods that give a path outside the pack (the executable's folder, the user's data folder on disk, an absolute form of a path). */
const ABSOLUTE_PATHS: ReadonlySet<string> = new Set(["get_executable_path", "get_data_dir", "get_config_dir", "get_cache_dir", "get_temp_dir", "get_system_dir", "globalize_path"])

/** `OS.get_user_data_dir()`: the folder user:// names, so a path built on it is a user:// path (see values.ts, `dataDir`). */
const USER_DATA_DIR: Val = { t: "unknown", prefix: "user://", dataDir: true }

/** Methods that give a node of the scene tree (an engine node or one with a script of the pack, never a dangerous singleton). */
const GIVES_NODE: ReadonlySet<string> = new Set(["get_node", "get_node_or_null", "get_parent", "get_child", "find_node", "find_child", "find_parent", "get_owner", "get_root", "get_current_scene", "get_edited_scene_root"])

/** Path methods whose result stays under the root (scheme or drive) of the path they are called on. */
const PATH_KEEPING: ReadonlySet<string> = new Set(["get_base_dir", "simplify_path", "trim_suffix", "get_basename"])


/** Fields of a connection that are names or numbers, never objects. */
const CONNECTION_NAMES: ReadonlySet<string> = new Set(["signal_name", "method_name", "flags"])

/** Methods that make an instance of a scene (PackedScene) or, given a class name, of a class (ClassDB). */
const INSTANTIATE: ReadonlySet<string> = new Set(["instance", "instantiate"])

/** JavaScript/JavaScriptBridge methods that give a JavaScriptObject. */
const JS_OBJECTS: ReadonlySet<string> = new Set(["create_object", "get_interface", "create_callback"])

/** A member sealed as plain data (sealedMembers.ts), while it is assumed so. */
const PLAIN_DATA: Val = { t: "unknown", plain: true }

/** The root of an instanced scene: a node. */
const NODE_INSTANCE: Val = { t: "inst", cls: "Node" }

/** Container methods that give one of its elements. */
/** Engine methods that give an Array of nodes and nothing else (Node, SceneTree; 3.x and 4.x names). */
const GIVES_NODES: ReadonlySet<string> = new Set(["get_children", "get_nodes_in_group", "find_nodes", "find_children"])

/** Whether a method name may be one of `names`: one of its strings, or a start of one; `open` answers for the rest. */
const mayNameOneOf = (v: Val, names: ReadonlySet<string>, open: (v: Val) => boolean): boolean =>
  v.t === "str" ? v.values.some((n) => names.has(n)) : v.t === "unknown" && v.prefix !== undefined ? [...names].some((n) => n.startsWith(v.prefix ?? "")) : open(v)

const ONE_ARGUMENT_ATTACHERS: ReadonlySet<string> = new Set(["set_script", "call", "call_deferred", "callv"])

/**
 * Whether the name a dispatch with one argument calls may be set_script's (or a dispatcher's relaying it): one of those
 * names, a start of one, or a name read at run time from outside the pack. A parameter's name not followed, or one
 * read from the pack's data (judged where it is read: dispatchData), does not count: a hunt's quest rewards
 * `call(q.reward, q.reward_arg)` would make every pack with such a call one that attaches scripts.
 */
const mayNameAttacher = (v: Val): boolean => mayNameOneOf(v, ONE_ARGUMENT_ATTACHERS, (x) => x.t === "unknown" && x.external === true && x.packData === undefined)

/**
 * Whether the name a dispatch with a property and a value after it calls may be a setter's (or set_script's, or a
 * dispatcher's: DATA_ATTACHERS): anything but strings, or a start, none of those names has (`OS.call(holder.M, "touch",
 * [m])` with `M` "get_name" sets nothing, a hundred-and-twentieth red team's control pack).
 */
const mayNameSetter = (v: Val): boolean => mayNameOneOf(v, DATA_ATTACHERS, () => true)
const NODE_VAL: Val = { t: "inst", cls: "Node" }
/** How many locals deep `var b = a` chains are followed to a list of nodes. */
const MAX_NODE_LIST_DEPTH = 4

/** How many helpers deep BBCode a helper returns is followed (helperReturns: one calling another, or itself). */
const MAX_HELPER_DEPTH = 4

const GIVES_ELEMENT: ReadonlySet<string> = new Set(["front", "back", "pop_back", "pop_front", "pop_at", "pick_random", "get"])

/** Methods whose result holds what their receiver holds (`weakref(o).get_ref()`, `Array.duplicate()`). */
const PASS_THROUGH: ReadonlySet<string> = new Set(["get_ref", "front", "back", "pop_back", "pop_front", "pick_random", "get_object", "values", "keys"])

/**
 * Calls that hand a container they are given to code the analysis does not follow (by name, bound, emitted, as a
 * comparator's receiver) or put it into another container.
 */
const ESCAPES_BY: ReadonlyMap<string, number> = new Map([
  ["call", 1], ["callv", 1], ["call_deferred", 1], ["call_func", 0], ["call_funcv", 0], ["connect", 3], ["emit_signal", 1], ["sort_custom", 0], ["bsearch_custom", 0],
  ["add_do_method", 2], ["add_undo_method", 2], ["interpolate_callback", 3], ["interpolate_deferred_callback", 3], ["start", 2], ["set", 1], ["set_deferred", 1],
  ["set_indexed", 1], ["set_meta", 1], ["call_group", 2], ["call_group_flags", 3], ["propagate_call", 1], ["append", 0], ["push_back", 0], ["push_front", 0],
  ["insert", 1], ["append_array", 0], ["fill", 0], ["merge", 0], ["bind", 0], ["bindv", 0], ["resume", 0],
  ["add_do_property", 2], ["add_undo_property", 2], ["set_group", 2], ["set_group_flags", 3],
  // A built-in that builds an object of a script with the values of a literal (a fifty-fourth red team's `dict2inst({…,
  // "v": d})`); the engine methods taking any number of arguments are keepers (engineKeepers.ts).
  ["dict2inst", 0], ["dict_to_inst", 0],
])

/**
 * The string method whose result the judges of the pack's data see among its strings (packDataFiles.ts dataStrings holds
 * each string with its edges stripped). Other parts (`left`, `substr`, `trim_suffix`) may end in a tag left open (`[im`
 * cut from `[img]`, a forty-sixth red team's), which no whole string of the file ends in.
 */
const STRIPPED = "strip_edges"

/** Methods that put their last argument into the container they are called on. */
const PUTS: ReadonlySet<string> = new Set(["append", "push_back", "push_front", "insert", "append_array", "fill"])

/** `name.append(v)`, `name[k] = v`: the container's name and the value put into it, or null. */
const putInto = (e: Expr): { readonly name: string; readonly expr: Expr } | null => {
  // `d.merge(other)` puts other's entries in (its second argument is whether to overwrite).
  if (e.k === "call" && e.callee.k === "member" && e.callee.obj.k === "id" && e.callee.name === "merge" && e.args[0] !== undefined) return { name: e.callee.obj.name, expr: e.args[0] }
  if (e.k === "call" && e.callee.k === "member" && e.callee.obj.k === "id" && PUTS.has(e.callee.name)) {
    const last = e.args[e.args.length - 1]
    return last === undefined ? null : { name: e.callee.obj.name, expr: last }
  }
  // `name[k] += v` too: the element becomes what it held joined with v (a forty-fourth red team's `lines[0] += "[img]…"`);
  // `%=` formats a String (a forty-fifth red team's); `-=`, `*=` and the like give a number (Godot 3 has them for no text).
  if (e.k === "bin" && (e.op === "=" || e.op === "+=" || e.op === "%=") && e.left.k === "index" && e.left.obj.k === "id") return { name: e.left.obj.name, expr: e.right }
  // `name.k = v`: Godot 3 sets the key "k" of a Dictionary (a fifty-first red team's `out.k = d`; an object's property otherwise).
  return e.k === "bin" && e.op === "=" && e.left.k === "member" && e.left.obj.k === "id" ? { name: e.left.obj.name, expr: e.right } : null
}

/** A shallow copy of a container (`d.duplicate()`, `d.slice(…)`; not `duplicate(true)`): its entries are its own, what they hold is shared. */
const shallowCopyOf = (e: Expr): boolean =>
  e.k === "call" && e.callee.k === "member" && (e.callee.name === "duplicate" || e.callee.name === "slice") && !(e.callee.name === "duplicate" && e.args[0]?.k === "const" && e.args[0].value === true)

/**
 * Whether a write (partPut) reaches below the entries of the container its variable holds: `c["a"]["b"] = v`,
 * `c["a"].k = v`, `c["a"].append(v)`; not `c["a"] = v`, `c.a = v` (an entry put), `c.append(v)`.
 */
const writesBelowEntries = (e: Expr): boolean => {
  const depth = (x: Expr): number => (x.k === "index" || x.k === "member" ? 1 + depth(x.obj) : 0)
  if (e.k === "bin" && (e.left.k === "index" || e.left.k === "member")) return depth(e.left) >= 2
  return e.k === "call" && e.callee.k === "member" && depth(e.callee.obj) >= 1
}

/** `name.k = v`: a put of v under the key "k" (putInto), not a write into a part of what `name` holds. */
const isKeyByName = (e: Expr): boolean => e.k === "bin" && e.op === "=" && e.left.k === "member" && e.left.obj.k === "id"

/**
 * `name[k] = v`: the key put into the container with the value (a Dictionary keeps the very object it is given as a key,
 * and `keys()` hands it back: a thirty-eighth red team's `save[Global.items] = 0`); null for a constant key.
 */
const keyPut = (e: Expr): { readonly name: string; readonly expr: Expr } | null =>
  e.k === "bin" && e.op === "=" && e.left.k === "index" && e.left.obj.k === "id" && e.left.index.k !== "str" && e.left.index.k !== "num" ? { name: e.left.obj.name, expr: e.left.index } : null

/** A script, or a value that may be one (a member or parameter also given a script, an element of a container of scripts). */
export const isScriptLike = mayBeScript

/** Statically, the 8 arguments of a call whose arguments are out of sight (a signal's, a funcref's). */
export const opaqueArgs = (at: Expr["at"]): ReadonlyArray<Expr> => Array.from({ length: 8 }, () => ({ k: "error", at }) as Expr)

/** The arguments of `callv(name, args)`: the array's items, or its elements read one by one. */
export const arrayArgs = (e: Expr | undefined, at: Expr["at"]): ReadonlyArray<Expr> => {
  if (e === undefined) return []
  if (e.k === "array") return e.items
  // A number, a string or a constant is no array: the engine refuses the call.
  if (e.k === "num" || e.k === "str" || e.k === "const") return []
  return Array.from({ length: 8 }, (_, i) => ({ k: "index", obj: e, index: { k: "num", text: String(i), at }, at }) as Expr)
}

/** What the pack's dispatch by name can reach: exact names, names with a known start, or anything. */
interface DispatchNames {
  readonly all: boolean
  readonly exact: ReadonlySet<string>
  /** The exact names given elsewhere than as the literal method of a Godot 3 `connect` (callers.ts `connectLiterals`). */
  readonly elsewhere: ReadonlySet<string>
  readonly starts: ReadonlyArray<string>
}

const refKey = (ref: ClassRef): string => `${ref.script}#${ref.inner.join(".")}`

interface ClassFacts {
  /** Assignments to members of the class in its own functions (`x = v`, `self.x = v`). */
  readonly assigned: Map<string, Array<{ readonly expr: Expr; readonly fn: Fn; readonly compound: boolean }>>
  /** Calls of functions by name in the class's own functions (`f(a)`, `self.f(a)`). */
  readonly calls: Map<string, Array<{ readonly args: ReadonlyArray<Expr>; readonly fn: Fn }>>
  /** Names `reload()` is called on in any of the class's functions (a member holding a script). */
  readonly reloaded: Set<string>
  /** Values put into members' containers (`list.append(v)`, `list[k] = v`), by member. */
  readonly puts: Map<string, Array<{ readonly expr: Expr; readonly fn: Fn }>>
  /** Values written into parts of members' containers (`d["a"]["b"] = v`), by member. */
  readonly parts: Map<string, Array<{ readonly expr: Expr; readonly fn: Fn }>>
}

/** packDataMembers.ts's answer for each pack model. */
const WRITES_INTO_DATA = new WeakMap<PackModel, boolean>()
/** Per pack, whether a member's pack data may be changed by its class's code (Evaluator #memberChangedElsewhere). */
const MEMBER_DATA_CHANGED = new WeakMap<PackModel, Map<string, boolean>>()
/** Per pack: the pack's data files some code writes text into (#packFilesWritten). */
const PACK_FILES_WRITTEN = new WeakMap<PackModel, ReadonlySet<string>>()
/** Per pack: whether some function writes text into a container that may be data read at run time (#writesIntoHandedOn). */
const WRITES_INTO_HANDED_ON = new WeakMap<PackModel, boolean>()
/** Per pack, whether it keeps its Arrays of folder listing entries (Evaluator #listingKept). */
const LISTINGS_KEPT = new WeakMap<PackModel, boolean>()
/** Per pack, grammar and member closing: the names the pack's dispatches may give (Evaluator #dispatchNames). */
const DISPATCH_NAMES = new WeakMap<PackModel, Map<string, DispatchNames>>()
/** How many times the dispatches' names are folded again, growing, before every function is taken to be open. */
const FIXPOINT_ROUNDS = 6

/** `a` with `b`'s names too: `a` itself when `b` adds none. */
const unionNames = (a: DispatchNames, b: DispatchNames): DispatchNames => {
  const adds = (from: ReadonlySet<string>, to: ReadonlySet<string>): boolean => [...from].some((x) => !to.has(x))
  const newStarts = b.starts.filter((x) => !a.starts.includes(x))
  if (!adds(b.exact, a.exact) && !adds(b.elsewhere, a.elsewhere) && newStarts.length === 0) return a
  return { all: false, exact: new Set([...a.exact, ...b.exact]), elsewhere: new Set([...a.elsewhere, ...b.elsewhere]), starts: [...a.starts, ...newStarts] }
}

/**
 * Forgets what was worked out once per pack (the maps above): answers found while the pack's own `attachesAtRunTime`
 * was still being worked out took it to be yes (PackModel), and must not outlive that.
 */
export const forgetPackAnswers = (model: PackModel): void => {
  for (const cache of [WRITES_INTO_DATA, MEMBER_DATA_CHANGED, PACK_FILES_WRITTEN, WRITES_INTO_HANDED_ON, LISTINGS_KEPT, DISPATCH_NAMES]) cache.delete(model)
  model.forgetAnswersWhileAttaching()
}
/** Per function body: whether it may edit one of its constant slots in place (editsConstantSlot). */
const CONSTANT_SLOTS_EDITED = new WeakMap<ReadonlyArray<Stmt>, boolean>()

/**
 * Whether a function calls 3.x's in-place `erase` on something that is no variable (`"…".erase(0, 1)`, `(A + B).erase(…)`):
 * the engine keeps a function's string literals and constant expressions in slots shared by equal values, and erase
 * edits the slot, so every later read of that text in the function reads the edited one (a thirty-fourth red team's).
 */
const editsConstantSlot = (body: ReadonlyArray<Stmt>): boolean => {
  const cached = CONSTANT_SLOTS_EDITED.get(body)
  if (cached !== undefined) return cached
  let found = false
  forEachExpr(body, (e) => {
    if (e.k === "call" && e.callee.k === "member" && e.callee.name === "erase" && !VARIABLE_KINDS.has(e.callee.obj.k)) found = true
  })
  CONSTANT_SLOTS_EDITED.set(body, found)
  return found
}

/**
 * Text code of the pack may change in place (`p.erase(0, 7)`, `p[i] = c`) is any text the pack chose, not the values it
 * was given: data of no known kind. An edit changes a String's characters or a container's entries, so plain data stays
 * plain data (`settings[k] = v` on a Dictionary).
 */
const editedText = (value: Val): Val => {
  const text = value.t === "str" || (value.t === "unknown" && (value.prefix !== undefined || value.suffix !== undefined || value.digitsOnly === true || value.some !== undefined))
  if (!text) return value
  const edited = join(value, EXTERNAL)
  return isPlainData(value) && edited.t === "unknown" ? { ...edited, plain: true } : edited
}

/** Expressions that read a variable (whose edits in place PackModel.mutatedInPlace follows by name). */
const VARIABLE_KINDS: ReadonlySet<Expr["k"]> = new Set(["id", "member", "index", "self"])

/** An empty start (`{}`, `[]`, null), or an expression `ok` accepts. */
const holdsNothingOr = (e: Expr | null, ok: (e: Expr) => boolean): boolean => holdsNothing(e) || (e !== null && ok(e))

const push = <V>(map: Map<string, Array<V>>, key: string, value: V): void => {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}

/**
 * The texts a normalised NodePath stands for: its String (`/execute`), and where it is one name with no subnames, that
 * name alone, which it is as a StringName (a method or signal name: NodePath::get_sname; a ninety-seventh red team's
 * `OS.callv(@"/execute", …)`).
 */
const nodePathNames = (text: string): ReadonlyArray<string> => {
  const bare = /^\/[^/:]+$/.test(text) ? text.slice(1) : null
  return bare === null ? [text] : [text, bare]
}

export class Evaluator {
  readonly model: PackModel
  readonly idx: PolicyIndex
  readonly grammar: Grammar
  readonly #fns = new WeakMap<FunctionDecl, Fn>()
  readonly #classFns = new Map<string, Fn>()
  readonly #facts = new Map<string, ClassFacts>()
  readonly #members = new Map<string, Val | null>()
  readonly #returns = new WeakMap<FunctionDecl, Val | null>()

  readonly #dispatch: DispatchIndex | null
  #callers: CallerIndex | null = null
  #named: DispatchNames | null = null
  #naming = false
  readonly #closed = new Map<string, boolean>()
  readonly #connected = new Map<string, boolean>()
  /** Whether every emission of a signal the pack writes is by a constant name (#connectedOnly). */
  #emissionsInSight: boolean | null = null
  /** The metas a RichTextLabel's `meta_clicked` may pass (linkMetas.ts), null when not all known; undefined until asked. */
  #linkMetas: ReadonlyArray<string> | null | undefined = undefined
  /** With #linkMetas: BBCode of the pack's own data among them, whose metas checks/shellData.ts judges with its files. */
  #linkMetaData: ReadonlyArray<DataBbcode> = []

  /** Whether a member whose every writer is in sight holds only their values (memberWrites.ts); off in the Evaluator that finds them. */
  readonly #closesMembers: boolean
  #writes: MemberWrites | null = null

  constructor(model: PackModel, idx: PolicyIndex, grammar: Grammar, dispatch: DispatchIndex | null = null, closesMembers = true) {
    this.model = model
    this.idx = idx
    this.grammar = grammar
    this.#dispatch = dispatch
    this.#closesMembers = closesMembers
    // Whether constants are followed depends on what closed functions' parameters are given (constantReads.ts).
    if (dispatch !== null && model.closedCalls) model.useCallers(() => this.#callersIndex())
  }

  /**
   * The engine base of pack class `ref` when a call of `name` on self (or a value that may be self) may reach another
   * engine class's method (engineMethods.ts reachesBeyondBase: self may be any engine object of a subclass of that
   * base, a script attached with set_script); null when the class or its base has the method.
   */
  selfBeyondBase(ref: ClassRef, name: string): string | null {
    if (this.#dispatch === null || this.model.defines(ref, name)) return null
    const base = this.model.engineBase(ref) ?? (this.model.extendsNothing(ref) ? IMPLICIT_BASE[this.grammar] : null)
    if (base === null || !this.model.isEngineName(base)) return null
    return reachesBeyondBase(this.idx, this.#dispatch, this.grammar, base, name) ? base : null
  }

  // ---- callers ----

  /** Whether only the calls the pack's scripts write reach the function `name` (callers.ts). */
  #isClosed(name: string): boolean {
    if (!this.model.closedCalls || this.#dispatch === null || this.#naming) return false
    const cached = this.#closed.get(name)
    if (cached !== undefined) return cached
    const index = this.#callersIndex()
    let closed = !index.openAll && !index.open.has(name) && !namedByString(index, name)
    if (closed) {
      const named = this.#dispatchNames(index)
      closed = !named.all && !named.exact.has(name) && !named.starts.some((p) => name.startsWith(p))
    }
    this.#closed.set(name, closed)
    return closed
  }

  #callersIndex(): CallerIndex {
    this.#callers ??= callerIndex(this.model.scripts.values(), this.grammar, this.#dispatch as DispatchIndex, this.model.dataMethods, (ref, name) => this.model.sdkMayCall(ref, name))
    return this.#callers
  }

  /**
   * The names every dispatch API of the pack is given, folded once (no function counts as closed meanwhile).
   * They are folded by an evaluator of their own: this one may be in the middle of evaluating a name's very
   * expression (`call("use_" + effect)` asks whether `effect`'s function is closed), whose memo then holds
   * only its placeholder, and the closed-or-open values folded with every function open must not stay in its memos.
   */
  #dispatchNames(index: CallerIndex): DispatchNames {
    if (this.#named !== null) return this.#named
    const key = `${this.grammar}:${this.#closesMembers}`
    const known = DISPATCH_NAMES.get(this.model)?.get(key)
    if (known !== undefined) return (this.#named = known)
    const byKey = DISPATCH_NAMES.get(this.model) ?? new Map<string, DispatchNames>()
    DISPATCH_NAMES.set(this.model, byKey)
    const open = this.#foldNames(index, null)
    this.#named = open
    if (!open.all) return open
    // A name that is not known with every function open (a helper's parameter given an entry, `make_button(item)` then
    // `connect("pressed", self, item["buy"])`: a seventy-first hunt's shop) is worked out again taking the dispatches to
    // reach only the names found so far, from none, until they reach no other (a least fixpoint: up to the first
    // dispatch that named anything else, every other function was reached by the calls in sight only, so that dispatch
    // named one of them: none did). Meanwhile other evaluators take every function to be open.
    byKey.set(key, open)
    let assumed: DispatchNames = { all: false, exact: new Set(), elsewhere: new Set(), starts: [] }
    for (let round = 0; round < FIXPOINT_ROUNDS; round++) {
      const found = this.#foldNames(index, assumed)
      if (found.all) break
      const grown = unionNames(assumed, found)
      if (grown === assumed) {
        byKey.set(key, assumed)
        return (this.#named = assumed)
      }
      assumed = grown
    }
    return open
  }

  /**
   * The names every dispatch API of the pack is given, folded by an evaluator of its own (this one may be in the middle
   * of evaluating a name's very expression, `call("use_" + effect)`, whose memo then holds only its placeholder): with
   * every function open (`assumed` null), or taking the dispatches to name only `assumed`.
   */
  #foldNames(index: CallerIndex, assumed: DispatchNames | null): DispatchNames {
    const namer = new Evaluator(this.model, this.idx, this.grammar, this.#dispatch, this.#closesMembers)
    if (assumed === null) namer.#naming = true
    else namer.#named = assumed
    namer.#callers = index
    let all = false
    const exact = new Set<string>()
    const elsewhere = new Set<string>()
    const starts: Array<string> = []
    for (const site of index.names) {
      const fn = namer.#siteFn(site.at)
      // A name resolved on a dangerous engine object (OS.call(x)) reaches the engine's methods, never the pack's.
      if (site.recv !== null && namer.eval(site.recv, fn).t === "guard") continue
      const v = namer.eval(site.name, fn)
      if (v.t === "str") {
        for (const x of v.values) exact.add(x)
        if (!index.connectLiterals.has(site.name)) for (const x of v.values) elsewhere.add(x)
      } else if (v.t === "unknown" && v.prefix !== undefined && v.prefix !== "") starts.push(v.prefix)
      else if (v.t !== "lit") all = true
      if (all) break
    }
    return { all, exact, elsewhere, starts }
  }

  #siteFn(at: Omit<CallerSite, "args">): Fn {
    return at.fn === null ? this.classFn(at.cls) : this.fnOf(at.cls, at.fn, null, at.method)
  }

  /**
   * The argument expressions at `index` of every call of a closed function `name`, each with where it is evaluated;
   * null when the function is open, or a call leaves the argument out and no default (`byDefault`, evaluated in the
   * function itself) is given for it.
   */
  closedArgExprs(name: string, index: number, byDefault: { readonly expr: Expr; readonly fn: Fn } | null = null): ReadonlyArray<{ readonly expr: Expr; readonly fn: Fn }> | null {
    if (!this.#isClosed(name)) return null
    const out: Array<{ readonly expr: Expr; readonly fn: Fn }> = []
    for (const site of this.#callersIndex().calls.get(name) ?? []) {
      const arg = site.args[index]
      // A call leaving the parameter out gives it its default, evaluated in the function itself.
      if (arg === undefined && byDefault === null) return null
      out.push(arg === undefined && byDefault !== null ? byDefault : { expr: arg as Expr, fn: this.#siteFn(site) })
    }
    return out
  }

  /** The arguments at `index` of every call of a closed function `name`; null when the function is open. */
  #closedArgs(name: string, index: number): ReadonlyArray<Val> | null {
    if (!this.#isClosed(name)) return null
    return (this.#callersIndex().calls.get(name) ?? []).flatMap((site) => {
      const arg = site.args[index]
      return arg === undefined ? [] : [this.eval(arg, this.#siteFn(site))]
    })
  }

  /**
   * Godot 3: whether the only way to reach function `name` besides the pack's calls of it is the pack's code
   * connections (callers.ts): its name is spelled only as the literal method of `connect` calls, no dispatch
   * or data names it, the engine never calls a method of that name by itself (engine-script-names.json), nothing
   * else holds it open, and every emission of a signal by the pack is in sight (a constant name, `emit_signal`
   * never called by a name or from data). The SDK may still call a function of a class that extends it.
   */
  #connectedOnly(name: string): boolean {
    if (this.grammar !== 3 || !this.model.closedCalls || this.#dispatch === null || this.#naming) return false
    const cached = this.#connected.get(name)
    if (cached !== undefined) return cached
    this.#connected.set(name, false)
    const index = this.#callersIndex()
    const literals = [...index.connectLiterals].filter((e) => e.k === "str" && e.value === name).length
    const spelled = stringsNaming(index, name)
    const named = this.#dispatchNames(index)
    const reached = (n: string): boolean => named.all || named.elsewhere.has(n) || named.starts.some((p) => n.startsWith(p))
    const emit = "emit_signal"
    const emissionsInSight = (): boolean => {
      this.#emissionsInSight ??=
        !index.hard.has(emit) && !reached(emit) && !index.strings.some((s) => s.includes(emit)) && (index.calls.get(emit) ?? []).every((site) => site.args[0] !== undefined && this.eval(site.args[0], this.#siteFn(site)).t === "str")
      return this.#emissionsInSight
    }
    const only = !index.openAll && !index.hard.has(name) && literals > 0 && spelled.length === literals && spelled.every((s) => s === name) && !reached(name) && emissionsInSight()
    this.#connected.set(name, only)
    return only
  }

  /**
   * The values of parameter `index` of a function only the pack's calls and code connections reach (#connectedOnly):
   * what its calls pass, what the connections deliver (signals.ts connectionArgs) and, in a class that extends
   * the SDK or for a signal an object of such a class may emit, whatever the SDK passes (SDK_CALLS). Null for any other function.
   */
  #connectedArgs(name: string, index: number): ReadonlyArray<Val> | null {
    if (!this.#connectedOnly(name)) return null
    const callers = this.#callersIndex()
    const fold = (e: Expr, site: CallerSite): ReadonlyArray<string> => {
      const v = this.eval(e, this.#siteFn(site))
      return v.t === "str" ? v.values : []
    }
    // A node's signals are those of the Node classes (a Button's `pressed` has no argument, ButtonGroup's one): a node
    // fetched by path, or an engine class inheriting Node (`Button.new()`, a hundred-and-nineteenth hunt's upgrade buttons).
    const emitterIsNode = (site: CallerSite): boolean => {
      const recv = site.recv === null || site.recv === undefined ? null : this.eval(site.recv, this.#siteFn(site))
      return recv?.t === "inst" && (recv.cls === "Node" || isEngineNodeClass(recv.cls))
    }
    const declared = (signal: string): boolean => this.model.classes().some((c) => this.model.decl(c)?.signals.includes(signal) === true)
    // An object of a class extending the SDK's (whose own signals are out of sight): self or an object of such a class, or one of unknown script.
    const sdkEmitter = (site: CallerSite): boolean => {
      const recv = site.recv === null || site.recv === undefined ? ({ t: "own", ref: site.cls } as const) : this.eval(site.recv, this.#siteFn(site))
      if (recv.t === "own" || recv.t === "script") return this.model.extendsOutside(recv.ref)
      return recv.t === "inst" || recv.t === "unknown"
    }
    const constant = (e: Expr, at: Omit<CallerSite, "args">): ReadonlyArray<string> | null => {
      const v = this.eval(e, this.#siteFn(at))
      return v.t === "str" ? v.values : null
    }
    // A RichTextLabel's `meta_clicked(meta)` passes one of the link metas its BBCode pushed (linkMetas.ts).
    const engineValues = (signal: string, at: number, site: CallerSite): ReadonlyArray<string> | null => {
      // A member always holding `$Name` is that node (memberNode).
      const recv = site.recv?.k === "id" && this.local(site.recv.name, this.#siteFn(site)) === null ? this.memberNode(site.cls, site.recv.name) : null
      const asNode = recv === null ? site : { ...site, recv }
      if (signal !== "meta_clicked" || at !== 0 || this.#dispatch === null || !isRichTextLabel(this.model, callers, this.#dispatch, asNode, constant)) return null
      if (this.#linkMetas === undefined) {
        // Asked again while they are being computed (a constant that reads this handler's parameter): not known.
        this.#linkMetas = null
        const code = codeLinkMetas(this.model, callers, this.#dispatch, constant, (e, at) => this.#dataBbcode(e, this.#siteFn(at)))
        this.#linkMetaData = code?.data ?? []
        const data = this.#linkMetaData.length > 0 ? [LINK_DATA] : []
        this.#linkMetas = code === null || this.model.linkMetas.unread ? null : [...new Set([...code.urls, ...this.model.linkMetas.urls, ...data])]
      }
      return this.#linkMetas
    }
    const delivered = connectionArgs(callers.calls, name, index, fold, (signal, site) => engineSignalArgs(signal, emitterIsNode(site)), declared, sdkEmitter, engineValues)
    const called = (callers.calls.get(name) ?? []).flatMap((site) => {
      const arg = site.args[index]
      return arg === undefined ? [] : [this.eval(arg, this.#siteFn(site))]
    })
    const sdk = delivered.sdk || callers.sdk.has(name)
    // A meta of the pack's data's BBCode (LINK_DATA) is one of those metas, a String: judged with the files by os-shell.
    const fromData: ReadonlyArray<Val> = delivered.known.includes(LINK_DATA) ? [{ t: "unknown", external: true, linkData: { sdk: false } }] : []
    const constants = delivered.known.filter((k) => k !== LINK_DATA)
    const known = [...(constants.length > 0 ? [strs([...new Set(constants)])] : []), ...fromData]
    return [...called, ...delivered.args.map((a) => this.eval(a.expr, this.#siteFn(a.site))), ...known, ...(delivered.unknown ? [UNKNOWN] : []), ...(sdk ? [SDK_CALLS] : [])]
  }

  /** The BBCode of the pack's data a `meta_clicked` meta may come from (with #linkMetas), for checks/shellData.ts. */
  linkMetaData(): ReadonlyArray<DataBbcode> {
    return this.#linkMetaData
  }

  /**
   * The BBCode an expression gives a label when it is built from strings of the pack's own data (bbcodeTemplate.ts:
   * one template, or the pieces of a local built up with `+=`), or null.
   */
  #dataBbcode(e: Expr, fn: Fn): DataBbcode | null {
    const templateParts: PackDataParts = { sources: [], constants: [] }
    const evaluate = (x: Expr): Val => this.eval(x, fn)
    const template = bbcodeTemplate(e, evaluate, this.grammar, templateParts, false, (name) => this.model.anyClassDefines(name), (call) => this.helperReturns(call, fn))
    const localOf = this.#pieceLocals(fn, 0)
    // The pieces' parts apart from those the template read before it gave up.
    const pieceParts: PackDataParts = { sources: [], constants: [] }
    const pieces = template === null ? bbcodePieces(e, localOf, this.grammar, pieceParts, (name) => this.model.anyClassDefines(name), { evaluate, helper: (call) => this.helperReturns(call, fn) }) : null
    const parts = pieces === null ? templateParts : pieceParts
    const templates = template !== null ? [template] : pieces
    if (templates === null || parts.built === true || !templates.some((t) => t.includes(PACK_DATA)) || templates.some((t) => t.includes(TRANSLATED))) return null
    const sels = parts.sels === null || parts.sels === undefined ? {} : { sels: parts.sels }
    // Each template's parts' selections, read in the order they stand (a `%` item left out breaks the match: not known).
    const counts = templates.map((t) => t.split(PACK_DATA).length - 1)
    const read = parts.places ?? []
    let next = 0
    const places = read.length === counts.reduce((a, b) => a + b, 0) ? counts.map((n) => read.slice(next, (next += n))) : null
    return { templates, sources: [...new Set(parts.sources)], constants: [...new Set(parts.constants)], ...sels, places, joined: pieces !== null, formats: parts.formats ?? [] }
  }

  /** What a signal handler's parameter receives from the pack's emissions of the signals connected to it by a constant name (signals.ts). */
  #signalArgs(name: string | null, index: number): ReadonlyArray<Val> {
    if (name === null || this.#dispatch === null) return []
    const fold = (e: Expr, site: CallerSite): ReadonlyArray<string> => {
      const v = this.eval(e, this.#siteFn(site))
      return v.t === "str" ? v.values : []
    }
    return handlerArgs(this.#callersIndex().calls, name, index, this.grammar, fold).map((a) => this.eval(a.expr, this.#siteFn(a.site)))
  }

  /**
   * 3.x connections the pack writes of `signal` to a method by a constant name (`connect("s", c, "save", [b])`):
   * the target's value and the method names, each evaluated where the connection is written, and the binds,
   * those written as a string or number kept (they mean the same anywhere), any other out of sight.
   */
  codeConnections(signal: string): ReadonlyArray<{ readonly target: Val; readonly methods: ReadonlyArray<string>; readonly binds: ReadonlyArray<Expr> }> {
    if (this.#dispatch === null || this.grammar !== 3) return []
    return (this.#callersIndex().calls.get("connect") ?? []).flatMap((site) => {
      const [first, target, method, binds] = site.args
      if (first === undefined || target === undefined || method === undefined) return []
      const fn = this.#siteFn(site)
      const signals = this.eval(first, fn)
      const methods = this.eval(method, fn)
      if (signals.t !== "str" || !signals.values.includes(signal) || methods.t !== "str") return []
      const kept = binds?.k === "array" ? binds.items.map((b): Expr => (b.k === "str" || b.k === "num" ? b : { k: "error", at: b.at })) : []
      return [{ target: this.eval(target, fn), methods: methods.values, binds: kept }]
    })
  }

  /** How many arguments the pack's `emit_signal` calls of `signal` by a constant name pass, each count once. */
  emissionCounts(signal: string): ReadonlyArray<number> {
    if (this.#dispatch === null) return []
    const counts = (this.#callersIndex().calls.get("emit_signal") ?? []).flatMap((site) => {
      const first = site.args[0]
      const v = first === undefined ? null : this.eval(first, this.#siteFn(site))
      return v?.t === "str" && v.values.includes(signal) ? [site.args.length - 1] : []
    })
    return [...new Set(counts)]
  }

  /** 3.x `yield()` without arguments gives what `resume(x)` is given: any `resume` call's argument of the pack (and anything else). */
  #resumed(): Val {
    if (this.#dispatch === null || this.grammar !== 3) return UNKNOWN
    const given = (this.#callersIndex().calls.get("resume") ?? []).map((site) => (site.args[0] === undefined ? NULL : this.eval(site.args[0], this.#siteFn(site))))
    return joinAll([...given, UNKNOWN])
  }

  // ---- scopes ----

  /** The context of a class's own expressions (member initialisers, constants, annotations). */
  classFn(cls: ClassRef): Fn {
    const key = refKey(cls)
    const cached = this.#classFns.get(key)
    if (cached !== undefined) return cached
    const fn: Fn = { cls, locals: new Map(), parent: null, memo: new WeakMap(), reloaded: new Set(), dispatched: [], body: [] }
    this.#classFns.set(key, fn)
    return fn
  }

  /** The context of a function (its locals collected once); `method` for a class function (not a lambda or accessor). */
  /**
   * Whether a write by a name out of sight may hand a Script object to an object (PackModel's run-time attach): its
   * receiver may be an object (a Dictionary's or Array's entry is no property) and its value may be a Script.
   */
  writtenMayBeScript(w: NamedWrite): boolean {
    const fn = this.fnOf(w.cls, w.f, null, w.method)
    if (w.name !== undefined && !mayNameAttacher(this.eval(w.name, fn))) return false
    if (w.setterName !== undefined && !mayNameSetter(this.eval(w.setterName, fn))) return false
    if (w.value === null) return true
    const recv = w.recv === null ? null : this.eval(w.recv, fn)
    if (recv !== null && (isPlainData(recv) || (recv.t === "inst" && (recv.cls === "Dictionary" || recv.cls === "Array")))) return false
    return mayHoldScript(this.eval(w.value, fn))
  }

  fnOf(cls: ClassRef, f: FunctionDecl, parent: Fn | null, method: boolean): Fn {
    const cached = this.#fns.get(f)
    if (cached !== undefined) return cached
    const fn: Fn = { cls, locals: new Map(), parent, memo: new WeakMap(), reloaded: new Set(), dispatched: [], body: f.body, reaches: [] }
    this.#fns.set(f, fn)
    // A 4.x `set(value):` runs when its member is written.
    const setterOf = !method && f.name === "set" ? this.model.decl(cls)?.vars.find((v) => v.accessors.includes(f))?.name : undefined
    f.params.forEach((p, index) =>
      fn.locals.set(p.name, {
        type: p.type,
        inits: p.init === null ? [] : [p.init],
        appends: [],
        opaque: false,
        param: { cls, fn: method && f.name !== "" ? f.name : null, index, ...(setterOf === undefined ? {} : { setterOf }) },
        ...(p.init === null ? {} : { defaultValue: p.init }),
      }),
    )
    this.#collectLocals(f.body, fn)
    return fn
  }

  /** Every local of the function and every value assigned to it, wherever it is in the function. */
  #collectLocals(body: ReadonlyArray<Stmt>, fn: Fn): void {
    const assignments: Array<{ name: string; expr: Expr; compound: boolean }> = []
    const walk = (stmts: ReadonlyArray<Stmt>): void => {
      for (const s of stmts) {
        if (s.k === "var" && !fn.locals.has(s.name)) fn.locals.set(s.name, { type: s.type, ...(s.inferred === true ? { inferred: true as const } : {}), inits: [], appends: [], opaque: false })
        if (s.k === "var" && s.init !== null) fn.locals.get(s.name)?.inits.push(s.init)
        if (s.k === "for") {
          const prior = fn.locals.get(s.name)
          if (prior === undefined) fn.locals.set(s.name, { type: s.type, inits: [], appends: [], opaque: true, loopsOver: [s.iter] })
          else {
            prior.opaque = true
            ;(prior.loopsOver ??= []).push(s.iter)
          }
        }
        if (s.k === "if") for (const b of s.branches) walk(b.body)
        if (s.k === "while" || s.k === "for") walk(s.body)
        if (s.k === "match") {
          for (const b of s.branches) {
            // A binding holds the subject (or its element) as an assignment would.
            for (const bind of b.binds) {
              if (!fn.locals.has(bind.name)) fn.locals.set(bind.name, { type: null, inits: [], appends: [], opaque: false })
              fn.locals.get(bind.name)?.inits.push(bind.value)
            }
            walk(b.body)
          }
        }
      }
    }
    walk(body)
    const puts: Array<{ name: string; expr: Expr }> = []
    const parts: Array<{ name: string; expr: Expr; inner: boolean }> = []
    const reaches = fn.reaches
    const rootOf = (e: Expr): string | null => containerRoot(e, (call) => this.#givesBack(call, fn))
    // The engine's copy only where no class of the pack defines a method of that name (it may give back the very container).
    const copies = (e: Expr): boolean => shallowCopyOf(e) && e.k === "call" && e.callee.k === "member" && !this.model.anyClassDefines(e.callee.name)
    const walkVars = (stmts: ReadonlyArray<Stmt>): void => {
      for (const s of stmts) {
        const from = s.k === "var" && s.init !== null ? rootOf(s.init) : null
        if (from !== null && s.k === "var") reaches?.push({ from, to: s.name, ...(s.init !== null && copies(s.init) ? { shallow: true as const } : {}) })
        // `var kept = [d]`: the literal holds the very container (written through `kept[0]`).
        if (s.k === "var" && s.init !== null) for (const root of literalRoots(s.init)) reaches?.push({ from: root, escapes: true })
        // A loop variable holds the container's elements themselves (`for c in credits: c["name"] = v`).
        const over = s.k === "for" ? rootOf(s.iter) : null
        if (over !== null && s.k === "for") reaches?.push({ from: over, to: s.name })
        if (s.k === "if" || s.k === "match") for (const b of s.branches) walkVars(b.body)
        if (s.k === "while" || s.k === "for") walkVars(s.body)
      }
    }
    walkVars(body)
    forEachExpr(body, (e) => {
      // `s %= x` formats the whole text, no join: what it gives is not followed (a fifty-sixth red team's `s =
      // "[%s]user://…"; s %= "img"`, which was read as `s + "img"`).
      if (e.k === "bin" && isAssignment(e.op) && e.left.k === "id") assignments.push({ name: e.left.name, expr: e.op === "%=" ? { k: "error", at: e.right.at } : e.right, compound: e.op !== "=" })
      const aliased = e.k === "bin" && e.op === "=" && e.left.k === "id" ? rootOf(e.right) : null
      if (aliased !== null && e.k === "bin" && e.left.k === "id") reaches?.push({ from: aliased, to: e.left.name, ...(copies(e.right) ? { shallow: true as const } : {}) })
      if (e.k === "call" && (e.callee.k === "id" || e.callee.k === "member")) {
        const callee = e.callee
        e.args.forEach((a, index) => {
          const from = rootOf(a)
          if (from !== null) reaches?.push({ from, callee: callee.name, index, member: callee.k === "member" })
          // Handed on by name, bound, emitted or put into another container: code out of sight may write into it (a
          // forty-fourth red team's `call("mod", d)`, `connect(…, [d])`, `emit_signal("s", d)`, `d.sort_custom(self, …)`).
          // The container or a part of it (`call("mod", d[0])`: a forty-fifth red team's), not as the name a call or a
          // setter takes; what that changes counts only where some function writes text into data it lost.
          // The receiver is the container itself only as a name or a part of it: `(d if c else n).set_meta("k", d)`
          // and `[d, n][1]` may be another object (a fifty-fourth red team's).
          const into = callee.k === "member" ? chainRoot(callee.obj) : null
          const ownCall = callee.k === "id" || callee.obj.k === "self"
          if (from !== null && index >= (ESCAPES_BY.get(callee.name) ?? Infinity) && into !== from) reaches?.push({ from, escapes: true })
          // Kept by an engine object that hands it back later (`il.set_item_metadata(0, d)`, `cfg.set_value("s", "k", d)`,
          // `ProjectSettings.set_setting("k", d)`: a fiftieth red team's; engineKeepers.ts), unless a class of the pack
          // defines a method of that name (its parameter is followed instead).
          // Not on self where the class has a method of that name (its parameter is followed instead); on another object a
          // namesake of the pack may not be what runs (a fifty-fifth red team's decoy `func set_item_metadata` in another
          // class, `func new`, `func call_recursive`).
          else if (from !== null && into !== from && keepsArgument(this.grammar, callee.name, index) && !(ownCall && this.model.defines(fn.cls, callee.name))) reaches?.push({ from, escapes: true })
        })
      }
      // Given to a member (`self.holder = d`, a setter's parameter; of an object not held in a local: an autoload; of any
      // object, a local's included, where a class of the pack declares a member of that name or sets any: a forty-ninth
      // red team's `h = H.new()`, `h.v = d`; or to an engine property that keeps it: a fiftieth's `r.result = d`) or put
      // into another container by a subscript (`held[0] = d`: a forty-seventh red team's): it is then reached by other
      // names than the analysis follows. A node's own property of an engine class (`icon.hint_tooltip = item["name"]`)
      // takes a copy of a String.
      const toMember = e.k === "bin" && e.left.k === "member" && (e.left.obj.k === "self" || (e.left.obj.k === "id" && !fn.locals.has(e.left.obj.name)) || this.model.anyClassDeclares(e.left.name) || this.model.anyClassDefines("_set") || keepsProperty(this.grammar, e.left.name))
      // A local that may hold a Dictionary given it under a name (`out.k = d`: Godot 3 sets the key "k", a fifty-first
      // red team's), not one only ever given an engine object (`label.text = item["name"]` takes a copy).
      const intoLocal = e.k === "bin" && e.left.k === "member" && e.left.obj.k === "id" && fn.locals.has(e.left.obj.name) && !this.#engineObjectLocal(fn.locals.get(e.left.obj.name))
      if (e.k === "bin" && e.op === "=" && (toMember || intoLocal || e.left.k === "index")) {
        const from = rootOf(e.right)
        const into = e.left.k === "index" ? chainRoot(e.left.obj) : null
        if (from !== null && from !== into) reaches?.push({ from, escapes: true })
      }
      // `d.sort_custom(self, "cmp")`: the comparator is handed its elements.
      // Of a part or a shallow copy too (`d[0].sort_custom(…)`, `d.duplicate().sort_custom(…)`: a fifty-fifth red team's).
      const sorted = e.k === "call" && e.callee.k === "member" && (e.callee.name === "sort_custom" || e.callee.name === "bsearch_custom") ? rootOf(e.callee.obj) : null
      if (sorted !== null) reaches?.push({ from: sorted, escapes: true })
      // A literal kept (assigned, handed on) holds the very container; one that is only formatted (`"%s" % [a, b]`) does not.
      const kept = e.k === "bin" && isAssignment(e.op) ? [e.right] : e.k === "call" && (e.callee.k === "id" || e.callee.k === "member") && ESCAPES_BY.has(e.callee.name) ? e.args.slice(ESCAPES_BY.get(e.callee.name)) : []
      for (const root of kept.flatMap(literalRoots)) reaches?.push({ from: root, escapes: true })
      for (const put of [putInto(e), keyPut(e)]) if (put !== null) puts.push(put)
      const part = isKeyByName(e) ? null : partPut(e)
      if (part !== null) parts.push({ ...part, inner: writesBelowEntries(e) })
      if (e.k === "call" && e.callee.k === "member" && e.callee.name === "reload" && e.callee.obj.k === "id") fn.reloaded.add(e.callee.obj.name)
      // `s.call("reload")`, `s.callv("rel" + "oad", [])`: the name is folded when asked (isReloaded).
      const first = e.k === "call" ? e.args[0] : undefined
      if (e.k === "call" && e.callee.k === "member" && e.callee.obj.k === "id" && OBJECT_DISPATCH.has(e.callee.name) && first !== undefined) fn.dispatched.push({ name: e.callee.obj.name, method: first })
    })
    for (const a of assignments) {
      const local = fn.locals.get(a.name)
      if (local === undefined) continue
      if (a.compound) local.appends.push(a.expr)
      else local.inits.push(a.expr)
    }
    for (const p of puts) {
      const local = fn.locals.get(p.name)
      if (local !== undefined) (local.puts ??= []).push(p.expr)
    }
    for (const p of parts) {
      const local = fn.locals.get(p.name)
      if (local === undefined) continue
      ;(local.parts ??= []).push(p.expr)
      if (p.inner) (local.innerParts ??= []).push(p.expr)
    }
  }

  /**
   * Which arguments of a call in `fn` may come back as its value: those a function of the pack of that name gives
   * back (givenBack.ts; `self`'s, its overrides', or any class's for another object), every one for the engine's
   * dispatchers and getters with a default (`call`, `callv`, `resume`, `get`, `get_meta`), none for another engine
   * method.
   */
  #givesBack(call: Extract<Expr, { k: "call" }>, fn: Fn): ReadonlyArray<number> | "all" {
    const callee = call.callee
    if (callee.k !== "id" && callee.k !== "member") return "all"
    if (ENGINE_GIVES_BACK.has(callee.name)) return "all"
    const own = callee.k === "id" || callee.obj.k === "self"
    const found = own ? this.model.method(fn.cls, callee.name) : null
    const decls = own
      ? [...(found === null ? [] : [found.decl]), ...this.model.overrides(fn.cls, callee.name).flatMap((cls) => this.model.decl(cls)?.functions.filter((f) => f.name === callee.name) ?? [])]
      : this.model.classes().flatMap((cls) => this.model.decl(cls)?.functions.filter((f) => f.name === callee.name) ?? [])
    return [...new Set(decls.flatMap((d) => paramsGivenBack(d, (e) => containerRoot(e))))]
  }

  /** Whether a local is only ever given new objects of engine classes (`Label.new()`) or nodes of the scene tree (`$Box`). */
  #engineObjectLocal(local: Local | undefined): boolean {
    const engineObject = (e: Expr): boolean =>
      e.k === "node" ||
      (e.k === "call" && e.callee.k === "member" && e.callee.name === "new" && e.args.length === 0 && e.callee.obj.k === "id" && this.model.isEngineName(e.callee.obj.name) && !CONTAINER_TYPES.has(e.callee.obj.name)) ||
      (e.k === "call" && (e.callee.k === "id" || (e.callee.k === "member" && e.callee.obj.k === "self")) && (e.callee.name === "get_node" || e.callee.name === "get_node_or_null") && !this.model.anyClassDefines(e.callee.name))
    return local !== undefined && local.param === undefined && !local.opaque && local.inits.length > 0 && local.inits.every(engineObject)
  }

  local(name: string, fn: Fn): { local: Local; owner: Fn } | null {
    for (let f: Fn | null = fn; f !== null; f = f.parent) {
      const local = f.locals.get(name)
      if (local !== undefined) return { local, owner: f }
    }
    return null
  }

  /** Whether `name` is the script's own (a local, a member, a constant, a class of the pack). */
  isOwnName(name: string, fn: Fn): boolean {
    if (this.local(name, fn) !== null || this.model.defines(fn.cls, name)) return true
    return !this.model.isEngineName(name) && (this.model.innerClass(fn.cls, name) !== null || this.model.autoload(name) !== null || this.model.globalClass(name) !== null)
  }

  /** What a declared type says a variable holds; UNKNOWN when it says nothing useful. */
  typeVal(t: TypeRef | null, fn: Fn): Val {
    const first = t?.names[0]
    if (t === null || first === undefined) return UNKNOWN
    // `:= Name.new()` where a class of the pack has its own `static func new()`: that function's value, not a Name.
    if (t.fromNew === true && this.model.anyClassDefines("new")) return UNKNOWN
    const global = this.model.isEngineName(first) ? null : (this.model.innerClass(fn.cls, first) ?? this.model.globalClass(first))
    if (global !== null) return { t: "own", ref: t.names.length > 1 ? { script: global.script, inner: [...global.inner, ...t.names.slice(1)] } : global }
    // A constant holding a script of the pack (`const Mine = preload("res://mine.gd")`, then `: Mine`).
    const constant = this.model.constant(fn.cls, first, (expr, where) => this.eval(expr, this.classFn(where)))
    if (constant?.t === "script") return { t: "own", ref: t.names.length > 1 ? { script: constant.ref.script, inner: [...constant.ref.inner, ...t.names.slice(1)] } : constant.ref }
    if (UNINFORMATIVE_TYPES.has(first)) return UNKNOWN
    return { t: "inst", cls: first }
  }

  /** The engine class a receiver is known to be, for `Class.method` tables. */
  receiverClass(recv: Val, expr: Expr | null, fn: Fn): string | null {
    if (recv.t === "guard") return recv.name
    if (recv.t === "inst") return recv.cls
    if (expr?.k === "id" && recv.t === "unknown" && !this.isOwnName(expr.name, fn) && /^[A-Z]/.test(expr.name)) return expr.name
    // A variable one class of object is ever given (and otherwise anything): judged as that class, the stricter reading.
    if (recv.t === "unknown" && recv.insts?.length === 1 && recv.any !== true) return recv.insts[0] ?? null
    return null
  }

  // ---- class facts ----

  #factsOf(cls: ClassRef): ClassFacts {
    const key = refKey(cls)
    const cached = this.#facts.get(key)
    if (cached !== undefined) return cached
    const facts: ClassFacts = { assigned: new Map(), calls: new Map(), reloaded: new Set(), puts: new Map(), parts: new Map() }
    this.#facts.set(key, facts)
    const decl = this.model.decl(cls)
    const functions = [...(decl?.functions ?? []).map((f) => ({ f, method: true })), ...(decl?.vars ?? []).flatMap((v) => v.accessors.map((f) => ({ f, method: false })))]
    for (const { f, method } of functions) {
      const fn = this.fnOf(cls, f, null, method)
      for (const name of fn.reloaded) if (this.local(name, fn) === null) facts.reloaded.add(name)
      for (const d of fn.dispatched) if (this.local(d.name, fn) === null && this.#reloadedByName(d.name, fn)) facts.reloaded.add(d.name)
      forEachExpr(f.body, (e) => {
        if (e.k === "bin" && isAssignment(e.op)) {
          const name = e.left.k === "id" && this.local(e.left.name, fn) === null ? e.left.name : e.left.k === "member" && e.left.obj.k === "self" ? e.left.name : null
          if (name !== null) push(facts.assigned, name, { expr: e.right, fn, compound: e.op !== "=" })
        }
        for (const put of [putInto(e), keyPut(e)]) if (put !== null && this.local(put.name, fn) === null) push(facts.puts, put.name, { expr: put.expr, fn })
        const part = isKeyByName(e) ? null : partPut(e)
        if (part !== null && this.local(part.name, fn) === null) push(facts.parts, part.name, { expr: part.expr, fn })
        if (e.k === "call") {
          const name = e.callee.k === "id" && this.local(e.callee.name, fn) === null ? e.callee.name : e.callee.k === "member" && e.callee.obj.k === "self" ? e.callee.name : null
          if (name !== null) push(facts.calls, name, { args: e.args, fn })
        }
      })
    }
    return facts
  }

  #lineageFacts = new Map<string, ClassFacts>()

  /**
   * The facts of `owner`'s members: its own functions' and those of the classes extending it, for the members they
   * inherit (`m = load(…)` in a subclass's `_init` gives the base's `m` a Script: a forty-ninth red team's).
   */
  #memberFacts(owner: ClassRef): ClassFacts {
    const key = refKey(owner)
    const cached = this.#lineageFacts.get(key)
    if (cached !== undefined) return cached
    const own = this.#factsOf(owner)
    const below = this.model.descendants(owner)
    if (below.length === 0) return own
    const facts: ClassFacts = { assigned: new Map(own.assigned), calls: own.calls, reloaded: own.reloaded, puts: new Map(own.puts), parts: new Map(own.parts) }
    this.#lineageFacts.set(key, facts)
    const inherited = (cls: ClassRef, name: string): boolean => {
      const member = this.model.variable(cls, name)
      return member !== null && sameClass(member.owner, owner)
    }
    for (const cls of below) {
      const theirs = this.#factsOf(cls)
      for (const [from, into] of [[theirs.assigned, facts.assigned], [theirs.puts, facts.puts], [theirs.parts, facts.parts]] as const) {
        for (const [name, entries] of from) if (inherited(cls, name)) (into as Map<string, Array<unknown>>).set(name, [...(into.get(name) ?? []), ...entries])
      }
    }
    return facts
  }

  /** Whether `reload()` is called on `name` in the function (directly or by a name that can be `reload`), or, for a member, anywhere in its class. */
  isReloaded(name: string, fn: Fn): boolean {
    if (fn.reloaded.has(name) || this.#reloadedByName(name, fn)) return true
    return this.local(name, fn) === null && this.#factsOf(fn.cls).reloaded.has(name)
  }

  #reloadedByName(name: string, fn: Fn): boolean {
    return fn.dispatched.some((d) => {
      if (d.name !== name) return false
      const method = this.eval(d.method, fn)
      return method.t === "str" ? method.values.includes("reload") : method.t === "unknown" && !(method.prefix !== undefined && !"reload".startsWith(method.prefix))
    })
  }

  /**
   * The `$Path` a member of `owner` always holds: declared with it (`onready var credits: RichTextLabel = $Credits`),
   * given nothing else by its class, and sealed as a node (sealedMembers.ts: nothing else can set it). Null otherwise.
   */
  memberNode(owner: ClassRef, name: string): Expr | null {
    const decl = this.model.decl(owner)?.vars.find((v) => v.name === name)
    if (decl === undefined || decl.init?.k !== "node" || (this.#memberFacts(owner).assigned.get(name) ?? []).length > 0 || this.model.writesMembersRaw()) return null
    if (sealedCandidate({ ...decl, type: null }, [], (n) => this.model.anyClassDefines(n)) !== "node") return null
    if (decl.type === null) return this.#sealedMembers().get(memberKey(owner, name)) === "node" ? decl.init : null
    // A typed member is never sealed (its type gives its value): the same gates, and no write by a name that is not a literal at all.
    const { names, writes } = this.model.writesByName()
    const data = this.model.dataProperties
    return names.has(name) || writes.length > 0 || this.model.readElsewhere(name) || data.values.has(name) || data.written.has(name) ? null : decl.init
  }

  /** A member's value: typed, or any value its class gives it, and anything else. */
  memberValue(owner: ClassRef, decl: VarDecl): Val {
    // dict2inst puts any value in a typed member: its type then says nothing (PackModel.writesMembersRaw).
    const typed = this.model.writesMembersRaw() ? UNKNOWN : this.typeVal(decl.type, this.classFn(owner))
    if (typed.t !== "unknown" && !keepsLineEdit(typed) && !isContainerType(typed)) return this.#typedMember(owner, decl, typed)
    const key = memberKey(owner, decl.name)
    const assumed = this.#assumed?.get(key)
    if (assumed !== undefined) return assumed === "node" ? NODE_VAL : PLAIN_DATA
    const cached = this.#members.get(key)
    if (cached === null) this.#standIns++
    if (cached !== undefined) return cached ?? typed
    // A number, bool, string or null no code of the pack assigns to, which nothing else can set (#unsetMember): that constant.
    const fixed = decl.init !== null && isScalarLiteral(decl.init) && !this.model.assignedAnywhere(decl.name) && !this.model.mutatedInPlace(decl.name) && !this.model.writesMembersRaw() ? this.#unsetMember(owner, decl) : null
    if (fixed !== null) {
      const value = this.eval(fixed, this.classFn(owner))
      this.#settleMember(key, value)
      return value
    }
    this.#startMember(key)
    // A number nothing ever gives anything but numbers (`var level = 1`, `level += 1`, `Global.slot = 2`): a number.
    if (decl.init !== null && isNumberLiteral(decl.init) && !this.model.writesMembersRaw() && this.#onlyNumbers(owner, decl)) {
      this.#settleMember(key, LIT)
      return LIT
    }
    const facts = this.#memberFacts(owner)
    // A container something that may be a SpinBox's LineEdit is put into holds it; a typed member keeps only that of what it is given.
    const put = (facts.puts.get(decl.name) ?? []).map((p) => this.eval(p.expr, p.fn))
    const holds = put.some(isLineEdit)
    if (typed.t !== "unknown") {
      const given = this.givenValues(owner, decl)
      const held = isContainerType(typed) || (typed.t !== "inst" && typed.t !== "own") ? typedHolding(typed, given) : this.#typedGiven(owner, decl, typed)
      // What is put into its container counts as for an untyped member (`files.append(name)` of a listing Array: a
      // thirty-seventh red team appended a climbing name to `var files: Array = []`).
      const parts = (facts.parts.get(decl.name) ?? []).map((p) => this.eval(p.expr, p.fn))
      const sealed = isContainerType(typed) && sealedCandidate(decl, facts.assigned.get(decl.name) ?? [], (name) => this.model.anyClassDefines(name)) !== null && this.#sealedMembers().get(key) === "plain"
      const value = this.#editedInPlace(decl.name, this.#listingKept(this.#onlyPackData(owner, decl, withElements(asLineEdit(held, holds || given.some(isLineEdit)), put, parts), sealed)))
      this.#settleMember(key, value)
      return value
    }
    const assigned = facts.assigned.get(decl.name) ?? []
    const writes = assigned.filter((a) => !a.compound).map((a) => this.eval(a.expr, a.fn))
    const given = [...(decl.init === null ? [] : [this.eval(decl.init, this.classFn(owner))]), ...writes]
    const sealed = sealedCandidate(decl, assigned, (name) => this.model.anyClassDefines(name)) === null ? undefined : this.#sealedMembers().get(key)
    if (sealed === "node") {
      const value = asLineEdit(NODE_VAL, holds || given.some(isLineEdit))
      this.#settleMember(key, value)
      return value
    }
    // Anything else can be set from elsewhere, unless nothing else can reach it (sealedMembers.ts) or every writer is in sight.
    // A member without a default starts as its type's zero value ("" for a String, else null): it is closed like one given a constant.
    const zero = decl.init === null ? zeroValue(decl.type) : null
    // A write by name out of sight still gives the member the run-time data written by name in sight (`callv("set", [k, env])`).
    const runTime = this.#writesByName()?.runTimeValue(owner, decl.name) ?? null
    const elsewhere = sealed === "plain" ? (runTime === null ? [] : [runTime]) : (this.#writtenElsewhere(owner, decl.name, zero === null ? given : [zero, ...writes], assigned) ?? this.#dataWrittenElsewhere(owner, decl, assigned) ?? [runTime ?? UNKNOWN])
    // That start ("" or null) names no path, property or method: what the member is used as are the values written.
    const values = [...given, ...elsewhere]
    const appends = assigned.filter((a) => a.compound).map((a) => this.eval(a.expr, a.fn))
    const joined = appended(joinAll(values), appends)
    // A sealed member holds plain data: a value given it that reads the member itself (`d = data.get("d", d)`) is no other.
    const held = sealed === "plain" && joined.t === "unknown" && joined.any !== true ? { ...joined, plain: true as const } : joined
    const parts = (facts.parts.get(decl.name) ?? []).map((p) => this.eval(p.expr, p.fn))
    const value = this.#editedInPlace(decl.name, this.#listingKept(this.#onlyPackData(owner, decl, withElements(asLineEdit(held, holds), put, parts), sealed === "plain")))
    this.#settleMember(key, value)
    return value
  }

  /** A typed member (`var slot: int`, `var saver: Saver`): its type, and what values the engine does not check give it (#uncheckedInto). */
  #typedMember(owner: ClassRef, decl: VarDecl, typed: Val): Val {
    if (typed.t !== "inst" && typed.t !== "own") return typed
    const key = memberKey(owner, decl.name)
    const cached = this.#members.get(key)
    if (cached === null) this.#standIns++
    if (cached !== undefined) return cached ?? typed
    this.#startMember(key)
    const value = this.#typedGiven(owner, decl, typed)
    this.#settleMember(key, value)
    return value
  }

  /** #typedMember's value, not cached (the member's own evaluation is under way). */
  #typedGiven(owner: ClassRef, decl: VarDecl, typed: Extract<Val, { t: "inst" | "own" }>): Val {
    // The class's own `slot = v` and its subclasses' store v in the member directly; other objects' writes go through
    // GDScriptInstance::set, which converts to the member's type.
    const writes = (this.#memberFacts(owner).assigned.get(decl.name) ?? []).filter((a) => !a.compound)
    return this.#uncheckedInto(typed, [...(decl.init === null ? [] : [{ expr: decl.init, fn: this.classFn(owner) }]), ...writes])
  }

  /**
   * What a typed variable holds, given `given`: a value type (`int`, `float`, `bool`, vectors, pools), an engine class
   * or a class of the pack. Godot 3 checks or converts a value put into a typed variable only where the parser does not
   * know the value's type (gdscript_compiler.cpp emits OPCODE_ASSIGN_TYPED_* only for an assignment without a type); a
   * value whose type it knows is stored as it is, and that type may be a pack function's declared return, which the
   * engine never checks (`func n() -> int: return "../x"`: a thirty-fourth red team's `var slot: int` then `slot =
   * n()`; a thirty-fifth's `var sv: Saver` then `sv = make_saver()` returning a File, whose `open` then wrote anywhere).
   * So the variable also holds what such values really are, where they are not of its type.
   */
  #uncheckedInto(typed: Extract<Val, { t: "inst" | "own" }>, given: ReadonlyArray<{ readonly expr: Expr; readonly fn: Fn; readonly asIs?: true }>): Val {
    const ofType = (v: Val): boolean =>
      typed.t === "own" ? (v.t === "own" && sameClass(v.ref, typed.ref)) || (v.t === "lit" && v.value === null) : VALUE_TYPES.has(typed.cls) ? isNumberLike(v) || (v.t === "inst" && v.cls === typed.cls) : (v.t === "inst" && v.cls === typed.cls) || (v.t === "lit" && v.value === null)
    const unchecked = given
      .filter(({ expr, fn, asIs }) => asIs === true || this.#typeKnownWhenCompiled(expr, fn))
      .map(({ expr, fn }) => (this.#getOverride(expr) ? UNKNOWN : this.eval(expr, fn)))
      .filter((v) => !ofType(v))
    // A value the analysis lost may be anything: the declared type then says nothing of it (a join would keep the type's
    // class as what a call on it reaches).
    if (unchecked.some((v) => v.t === "unknown" && v.insts === undefined && v.plain !== true)) return joinAll(unchecked)
    return unchecked.length === 0 ? typed : joinAll([typed, ...unchecked])
  }

  /**
   * Whether Godot 3's parser may know an expression's type (then an assignment of it to a typed variable is not checked at
   * run time): literals, constants, typed variables, members of objects, calls of functions the pack defines (their
   * declared return, never checked; a pack method of an engine method's name is called in its place), and operators
   * and conditionals of such. Not: a subscript, a call of the engine's or a built-in function (their values are of the
   * type they are declared with, or Variant, which is checked), an untyped local or member.
   */
  #typeKnownWhenCompiled(e: Expr, fn: Fn): boolean {
    switch (e.k) {
      case "id": {
        const found = this.local(e.name, fn)
        if (found !== null) return found.local.type !== null || found.local.inferred === true
        const member = this.model.variable(fn.cls, e.name)
        return member === null || member.decl.type !== null || member.decl.inferred === true
      }
      case "member": {
        // An engine property read where the pack defines `_get`: typed by the parser, answered by the script (#getOverride).
        if (this.#getOverride(e)) return true
        // A property of `$Path` (a Node to the parser) or of an untyped variable has no type the parser knows: checked
        // (a fortieth red team's `var slot: int = $SlotPicker.value`, converted or refused by the engine).
        if (e.obj.k === "node" || (e.obj.k === "id" && !this.#typeKnownWhenCompiled(e.obj, fn))) return false
        if (e.obj.k !== "self") return true
        const member = this.model.variable(fn.cls, e.name)
        return member !== null && (member.decl.type !== null || member.decl.inferred === true)
      }
      case "call":
        return (e.callee.k === "id" || e.callee.k === "member") && this.model.anyClassDefines(e.callee.name)
      case "node":
        // `$Path` is a Node to the parser: put into a subclass's variable it is checked (a downcast), into a Node one it is one.
        return false
      case "index":
        // A constant name on an object whose class the parser knows is a named index: the member's type (`self["slot"]`);
        // any index of a typed Pool array, vector or Color is its element's type (`p[0]` of `var p: PoolIntArray`, a
        // thirty-seventh red team's). An Array's or Dictionary's element is a Variant.
        if (e.index.k !== "str") return this.#typeKnownWhenCompiled(e.obj, fn) && !CONTAINER_DECLARATIONS.has(this.#declaredType(e.obj, fn) ?? "")
        return e.obj.k === "self" || (e.obj.k !== "array" && e.obj.k !== "dict" && this.#typeKnownWhenCompiled(e.obj, fn) && !isContainerType(this.eval(e.obj, fn)))
      case "bin":
        return this.#typeKnownWhenCompiled(e.left, fn) && this.#typeKnownWhenCompiled(e.right, fn)
      case "unary":
        return this.#typeKnownWhenCompiled(e.expr, fn)
      case "ternary":
        // 3.x types `a if c else b` as a's type whenever b's is not known (GDScriptParser::_is_type_compatible is true
        // when either side has none: a thirty-sixth red team's `n = 0 if c else text`, `held = Tool.new() if c else
        // file`): a branch of any type the parser knows, an engine call's included, leaves the other unchecked.
        return this.#hasStaticType(e.then, fn) || this.#hasStaticType(e.else, fn)
      default:
        return true
    }
  }

  /**
   * Whether a property read may be answered by a script's `_get`: 3.2.3 asks the object's script first, even for a
   * property of the engine class (a forty-first red team's `_get("process_priority")` returning text, read as
   * `slot = $Picker.process_priority` into `var slot: int`, which the parser types and stores unchecked).
   */
  #getOverride(e: Expr): boolean {
    return e.k === "member" && this.model.anyClassDefines("_get") && isEngineProperty(e.name)
  }

  /** The type a variable is declared with (`var p: PoolIntArray`, `var d := {}` as Dictionary), by its first name; null when none or not a variable. */
  #declaredType(e: Expr, fn: Fn): string | null {
    if (e.k === "id") {
      const found = this.local(e.name, fn)
      if (found !== null) return found.local.type?.names[0] ?? null
      return this.model.variable(fn.cls, e.name)?.decl.type?.names[0] ?? null
    }
    if (e.k === "member" && e.obj.k === "self") return this.model.variable(fn.cls, e.name)?.decl.type?.names[0] ?? null
    // A call of the class's own method: its declared return.
    if (e.k === "call" && e.callee.k === "id") return this.model.method(fn.cls, e.callee.name)?.decl.returnType?.names[0] ?? null
    return null
  }

  /**
   * Whether 3.x's parser may give an expression a type at all (a branch of a conditional): anything but a subscript, an
   * untyped variable, or a call of a method that returns any value (`get`, `get_value`, `parse_json`, `call`, …).
   */
  #hasStaticType(e: Expr, fn: Fn): boolean {
    switch (e.k) {
      case "call": {
        const name = e.callee.k === "id" || e.callee.k === "member" ? e.callee.name : null
        if (name === null || !VARIANT_RETURNS.has(name) || this.model.anyClassDefines(name)) return true
        // Range's get_value() is a float (a thirty-seventh red team's `HSlider.new().get_value()`); ConfigFile's a Variant.
        if (name !== "get_value") return false
        const recv = e.callee.k === "member" ? this.eval(e.callee.obj, fn) : null
        return !(recv?.t === "inst" && recv.cls === "ConfigFile")
      }
      case "ternary":
        return this.#hasStaticType(e.then, fn) || this.#hasStaticType(e.else, fn)
      default:
        return this.#typeKnownWhenCompiled(e, fn)
    }
  }

  /**
   * A member as a read of it gives it (memberGetter.ts): a property read (`self.x`, `obj.x`, `Autoload.x`), or a
   * bare `x` in Godot 4 outside the getter itself, gives what the member's getter returns (every override of a
   * named getter's, the object may be of a subclass; anything when the class has no such function); any other
   * read gives what the member holds. `bareIn`: the function a bare `x` is read in; null for a property read.
   */
  memberRead(owner: ClassRef, decl: VarDecl, bareIn: Fn | null): Val {
    const getter = this.readsGetter(decl, bareIn)
    if (getter === null) return this.memberValue(owner, decl)
    return "body" in getter ? this.returnValue(owner, getter.body) : (this.methodReturn(owner, getter.name) ?? UNKNOWN)
  }

  /** The getter a read of the member runs (see memberRead), or null when it reads what the member holds. */
  readsGetter(decl: VarDecl, bareIn: Fn | null): Getter | null {
    const getter = getterOf(decl)
    if (getter === null || bareIn === null) return getter
    if (this.grammar === 3) return null
    const inside = "body" in getter ? getter.body.body === bareIn.body : this.model.decl(bareIn.cls)?.functions.some((f) => f.name === getter.name && f.body === bareIn.body) === true
    return inside ? null : getter
  }

  /**
   * A member's value that is the pack's data stays that only while the member can hold nothing else (packDataMembers.ts):
   * its class gives it that data or an empty start; unless it is `sealed` (sealedMembers.ts) or confined to its class
   * (packDataMembers.ts), every other writer is in sight and writes that data, and no code of the pack writes into a
   * container that may be it. Else it is data read at run time.
   */
  #onlyPackData(owner: ClassRef, decl: VarDecl, value: Val, sealed: boolean): Val {
    if (!isPackData(value)) return value
    const assigned = this.#memberFacts(owner).assigned.get(decl.name) ?? []
    if (assigned.some((a) => a.compound) || !holdsNothingOr(decl.init, (e) => isPackData(this.eval(e, this.classFn(owner))))) return fromAnywhere(value)
    if (!assigned.every((a) => holdsNothingOr(a.expr, (e) => isPackData(this.eval(e, a.fn))))) return fromAnywhere(value)
    // Sealed, or confined to its class: its class's code is all that reads it, as for a local; unless code writes into
    // a container that may be the data (a loop's variable over it, a parameter it is passed to: a twenty-sixth red team's).
    if (sealed || confined(this.model, decl.name)) return this.#memberChangedElsewhere(owner, decl.name) ? fromAnywhere(value) : value
    const others = this.#memberWrites()?.valuesOf(owner, decl.name)
    if (others === undefined || others === null || !others.every(isPackData) || this.#writesIntoData()) return fromAnywhere(value)
    return joinAll([value, ...others])
  }

  /** Whether some code of the pack writes into a container that may be data read at run time (packDataMembers.ts), once per pack. */
  #writesIntoData(): boolean {
    const known = WRITES_INTO_DATA.get(this.model)
    if (known !== undefined) return known
    // While it is worked out (its Evaluator may ask again), a member's data is taken to be written into.
    WRITES_INTO_DATA.set(this.model, true)
    const ev = new Evaluator(this.model, this.idx, this.grammar, this.#dispatch, true)
    const fnFor = (cls: ClassRef, f: FunctionDecl | null): Fn => (f === null ? ev.classFn(cls) : ev.fnOf(cls, f, null, true))
    const found = (this.#writesByName()?.pathsWriteInto() ?? true) || writesIntoData(this.model, (e, cls, f) => ev.eval(e, fnFor(cls, f)), (e, cls, f) => ev.builtHere(e, fnFor(cls, f)))
    WRITES_INTO_DATA.set(this.model, found)
    return found
  }

  /**
   * Whether a member written into by name (`lines.append(l)`, `self.lines[k] = v`) always holds a container its class
   * built: declared with an Array or Dictionary literal, given only such literals by its class, with no getter, not
   * exported, not written raw (dict2inst) and no writer elsewhere (memberWrites.ts). A write into it changes no
   * container of the pack's data (a forty-second hunt's story lines appended beside a glossary read from JSON).
   */
  builtHere(target: Expr, fn: Fn): boolean {
    if (this.#dataMember(target, fn) === "built") return true
    // A local only ever given literals (`var out := []`), no parameter.
    const local = target.k === "id" ? this.local(target.name, fn) : null
    return local !== null && local.local.param === undefined && !local.local.opaque && local.local.inits.length > 0 && local.local.inits.every((i) => i.k === "array" || i.k === "dict")
  }

  /**
   * Whether a member written into by name (`counts[k] = v`) always holds plain data (a literal, JSON, a constant; no
   * other writer out of sight): no script, so no key of it is a script's source (a forty-third hunt's `recipes[r["id"]]
   * = r` and `counts[id] = n` in autoloads other scripts read).
   */
  holdsPlainData(target: Expr, fn: Fn): boolean {
    return this.#dataMember(target, fn) !== null
  }

  #dataMember(target: Expr, fn: Fn): "built" | "plain" | null {
    const name = target.k === "id" && this.local(target.name, fn) === null ? target.name : target.k === "member" && target.obj.k === "self" ? target.name : null
    const member = name === null ? null : this.model.variable(fn.cls, name)
    return member === null ? null : (this.#dataMembers().get(memberKey(member.owner, member.decl.name)) ?? null)
  }

  #dataKinds: ReadonlyMap<string, "built" | "plain"> | null = null

  /**
   * Members declared with an Array or Dictionary literal, with no getter, not exported, and given by every writer
   * (all in sight) only plain data: "built" when those are only literals of its class (it always holds a container
   * its class built: builtHere), else "plain". Found together as the largest consistent set: each is taken to be
   * one while the writes of the others are read (`recipes[k] = r` in two classes with a member of that name each:
   * neither write reaches an object's members while both hold Dictionaries).
   */
  #dataMembers(): ReadonlyMap<string, "built" | "plain"> {
    if (this.#dataKinds !== null) return this.#dataKinds
    this.#dataKinds = new Map()
    const writes = this.#memberWrites()
    if (writes === null || this.model.writesMembersRaw()) return this.#dataKinds
    const literal = (e: Expr | null): boolean => e?.k === "array" || e?.k === "dict"
    const candidates = new Map<string, { readonly owner: ClassRef; readonly name: string; readonly built: boolean }>()
    for (const cls of this.model.classes()) {
      for (const decl of this.model.decl(cls)?.vars ?? []) {
        if (!literal(decl.init) || decl.exported === true || getterOf(decl) !== null) continue
        const assigned = this.#memberFacts(cls).assigned.get(decl.name) ?? []
        if (assigned.some((a) => a.compound)) continue
        candidates.set(memberKey(cls, decl.name), { owner: cls, name: decl.name, built: assigned.every((a) => literal(a.expr)) })
      }
    }
    const kinds = new Map<string, "built" | "plain">()
    for (let changed = true; changed; ) {
      changed = false
      const assumed: ReadonlySet<string> = new Set(candidates.keys())
      for (const [key, { owner, name, built }] of candidates) {
        const others = writes.valuesOf(owner, name, assumed)
        const given = built ? [] : (this.#memberFacts(owner).assigned.get(name) ?? []).map((a) => this.eval(a.expr, a.fn))
        if (others !== null && (others.length === 0 || others.every(isPlainData)) && given.every(isPlainData)) {
          kinds.set(key, built && others.length === 0 ? "built" : "plain")
          continue
        }
        candidates.delete(key)
        kinds.delete(key)
        changed = true
      }
    }
    this.#dataKinds = kinds
    return kinds
  }

  /** What a member's class gives it: its default and its assignments (`=`) in its own and its subclasses' functions. */
  givenValues(owner: ClassRef, decl: VarDecl): ReadonlyArray<Val> {
    const assigned = this.#memberFacts(owner).assigned.get(decl.name) ?? []
    return [...(decl.init === null ? [] : [this.eval(decl.init, this.classFn(owner))]), ...assigned.filter((a) => !a.compound).map((a) => this.eval(a.expr, a.fn))]
  }

  /**
   * What the rest of the pack writes to a member its class gives only constant strings or new engine objects that
   * hold no data (`var label = Label.new()`: a forty-second hunt's name label given text), from its code, scenes
   * and resources (memberWrites.ts), or null when a writer is out of sight.
   */
  #writtenElsewhere(owner: ClassRef, name: string, given: ReadonlyArray<Val>, assigned: ReadonlyArray<{ readonly compound: boolean }>): ReadonlyArray<Val> | null {
    const closed = (v: Val): boolean => v.t === "str" || (v.t === "lit" && v.value === null) || (v.t === "inst" && !CONTAINER_TYPES.has(v.cls)) || v.t === "own"
    if (given.length === 0 || assigned.some((a) => a.compound) || !given.every(closed)) return null
    return this.#memberWrites()?.valuesOf(owner, name) ?? null
  }

  /**
   * What the rest of the pack writes to a member its class gives only the pack's data (or an empty start: `lines =
   * conversations[name]` after `var lines = []`), when every writer is in sight and writes that data too; else null.
   * A twenty-ninth false-positive hunt's dialogue box: the member was data of no known kind, its BBCode an error.
   */
  #dataWrittenElsewhere(owner: ClassRef, decl: VarDecl, assigned: ReadonlyArray<{ readonly expr: Expr; readonly fn: Fn; readonly compound: boolean }>): ReadonlyArray<Val> | null {
    if (assigned.length === 0 || assigned.some((a) => a.compound) || !holdsNothing(decl.init)) return null
    if (!assigned.every((a) => isPackData(this.eval(a.expr, a.fn)))) return null
    const others = this.#memberWrites()?.valuesOf(owner, decl.name)
    return others !== undefined && others !== null && others.every(isPackData) ? others : null
  }

  #memberWrites(): MemberWrites | null {
    return this.model.closedCalls ? this.#writesByName() : null
  }

  /** The pack's writes of members (memberWrites.ts), read also where calls are open; none in the Evaluator that finds them. */
  #writesByName(): MemberWrites | null {
    if (!this.#closesMembers || this.#dispatch === null) return null
    this.#writes ??= new MemberWrites(this.model, new Evaluator(this.model, this.idx, this.grammar, this.#dispatch, false), this.#dispatch, this.model.dataProperties)
    return this.#writes
  }

  #sealed: ReadonlyMap<string, SealedKind> | null = null
  #sealing = false
  /** In a probe of sealedMembers.ts: the members taken to be sealed, as their kind. */
  #assumed: ReadonlyMap<string, SealedKind> | null = null

  #sealedMembers(): ReadonlyMap<string, SealedKind> {
    if (this.#sealed !== null) return this.#sealed
    if (this.#sealing) return new Map()
    this.#sealing = true
    const fnOf = (ev: Evaluator, w: NamedWrite): Fn => ev.fnOf(w.cls, w.f, null, w.method)
    this.#sealed = sealedMembers({
      model: this.model,
      assigned: (cls) => this.#memberFacts(cls).assigned,
      probe: (assumed) => {
        const probe = this.#probe(assumed)
        return { given: (owner, decl) => probe.givenValues(owner, decl), written: (w) => probe.eval(w.value as Expr, fnOf(probe, w)), isLocal: (name, w) => probe.local(name, fnOf(probe, w)) !== null }
      },
      isNode,
    })
    this.#sealing = false
    return this.#sealed
  }

  /** An evaluator of its own (no memo shared) that takes the members of `assumed` to be sealed; the pack-wide indexes are shared. */
  #probe(assumed: ReadonlyMap<string, SealedKind>): Evaluator {
    const probe = new Evaluator(this.model, this.idx, this.grammar, this.#dispatch, this.#closesMembers)
    probe.#assumed = assumed
    probe.#sealed = assumed
    probe.#naming = this.#naming
    if (this.#dispatch !== null && this.model.closedCalls && !this.#naming) {
      probe.#callers = this.#callersIndex()
      probe.#named = this.#dispatchNames(probe.#callers)
    }
    probe.#writes = this.#writesByName()
    return probe
  }

  /**
   * What `obj.name()` returns for an object of class `ref` (or a call of `name` on self inside it): the
   * returns of its method and of every override in the pack's subclasses, since the object may be one
   * of them; null when the class has no such method.
   */
  methodReturn(ref: ClassRef, name: string, exact = false): Val | null {
    const own = this.model.method(ref, name)
    if (own === null) return null
    return joinAll([this.returnValue(own.owner, own.decl), ...(exact ? [] : this.#overrideReturns(ref, name))])
  }

  /** What a method `ref` lacks gives on an instance that may be of a subclass defining it: those returns, or the engine's value (not known). */
  #subclassReturns(ref: ClassRef, name: string, args: ReadonlyArray<Val>): Val {
    return joinAll([derived(...args), ...this.#overrideReturns(ref, name)])
  }

  /** What each subclass of `ref` that defines `name` returns from it. */
  #overrideReturns(ref: ClassRef, name: string): ReadonlyArray<Val> {
    return this.model.overrides(ref, name).map((sub) => {
      const m = this.model.method(sub, name)
      return m === null ? UNKNOWN : this.returnValue(m.owner, m.decl)
    })
  }

  /**
   * A call of a method of the pack that no subclass overrides, on self or on an object of the pack's class (`speaker_tag(a,
   * b)`, `Global.item_description(id)` of an autoload): the expressions it returns, evaluated in its own function (its
   * parameters hold what every call passes); null for any other call, or one with a bare `return`.
   */
  helperReturns(call: Extract<Expr, { k: "call" }>, fn: Fn, depth = 0): ReturnType<HelperReturns> {
    const { callee } = call
    if (depth >= MAX_HELPER_DEPTH) return null
    const recv: Val | null = callee.k === "id" || (callee.k === "member" && callee.obj.k === "self") ? { t: "own", ref: fn.cls } : callee.k === "member" ? this.eval(callee.obj, fn) : null
    const ref = recv?.t === "own" || recv?.t === "script" ? recv.ref : null
    const name = callee.k === "id" || callee.k === "member" ? callee.name : null
    const m = name === null || ref === null ? null : this.model.method(ref, name)
    if (name === null || ref === null || m === null || this.model.overrides(ref, name).length > 0) return null
    const returned = returnedExprs(m.decl.body)
    const returns = returned.filter((e): e is Expr => e !== null)
    if (returns.length !== returned.length) return null
    const inner = this.fnOf(m.owner, m.decl, null, true)
    return { returns, evaluate: (e: Expr): Val => this.eval(e, inner), helper: (c) => this.helperReturns(c, inner, depth + 1), localOf: this.#pieceLocals(inner, depth + 1) }
  }

  /** The locals of `fn` as bbcodePieces reads them, the helpers they call followed from `depth` on (helperReturns). */
  #pieceLocals(fn: Fn, depth: number): PieceLocal {
    return (name) => {
      const found = this.local(name, fn)
      return found === null ? null : { local: found.local, edited: this.model.mutatedInPlace(name), evaluate: (e: Expr): Val => this.eval(e, found.owner), helper: (c) => this.helperReturns(c, found.owner, depth) }
    }
  }

  /** Any value a function of the pack returns (null when it has no `return` with a value). */
  returnValue(owner: ClassRef, f: FunctionDecl): Val {
    const cached = this.#returns.get(f)
    if (cached !== undefined) return cached ?? UNKNOWN
    this.#returns.set(f, null)
    const fn = this.fnOf(owner, f, null, true)
    const value = joinAll(
      returnedExprs(f.body).map((e) => (e === null ? NULL : this.eval(e, fn))),
      NULL,
    )
    this.#returns.set(f, value)
    return value
  }

  #paramValues(param: ParamOf): ReadonlyArray<Val> {
    const own =
      param.fn === null
        ? []
        : (this.#factsOf(param.cls).calls.get(param.fn) ?? []).flatMap((site) => {
            const arg = site.args[param.index]
            return arg === undefined ? [] : [this.eval(arg, site.fn)]
          })
    // Calls from elsewhere: `Cls.new(a)`, `obj.f(a)`, dispatch by a constant name, setters, `_set` (reachingCalls.ts).
    if (this.#dispatch === null) return own
    const reaching = reachingArgs(param, this.#callersIndex(), this.model, (e, at) => this.eval(e, this.#siteFn(at)), (name, at) => this.local(name, this.#siteFn(at)) !== null, this.#dispatch)
    return [...own, ...reaching.map((r) => this.eval(r.expr, this.#siteFn(r.at)))]
  }

  // ---- names ----

  #evalLocal(local: Local, owner: Fn): Val {
    if (local.value !== undefined) return local.value
    const loops = local.loopsOver ?? []
    const elements = loops.length === 0 ? null : joinAll(loops.map((loop) => this.#loopElement(local, loop, owner)))
    // A name only loops give values to (not cached: the loops' containers may still be under evaluation); a string it
    // holds edited in place (`n.erase(0, 5)`, `n[0] = "e"`: a hundred-and-thirtieth red team's) is another.
    if (elements !== null && local.inits.length === 0 && local.appends.length === 0 && local.param === undefined) {
      const name = this.#nameOf(local, owner)
      return name === undefined ? elements : this.#editedInPlace(name, elements)
    }
    if (local.evaluating === true) return local.reentry ?? UNKNOWN
    local.evaluating = true
    local.reentry = this.#reentry(local, owner)
    const typed = this.typeVal(local.type, owner)
    // A typed parameter is checked when the function is called (GDScriptFunction::call); a local's values may not be.
    // Godot 3 stores a typed parameter's default as it is (gdscript_compiler.cpp compiles it as an untyped `=`: a
    // forty-second red team's `slot: int = up` held "../"); 4.x converts or refuses it.
    const given = local.inits.map((expr) => ({ expr, fn: owner, ...(this.grammar === 3 && expr === local.defaultValue ? { asIs: true as const } : {}) }))
    const unchecked = (): Val => (typed.t === "own" || (typed.t === "inst" && !isContainerType(typed)) ? this.#uncheckedInto(typed, given) : typed)
    let value = keepsLineEdit(typed) ? typed : unchecked()
    if (typed.t === "unknown" || keepsLineEdit(typed) || isContainerType(typed)) {
      // An init met while it is itself evaluated (`path = path + "../"` read at its own line) is worked out again.
      const parts = local.inits.map((init) => (owner.memo.get(init) === IN_PROGRESS ? this.#evalUncached(init, owner) : this.eval(init, owner)))
      if (local.param !== undefined) {
        // A function only the pack's own calls reach: what they pass (and its default value); else those of its class, and anything.
        const closed = local.param.fn === null ? null : this.#closedArgs(local.param.fn, local.param.index)
        const connected = closed !== null || local.param.fn === null ? null : this.#connectedArgs(local.param.fn, local.param.index)
        if (closed !== null) parts.push(...closed)
        else if (connected !== null) parts.push(...connected)
        else parts.push(...this.#paramValues(local.param), ...this.#signalArgs(local.param.fn, local.param.index), UNSEEN_CALLS)
      }
      const given = appended(joinAll(parts), local.appends.map((a) => this.eval(a, owner)))
      // A typed variable (`var e: LineEdit = …`) keeps only whether what it is given may be a SpinBox's LineEdit.
      // A typed container's appends (`files += [name]`) are among what it is given (a thirty-seventh red team's).
      const appendsGiven = isContainerType(typed) ? local.appends.map((a) => this.eval(a, owner)) : []
      value = typed.t === "unknown" ? given : asLineEdit(isContainerType(typed) ? typedHolding(typed, [...parts, ...appendsGiven]) : unchecked(), isLineEdit(given))
    }
    // A container something that may be a SpinBox's LineEdit is put into holds it (`list.append(sb.get_line_edit())`).
    const put = (local.puts ?? []).map((p) => this.eval(p, owner))
    if (put.some(isLineEdit)) value = asLineEdit(value)
    value = withElements(value, put, (local.parts ?? []).map((p) => this.eval(p, owner)))
    if (elements !== null) value = join(value, elements)
    value = this.#listingKept(value)
    const localName = this.#nameOf(local, owner)
    if (localName !== undefined) value = this.#editedInPlace(localName, value)
    // Data whose container another name may change (a twentieth-first red team's alias of pack JSON) is no longer that data.
    if (value.t === "unknown" && (value.json === true || value.plain === true || value.packData !== undefined) && this.#changedElsewhere(local, owner, new Set())) value = changedData(value)
    // The pack's data handed on by a way the analysis does not follow is no longer only the file's (#handedOn).
    if (value.t === "unknown" && value.packData !== undefined && localName !== undefined && this.#handedOn(localName, owner, new Map())) {
      const { packData: _files, dataSel: _sel, translated: _tr, ...rest } = value
      value = { ...rest, external: true }
    }
    local.evaluating = false
    local.value = value
    return value
  }

  /**
   * What a local given values built from itself (`path = path + "../"`) is inside that building: a string of the known
   * start its other values share (so the write's start is kept and its climb judged: a twenty-eighth red team's), else
   * a value not known.
   */
  #reentry(local: Local, owner: Fn): Val {
    const name = this.#nameOf(local, owner)
    if (name === undefined) return UNKNOWN
    const mentions = (e: Expr): boolean => {
      let found = false
      const walk = (x: Expr): void => {
        if (x.k === "id" && x.name === name) found = true
        else forEachChild(x, walk)
      }
      walk(e)
      return found
    }
    const seeds = local.inits.filter((e) => !mentions(e))
    if (seeds.length === local.inits.length || seeds.length === 0) return UNKNOWN
    const values = seeds.map((e) => this.eval(e, owner))
    const prefix = values.map(startOf).reduce(commonStart)
    return prefix === undefined || prefix === "" ? UNKNOWN : { t: "unknown", prefix, ...readFrom(values) }
  }

  /**
   * Whether the container a local holds may be changed through another name: a local it is given to (or a part of it
   * is: `var o = d["o"]`) that is written into (`o["a"] = v`, `o.append(v)`) or reaches on in turn, or a parameter of a
   * function of the pack it is passed to that does; any class's function of that name for a call on another object.
   */
  #changedElsewhere(local: Local, owner: Fn, seen: Set<Local>): boolean {
    const known = this.#changed.get(local)
    if (known !== undefined) return known
    if (seen.has(local)) {
      this.#cut = true
      return false
    }
    seen.add(local)
    const outer = this.#cut
    this.#cut = false
    const name = this.#nameOf(local, owner)
    const changed = name !== undefined && this.#reachesChange(name, owner, seen)
    // Kept unless a name met again on the way was taken as unchanged meanwhile (a chain of copies `var d2 = d1` walked
    // once: a hundred-and-twenty-fifth red team's thousand copies took minutes when each walked the rest again).
    if (changed || !this.#cut) this.#changed.set(local, changed)
    this.#cut ||= outer
    return changed
  }

  /** What a function hands on from the name `from` (an index built once per function, again if it gained some). */
  #reachesFrom(owner: Fn, from: string): ReadonlyArray<NonNullable<Fn["reaches"]>[number]> {
    const all = owner.reaches ?? []
    let index = this.#reachIndex.get(owner)
    if (index === undefined || index.size !== all.length) {
      index = { size: all.length, by: new Map() }
      for (const r of all) {
        const list = index.by.get(r.from)
        if (list === undefined) index.by.set(r.from, [r])
        else list.push(r)
      }
      this.#reachIndex.set(owner, index)
    }
    return index.by.get(from) ?? []
  }

  readonly #reachIndex = new WeakMap<Fn, { readonly size: number; readonly by: Map<string, Array<NonNullable<Fn["reaches"]>[number]>> }>()

  /** The name of a local of `owner` (an index built once per function, again if it gained locals). */
  #nameOf(local: Local, owner: Fn): string | undefined {
    let index = this.#localNames.get(owner)
    if (index === undefined || index.size !== owner.locals.size) {
      index = { size: owner.locals.size, names: new Map() }
      for (const [name, l] of owner.locals) if (!index.names.has(l)) index.names.set(l, name)
      this.#localNames.set(owner, index)
    }
    return index.names.get(local)
  }

  readonly #localNames = new WeakMap<Fn, { readonly size: number; readonly names: Map<Local, string> }>()

  /** Locals known to be changed elsewhere or not (#changedElsewhere). */
  readonly #changed = new WeakMap<Local, boolean>()
  /** Whether #changedElsewhere met a local again while it was asked (its answer then holds only for that walk). */
  #cut = false

  /**
   * Whether a member's container may be changed through another name in its class's functions: a loop's variable over
   * it, a local given it or a part of it, a parameter of a function it is passed to (a twenty-sixth red team's
   * `for e in levels: e["path"] = …`, `fix(levels[0])`), as for a local (#changedElsewhere).
   */
  #memberChangedElsewhere(owner: ClassRef, name: string): boolean {
    const key = memberKey(owner, name)
    const known = MEMBER_DATA_CHANGED.get(this.model) ?? new Map<string, boolean>()
    MEMBER_DATA_CHANGED.set(this.model, known)
    const cached = known.get(key)
    if (cached !== undefined) return cached
    // Worked out by an Evaluator of its own, in which the member is taken to be unchanged meanwhile (so a name holding
    // it is its data), free of what this one is in the middle of evaluating.
    known.set(key, false)
    const ev = new Evaluator(this.model, this.idx, this.grammar, this.#dispatch, false)
    const decl = this.model.decl(owner)
    const found =
      decl !== null &&
      [...decl.functions, ...decl.vars.flatMap((v) => v.accessors)].some((f) => {
        const fn = ev.fnOf(owner, f, null, true)
        if (!fn.locals.has(name) && ev.#reachesChange(name, fn, new Set())) return true
        // A write into whatever may be the data, however it got there (a parameter a signal or `call` gave it); one into
        // the member by its name (`cards[k] = c`) is among what its value was given (withElements).
        const itself = (e: Expr): boolean => (e.k === "id" && e.name === name && !fn.locals.has(name)) || (e.k === "member" && e.obj.k === "self" && e.name === name)
        // Which members always hold a container their class built is asked of this Evaluator: `ev` closes no member, so it
        // knows none (a hundred-and-twenty-third hunt's `placed.append(tower)` of `var placed = []` beside the towers' JSON).
        return writesIntoRunTimeData(f, (e) => ev.eval(e, fn), (e) => !isNumberValue(ev.eval(e, fn)), (e) => itself(e) || this.builtHere(e, fn))
      })
    known.set(key, found)
    return found
  }

  /**
   * Whether some function of the pack writes text into a container that may be data read at run time or a value the
   * analysis lost (a parameter a `call`, a signal or a setter gave it): a local's container handed on by such a way may
   * then be changed (a forty-fourth red team's `call("mod", d)` with `func mod(a): a[0] = "[img]…"`). Once per pack.
   */
  #writesIntoHandedOn(): boolean {
    const known = WRITES_INTO_HANDED_ON.get(this.model)
    if (known !== undefined) return known
    WRITES_INTO_HANDED_ON.set(this.model, true)
    const ev = new Evaluator(this.model, this.idx, this.grammar, this.#dispatch, true)
    // A property path past its first segment writes into what that property holds (`set_indexed("held:t", v)`: a
    // forty-seventh red team's), as for members (#writesIntoData).
    const found = (ev.#writesByName()?.constantPathsWriteInto() ?? true) || this.model.classes().some((cls) =>
      [...(this.model.decl(cls)?.functions ?? []), ...(this.model.decl(cls)?.vars ?? []).flatMap((v) => v.accessors)].some((f) => {
        const fn = ev.fnOf(cls, f, null, true)
        return writesIntoRunTimeData(f, (e) => ev.eval(e, fn), (e) => !isNumberValue(ev.eval(e, fn)), (e) => ev.builtHere(e, fn))
      }),
    )
    WRITES_INTO_HANDED_ON.set(this.model, found)
    return found
  }

  /** What a name holds where code of the pack may change it in place (PackModel.mutatedInPlace; editedText). */
  #editedInPlace(name: string, value: Val): Val {
    return this.model.mutatedInPlace(name) ? editedText(value) : value
  }

  /**
   * A constant visible in `ref` by name, read in `fn`: edited in place where code of the pack erases it (`NAME.erase(…)`
   * edits the script's constant for every function) or where `fn` edits its constant slots (editsConstantSlot).
   */
  #constant(ref: ClassRef, name: string, fn: Fn): Val | null {
    return this.#asRead(this.model.constant(ref, name, (expr, where) => this.eval(expr, this.classFn(where))), name, fn)
  }

  /** A constant `obj.NAME` reads (found by PackModel.memberConstant), read in `fn` as #constant is. */
  #memberConstant(c: { readonly owner: ClassRef; readonly init: Expr }, name: string, fn: Fn): Val | null {
    return this.#asRead(this.model.constantValue(c, name, (expr, where) => this.eval(expr, this.classFn(where))), name, fn)
  }

  #asRead(value: Val | null, name: string, fn: Fn): Val | null {
    if (value === null) return null
    return editsConstantSlot(fn.body) ? editedText(value) : this.#editedInPlace(name, value)
  }

  /**
   * An Array of folder listing entries stays one (values.ts listItems) only where no function of the pack puts anything
   * else into it or into a value that may be it, however it got there (a function of another class it is handed to):
   * worked out once per pack by an Evaluator of its own, the Arrays taken as kept meanwhile.
   */
  #listingKept(value: Val): Val {
    if (value.t !== "unknown" || value.listItems !== true) return value
    let kept = LISTINGS_KEPT.get(this.model)
    if (kept === undefined) {
      LISTINGS_KEPT.set(this.model, true)
      const ev = new Evaluator(this.model, this.idx, this.grammar, this.#dispatch, false)
      kept = !this.model.classes().some((cls) =>
        [...(this.model.decl(cls)?.functions ?? []), ...(this.model.decl(cls)?.vars ?? []).flatMap((v) => v.accessors)].some((f) => {
          const fn = ev.fnOf(cls, f, null, true)
          const isEntry = (e: Expr): boolean => {
            const v = ev.eval(e, fn)
            return v.t === "unknown" && v.listing === true
          }
          return writesIntoRunTimeData(f, (e) => ev.eval(e, fn), (e) => !isEntry(e), () => false)
        }),
      )
      LISTINGS_KEPT.set(this.model, kept)
    }
    if (kept) return value
    const { listItems: _items, ...rest } = value
    return rest
  }

  /**
   * Whether what local `name` holds (or a part of it) is handed on by a way the analysis does not follow: by name, bound,
   * emitted, resumed, put into another container or a kept literal, or given to a member (a forty-fourth and forty-fifth
   * red team's `call("mod", d)`, `emit_signal("s", d["x"])`, `held = d["x"]`), directly or through a local alias, where
   * some function of the pack writes text into data the analysis lost (#writesIntoHandedOn). Only the data's provenance
   * is dropped then: a member's container handed on so is covered by the pack-wide check (packDataMembers.ts).
   */
  #handedOn(name: string, owner: Fn, seen: Map<Fn, Set<string>>): boolean {
    const names = seen.get(owner) ?? new Set<string>()
    if (names.has(name)) return false
    names.add(name)
    seen.set(owner, names)
    for (const r of this.#reachesFrom(owner, name)) {
      if ("escapes" in r) {
        if (this.#writesIntoHandedOn()) return true
        continue
      }
      if (!("to" in r)) {
        // Handed to a function of the pack that hands its parameter on (a fifty-fourth red team's `stash(n, d)`, `func
        // stash(n, x): n.set_meta("k", x)`), at any depth.
        for (const target of this.#calleesOf(owner.cls, r.callee, r.member)) {
          const param = target.decl.params[r.index]
          if (param !== undefined && this.#handedOn(param.name, this.fnOf(target.owner, target.decl, null, true), seen)) return true
        }
        continue
      }
      if (owner.locals.has(r.to) ? this.#handedOn(r.to, owner, seen) : this.local(r.to, owner) === null && this.#writesIntoHandedOn()) return true
    }
    return false
  }

  /** Whether what `name` holds in `owner` reaches another name that writes a change into it (#changedElsewhere). */
  #reachesChange(name: string, owner: Fn, seen: Set<Local>): boolean {
    for (const r of this.#reachesFrom(owner, name)) {
      if ("escapes" in r) continue
      if ("to" in r) {
        const to = owner.locals.get(r.to)
        // A shallow copy (`var s = d.duplicate()`) shares only what d's entries hold: its own entries written (`s[k] = v`)
        // change no reader of d (a ninetieth hunt's style table); a part of one written (`s[k]["x"] = v`) does.
        const written = to === undefined ? false : r.shallow === true ? this.#writesChange(to, owner, true) : this.#writesChange(to, owner)
        if (to !== undefined && to !== owner.locals.get(name) && (written || this.#changedElsewhere(to, owner, seen))) return true
        continue
      }
      for (const target of this.#calleesOf(owner.cls, r.callee, r.member)) {
        const callee = this.fnOf(target.owner, target.decl, null, true)
        const param = target.decl.params[r.index]
        const p = param === undefined ? undefined : callee.locals.get(param.name)
        if (p !== undefined && (this.#writesChange(p, callee) || this.#changedElsewhere(p, callee, seen))) return true
      }
    }
    return false
  }

  /**
   * Whether what code writes into the container a local holds may change what the data is: a number or a bool (a
   * settings menu's `current["music_volume"] = 0.5`) or the pack's own data again (`line["text"] = tr(line["text"])`)
   * does not; anything else (a string, an object, a value out of sight) does.
   */
  #writesChange(local: Local, owner: Fn, innerOnly = false): boolean {
    if (innerOnly) return (local.innerParts ?? []).some((e) => !isNumberValue(this.eval(e, owner)))
    if (!writtenInto(local)) return false
    const name = this.#nameOf(local, owner)
    // A key written (`best["user://mod.gd"] = 0`) is one the data may then be walked by: only a word that names no
    // path keeps the data's keys the file's (a settings menu's `current["music_volume"]`; red team 24a's new key).
    let newKey = false
    forEachExpr(owner.body, (e) => {
      if (e.k === "bin" && isAssignment(e.op) && e.left.k === "index" && e.left.obj.k === "id" && e.left.obj.name === name && !(e.left.index.k === "str" && /^[A-Za-z0-9_ -]*$/.test(e.left.index.value))) newKey = true
    })
    if (newKey) return true
    return [...(local.puts ?? []), ...(local.parts ?? [])].some((e) => {
      // A translation of one of its own parts (`line["text"] = tr(line["text"])`): the data's string or a translation
      // of the pack's files; not where the pack defines its own `tr` or adds messages to a Translation at run time.
      if (name !== undefined && translatesOwnPart(e, name) && !this.model.anyClassDefines("tr") && !RUNTIME_MESSAGES.some((m) => this.model.mentions(m))) return false
      // Another string of the pack's data is a value the data did not hold there (a twenty-third red team's swap).
      return !isNumberValue(this.eval(e, owner))
    })
  }

  /** Whether some listing of the pack may hand out "." and "..": a `list_dir_begin` whose first argument is not `true`. */
  #listsNavigational(): boolean {
    this.#navigational ??= this.model.classes().some((cls) =>
      [...(this.model.decl(cls)?.functions ?? [])].some((f) => {
        let found = false
        forEachExpr(f.body, (e) => {
          if (e.k === "call" && e.callee.k === "member" && e.callee.name === "list_dir_begin" && !(e.args[0]?.k === "const" && e.args[0].value === true)) found = true
        })
        return found
      }),
    )
    return this.#navigational
  }

  #navigational: boolean | null = null

  /** The pack's functions a call of `name` may run: the class's own (bare), or every class's of that name (on an object). */
  #calleesOf(cls: ClassRef, name: string, member: boolean): ReadonlyArray<{ readonly owner: ClassRef; readonly decl: FunctionDecl }> {
    if (!member) {
      // The class's own, or a subclass's override of it, which a bare call in the base runs on an object of the subclass
      // (a fifty-fifth red team's `fix(d)` in a base whose `fix` does nothing).
      const own = this.model.method(cls, name)
      const overrides = this.model.overrides(cls, name).flatMap((sub) => (this.model.decl(sub)?.functions ?? []).filter((f) => f.name === name).map((decl) => ({ owner: sub, decl })))
      return [...(own === null ? [] : [own]), ...overrides]
    }
    return this.model.classes().flatMap((c) => (this.model.decl(c)?.functions ?? []).filter((f) => f.name === name).map((decl) => ({ owner: c, decl })))
  }

  /** What a loop variable holds in one loop: an element of the container; over range(…) or a number, numbers. */
  #loopElement(local: Local, loop: Expr, owner: Fn): Val {
    const typed = this.typeVal(local.type, owner)
    if ((typed.t !== "unknown" && !keepsLineEdit(typed)) || local.evaluating === true) return typed
    local.evaluating = true
    const over = this.eval(loop, owner)
    const numbers = (over.t === "lit" && typeof over.value === "number") || (loop.k === "call" && loop.callee.k === "id" && loop.callee.name === "range" && !this.model.defines(owner.cls, "range"))
    const exact = numbers ? null : this.#exactStrings(loop, owner)
    local.evaluating = false
    const element = numbers ? LIT : (exact ?? this.#nodeList(loop, owner) ?? elementOf(over))
    // A typed loop variable (`for b: Button in …`) keeps only whether the element may be a SpinBox's LineEdit.
    return typed.t === "unknown" ? element : asLineEdit(typed, isLineEdit(element))
  }

  /**
   * The strings a loop over `iter` gives, exactly: the items of an array, the keys of a dictionary (`for k in d`
   * walks its keys in both engines), `d.keys()` or `d.values()`, where the container is a literal or a constant
   * holding one that every use in the pack only reads (constantReads.ts). Null otherwise.
   */
  #exactStrings(iter: Expr, fn: Fn): Val | null {
    const view = iter.k === "call" && iter.callee.k === "member" && iter.args.length === 0 && (iter.callee.name === "keys" || iter.callee.name === "values") ? iter.callee : null
    const target = view?.obj ?? iter
    const found = target.k === "array" || target.k === "dict" ? [{ e: target, in: fn }] : this.#constantParts(target, fn)
    if (found === null) return null
    const keys: Array<string> = []
    const items: Array<TablePart> = []
    for (const { e: container, in: where } of found) {
      // A dictionary's keys are taken as written (`"speed"`, or `speed =`), never evaluated.
      if (container.k === "dict" && view?.name !== "values") {
        if (container.entries.length === 0 || !container.entries.every(([k]) => k.k === "str")) return null
        keys.push(...container.entries.map(([k]) => (k.k === "str" ? k.value : "")))
      } else if (container.k === "dict") items.push(...container.entries.map(([, v]) => ({ e: v, in: where })))
      else if (container.k === "array" && view === null && container.items.length > 0) items.push(...container.items.map((e) => ({ e, in: where })))
      else return null
    }
    const fromItems = items.length === 0 ? strs([]) : this.#allPartStrings(items)
    return fromItems?.t === "str" && keys.length + fromItems.values.length > 0 ? strs([...keys, ...fromItems.values]) : null
  }

  /** The values `format` is given in a literal Dictionary or Array, or null when they are not known (builtStrings.ts formatOf). */
  #formatValues(e: Expr | undefined, fn: Fn): ReadonlyArray<Val> | null {
    if (e?.k === "array") return e.items.map((item) => this.eval(item, fn))
    return e?.k === "dict" ? e.entries.map(([, v]) => this.eval(v, fn)) : null
  }

  /** The strings an element of a constant container may be (an Array's items, a Dictionary's values), when all are strings; null otherwise. */
  #constantElement(container: Expr, fn: Fn): Val | null {
    const found = this.#constantParts(container, fn)
    if (found === null || found.some((p) => p.e.k !== "array" && p.e.k !== "dict")) return null
    const items = found.flatMap((p) => (p.e.k === "array" ? p.e.items : p.e.k === "dict" ? p.e.entries.map(([, v]) => v) : []).map((e) => ({ e, in: p.in })))
    // Items that are all numbers or vectors (`DIRS[i]` of `[Vector2(1, 0), …]`): one such value.
    return this.#allPartStrings(items) ?? (items.length > 0 && items.every((p) => isArithmeticValue(this.eval(p.e, p.in))) ? ARITHMETIC_VALUE : null)
  }

  /** The strings of parts that are all strings (none: null). */
  #allPartStrings(parts: ReadonlyArray<TablePart>): Val | null {
    if (parts.length === 0) return null
    const values: Array<string> = []
    for (const part of parts) {
      const v = this.eval(part.e, part.in)
      if (v.t !== "str") return null
      values.push(...v.values)
    }
    return strs(values)
  }

  /**
   * The literals a read of a constant table every use only reads may give, each with where it is written: the table
   * (`T`, `Towers.ON_BUILD`), an entry or item of a part (`T[k]`, `T["a"]["b"]`: a constant key picks its entry, any
   * other key every item), a local given one such read and nothing else (`var info = POWERUPS[kind]`, then
   * `info["apply"]`), a loop variable over such a part (an Array's items, a Dictionary's keys). Null for anything else.
   * Inner Arrays and Dictionaries are the constant's own (constantReads.ts judges their every use, nestedTables.ts).
   */
  #constantParts(e: Expr, fn: Fn, depth = 0): ReadonlyArray<TablePart> | null {
    if (depth > MAX_TABLE_DEPTH) return null
    const local = e.k === "id" ? this.local(e.name, fn) : null
    if (local !== null) return this.#localParts(local.local, local.owner, depth)
    if (e.k === "id" || e.k === "member") {
      const found = this.#constantContainer(e, fn)
      if (found !== null) return [{ e: found.literal, in: found.in }]
      // `AI.slime` of a table of tables reads the key as `AI["slime"]` does (Godot's named get on a Dictionary; a
      // hundred-and-first hunt's `funcref(self, AI.slime.ai)`).
      return e.k === "member" ? this.#partsAt(this.#constantParts(e.obj, fn, depth + 1), e.name) : null
    }
    // A copy holds what the table holds (`var spec = BUTTONS[id].duplicate()`, a ninety-first hunt's button kit); a local
    // given one is followed only while nothing is written into it (#localParts).
    if (e.k === "call" && e.callee.k === "member" && e.callee.name === "duplicate" && e.args.length <= 1 && !this.model.anyClassDefines("duplicate")) return this.#constantParts(e.callee.obj, fn, depth + 1)
    if (e.k !== "index") return null
    const key = this.eval(e.index, fn)
    const one = key.t === "str" && key.values.length === 1 ? (key.values[0] ?? null) : key.t === "lit" && typeof key.value === "number" && key.float !== true ? key.value : null
    return this.#partsAt(this.#constantParts(e.obj, fn, depth + 1), one)
  }

  /** The items of table parts a key reads (#itemsAt of each); null when any part lacks them. */
  #partsAt(outer: ReadonlyArray<TablePart> | null, key: string | number | null): ReadonlyArray<TablePart> | null {
    if (outer === null) return null
    const out: Array<TablePart> = []
    for (const part of outer) {
      const items = this.#itemsAt(part.e, key)
      if (items === null) return null
      out.push(...items.map((item) => ({ e: item, in: part.in })))
    }
    return out
  }

  /** The items of a literal a key reads: the entry of a constant key, else every value (or item); null for a key it lacks or a literal of computed keys. */
  #itemsAt(literal: Expr, key: string | number | null): ReadonlyArray<Expr> | null {
    if (literal.k === "array") {
      if (typeof key === "string") return null
      const item = key === null ? undefined : literal.items[key]
      // A number in range picks its item (one out of range, or negative, any: Godot 3 counts those from the end).
      return item !== undefined && key !== null && Number.isInteger(key) && key >= 0 ? [item] : literal.items
    }
    if (literal.k !== "dict") return null
    // Only literal keys: Godot 3's parser refuses a repeated key only when both are constants as written, and a computed
    // one (`"g" + "o"`) set later in source order takes the entry's place (a fifty-eighth red team's; gdscript_parser.cpp).
    if (!literal.entries.every(([k]) => k.k === "str" || k.k === "num")) return null
    // A number picks the entry of a key written as that integer; with a key written otherwise (`0x1`, `1.0`), any.
    const plainNumbers = literal.entries.every(([k]) => k.k !== "num" || /^\d+$/.test(k.text))
    if (key === null || (typeof key === "number" && !plainNumbers)) return literal.entries.map(([, v]) => v)
    // A string picks every entry of that text (a String key and a NodePath key are two: ast.ts valuesAtKey); the engine
    // refuses two keys written alike.
    const values = typeof key === "string" ? valuesAtKey(literal, key) : literal.entries.filter(([k]) => k.k === "num" && Number(k.text) === key).map(([, v]) => v)
    return values.length === 0 ? null : values
  }

  /** The parts a local holds when every value it is given is a read of a constant table (#constantParts). */
  #localParts(local: Local, owner: Fn, depth: number): ReadonlyArray<TablePart> | null {
    if (local.appends.length > 0 || (local.puts?.length ?? 0) > 0 || (local.parts?.length ?? 0) > 0) return null
    // What it holds edited in place (`n.erase(0, 5)` of a loop's variable) is no item of the table.
    const name = this.#nameOf(local, owner)
    if (name !== undefined && this.model.mutatedInPlace(name)) return null
    if (local.param !== undefined) {
      // Given nothing in the function but its default (the first init), if it has one.
      const byDefault = local.defaultValue === undefined ? null : { expr: local.defaultValue, fn: owner }
      const plain = local.inits.length === (byDefault === null ? 0 : 1) && (byDefault === null || local.inits[0] === byDefault.expr)
      // A copy handed in (`run(T.duplicate())`) is the parameter's own container: followed only as a local's is (a
      // hundred-and-twenty-ninth red team's `fix(list)` then `OS.call(list[0], …)`).
      const keeps = (parts: ReadonlyArray<Expr>, deep: boolean): boolean => name !== undefined && onlyEntriesRead(owner.body, name, parts) && (!deep || deepCopyReadsLeaves(owner.body, name, parts))
      return plain && (local.loopsOver ?? []).length === 0 ? this.#paramParts(local.param, depth, byDefault, keeps) : null
    }
    const loops = local.loopsOver ?? []
    if (local.opaque) {
      if (local.inits.length > 0 || loops.length === 0) return null
      const out: Array<TablePart> = []
      for (const loop of loops) {
        const over = this.#constantParts(loop, owner, depth + 1)
        if (over === null) return null
        // A walk of a copy hands out the copy's own items (`for l in T.duplicate(true): fix(l)`, a hundred-and-twenty-ninth
        // red team's): followed only where the variable's every use reads them, as a local holding the copy.
        const walked = over.flatMap((part) => (part.e.k === "array" ? part.e.items : []))
        if (madeByCopy(loop) && (name === undefined || !onlyEntriesRead(owner.body, name, walked) || !deepCopyReadsLeaves(owner.body, name, walked))) return null
        for (const part of over) {
          // A Dictionary's keys, where every one is a string or a number: a key may be an Array or a Dictionary,
          // which a walk hands out by reference (a seventieth red team's `{{"m": "get_name"}: 1}`).
          const keys = part.e.k === "dict" && part.e.entries.every(([k]) => k.k === "str" || k.k === "num") ? part.e.entries.map(([k]) => k) : null
          const items = part.e.k === "array" ? part.e.items : keys
          if (items === null) return null
          out.push(...items.map((item) => ({ e: item, in: part.in })))
        }
      }
      return out
    }
    const [only] = local.inits
    if (local.inits.length !== 1 || only === undefined) return null
    // A literal of its own (`var names = ["attack", "flee"]`, a hundred-and-twenty-fifth hunt's `for n in names:
    // m.call(n)`): followed, as a deep copy is, where nothing else can reach it and only leaves are read out of it.
    if (only.k === "array" || only.k === "dict") return name !== undefined && onlyEntriesRead(owner.body, name, [only]) && deepCopyReadsLeaves(owner.body, name, [only]) ? [{ e: only, in: owner }] : null
    // A copy is the local's own container: followed only where nothing else can reach it (a ninety-second red team's
    // `var alias = spec`, `fix(spec)`, `for v in [spec]`, `set_meta("s", spec)`, `emit_signal("go", spec)` then a write).
    if (madeByCopy(only) && name === undefined) return null
    const parts = this.#constantParts(only, owner, depth + 1)
    if (parts !== null && madeByCopy(only) && name !== undefined && !onlyEntriesRead(owner.body, name, parts.map((p) => p.e))) return null
    // A deep copy's inner containers are its own (no write into them marks the constant): only leaves may be read out.
    if (parts !== null && deepCopy(only) && (name === undefined || !deepCopyReadsLeaves(owner.body, name, parts.map((p) => p.e)))) return null
    return parts
  }

  /**
   * The parts a parameter holds that nothing gives another value, of a function only the pack's calls reach (#isClosed),
   * each of which passes a read of a constant table (`make_button(item)` in a loop over `CATEGORIES[c]["items"]`: a
   * seventy-first hunt's shop). Null for any other parameter.
   */
  #paramParts(param: ParamOf, depth: number, byDefault: { readonly expr: Expr; readonly fn: Fn } | null, keeps: (parts: ReadonlyArray<Expr>, deep: boolean) => boolean): ReadonlyArray<TablePart> | null {
    if (param.fn === null || param.setterOf !== undefined) return null
    const given = this.closedArgExprs(param.fn, param.index, byDefault)
    if (given === null || given.length === 0) return null
    const out: Array<TablePart> = []
    for (const { expr, fn } of given) {
      const parts = this.#constantParts(expr, fn, depth + 1)
      if (parts === null || (madeByCopy(expr) && !keeps(parts.map((p) => p.e), deepCopy(expr)))) return null
      out.push(...parts)
    }
    return out
  }

  /** The name of a constant of the class holding an Array or Dictionary literal that is not followed (some use may change it), or null. */
  #unfollowedTable(e: Expr, fn: Fn): string | null {
    if (e.k !== "id" || this.local(e.name, fn) !== null || this.model.variable(fn.cls, e.name) !== null || this.model.onlyRead(e.name)) return null
    const init = this.model.constantInit(fn.cls, e.name)
    return init?.k === "array" || init?.k === "dict" ? e.name : null
  }

  /**
   * An Array or Dictionary literal, or a constant of the class (or a member nothing sets: #unsetMember) holding one whose
   * every use reads it; also such a constant of an autoload or a global class read by its name (`Towers.ON_BUILD`: a
   * sixty-fifth hunt's tower defence), where nothing of the class's own hides that name.
   */
  #constantContainer(e: Expr, fn: Fn): { readonly literal: Extract<Expr, { k: "array" | "dict" }>; readonly in: Fn } | null {
    if (e.k === "array" || e.k === "dict") return { literal: e, in: fn }
    if (e.k === "member") return this.#namedClassConstant(e, fn)
    if (e.k !== "id" || this.local(e.name, fn) !== null || !this.model.onlyRead(e.name)) return null
    // Its items are what names in them hold where it is declared, not in the function reading it (a fifty-third red
    // team's `const NAMES = {"a": Y}` read where a local or an inner class's constant is also named Y).
    const member = this.model.variable(fn.cls, e.name)
    const owner = member === null ? this.model.constantOwner(fn.cls, e.name) : member.owner
    const init = member === null ? this.model.constantInit(fn.cls, e.name) : this.#unsetMember(member.owner, member.decl)
    return owner !== null && (init?.k === "array" || init?.k === "dict") ? { literal: init, in: this.classFn(owner) } : null
  }

  /**
   * Whether a member is given only numbers: not exported, no setter or getter, every `=` of its class a number (the
   * member itself, `+ - * / %` of numbers, a value the evaluator knows is one), every writer elsewhere in sight
   * (memberWrites.ts) writing one. A compound assignment (`level += x`) keeps a number one or stops the script (3.x
   * refuses `int + String`); what `*=` may make of it (a Vector2) shows no `/`, `..` or NUL either.
   */
  #onlyNumbers(owner: ClassRef, decl: VarDecl): boolean {
    if (decl.exported === true || decl.accessors.length > 0 || (decl.accessorNames ?? []).length > 0) return false
    const numeric = (e: Expr, fn: Fn): boolean => {
      // The member itself, not a parameter or local of its name (a twenty-eighth red team's `self.slot = slot`).
      if (e.k === "num" || (e.k === "id" && e.name === decl.name && this.local(e.name, fn) === null) || (e.k === "member" && e.obj.k === "self" && e.name === decl.name)) return true
      if (e.k === "unary" && (e.op === "-" || e.op === "+")) return numeric(e.expr, fn)
      if (e.k === "bin" && ["+", "-", "*", "/", "%"].includes(e.op)) return numeric(e.left, fn) && numeric(e.right, fn)
      return isNumberValue(this.eval(e, fn))
    }
    const assigned = this.#memberFacts(owner).assigned.get(decl.name) ?? []
    if (!assigned.every((a) => a.compound || numeric(a.expr, a.fn))) return false
    const others = this.#memberWrites()?.valuesOf(owner, decl.name)
    return others !== undefined && others !== null && others.every((v) => v === COMPOUND_WRITE || isNumberValue(v))
  }

  /**
   * The default of a member that holds it for good, or null: not exported, and nothing of the
   * pack gives it another value (its class's and every other assignment make its name one not only read; writes by
   * name, scenes, resources and tracks: memberWrites.ts, which leaves it open when one may reach it out of sight).
   */
  #unsetMember(owner: ClassRef, decl: VarDecl): Expr | null {
    // A setter or getter changes nothing here: with no assignment of the name anywhere (PackModel.assignedAnywhere), a
    // setter stores nothing in the member (a 4.x plugin's `set(v): v`), and a getter's value is read through memberRead.
    if (decl.exported === true) return null
    return this.#memberWrites()?.valuesOf(owner, decl.name)?.length === 0 ? decl.init : null
  }

  #evalName(name: string, fn: Fn): Val {
    // A local's own slot read before it is given a value: whatever an earlier expression left there (blockScopes.ts).
    if (name === STALE_SLOT) return STALE_VALUE
    const found = this.local(name, fn)
    if (found !== null) return this.#evalLocal(found.local, found.owner)
    const member = this.model.variable(fn.cls, name)
    if (member !== null) return this.memberRead(member.owner, member.decl, fn)
    const constant = this.#constant(fn.cls, name, fn)
    if (constant !== null) return constant
    // The engine's classes and singletons come before the pack's classes (an inner class of that name makes the engine refuse the script).
    const guard = this.idx.guarded.get(name)
    if (guard !== undefined) return { t: "guard", name: guard }
    const inner = this.model.isEngineName(name) ? null : this.model.innerClass(fn.cls, name)
    if (inner !== null) return { t: "script", ref: inner }
    // An autoload's node before a registered class of the same name (the engine's global names come first).
    const autoload = this.model.autoload(name)
    if (autoload !== null) return { t: "own", ref: autoload }
    if (this.model.autoloadUnknown(name)) return UNKNOWN
    const cls = this.model.globalClass(name)
    if (cls !== null) return { t: "script", ref: cls }
    // Node's `owner` property is what get_owner() gives (a node or null), unless a script answers the name itself
    // (`_get`): a drag-and-drop slot's `owner.call(item.use_method)`, a hundred-and-eighteenth hunt's.
    if (name === "owner" && !this.model.anyClassDefines("_get")) return asLineEdit(NODE_VAL, this.#reachesLineEdit({ t: "own", ref: fn.cls }, "get_owner", []))
    return UNKNOWN
  }

  // ---- values ----

  eval(e: Expr, fn: Fn): Val {
    const cached = fn.memo.get(e)
    // An expression met again while it is evaluated: a local's name gives what the local is inside its own values.
    if (cached === IN_PROGRESS) return e.k === "id" ? (this.local(e.name, fn)?.local.reentry ?? UNKNOWN) : UNKNOWN
    if (cached !== undefined) {
      // A kept value worked out from a stand-in taints what is worked out from it in turn.
      if (this.#tainted.length > 0 && this.#taintedIn.get(fn.memo)?.has(e) === true) this.#standIns++
      return cached
    }
    fn.memo.set(e, IN_PROGRESS)
    const stand = this.#standIns
    const v = this.#evalUncached(e, fn)
    fn.memo.set(e, v)
    // A value worked out from a member's stand-in (read while that member is worked out) is kept only until the members
    // being worked out are known: then it is worked out anew (a hundred-and-twentieth hunt's `effects.call(card.effect,
    // v)` read `effects` first while its own writers were judged, and kept "not known" for good). Kept meanwhile: not
    // kept at all, a hundred-and-twenty-fourth red team's nested loops over `[m, …]` were worked out 2^n times.
    if (this.#standIns !== stand) {
      this.#tainted.push({ memo: fn.memo, e })
      let marked = this.#taintedIn.get(fn.memo)
      if (marked === undefined) this.#taintedIn.set(fn.memo, (marked = new WeakSet()))
      marked.add(e)
    }
    return v
  }

  /** How many times a member was read while it was worked out (memberValue answers its type then). */
  #standIns = 0
  /** Members being worked out. */
  #working = 0
  /** Values kept that were worked out from a stand-in, dropped once no member is being worked out. */
  #tainted: Array<{ readonly memo: WeakMap<Expr, Val>; readonly e: Expr }> = []
  #taintedIn = new WeakMap<WeakMap<Expr, Val>, WeakSet<Expr>>()

  #startMember(key: string): void {
    this.#members.set(key, null)
    this.#working++
  }

  #settleMember(key: string, value: Val): void {
    const was = this.#members.get(key)
    this.#members.set(key, value)
    if (was !== null || --this.#working > 0) return
    for (const { memo, e } of this.#tainted) memo.delete(e)
    this.#tainted = []
    this.#taintedIn = new WeakMap()
  }

  #evalUncached(e: Expr, fn: Fn): Val {
    switch (e.k) {
      case "str": {
        const texts = strs(isNodePathFlavor(e.flavor, this.grammar) ? nodePathNames(e.value) : [e.value])
        return editsConstantSlot(fn.body) ? editedText(texts) : texts
      }
      case "num": {
        const n = numberLiteral(e.text)
        return n === null ? LIT : { t: "lit", value: n.value, ...(n.float ? { float: true as const } : {}) }
      }
      case "const":
        return { t: "lit", value: e.value }
      case "id":
        return this.#evalName(e.name, fn)
      case "self":
        return { t: "own", ref: fn.cls }
      case "node":
        // `$"@@3"`: a generated name, such as a SpinBox's LineEdit has (spinBoxText.ts).
        return asLineEdit(NODE_VAL, e.path.includes("@"))
      case "preload":
        return this.scriptAt(this.eval(e.path, fn), fn, "preload")
      case "cast": {
        const inner = this.eval(e.expr, fn)
        const typed = this.typeVal(e.type, fn)
        return typed.t === "unknown" || isExternal(inner) ? inner : asLineEdit(typed, keepsLineEdit(typed) && isLineEdit(inner))
      }
      case "ternary":
        return join(this.eval(e.then, fn), this.eval(e.else, fn))
      case "member":
        return this.#evalMember(e, fn)
      case "call":
        return this.#evalCall(e, fn)
      case "bin":
        return this.#evalBinary(e, fn)
      case "unary": {
        const v = this.eval(e.expr, fn)
        if ((e.op === "not" || e.op === "!") && v.t === "lit" && v.value !== undefined) return { t: "lit", value: !godotTruth(v.value) }
        if (e.op === "-" && v.t === "lit" && typeof v.value === "number") return { ...v, value: -v.value }
        return derived(v)
      }
      case "index": {
        // An element holds one of the strings the container was built with, or anything.
        const node = this.#nodeList(e.obj, fn)
        if (node !== null) return node
        const index = this.eval(e.index, fn)
        // A constant table every use only reads, by a constant key (`COLORS["rare"]`: a fifty-seventh hunt's): that entry.
        const entry = index.t === "str" && index.values.length === 1 ? (this.#constantEntry(e.obj, index.values[0] ?? "", fn) ?? this.#localEntry(e.obj, index.values[0] ?? "", fn)) : null
        if (entry !== null) return entry
        // An element of a constant every use only reads, by an index not constant (`LEVELS[i]`): one of its items; by a
        // number, that item where every part is an Array (`cond[0]` of a loop over lists of a name and its arguments:
        // a seventy-second hunt's dialogue conditions).
        if (!(index.t === "str" && index.values.length === 1)) {
          const parts = index.t === "lit" && typeof index.value === "number" ? this.#constantParts(e, fn) : null
          const exact = (parts === null ? null : this.#allPartStrings(parts)) ?? this.#constantElement(e.obj, fn)
          if (exact !== null) return exact
        }
        const obj = this.eval(e.obj, fn)
        // A constant key (`d["icon"]`) says which part of the pack's data the element is.
        const element = elementOf(obj, index.t === "str" && index.values.length === 1 ? (index.values[0] ?? null) : null)
        const found = isExternal(index) && !isAnyObject(element) ? { ...element, external: true as const } : element
        const unfollowed = found.t === "unknown" ? this.#unfollowedTable(e.obj, fn) : null
        return unfollowed === null || found.t !== "unknown" ? found : { ...found, unfollowed }
      }
      case "array":
      case "dict": {
        // A Dictionary's keys are what it holds too: `keys()` hands them back (a forty-third red team's `{Global.items["gem"]:
        // 0}.keys().front()` was the pack's data, written through as a container of no pack data).
        const items = (e.k === "array" ? e.items : e.entries.flatMap(([k, v]) => [k, v])).map((x) => this.eval(x, fn))
        if (items.some((v) => v.t === "guard" || isAnyObject(v))) return ANY_OBJECT
        const some = [...new Set(items.flatMap(knownStrings))].slice(0, MAX_ALTERNATIVES)
        const elems = [...new Set(items.flatMap(instsOf))].slice(0, 8)
        const container = derived(...items)
        // An empty Array literal: what it holds is what is put into it (withElements: listing entries keep `listItems`).
        const empty = items.length === 0 ? { empty: true as const, ...(e.k === "array" ? { listItems: true as const } : {}) } : {}
        const fresh = items.every(holdsNoPack) ? { noPack: true as const } : {}
        return { ...container, ...(some.length === 0 ? {} : { some }), ...(elems.length === 0 ? {} : { elems }), ...(items.some(isLineEdit) ? { lineEdit: true as const } : {}), plain: true, ...empty, ...fresh, copy: true }
      }
      case "lambda":
        return { t: "inst", cls: "Callable" }
      default:
        return UNKNOWN
    }
  }

  /**
   * The pack's script at a path, a script from elsewhere, or UNKNOWN. `preload` simplifies a path relative to
   * the script; `load` looks a path up as written, a relative one under res:// (packPath.ts), and one not in
   * simplified form is never the pack's file.
   */
  scriptAt(p: Val, fn: Fn, how: "preload" | "load"): Val {
    if (p.t !== "str" || p.values.length !== 1) return UNKNOWN
    const path = p.values[0] ?? ""
    const script = this.model.scripts.get(fn.cls.script)
    const joined = how === "preload" ? preloadPath(path, script) : null
    const lookup = how === "preload" ? (joined === null ? null : { path: joined, untidy: null }) : packLookup(path, null, script?.grammar ?? 3)
    const ref = lookup !== null && lookup.untidy === null ? this.model.scriptAt(lookup.path) : null
    if (ref !== null) return { t: "script", ref }
    if (SCRIPT_EXTENSIONS.has(extensionOf(path))) return { t: "inst", cls: "GDScript" }
    return RESOURCE_EXTENSIONS.has(extensionOf(path)) ? { t: "unknown", packResource: lookup?.path ?? path } : UNKNOWN
  }

  /** `Holder.NAME` where Holder is an autoload or a global class no name of the function or class hides, NAME a constant of its holding a literal every use reads. */
  #namedClassConstant(e: Extract<Expr, { k: "member" }>, fn: Fn): { readonly literal: Extract<Expr, { k: "array" | "dict" }>; readonly in: Fn } | null {
    if (e.obj.k !== "id" || this.local(e.obj.name, fn) !== null || this.model.variable(fn.cls, e.obj.name) !== null || this.model.constantInit(fn.cls, e.obj.name) !== null) return null
    if (!this.model.onlyRead(e.name)) return null
    // An inner class of that name (of the class, its bases or its outer classes) comes before an autoload or a global class:
    // the compiler finds it among the class's constants (a hundred-and-third red team's `class Towers` beside an autoload).
    const inner = this.model.isEngineName(e.obj.name) ? null : this.model.innerClass(fn.cls, e.obj.name)
    const holder = inner ?? this.model.tableHolder(e.obj.name)
    // The holder's constant as `Holder.NAME` reads it: of the class and its bases, not of an outer class.
    const found = holder === null ? null : this.model.memberConstant(holder, e.name)
    const owner = found === null || "inner" in found ? null : found.owner
    const init = found === null || "inner" in found ? null : found.init
    return owner !== null && (init?.k === "array" || init?.k === "dict") ? { literal: init, in: this.classFn(owner) } : null
  }

  /**
   * What a local Dictionary created by a literal holds under `key` where no code of its function can have changed that
   * entry (containerUse.ts entryKept): a save function's `var data = {"grid": {}}` then `data.grid[k] = v` writes into
   * a Dictionary, not a property of an object (a hundred-and-thirteenth hunt's city builder). Null for anything else.
   */
  #localEntry(container: Expr, key: string, fn: Fn): Val | null {
    const found = container.k === "id" ? this.local(container.name, fn) : null
    if (found === null || container.k !== "id") return null
    const { local, owner } = found
    const init = local.inits[0]
    if (local.param !== undefined || local.opaque || local.inits.length !== 1 || local.appends.length > 0 || init?.k !== "dict") return null
    // A key built at run time may be `key` too: the engine builds the literal pair by pair, the later winning (3.x checks
    // only constant keys for duplicates), so `{"m": "get_name", k: "execute"}` with `k = "m"` holds "execute" (a
    // hundred-and-nineteenth red team's).
    if (init.entries.some(([k]) => k.k !== "str" && k.k !== "num" && k.k !== "const")) return null
    const items = valuesAtKey(init, key)
    if (items.length === 0 || !entryKept(owner.body, container.name, key, (n) => this.model.anyClassDefines(n))) return null
    return joinAll(items.map((item) => this.eval(item, owner)))
  }

  /** The strings a constant Dictionary every use only reads (or such a part of one) holds under `key` (null for anything else). */
  #constantEntry(container: Expr, key: string, fn: Fn): Val | null {
    const found = this.#constantParts(container, fn)
    if (found === null || found.some((p) => p.e.k !== "dict")) return null
    const entries = found.map((p) => ({ items: this.#itemsAt(p.e, key), in: p.in }))
    return entries.some((x) => x.items === null) ? null : this.#allPartStrings(entries.flatMap((x) => (x.items ?? []).map((e) => ({ e, in: x.in }))))
  }

  #evalMember(e: Extract<Expr, { k: "member" }>, fn: Fn): Val {
    // `COLORS.rare`: Godot 3 reads a Dictionary's key so, as `COLORS["rare"]` (a fifty-seventh hunt's).
    const entry = this.#constantEntry(e.obj, e.name, fn) ?? this.#localEntry(e.obj, e.name, fn)
    if (entry !== null) return entry
    const obj = this.eval(e.obj, fn)
    // A name that is both an autoload and a registered class: either's member (see PackModel.autoload).
    const cls = e.obj.k === "id" && obj.t === "own" && this.local(e.obj.name, fn) === null && !this.model.defines(fn.cls, e.obj.name) ? this.model.globalClass(e.obj.name) : null
    if (cls !== null && e.obj.k === "id" && this.model.autoload(e.obj.name) !== null) return join(this.#memberOf(obj, e, fn), this.#memberOf({ t: "script", ref: cls }, e, fn))
    return this.#memberOf(obj, e, fn)
  }

  #memberOf(obj: Val, e: Extract<Expr, { k: "member" }>, fn: Fn): Val {
    // An object made of one class may carry another script by the time it is read (`o.set_script(B)` then `o.M`: a
    // hundred-and-eighteenth red team's): Object::get asks the script attached then (GDScriptInstance::get).
    if (obj.t === "own" && this.model.swapsScripts()) return this.#memberOfAnyScript(obj.ref, e, fn)
    if (obj.t === "script" || obj.t === "own") return this.#classMember(obj.ref, e, fn) ?? UNKNOWN
    if (isAnyObject(obj)) return CONNECTION_NAMES.has(e.name) ? UNKNOWN : ANY_OBJECT
    if (obj.t === "unknown" && obj.json === true) return JSON_PART(obj, e.name)
    // A field of a date (`OS.get_datetime().year`): a number.
    if (obj.t === "unknown" && obj.numberItems === true) return LIT
    // A field of a built-in value (`cell.x` of a Vector2, `rect.size`, `color.r`): a number or another such value, never
    // text, so no property's name (a match-3's `grid[a.x][a.y] = gem`, a hundredth hunt's).
    if (isBuiltInValue(obj)) return LIT
    const parsed = JSON_DATA[this.grammar].has(e.name) ? this.#parsedJson(e.obj, fn) : null
    if (parsed !== null) return parsed
    // An engine class's constant (`Vector2.ONE`, `Tween.TRANS_QUAD`): a value, never an object.
    if (e.obj.k === "id" && obj.t === "unknown" && /^[A-Z][A-Z0-9_]*$/.test(e.name) && this.model.isEngineName(e.obj.name) && !this.isOwnName(e.obj.name, fn)) return VALUE_TYPES.has(e.obj.name) ? { t: "inst", cls: e.obj.name } : LIT
    // `OS.get_name` taken as a value is a bound method (a Callable in 4.x); `File.WRITE` a constant. ProjectSettings
    // answers any other name with the setting of that name (core/project_settings.cpp `_get`), which may be any text
    // (a key before the first section of project.godot: a twenty-first red team's path climbing out of user://).
    if (obj.t === "guard") return /^[a-z_]/.test(e.name) ? { t: "method", target: obj, name: e.name } : DYNAMIC_SINGLETONS.has(obj.name) ? UNKNOWN : { t: "lit" }
    if (isObjectOfUnknownScript(obj)) return this.#memberOfAnyClass(e.name) ?? derived(obj)
    // A property of a resource of the pack (`CFG.save_path` of `preload("res://cfg.tres")`): of a scripted Resource, what
    // its class's member may hold, with the values the pack's resources set; of any other engine class, or one not
    // known, the pack's data, not known: an ArrayMesh answers any `surfaces…` name itself (ArrayMesh::_get, a
    // hundred-and-tenth red team's). A hundred-and-eighth red team's write path was kept in a `.tres`.
    // A path a `.remap` or the settings may send elsewhere loads what the scanner did not type (a hundred-and-eleventh
    // red team's decoy `.tres` remapped to an ArrayMesh).
    if (obj.t === "unknown" && obj.packResource !== undefined) return this.model.resourceTypes.get(obj.packResource) === "Resource" && !this.model.redirectedPaths.has(obj.packResource) ? (this.#memberOfAnyClass(e.name) ?? EXTERNAL) : EXTERNAL
    // `d.icon` of a Dictionary is `d["icon"]`: a part of the pack's data, when followed.
    return { ...derived(obj), ...dataPart(obj, e.name) }
  }

  /** A class's (or its bases') constant, inner class or variable `obj.name` reads, never an outer class's (PackModel.memberConstant); null when none. */
  #classMember(ref: ClassRef, e: Extract<Expr, { k: "member" }>, fn: Fn): Val | null {
    const found = this.model.memberConstant(ref, e.name)
    if (found !== null) return "inner" in found ? { t: "script", ref: found.inner } : (this.#memberConstant(found, e.name, fn) ?? UNKNOWN)
    const member = this.model.variable(ref, e.name)
    return member === null ? null : this.memberRead(member.owner, member.decl, null)
  }

  /**
   * `obj.name` on an object made of class `made` where scripts are attached at run time: what any class of the pack
   * declares under that name; not known where a class answers names itself (`_get`), none declares it, or the engine
   * class may answer (a property of that name). The object's engine class stays the one it was made with, and Godot 3
   * refuses a script variable named as a property of its engine base ("The member … already exists in a parent
   * class"): a variable of that name in the class it was made with says its engine class has no such property.
   */
  #memberOfAnyScript(made: ClassRef, e: Extract<Expr, { k: "member" }>, fn: Fn): Val {
    if (isEngineProperty(e.name) && !(this.grammar === 3 && this.model.variable(made, e.name) !== null)) return UNKNOWN
    const values: Array<Val> = []
    for (const cls of this.model.classes()) {
      if (this.model.decl(cls)?.functions.some((f) => f.name === "_get") !== false) return UNKNOWN
      const value = this.#classMember(cls, e, fn)
      if (value !== null) values.push(value)
    }
    return values.length === 0 ? UNKNOWN : joinAll(values)
  }

  /**
   * What `obj.name` reads on an engine object of unknown script in a Godot 3 pack (anyClassMember.ts): the values of
   * the pack's members of that name when each is closed to constant strings; null otherwise.
   */
  #memberOfAnyClass(name: string): Val | null {
    const members = membersOfAnyClass(this.model, this.grammar, name, true)
    if (members === null) return null
    const values = members.map((m) => this.memberRead(m.owner, m.decl, null))
    return values.every((v) => v.t === "str") ? joinAll(values) : null
  }

  /**
   * Whether `e` is an Array of nodes only: what an engine object's `get_children()` or
   * `get_nodes_in_group()` gives, directly or through locals that keep it unchanged (see containerUnchanged).
   */
  #nodeList(e: Expr, fn: Fn, depth = 0): Val | null {
    const element = (recv: Val, name: string, args: ReadonlyArray<Expr>): Val => asLineEdit(NODE_VAL, this.#reachesLineEdit(recv, name, args.map((a) => this.eval(a, fn))))
    if (e.k === "call" && e.callee.k === "id") return GIVES_NODES.has(e.callee.name) && !this.model.defines(fn.cls, e.callee.name) ? element({ t: "own", ref: fn.cls }, e.callee.name, e.args) : null
    if (e.k === "call" && e.callee.k === "member" && GIVES_NODES.has(e.callee.name)) {
      const recv = this.eval(e.callee.obj, fn)
      return recv.t === "inst" || (recv.t === "own" && !this.model.defines(recv.ref, e.callee.name)) ? element(recv, e.callee.name, e.args) : null
    }
    if (e.k !== "id" || depth >= MAX_NODE_LIST_DEPTH) return null
    const found = this.local(e.name, fn)
    if (found === null) return null
    const { local, owner } = found
    const init = local.inits[0]
    if (local.param !== undefined || local.opaque || local.inits.length !== 1 || local.appends.length > 0 || (local.puts ?? []).length > 0 || init === undefined) return null
    return containerUnchanged(owner.body, e.name) ? this.#nodeList(init, owner, depth + 1) : null
  }

  /**
   * JSON's data read from `obj` (jsonData.ts): 3.x `JSON.parse(t)`, or a local given only that whose every use
   * reads it; 4.x a local given only `JSON.new()` whose every use reads it or parses text with it. Null otherwise.
   */
  #parsedJson(obj: Expr, fn: Fn): Val | null {
    const engine = (n: string): boolean => !this.isOwnName(n, fn)
    const parse = jsonCall(obj, "parse", engine)
    if (this.grammar === 3 && parse !== null) return jsonOf(parse.args.slice(0, 1).map((a) => this.eval(a, fn)))
    const found = obj.k === "id" ? this.local(obj.name, fn) : null
    if (found === null || obj.k !== "id") return null
    const { local, owner } = found
    const init = local.inits[0]
    if (local.param !== undefined || local.opaque || local.inits.length !== 1 || local.appends.length > 0 || init === undefined) return null
    const made = this.grammar === 3 ? jsonCall(init, "parse", engine) : init.k === "call" && init.args.length === 0 ? jsonCall(init, "new", engine) : null
    const texts = made === null ? null : parsedTexts(owner.body, obj.name, this.grammar)
    if (made === null || texts === null) return null
    return jsonOf([...(this.grammar === 3 ? made.args.slice(0, 1) : texts)].map((a) => this.eval(a, owner)))
  }

  #evalBinary(e: Extract<Expr, { k: "bin" }>, fn: Fn): Val {
    if (isAssignment(e.op)) return this.eval(e.right, fn)
    const l = this.eval(e.left, fn)
    const r = this.eval(e.right, fn)
    // A vector, colour or quaternion plus or minus anything is one of its kind or stops the script: Godot adds and
    // subtracts such a value only with one of the same type (`u.grid_pos + Vector2(1, 0)`, a hundred-and-third hunt's).
    const vector = e.op === "+" || e.op === "-" ? [l, r].find(isSummedValue) : undefined
    if (vector !== undefined && l.t !== "str" && r.t !== "str") return vector
    // Godot subtracts only numbers, vectors, colours and quaternions (Variant::evaluate's OP_SUBTRACT), and adds one
    // of those only to its kind: `(a - b).sign()` and `pos + step` are such values, never text or an object (a
    // strategy game's `grid[to.x][to.y] = u`, a hundred-and-third hunt's).
    // (With a number on a side the operator's own reading below gives a number.)
    if ((e.op === "-" || (e.op === "+" && [l, r].some(isArithmeticValue))) && l.t !== "str" && r.t !== "str" && !isNumberValue(l) && !isNumberValue(r)) return ARITHMETIC_VALUE
    if (e.op === "+") {
      if (l.t === "str" && r.t === "str") return strs(l.values.flatMap((a) => r.values.map((b) => a + b)))
      if (l.t === "str" && l.values.length === 1) return { t: "unknown", prefix: l.values[0] ?? "", ...endOf(r), ...(r.t === "unknown" && r.digitsOnly === true && numbersBetween(`${l.values[0] ?? ""}${r.prefix ?? ""}`) ? { digitsOnly: true as const } : {}), ...readFrom([r]) }
      // The user data folder and a known rest: still exact.
      if (l.t === "unknown" && l.dataDir === true && r.t === "str" && r.values.length === 1) return { t: "unknown", prefix: `${l.prefix ?? ""}${r.values[0] ?? ""}`, dataDir: true, ...endOf(r) }
      // Numbers then text, or numbers again (`str(slot) + "_of_" + str(count)`): digits still, unless the text climbs.
      const digitsAfter = r.t === "str" ? r.values.every((x) => numbersBetween(`${l.t === "unknown" ? (l.suffix ?? "") : ""}${x}`)) : r.t === "unknown" && r.digitsOnly === true && numbersBetween(`${l.t === "unknown" ? (l.suffix ?? "") : ""}${r.prefix ?? ""}`)
      // Known by its start, or numbers with no text before (`str(dt.year) + "-" + …`): the start kept, digits while they last.
      if (l.t === "unknown" && (l.prefix !== undefined || l.digitsOnly === true)) return { t: "unknown", ...(l.prefix === undefined ? {} : { prefix: l.prefix }), ...endOf(r), ...(l.digitsOnly === true && digitsAfter ? { digitsOnly: true as const } : {}), ...readFrom([l, r]) }
      if (l.t === "lit" && r.t === "lit" && typeof l.value === "number" && typeof r.value === "number") {
        const float = l.float === true || r.float === true
        // int64 in the engine: a sum a double cannot hold exactly is not folded (floats add as doubles, as there).
        const sum = l.value + r.value
        return float || exactInt(sum) ? { t: "lit", value: sum, ...(float ? { float: true as const } : {}) } : LIT
      }
      // Text ending in a known part is text with that end (`name + ".json"`).
      return r.t === "str" || (r.t === "unknown" && r.suffix !== undefined) ? { ...derived(l, r), ...endOf(r) } : operatorResult(e.op, l, r)
    }
    if (e.op === "%" && l.t === "str") {
      const args = e.right.k === "array" ? e.right.items.map((x) => this.eval(x, fn)) : [r]
      const constant = args.map(foldArg)
      if (l.values.length === 1) {
        const formatted = constant.every((a): a is FoldArg => a !== null) ? formatString(this.grammar, l.values[0] ?? "", constant) : null
        if (formatted !== null) return strs([formatted])
        // Read as the engine reads it (formatSpecs.ts): a format it refuses stops the script, so nothing is known of a value.
        const parts = parseFormat(l.values[0] ?? "", this.grammar)
        if (parts === null) return derived(...args)
        const first = parts[0]
        // `%s` of a number shows only its digits, sign and point, as `%d` does.
        let at = 0
        const numbersOnly = parts.every((p) => {
          const item = takesValue(p) ? args[at++] : undefined
          // `%c` of a number is the character of that code (46 is ".", 47 is "/"): not digits.
          return p.k === "text" || isNumeric(p) || (p.k === "string" && item !== undefined && isNumberLike(item))
        })
        const texts = parts.flatMap((p) => (p.k === "text" ? [p.text] : []))
        return { t: "unknown", prefix: first?.k === "text" ? first.text : "", ...endOf(strs([textAfterLast(parts)])), ...(numbersOnly && numbersBetween(...texts) ? { digitsOnly: true as const } : {}), ...readFrom(args) }
      }
      return derived(...args)
    }
    const folded = compare(e.op, l, r)
    return folded ?? operatorResult(e.op, l, r)
  }

  #evalCall(e: Extract<Expr, { k: "call" }>, fn: Fn): Val {
    const callee = e.callee
    const args = e.args.map((a) => this.eval(a, fn))
    if (callee.k === "id") return this.#evalBareCall(callee.name, e.args, args, fn)
    if (callee.k !== "member") return derived(...args)
    return this.evalMethod(this.eval(callee.obj, fn), callee.obj, callee.name, e.args, args, fn, 0)
  }

  #evalBareCall(name: string, argExprs: ReadonlyArray<Expr>, args: ReadonlyArray<Val>, fn: Fn): Val {
    // A bare name calls the engine's global function whatever the class defines (analyzeScript.ts #builtinCall).
    const builtin = isGlobalFunction(this.grammar, name)
    const own = builtin ? null : this.methodReturn(fn.cls, name)
    if (own !== null) return own
    if (!builtin && this.model.defines(fn.cls, name)) return derived(...args)
    // A built-in function that returns a number (`randi()`, `hash(s)`, engineNumberReturns.ts): no script replaces it.
    if (builtinReturnsNumber(this.grammar, name)) return LIT
    // Self may be an instance of a subclass that defines it (a twenty-seventh red team's `get_index()`): its method runs.
    if (this.model.overrides(fn.cls, name).length > 0) return this.#subclassReturns(fn.cls, name, args)
    // An engine method of self's base whose every namesake in the class reference returns a number (`get_child_count()`).
    if (returnsNumber(this.grammar, "@any", name)) return LIT
    const first = args[0] ?? UNKNOWN
    switch (name) {
      case "load":
        return this.scriptAt(first, fn, "load")
      case "tr":
        // A key of the pack's data: that string itself, or a translation of the pack.
        return first.t === "unknown" && first.packData !== undefined && args.length === 1 ? { ...first, translated: true } : derived(...args)
      case "str":
      case "String":
      case "StringName":
      case "NodePath": {
        // Each argument as str() shows it; strings may have several known values.
        const shown = args.map((a): ReadonlyArray<string> | null => {
          if (a.t === "str") return a.values
          const arg = foldArg(a)
          const text = arg === null ? null : stringOfArg(this.grammar, arg)
          return text === null ? null : [text]
        })
        if (name !== "str" && args.length > 1) return derived(...args)
        // What the SDK passes or constant strings (SDK_CALLS joined with them): str() of it is the SDK's value or those strings.
        if (name === "str" && args.length === 1 && first.t === "unknown" && first.sdk === true) return first
        // A link's meta from the pack's data is a String: str() of it is itself.
        if (name === "str" && args.length === 1 && first.t === "unknown" && first.linkData !== undefined) return first
        // A part of the pack's data: str() shows its strings as they are, a number's digits, and a container's brackets,
        // colons and commas, which put no `/`, `..` or NUL beside what its strings hold (a level's `str(levels[i]["id"])`
        // in a save name, a thirty-fifth hunt's): still judged with the data's strings.
        if (name === "str" && args.length === 1 && first.t === "unknown" && first.packData !== undefined && first.dataSel !== undefined) return first
        // A part not constant: the known start and end, and whether every such part is a number (builtStrings.ts).
        // String(x) of one value is str(x) (a number's digits).
        if (shown.some((part) => part === null)) return name === "str" || (name === "String" && args.length === 1) ? strOf(this.grammar, args) : derived(...args)
        let out: Val = strs([""])
        for (const part of shown) out = part === null || out.t !== "str" ? derived(...args) : strs(out.values.flatMap((x) => part.map((y) => x + y)))
        // A NodePath's text is the normalised path (resource/nodePath.ts: `NodePath("execute:")` is `execute`).
        return name === "NodePath" && out.t === "str" ? strs([...new Set(out.values.flatMap((v) => nodePathNames(nodePathText(v))))]) : out
      }
      case "char": {
        // String::chr(c) copies up to the NUL: char(0) is "" in both engines. 4.x turns a surrogate into U+FFFD (not folded).
        const code = first.t === "lit" && typeof first.value === "number" && Number.isInteger(first.value) && first.float !== true ? first.value : -1
        if (code === 0) return strs([""])
        const surrogate = code >= 0xd800 && code <= 0xdfff
        return code > 0 && code <= 0x10ffff && (this.grammar === 4 ? !surrogate : code <= 0xffff) ? strs([String.fromCodePoint(code)]) : derived(first)
      }
      case "Array":
      case "Dictionary":
      case "PoolStringArray":
      case "PackedStringArray":
        // An empty one is what an empty literal is (`var lines := PoolStringArray()`); a copy of a pack file's lines
        // (`Array(text.split("\n"))`) holds those lines: a forty-second hunt's.
        if (args.length === 0) return { ...derived(), plain: true, ...(name === "Dictionary" ? {} : { listItems: true as const }), noPack: true }
        if (name === "Dictionary") break
        if (args.length === 1 && first.t === "unknown" && first.dataSel !== undefined && first.dataSel.every((s) => s.form === "lines")) return first
        if (name === "Array") break
        return derived(...args)
      case "get_tree":
        return { t: "inst", cls: "SceneTree" }
      case "get_meta":
        return this.model.defines(fn.cls, name) ? UNKNOWN : this.#ownMeta(first, fn)
      case "get_script":
        return { t: "inst", cls: "Script" }
      case "create_tween":
        return { t: "inst", cls: this.grammar === 3 ? "SceneTreeTween" : "Tween" }
      case "yield":
        if (argExprs.length === 0) return this.#resumed()
        break
      case "instance_from_id":
      case "get_incoming_connections":
      case "get_signal_connection_list":
        return ANY_OBJECT
      case "parse_json":
        // JSON text gives plain data (a Dictionary, an Array, a String, a number), never an object.
        return jsonOf(args.slice(0, 1))
      case "bytes2var":
      case "bytes_to_var":
        // Bytes decoded without objects, as `get_var()` (evalMethod).
        if (isGlobalFunction(this.grammar, name) && withoutObjects(args.slice(1))) return DECODED_DATA
        break
      case "weakref":
        return isAnyObject(first) || first.t === "guard" ? ANY_OBJECT : asLineEdit(UNKNOWN, isLineEdit(first))
      case "funcref":
      case "Callable":
        return args.length >= 2 ? bound(first, args[1] ?? UNKNOWN, name === "Callable" ? "Callable" : "FuncRef") : name === "Callable" ? { t: "inst", cls: "Callable" } : UNKNOWN
      default:
        break
    }
    if (READS.has(name)) return EXTERNAL
    const self: Val = { t: "own", ref: fn.cls }
    if (GIVES_NODE.has(name)) return asLineEdit(NODE_VAL, this.#reachesLineEdit(self, name, args))
    const near = this.#nearLineEdit(self, name, args)
    if (near !== null) return near
    if (VALUE_TYPES.has(name)) return { t: "inst", cls: name }
    // Dispatch on self by a constant name: `call("f")` is `f()`.
    if (OBJECT_DISPATCH.has(name)) return this.evalMethod({ t: "own", ref: fn.cls }, null, name, argExprs, args, fn, 0)
    return derived(...args)
  }

  /** What a read gives (packDataReads.ts): data of the pack's own files, or data read at run time from anywhere. */
  #read(name: string, recvExpr: Expr | null, args: ReadonlyArray<Expr>, fn: Fn): Val {
    const files = this.model.files
    if (files === null) return EXTERNAL
    const read = readValue(name, recvExpr, args, {
      eval: (e) => this.eval(e, fn),
      local: (n) => {
        const found = this.local(n, fn)
        return found === null ? null : { inits: found.local.inits, param: found.local.param !== undefined || found.local.opaque, body: found.owner.body }
      },
      has: (p) => files.has(p),
      hasUnder: (p) => files.hasUnder(p),
    })
    // A file whose data some code writes text into, by whatever name (a forty-seventh red team's `var a = d as Array`,
    // `[d][0]`, `d.slice(0, 0)`, a `match` binding, a helper's return: each the same container), is not only the file's.
    if (read.t !== "unknown" || read.packData === undefined) return read
    const written = this.#packFilesWritten()
    return read.packData.some((f) => written.has(f)) ? EXTERNAL : read
  }

  /**
   * The pack's data files some code writes text into (a container whose value is their data: packDataMembers.ts
   * packDataWrittenInto), once per pack, worked out by an Evaluator of its own (which meanwhile takes none as written).
   */
  #packFilesWritten(): ReadonlySet<string> {
    const known = PACK_FILES_WRITTEN.get(this.model)
    if (known !== undefined) return known
    PACK_FILES_WRITTEN.set(this.model, new Set())
    const ev = new Evaluator(this.model, this.idx, this.grammar, this.#dispatch, true)
    const found = packDataWrittenInto(
      this.model,
      (e, cls, f) => ev.eval(e, f === null ? ev.classFn(cls) : ev.fnOf(cls, f, null, true)),
      (cls, f) => {
        const fn = ev.fnOf(cls, f, null, true)
        return [...fn.locals.keys()].map((name) => ev.eval({ k: "id", name, at: f.at }, fn))
      },
      // `line["text"] = tr(line["text"])`: a translation of its own part (the pack's files), as #writesChange allows.
      (target, value) => {
        const root = containerRoot(target)
        return root !== null && translatesOwnPart(value, root) && !this.model.anyClassDefines("tr") && !RUNTIME_MESSAGES.some((m) => this.model.mentions(m))
      },
      // A container the script built itself, a member's or a local's (builtHere).
      (target, cls, f) => ev.builtHere(target, f === null ? ev.classFn(cls) : ev.fnOf(cls, f, null, true)),
    )
    PACK_FILES_WRITTEN.set(this.model, found)
    return found
  }

  /**
   * `get_meta(key)` on self with a constant key: what the class's own `set_meta(key, v)` calls store may be there
   * (their classes, as `insts`), and anything else (another script may set it too).
   */
  #ownMeta(key: Val, fn: Fn): Val {
    if (key.t !== "str") return UNKNOWN
    const stored = (this.#factsOf(fn.cls).calls.get("set_meta") ?? []).flatMap((c) => {
      const k = c.args[0] === undefined ? UNKNOWN : this.eval(c.args[0], c.fn)
      const v = c.args[1]
      return v !== undefined && k.t === "str" && k.values.some((x) => key.values.includes(x)) ? instsOf(this.eval(v, c.fn)) : []
    })
    const insts = [...new Set(stored)].slice(0, MAX_CLASSES)
    return insts.length === 0 ? UNKNOWN : { t: "unknown", insts }
  }

  /** `recv.name(args)`: what it returns. */
  /**
   * `ProjectSettings.get_setting(k)` (`get(k)`): the pack's own data, set in its settings file. By a constant name, while
   * no code changes settings, the values the settings give it (every feature override's: which applies depends on the
   * player's machine); a setting the pack does not set has the engine's default, which the pack cannot choose. By a
   * name not constant, a value of another type, or once code may change settings: data of the pack not known, judged
   * as data read at run time (a hundred-and-eighth red team wrote outside user:// by a path kept in project.godot).
   */
  #setting(args: ReadonlyArray<Val>): Val {
    const key = args[0]
    const changed = this.#settingsChanged()
    if (key === undefined || key.t !== "str" || changed === "any") return EXTERNAL
    const values = key.values.map((k) => this.model.settingValue(k))
    if (values.some((v) => v !== undefined && v.some((x) => x === null))) return EXTERNAL
    const texts = values.flatMap((v) => (v ?? []).flatMap((x) => (x === null ? [] : [x])))
    // A setting the pack does not set has the engine's default; one its code sets (`set_setting("k", v)`), what the code
    // gives it, which a reviewer reads where it is set: both a value not known, beside the file's values.
    const open = values.some((v) => v === undefined) || key.values.some((k) => changed.has(k))
    if (!open) return strs(texts)
    return texts.length === 0 ? UNKNOWN : EXTERNAL
  }

  /**
   * The settings the pack's code may change at run time (PackModel.settingsWrites): the names its `set_setting` calls
   * give, read as any value (a settings menu's `set_option(key, value)` helper called with constants), or every
   * setting where one is not known. Worked out once per evaluator; a key read while it is worked out counts as any.
   */
  #settingsChanged(): ReadonlySet<string> | "any" {
    if (this.#changedSettings !== null) return this.#changedSettings
    this.#changedSettings = "any"
    const writes = this.model.settingsWrites()
    const names = new Set<string>()
    let any = writes.any
    for (const site of writes.sites) {
      if (any) break
      const key = this.eval(site.key, site.f === null ? this.classFn(site.cls) : this.fnOf(site.cls, site.f, null, site.method))
      if (key.t === "str") for (const name of key.values) names.add(name)
      else any = true
    }
    this.#changedSettings = any ? "any" : names
    return this.#changedSettings
  }

  #changedSettings: ReadonlySet<string> | "any" | null = null

  evalMethod(recv: Val, recvExpr: Expr | null, name: string, argExprs: ReadonlyArray<Expr>, args: ReadonlyArray<Val>, fn: Fn, depth: number): Val {
    if (depth > MAX_ALTERNATIVES) return UNKNOWN
    if (recv.t === "method") {
      if (INVOKE.has(name)) return this.evalMethod(recv.target, null, recv.name, argExprs, args, fn, depth + 1)
      if (INVOKE_ARRAY.has(name)) {
        const items = arrayArgs(argExprs[0], argExprs[0]?.at ?? { line: 0, column: 0 })
        return this.evalMethod(recv.target, null, recv.name, items, items.map((x) => this.eval(x, fn)), fn, depth + 1)
      }
      if (name === "bind" || name === "bindv" || name === "unbind") return recv
      // A Callable's or Signal's object (4.x `OS.script_changed.get_object()`).
      if ((name === "get_object" || CONNECTION_LISTS.has(name)) && (recv.target.t === "guard" || isAnyObject(recv.target))) return ANY_OBJECT
      return derived(...args)
    }
    if (isAnyObject(recv)) return ANY_OBJECT
    // A vector's or colour's arithmetic (`step.sign()`, `dir.normalized()`, `a.distance_to(b)`): another such value.
    if (VALUE_ARITHMETIC.has(name) && isArithmeticValue(recv)) return ARITHMETIC_VALUE
    // A method a class of the pack defines, called on an object that may carry one of its scripts (a node of unknown
    // script, a value the analysis lost): the script's method runs instead of the engine's (a twenty-third red team's
    // `get_node("Saver").get_user_data_dir()`, `helper.get_tree()`), so no engine method's reading holds.
    if ((isObjectOfUnknownScript(recv) || (recv.t === "unknown" && recv.plain !== true && recv.json !== true)) && this.model.anyClassDefines(name)) return derived(recv, ...args)
    // A number an engine singleton hands back (`OS.get_unix_time()`, engineNumberReturns.ts), or any engine object or
    // built-in value (`button.get_index()`, `list.size()`) when every class having a method of that name returns one
    // and no script of the pack defines it (a web export's JavaScriptObject forwards any name to JavaScript).
    if (recv.t === "guard" && returnsNumber(this.grammar, recv.name, name)) return LIT
    if (recv.t === "guard" && recv.name === "ProjectSettings" && SETTING_GETTERS.has(name)) return this.#setting(args)
    // The main loop a game runs is its SceneTree (main/main.cpp makes one unless a setting names another MainLoop): a
    // hundred-and-twenty-third red team gave `Engine.get_main_loop()` a script, as round 122 did `get_tree()`.
    if (recv.t === "guard" && recv.name === "Engine" && name === "get_main_loop") return { t: "inst", cls: "SceneTree" }
    // Data decoded without objects (a File's, StreamPeer's or PacketPeer's `get_var()`): decode_variant refuses an object
    // (core/io/marshalls.cpp), so at most an EncodedObjectAsID: plain data read at run time, never a Script (a
    // hundred-and-twenty-eighth hunt's visual novel writing into flags it loaded so).
    if (name === "get_var" && withoutObjects(args) && !this.model.anyClassDefines(name)) return DECODED_DATA
    // A date or time as a Dictionary of ints and a bool (3.x core_bind.cpp _OS::get_date/get_time; Time's *_dict_* methods).
    if (recv.t === "guard" && (DATE_DICTIONARIES[recv.name]?.has(name) ?? false)) return DATE_FIELDS
    if (recv.t !== "guard" && returnsNumber(this.grammar, "@any", name) && (!this.model.anyClassDefines(name) || carriesNoScript(recv)) && !(recv.t === "inst" && recv.cls === "JavaScriptObject")) return LIT
    // A String's digest or a Color in hexadecimal (`name.md5_text()`, `tint.to_html()`), or digits padded or cut (`str(slot).pad_zeros(2)`): shown
    // as text they hold no `/`, no `..` and no NUL, as a number's digits do (a piece cut from them may be "." alone).
    if (HEX_DIGESTS.has(name) && !this.model.anyClassDefines(name)) return DIGITS
    // BBCode escaped (`text.replace("[", "[lb]")`, a fifty-eighth hunt's chat log): no `[` is left but those of `[lb]`;
    // and what a later replace or strip_edges keeps so (`.replace("]", "[rb]")`, `.replace("\n", " ")`: a fifty-ninth's).
    const escaped = recv.t === "unknown" && recv.tagless === true && recv.any !== true
    if (!this.model.anyClassDefines(name) && (escapesBrackets(name, args) || (escaped && keepsTagless(name, args)))) return { ...derived(recv, ...args), tagless: true }
    if (DIGIT_KEEPERS.has(name) && recv.t === "unknown" && recv.digitsOnly === true && recv.prefix === undefined && recv.suffix === undefined) return DIGITS
    const first = args[0] ?? UNKNOWN
    if (CONNECTION_LISTS.has(name) && recv.t !== "lit" && recv.t !== "str") return ANY_OBJECT
    if (INSTANTIATE.has(name) && recv.t !== "guard" && recv.t !== "own" && recv.t !== "script" && !this.model.anyClassDefines(name)) {
      // Given a class name it can only be ClassDB's (on an object handed back from elsewhere); else a scene's nodes.
      if (recv.t === "unknown" && first.t === "str") return this.#namedObject(first, "class")
      if ((recv.t === "unknown" || (recv.t === "inst" && recv.cls === "PackedScene")) && (args[0] === undefined || args[0].t === "lit")) return NODE_INSTANCE
    }
    if (name === "new") {
      // A class's own `static func new()` runs instead of the engine's constructor (a forty-first red team's returned a File).
      if (recv.t === "script") {
        const own = this.model.method(recv.ref, "new")
        return own === null ? { t: "own", ref: recv.ref } : this.returnValue(own.owner, own.decl)
      }
      if (recv.t === "guard") return this.#instanceOf(recv.name)
      if (recvExpr?.k === "id") return { t: "inst", cls: recvExpr.name }
    }
    // 4.x `JSON.parse_string(t)`, 3.x `r.get_result()` of a local `r = JSON.parse(t)`, 4.x `j.get_data()`: JSON's data.
    if (this.grammar === 4 && name === "parse_string" && recvExpr?.k === "id" && recvExpr.name === "JSON" && !this.isOwnName("JSON", fn)) return jsonOf(args.slice(0, 1))
    const parsed = recvExpr !== null && argExprs.length === 0 && JSON_DATA[this.grammar].has(name) ? this.#parsedJson(recvExpr, fn) : null
    if (parsed !== null) return parsed
    // A part of JSON data (`data.get("k", fallback)`, `data.keys()`, `data.duplicate()`) is JSON data too; a fallback
    // that may be an object may be what `get` gives (a plain one adds its strings only: they may be a load path).
    if (recv.t === "unknown" && recv.json === true && JSON_PARTS.has(name)) return jsonPart(recv, name, args)
    // A string of the pack's data with its edges stripped (`line.strip_edges()`) is among the strings the data is judged
    // with: still the pack's data for BBCode (a forty-fourth hunt's; a load of it is an error).
    if (name === STRIPPED && recv.t === "unknown" && recv.packData !== undefined && recv.host !== true && recv.any !== true && !this.model.anyClassDefines(name)) return { t: "unknown", external: true, packData: recv.packData }
    // The whole text of a pack file split at "\n": its lines (a forty-second hunt's story script read with split()).
    // (Not with maxsplit: its last element keeps the rest of the text, "\n"s and all.)
    if (name === "split" && argExprs.length <= 2 && !this.model.anyClassDefines(name) && recv.t === "unknown" && isWholeText(recv) && first.t === "str" && first.values.length === 1 && first.values[0] === "\n") return withSel(recv, [{ form: "lines" }])
    // The web bridge's objects stand for JavaScript values (JavaScriptObject), never a script.
    if (recvExpr?.k === "id" && (recvExpr.name === "JavaScript" || recvExpr.name === "JavaScriptBridge") && !this.isOwnName(recvExpr.name, fn) && JS_OBJECTS.has(name)) return { t: "inst", cls: "JavaScriptObject" }
    if (recv.t === "guard") {
      if (recv.name === "Engine" && name === "get_singleton") return this.#namedObject(first, "singleton")
      if (recv.name === "ClassDB" && (name === "instance" || name === "instantiate")) return this.#namedObject(first, "class")
      if (recv.name === "ResourceLoader" && name === "load") return this.scriptAt(first, fn, "load")
      const staticCall = this.#staticCall(recv.name, name, argExprs, fn, depth)
      if (staticCall !== null) return staticCall
      const cls = this.idx.constructors.get(`${recv.name}.${name}`)
      if (cls !== undefined) return { t: "inst", cls }
    }
    if (recv.t === "own" || recv.t === "script") {
      // A static call on the script itself names one function; an instance may be of a subclass.
      const own = this.methodReturn(recv.ref, name, recv.t === "script")
      if (own !== null) return own
      if (this.model.defines(recv.ref, name)) return derived(...args)
      // An instance may be of a subclass that defines it where its class does not (a twenty-seventh red team's
      // `get_next()` of a subclass on `var me = self`): that method's value, or the engine's.
      if (recv.t === "own" && this.model.overrides(recv.ref, name).length > 0) return this.#subclassReturns(recv.ref, name, args)
      if (name === "get_meta" && recv.t === "own" && recvExpr?.k === "self") return this.#ownMeta(first, fn)
      // Self may be an engine object of another class (a script attached to it): what that class's method gives.
      if (recv.t === "own" && this.selfBeyondBase(recv.ref, name) !== null) return this.evalMethod(UNKNOWN, null, name, argExprs, args, fn, depth + 1)
    }
    const foldArgs = args.map(foldArg)
    if (recv.t === "str" && foldArgs.every((a): a is FoldArg => a !== null)) {
      const folded = recv.values.map((v) => foldStringMethod(this.grammar, name, v, foldArgs))
      if (folded.every((x): x is string => x !== null)) return strs(folded)
    }
    if (name === "format" && this.grammar === 3 && recv.t === "str" && recv.values.length === 1 && argExprs.length === 1) return formatOf(this.grammar, recv.values[0] ?? "", this.#formatValues(argExprs[0], fn), args)
    if (recv.t === "unknown" && recv.dataDir === true && recv.prefix !== undefined) {
      const exact = onDataDir(this.grammar, recv.prefix, name, foldArgs)
      if (exact !== undefined) return exact
    }
    if ((recv.t === "str" || (recv.t === "unknown" && recv.prefix !== undefined)) && (name === "plus_file" || name === "path_join")) {
      // A path joined with something unknown keeps its known start ("" joined keeps nothing: the result is the other part).
      const prefix = recv.t === "str" ? (recv.values.length === 1 ? recv.values[0] : undefined) : recv.prefix
      const rest = args[0]
      const digits = recv.t === "str" && rest?.t === "unknown" && rest.digitsOnly === true && numbersBetween(`${prefix ?? ""}/${rest.prefix ?? ""}`)
      if (prefix !== undefined && prefix !== "") return { t: "unknown", prefix: prefix.endsWith("/") ? prefix : `${prefix}/`, ...(rest === undefined ? {} : endOf(rest)), ...(digits ? { digitsOnly: true as const } : {}), ...readFrom([recv, ...args]) }
    }
    if (recv.t === "unknown" && recv.prefix !== undefined && PATH_KEEPING.has(name)) {
      const root = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/|[/\\]|[A-Za-z]:)/.exec(recv.prefix)?.[1]
      if (root !== undefined) return { t: "unknown", prefix: root, ...(isExternal(recv) ? { external: true } : {}) }
    }
    if (name === "get_tree") return { t: "inst", cls: "SceneTree" }
    if (name === "get_script") return { t: "inst", cls: "Script" }
    if (name === "create_tween") return { t: "inst", cls: this.grammar === 3 ? "SceneTreeTween" : "Tween" }
    if (GIVES_NODE.has(name) && recv.t !== "guard") return asLineEdit(NODE_VAL, this.#reachesLineEdit(recv, name, args))
    const near = recv.t === "guard" ? null : this.#nearLineEdit(recv, name, args)
    if (near !== null) return near
    if (name === "duplicate" && isScriptLike(recv)) return { t: "inst", cls: "GDScript" }
    // A copy of a container the analysis knows is one (a literal, a constant table, a parameter only given such) is a
    // new container with the same parts, no object (a ninetieth hunt's `var s = opts.duplicate()` then `s[k] = v`).
    if (name === "duplicate" && recv.t === "unknown" && recv.plain === true && recv.external !== true && !this.model.anyClassDefines(name)) return { ...recv, copy: true }
    if (name === "get_user_data_dir") return USER_DATA_DIR
    // `globalize_path("user://…")` is that user:// path on disk; anything else is outside the pack.
    // `globalize_path("user://")` itself is the user data folder's path on disk (OS.get_user_data_dir()): a
    // `get_base_dir()` or `..` after it climbs out (a twenty-fifth red team's write).
    if (name === "globalize_path" && first.t === "str" && first.values.length === 1 && /^user:\/\/\/?$/.test(first.values[0] ?? "")) return USER_DATA_DIR
    if (name === "globalize_path" && first.t === "str" && first.values.every((p) => p.startsWith("user://") && !p.split("/").includes(".."))) return first
    if (ABSOLUTE_PATHS.has(name)) return { t: "unknown", prefix: "/" }
    if (HOST_READS.has(name)) return HOST_DATA
    // Text of bytes: as outside as the bytes are (a file's `get_buffer`, or the pack's own `CONST.to_utf8()`).
    if (name === "get_string_from_utf8" || name === "get_string_from_ascii") return recvExpr?.k === "call" && recvExpr.callee.k === "member" && BYTES_OF_TEXT.has(recvExpr.callee.name) ? derived(this.eval(recvExpr.callee.obj, fn)) : derived(recv)
    // A listing that does not skip "." and ".." (list_dir_begin() without `true`) hands out those fixed names: the
    // pack's choice to join, not data from outside (a twenty-third red team's "../" × 20 from a listing).
    if (name === "get_next" && this.#listsNavigational()) return UNKNOWN
    // A listing's entry: a name from the disk, data from outside the pack, but one name of the folder it lists.
    if (name === "get_next") return { t: "unknown", external: true, listing: true }
    if (READS.has(name)) return this.#read(name, recvExpr, argExprs, fn)
    if (name === "join") {
      // 4.x `"/".join(["a", "b"])`; 3.x `PoolStringArray(["a", "b"]).join("/")` (and 4.x PackedStringArray).
      const packed = recvExpr?.k === "call" && recvExpr.callee.k === "id" && (recvExpr.callee.name === "PoolStringArray" || recvExpr.callee.name === "PackedStringArray") ? recvExpr.args[0] : undefined
      const items = packed?.k === "array" ? packed.items : recv.t === "str" && argExprs[0]?.k === "array" ? argExprs[0].items : null
      const delimiter = packed !== undefined ? first : recv
      if (items !== null && delimiter.t === "str" && delimiter.values.length === 1) return joined(delimiter.values[0] ?? "", items.map((x) => this.eval(x, fn)))
    }
    // Dispatch by a constant name: `o.call("m", a)` returns what `o.m(a)` returns.
    if (OBJECT_DISPATCH.has(name) && !(recv.t === "inst" && recv.cls === "Callable")) {
      if (first.t === "str" && first.values.length === 1) {
        const rest = name === "callv" ? arrayArgs(argExprs[1], argExprs[1]?.at ?? { line: 0, column: 0 }) : argExprs.slice(1)
        return this.evalMethod(recv, recvExpr, first.values[0] ?? "", rest, rest.map((x) => this.eval(x, fn)), fn, depth + 1)
      }
      if (recv.t === "guard") return ANY_OBJECT
    }
    // `COLORS.get(k, "white")` of a constant table every use only reads: one of its strings or the default (`Null` as
    // text without one), as `COLORS[k]` is (a fifty-sixth hunt's element colours).
    if (name === "get" && recvExpr !== null && (args.length === 1 || args.length === 2)) {
      const element = this.#constantElement(recvExpr, fn)
      const fallback = args.length === 2 ? args[1] : strs(["Null"])
      if (element?.t === "str" && fallback?.t === "str") return strs([...element.values, ...fallback.values])
    }
    const part = this.#dataGet(recv, name, args)
    if (part !== null) return part
    const node = GIVES_ELEMENT.has(name) && recvExpr !== null ? this.#nodeList(recvExpr, fn) : null
    if (node !== null) return node
    // An element of an Array of folder listing entries (`files.pop_front()`) is one too (elementOf).
    if (recv.t === "unknown" && (recv.elems !== undefined || recv.listItems === true) && GIVES_ELEMENT.has(name)) return elementOf(recv)
    if (PASS_THROUGH.has(name) && (recv.t === "unknown" || recv.t === "guard")) {
      if (recv.t === "guard") return ANY_OBJECT
      // An element of plain data (`[s].front()`) may be any object the container was given.
      const { plain: _container, ...held } = recv
      // An element is no new container, nor an empty one, whatever its container is.
      const { copy: _copy, empty: _empty, ...element } = held
      return GIVES_ELEMENT.has(name) ? withSel(element, stepInto(held.dataSel, null)) : held
    }
    return derived(recv, ...args)
  }

  /**
   * A dispatch to a class's static method (`ClassDB.class_call_static("FileAccess", "get_file_as_string", p)`, a
   * dispatch-table entry with `targetClass`): what that method returns (data read at run time); by names that are not
   * constant, anything.
   */
  #staticCall(cls: string, name: string, argExprs: ReadonlyArray<Expr>, fn: Fn, depth: number): Val | null {
    const entry = this.#dispatch?.byName.get(name)?.find((d) => d.class === cls && d.targetClass !== undefined && d.name !== undefined)
    if (entry?.targetClass === undefined || entry.name === undefined) return null
    const classExpr = argExprs[entry.targetClass]
    const methodExpr = argExprs[entry.name]
    const named = classExpr === undefined ? UNKNOWN : this.eval(classExpr, fn)
    const method = methodExpr === undefined ? UNKNOWN : this.eval(methodExpr, fn)
    const target = named.t === "str" && named.values.length === 1 ? named.values[0] : undefined
    const called = method.t === "str" && method.values.length === 1 ? method.values[0] : undefined
    if (classExpr === undefined || target === undefined || called === undefined) return ANY_OBJECT
    const rest = argExprs.slice(entry.name + 1)
    return this.evalMethod(this.engineClass(target), { k: "id", name: target, at: classExpr.at }, called, rest, rest.map((x) => this.eval(x, fn)), fn, depth + 1)
  }

  /**
   * `d.get(key)`/`d.get(key, default)` of data read from the pack's files (a Dictionary's get): that part of the
   * data, or the default (null without one); null when this is no such call. A key read from elsewhere is left
   * to the general case (on an object that is not the data, `get` reads a property by that name).
   */
  #dataGet(recv: Val, name: string, args: ReadonlyArray<Val>): Val | null {
    if (name !== "get" || recv.t !== "unknown" || recv.packData === undefined || recv.elems !== undefined || args.length < 1 || args.length > 2) return null
    // A key read from elsewhere reads a part of the data too where the receiver can be nothing but plain data (a card
    // table looked up by a deck's ids from a save: a forty-second hunt's); on what may be an object, `get` reads a
    // property by that name (the general case).
    if (args.some(isExternal) && externalParts(args).packData === undefined && !(recv.plain === true && recv.any !== true && recv.insts === undefined)) return null
    const key = args[0]?.t === "str" && args[0].values.length === 1 ? (args[0].values[0] ?? null) : null
    const part = recv.json === true ? JSON_PART(recv, key) : { ...derived(recv), ...dataPart(recv, key) }
    return join(part, args[1] ?? NULL)
  }

  /** Whether what `recv.name(args)` gives may be a SpinBox's internal LineEdit, or a list holding it (spinBoxText.ts). */
  #reachesLineEdit(recv: Val, name: string, args: ReadonlyArray<Val>): boolean {
    return reachesLineEdit(this.grammar, name, recv, mayBeSpinBox(recv, recv.t === "own" ? this.model.engineBase(recv.ref) : null), args)
  }

  /**
   * What a method that is not GIVES_NODE gives when it may be a SpinBox's LineEdit (get_line_edit(), the focus
   * owner, a LineEdit's menu) or a list that may hold it (get_children()); null otherwise.
   */
  #nearLineEdit(recv: Val, name: string, args: ReadonlyArray<Val>): Val | null {
    if (!this.#reachesLineEdit(recv, name, args)) return null
    return GIVES_NODES.has(name) ? { ...derived(recv, ...args), lineEdit: true } : { t: "inst", cls: name === "get_line_edit" ? "LineEdit" : "Control", lineEdit: true }
  }

  /** What the name of the engine class `cls` stands for as a receiver of its static methods: the dangerous object, or an engine class. */
  engineClass(cls: string): Val {
    const guard = this.idx.guarded.get(cls)
    return guard === undefined ? UNKNOWN : { t: "guard", name: guard }
  }

  /** What `Cls.new()` gives for an engine class `Cls` (the object a pack class extending it is, for the engine's methods). */
  engineInstance(cls: string): Val {
    const guard = this.idx.guarded.get(cls)
    return guard === undefined ? { t: "inst", cls } : this.#instanceOf(guard)
  }

  /** An instance of a dangerous class: singletons' classes (`_OS.new()`) give the singleton itself. */
  #instanceOf(guard: string): Val {
    return this.idx.instanceClasses.has(guard) || this.idx.constructors.has(`${guard}.new`) || guard === "GDScript" ? { t: "inst", cls: guard } : { t: "guard", name: guard }
  }

  /** `Engine.get_singleton(x)` / `ClassDB.instance(x)`: the object it gives; any object when x is not constant. */
  #namedObject(arg: Val, kind: "singleton" | "class"): Val {
    if (arg.t !== "str" || arg.values.length !== 1) return ANY_OBJECT
    const written = arg.values[0] ?? ""
    // Godot 3 registers its wrappers of the core singletons under the binary's names (`_ResourceSaver`, `_Thread`,
    // `_Geometry`: register_core_types.cpp), which ClassDB.instance makes: an object of the class without the `_` (a
    // hundred-and-twenty-second red team's `ClassDB.instance("_ResourceSaver").save("user://../…")`).
    const name = written.startsWith("_") && !this.model.isEngineName(written) && this.model.isEngineName(written.slice(1)) ? written.slice(1) : written
    const guard = this.idx.guarded.get(name)
    if (guard === undefined) return { t: "inst", cls: name }
    return kind === "singleton" ? { t: "guard", name: guard } : this.#instanceOf(guard)
  }
}

/** What JSON text gives (jsonData.ts): plain data, all its parts too, read at run time when the text is. */
const jsonOf = (texts: ReadonlyArray<Val>): Val => {
  const read = externalParts(texts)
  // The whole JSON of the pack's data files, when every text parsed is the whole text of such a file and nothing else.
  const whole = texts.length > 0 && texts.every((t) => t.t === "unknown" && t.dataSel !== undefined && t.some === undefined && t.prefix === undefined)
  // New containers: of no pack data where no text parsed is the pack's own (a save read from user://, a constant).
  const fresh = texts.every((t) => !(t.t === "unknown" && (t.packData !== undefined || t.any === true || t.insts !== undefined))) && read.packData === undefined
  return withSel({ t: "unknown", ...read, plain: true, json: true, ...(fresh ? { noPack: true as const } : {}) }, whole ? parsedFrom(read.dataSel) : undefined)
}

/** Methods of JSON data (a Dictionary, an Array) that give a part of it or a copy. */
const JSON_PARTS: ReadonlySet<string> = new Set(["get", "front", "back", "pop_back", "pop_front", "pop_at", "pick_random", "keys", "values", "duplicate"])

/** Of those, the ones that give all of it as far as its strings go: its keys, its values, a copy. */
const JSON_COPIES: ReadonlySet<string> = new Set(["keys", "values", "duplicate"])

/**
 * What a method of JSON_PARTS gives: the same data (JSON_COPIES), any element of it, or for `get(key, fallback)` the
 * key's value (any value for a key that is not one constant string) or the fallback: one that may be an object
 * joined, a plain one's strings kept (`some`: they may be a load path).
 */
/** The whole text of files of the pack (get_as_text()), as read. */
const isWholeText = (v: Extract<Val, { t: "unknown" }>): boolean => v.packData !== undefined && v.host !== true && v.any !== true && v.dataSel !== undefined && v.dataSel.length > 0 && v.dataSel.every((s) => s.form === "text")

const jsonPart = (recv: Val, name: string, args: ReadonlyArray<Val>): Val => {
  if (name !== "get") return JSON_COPIES.has(name) ? JSON_COPY(recv) : JSON_PART(recv)
  const key = args[0]?.t === "str" && args[0].values.length === 1 ? (args[0].values[0] ?? null) : null
  const part = JSON_PART(recv, key)
  const fallback = args[1]
  if (fallback === undefined) return part
  if (!isPlainData(fallback)) return join(part, fallback)
  const strings = knownStrings(fallback)
  return strings.length === 0 ? part : { ...part, some: [...new Set([...(part.some ?? []), ...strings])].slice(0, MAX_ALTERNATIVES) }
}

/** Which arguments a call may give back as its value (indexes), or "all". */
type GivesBack = (call: Extract<Expr, { k: "call" }>) => ReadonlyArray<number> | "all"

/**
 * The local a container expression stands for: the name itself, or a part of it (`d["o"]`, `d.o`, `d.get("o")`,
 * `d.values()`), or the same container under another form or taken out of one (`givesBack` says which arguments of
 * a call of a function may be its value).
 */
const containerRoot = (e: Expr, givesBack: GivesBack = () => "all"): string | null => {
  const root = (x: Expr): string | null => containerRoot(x, givesBack)
  if (e.k === "id") return e.name
  if (e.k === "index" || (e.k === "member" && e.obj.k !== "self")) return root(e.obj)
  const part = e.k === "call" && e.callee.k === "member" && CONTAINER_PARTS.has(e.callee.name) ? root(e.callee.obj) : null
  if (part !== null) return part
  // A shallow copy shares the containers inside (a forty-fourth red team's `c = d.duplicate()`, `c[0]["desc"] = …`).
  if (e.k === "call" && e.callee.k === "member" && (e.callee.name === "duplicate" || e.callee.name === "slice") && !(e.callee.name === "duplicate" && e.args[0]?.k === "const" && e.args[0].value === true)) return root(e.callee.obj)
  // The same container under another form (a forty-seventh and forty-eighth red team's `d as Array`, `d if c else []`,
  // `Array(d)`, `[d][0]`, `[d].front()`, `for x in [d]`), or put into a Dictionary literal and taken out (a forty-ninth
  // red team's `{"d": d}["d"]`, `{0: d}.values()[0]`).
  if (e.k === "cast") return root(e.expr)
  if (e.k === "ternary") return root(e.then) ?? root(e.else)
  if (e.k === "call" && e.callee.k === "id" && (e.callee.name === "Array" || e.callee.name === "Dictionary") && e.args.length === 1 && e.args[0] !== undefined) return root(e.args[0])
  if (e.k === "array" || e.k === "dict") return literalItems(e).map(root).find((r) => r !== null) ?? null
  // Arrays added (`d + []`: a new Array holding the same elements, a fiftieth red team's); not text built with a literal.
  if (e.k === "bin" && e.op === "+" && !isTextual(e)) return root(e.left) ?? root(e.right)
  // What a function gives back may be an argument (a forty-ninth red team's `fix(ident(d))`): a method of a container
  // gives back only its parts (above), a built-in function a new value.
  if (e.k === "call" && !(e.callee.k === "id" && NEW_VALUES.has(e.callee.name))) {
    const back = givesBack(e)
    return e.args.map((a, i) => (back === "all" || back.includes(i) ? root(a) : null)).find((r) => r !== null) ?? null
  }
  return null
}

/** The local a container expression names, itself or a part of it (`d`, `d[0]`, `d.o`); null for another expression. */
const chainRoot = (e: Expr): string | null => (e.k === "id" ? e.name : e.k === "index" || (e.k === "member" && e.obj.k !== "self") ? chainRoot(e.obj) : null)

/** Text built from a string literal, a format or a conversion to text (`"[b]" + name`, `"%s" % x`, `str(n) + s`, `tr(k) + s`). */
const isTextual = (e: Expr): boolean =>
  e.k === "str" || (e.k === "bin" && (e.op === "%" || (e.op === "+" && (isTextual(e.left) || isTextual(e.right))))) || (e.k === "call" && e.callee.k === "id" && ["str", "String", "tr"].includes(e.callee.name))

/** The items of an Array literal, the keys and values of a Dictionary literal. */
const literalItems = (e: Extract<Expr, { k: "array" | "dict" }>): ReadonlyArray<Expr> => (e.k === "array" ? e.items : e.entries.flatMap(([k, v]) => [k, v]))

/** The locals whose containers (or parts) an Array or Dictionary literal holds, keys included; none for another expression. */
const literalRoots = (e: Expr): ReadonlyArray<string> => (e.k === "array" || e.k === "dict" ? literalItems(e).flatMap((item) => containerRoot(item) ?? []) : [])

/** GDScript's built-in functions (3.x and 4.x) whose value is never one of their arguments' containers (`str(d)`, `len(d)`, `load(p)`). */
const NEW_VALUES: ReadonlySet<string> = new Set([
  "str", "len", "typeof", "hash", "print", "prints", "printt", "printerr", "printraw", "print_debug", "push_error", "push_warning", "to_json", "parse_json",
  "validate_json", "var2str", "str2var", "var2bytes", "bytes2var", "var_to_str", "str_to_var", "var_to_bytes", "bytes_to_var", "load", "preload", "range",
  "int", "float", "bool", "String", "abs", "ceil", "floor", "round", "sqrt", "pow", "sin", "cos", "tan", "randi", "randf", "rand_range", "randi_range",
  "randf_range", "stepify", "snapped", "is_instance_valid", "inst2dict", "inst_to_dict", "dict2inst", "dict_to_inst", "type_exists", "char", "ord",
  "funcref", "weakref", "instance_from_id", "is_nan", "is_inf", "deg2rad", "rad2deg", "lerp", "clamp", "wrapi", "wrapf", "sign",
])

/** Methods that hand back a part of an Array or a Dictionary, the same object (not a copy). */
const CONTAINER_PARTS: ReadonlySet<string> = new Set(["get", "values", "keys", "front", "back", "pop_front", "pop_back", "pop_at", "max", "min", "pick_random", "filter", "map", "reduce"])

/**
 * Engine methods and built-ins whose value may be one of their arguments: the dispatchers (what the method called gives
 * back), getters with a default (`get_value(s, k, d)`) and `convert(d, TYPE_ARRAY)` (the same Array when the type is
 * already that: a fiftieth red team's).
 */
const ENGINE_GIVES_BACK: ReadonlySet<string> = new Set(["call", "callv", "callp", "call_func", "call_funcv", "resume", "get", "get_meta", "get_value", "convert", "type_convert"])

/** String methods that give the bytes of a text (`to_utf8`, `to_ascii`, 4.x `to_utf8_buffer`…). */
const BYTES_OF_TEXT: ReadonlySet<string> = new Set(["to_utf8", "to_ascii", "to_utf16", "to_utf32", "to_utf8_buffer", "to_ascii_buffer", "to_utf16_buffer", "to_utf32_buffer", "to_wchar_buffer"])

/** What adds a translation message at run time (Translation's methods and property). */
const RUNTIME_MESSAGES: ReadonlyArray<string> = ["add_message", "add_plural_message", "messages", "set_messages", "_set_messages"]

/** `tr(name[…])` or `tr(name.x)`: a translation of a part of the local `name`. */
const translatesOwnPart = (e: Expr, name: string): boolean => {
  if (e.k !== "call" || e.callee.k !== "id" || e.callee.name !== "tr" || e.args.length !== 1) return false
  const arg = e.args[0]
  return arg !== undefined && (arg.k === "index" || arg.k === "member") && arg.obj.k === "id" && arg.obj.name === name
}

/** Whether code writes into the container a local holds (`o["a"] = v`, `o.append(v)`, `o["a"]["b"] = v`). */
const writtenInto = (local: Local): boolean => (local.puts ?? []).length > 0 || (local.parts ?? []).length > 0

/** Data another name may change: data read at run time of no known kind (no longer JSON's, plain, nor the pack's). */
const changedData = (v: Extract<Val, { t: "unknown" }>): Val => {
  const { json: _json, plain: _plain, packData: _packData, dataSel: _dataSel, translated: _translated, numberItems: _numbers, listItems: _listed, noPack: _fresh, ...rest } = v
  return { ...rest, external: true }
}

/** Built-in values Godot adds and subtracts only with their own type (variant_op.cpp OP_ADD, OP_SUBTRACT). */
const SUMMED_VALUES: ReadonlySet<string> = new Set(["Vector2", "Vector2i", "Vector3", "Vector3i", "Vector4", "Vector4i", "Color", "Quat", "Quaternion"])
const isSummedValue = (v: Val): v is Extract<Val, { t: "inst" }> => v.t === "inst" && SUMMED_VALUES.has(v.cls)
/** A number, or a value of a kind Godot adds and subtracts (SUMMED_VALUES), or a join of only those. */
const isArithmeticValue = (v: Val): boolean =>
  (v.t === "lit" && typeof v.value === "number") || (v.t === "lit" && v.value === undefined) || isSummedValue(v) || (v.t === "unknown" && v.valueOnly === true && (v.insts ?? []).every((c) => SUMMED_VALUES.has(c)))
/** A number or a vector, colour or quaternion, not known which: no text, no object, no container. */
const ARITHMETIC_VALUE: Val = { t: "unknown", plain: true, valueOnly: true }
/**
 * Methods of Vector2/3 (and their 4.x integer kinds), Color and Quat that give a number, a bool or another such
 * value (the class reference of 3.2 and 4.x: none of these names gives text there); a number has no methods.
 */
const VALUE_ARITHMETIC: ReadonlySet<string> = new Set([
  "abs", "sign", "floor", "ceil", "round", "normalized", "rotated", "clamped", "clamp", "snapped", "linear_interpolate", "lerp", "slerp",
  "move_toward", "direction_to", "tangent", "orthogonal", "reflect", "bounce", "slide", "project", "limit_length", "posmod", "posmodv",
  "length", "length_squared", "distance_to", "distance_squared_to", "dot", "cross", "angle", "angle_to", "angle_to_point", "aspect",
])

/** Singletons whose `Singleton.NAME` is a property read that may give any value (`_get`), not a constant of the class. */
const DYNAMIC_SINGLETONS: ReadonlySet<string> = new Set(["ProjectSettings"])
/** Files that hold a resource of the pack's data (a script saved as one is found by its path first: scriptAt). */
const RESOURCE_EXTENSIONS: ReadonlySet<string> = new Set([".tres", ".res"])
/** ProjectSettings methods that give a setting's value by its name (ProjectSettings#setting). */
const SETTING_GETTERS: ReadonlySet<string> = new Set(["get_setting", "get_setting_with_override", "get"])

/**
 * Singleton methods that hand back a date or time as a Dictionary whose every value is an int or a bool (year, month,
 * day, weekday, dst, hour, minute, second: 3.x core/bind/core_bind.cpp `_OS::get_date`, `get_time`, `get_datetime`
 * (their keys joined), `get_datetime_from_unix_time`; 3.5/4.x core/os/time.cpp's `*_dict_*` methods). Not
 * `get_time_zone_info` (its "name" is text).
 */
const DATE_DICTIONARIES: Readonly<Record<string, ReadonlySet<string>>> = {
  OS: new Set(["get_datetime", "get_date", "get_time", "get_datetime_from_unix_time"]),
  Time: new Set(["get_datetime_dict_from_system", "get_date_dict_from_system", "get_time_dict_from_system", "get_datetime_dict_from_unix_time", "get_date_dict_from_unix_time", "get_time_dict_from_unix_time", "get_datetime_dict_from_datetime_string", "get_datetime_dict_from_string"]),
}
const DATE_FIELDS: Val = { t: "unknown", plain: true, numberItems: true }

/**
 * Methods whose text is hexadecimal digits: String's digests, and Color's HTML notation (`to_html`: core/color.cpp
 * `Color::to_html`, two hex digits a channel). Engine-only: no other class has them.
 */
const HEX_DIGESTS: ReadonlySet<string> = new Set(["md5_text", "sha1_text", "sha256_text", "to_html"])
/** String methods that keep digits digits with a digit at each end: padded with zeros, spaces stripped (not cut: `substr` of "0.5" can be "."). */
const DIGIT_KEEPERS: ReadonlySet<string> = new Set(["pad_zeros", "pad_decimals", "strip_edges"])
const DIGITS: Val = { t: "unknown", digitsOnly: true }

/**
 * Text "tagless" (values.ts) has every `[` followed by `lb` or `rb`: a tag's name there starts so, and no tag that
 * loads anything does (`img`, `font`, 4.x `dropcap font=`), in 3.2.3 (where `[lb]` is unknown and shown as text) and
 * later (where it is `[`).
 */
const bracketsOnlyStartEscapes = (text: string): boolean => [...text.matchAll(/\[/g)].every((m) => text.startsWith("lb", m.index + 1) || text.startsWith("rb", m.index + 1))

const oneString = (v: Val | undefined): string | null => (v?.t === "str" && v.values.length === 1 ? (v.values[0] ?? null) : null)

/** `replace("[", with)` whose `with` has every `[` followed by `lb` or `rb` (`"[lb]"`, `""`): what it gives is tagless. */
const escapesBrackets = (name: string, args: ReadonlyArray<Val>): boolean => {
  const by = oneString(args[1])
  return name === "replace" && args.length === 2 && oneString(args[0]) === "[" && by !== null && bracketsOnlyStartEscapes(by)
}

/**
 * Whether a method of tagless text keeps it so: `strip_edges`, or `replace(what, with)` where `what` holds none of
 * `l`, `b`, `r` (it cannot change the two letters after a `[`) and `with` is as escapesBrackets wants it
 * (`.replace("]", "[rb]")`, `.replace("\t", " ")`).
 */
const keepsTagless = (name: string, args: ReadonlyArray<Val>): boolean => {
  if (name === "strip_edges") return true
  const what = oneString(args[0])
  const by = oneString(args[1])
  return name === "replace" && args.length === 2 && what !== null && what !== "" && !/[lbr]/.test(what) && by !== null && bracketsOnlyStartEscapes(by)
}

/** What data decoded without objects holds: plain data (at most an EncodedObjectAsID) read at run time. */
const DECODED_DATA: Val = { t: "unknown", external: true, plain: true, json: true }

/** A decoder's arguments that allow no objects: none, or a first one that is false as a bool (`false`, `0`, `null`). */
const withoutObjects = (args: ReadonlyArray<Val>): boolean => {
  const [flag] = args
  return flag === undefined || (flag.t === "lit" && (flag.value === false || flag.value === 0 || flag.value === null))
}

/** A value no script can be attached to: a string, a built-in value type's (Array, Dictionary, Vector2…), JSON's plain data. */
const carriesNoScript = (v: Val): boolean => v.t === "str" || v.t === "lit" || (v.t === "inst" && VALUE_TYPES.has(v.cls) && v.cls !== "Object") || (v.t === "unknown" && (v.plain === true || v.json === true) && v.any !== true && v.insts === undefined)

const isNumberLiteral = (e: Expr): boolean => e.k === "num" || (e.k === "unary" && e.op === "-" && e.expr.k === "num")

/** A literal number, bool, string or null (`0`, `-1.5`, `"forest"`, `true`). */
const isScalarLiteral = (e: Expr): boolean => e.k === "num" || e.k === "str" || e.k === "const" || (e.k === "unary" && e.op === "-" && e.expr.k === "num")

/** A number or a bool: a literal of one, or a value typed so (str() and `%s` show only digits, a sign, a point or True/False). */
const isNumberValue = (v: Val): boolean => (v.t === "lit" && typeof v.value !== "string") || (v.t === "inst" && (v.cls === "int" || v.cls === "float" || v.cls === "bool"))

/**
 * What a binary operator gives when it cannot be folded: never an object (Variant's operators take no
 * Object operand but for comparisons, which give a bool; `a + b` of arrays gives a new Array), so plain data.
 */
/** Operators whose result is a bool whatever they compare. */
const BOOL_OPERATORS: ReadonlySet<string> = new Set(["==", "!=", "<", ">", "<=", ">=", "and", "or", "&&", "||", "in", "is"])
/** Operators whose result is a number when both sides are (`level + 1`). */
const ARITHMETIC: ReadonlySet<string> = new Set(["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"])

/** Operators only integers take (Variant::evaluate has no other operands for them). */
const BITWISE: ReadonlySet<string> = new Set(["&", "|", "^", "<<", ">>"])
/**
 * Operators that, given a number on one side, give a number or a vector (`score + 1`, `pos * 2`), or stop the script:
 * Variant::evaluate adds, subtracts, multiplies and divides no String, Array or Dictionary by a number (`%` formats a
 * String, so it is not among them).
 */
const WITH_A_NUMBER: ReadonlySet<string> = new Set(["+", "-", "*", "/"])

/**
 * Operators that give a number, a vector, a colour or a transform whatever they are given (or stop the script): Godot 3
 * multiplies and divides no String, Array or Dictionary (Variant::evaluate's OP_MULTIPLY and OP_DIVIDE; a
 * hundred-and-thirtieth hunt's `t.set(stat, t.get(stat) * upgrades[stat])`).
 */
const SCALING: ReadonlySet<string> = new Set(["*", "/"])

/** What an operator makes of values not folded: a bool, a number of numbers, a scaled value, else plain data of no known kind. */
const operatorResult = (op: string, l: Val, r: Val): Val =>
  BOOL_OPERATORS.has(op) || BITWISE.has(op) || (ARITHMETIC.has(op) && isNumberValue(l) && isNumberValue(r)) || (WITH_A_NUMBER.has(op) && (isNumberValue(l) || isNumberValue(r)))
    ? LIT
    : SCALING.has(op)
      ? ARITHMETIC_VALUE
      : { ...derived(l, r), plain: true }

/** Strings joined: constant when every part is; else what the known parts before the first unknown one prove about its start. */
const joined = (delimiter: string, parts: ReadonlyArray<Val>): Val => {
  const known: Array<string> = []
  for (const p of parts) {
    if (p.t !== "str" || p.values.length !== 1) {
      const prefix = known.length === 0 ? "" : `${known.join(delimiter)}${delimiter}`
      return prefix === "" ? derived(...parts) : { t: "unknown", prefix, ...(parts.some(isExternal) ? { external: true } : {}) }
    }
    known.push(p.values[0] ?? "")
  }
  return strs([known.join(delimiter)])
}

/** `funcref(target, name)` / `Callable(target, name)`. */
const bound = (target: Val, name: Val, cls: "FuncRef" | "Callable"): Val => {
  if (name.t === "str" && name.values.length === 1) return { t: "method", target, name: name.values[0] ?? "" }
  // By a name not constant still a FuncRef (a Callable), never text (3.x GDScriptFunctions FUNC_FUNCREF makes one or
  // fails): a table of handlers `handlers[s] = funcref(self, "_state_" + s)` holds no source (a hundred-and-eighth hunt's).
  return target.t === "guard" || isAnyObject(target) ? ANY_OBJECT : { t: "inst", cls }
}

/** A variable assigned `base` and then appended to (`+=`): its known start and some of the strings it can be. */
const appended = (base: Val, adds: ReadonlyArray<Val>): Val => {
  if (adds.length === 0) return base
  // `list += [sb.get_line_edit()]` holds the LineEdit.
  if (isLineEdit(base) || adds.some(isLineEdit)) return asLineEdit(appended(asPlainOf(base), adds.map(asPlainOf)))
  const external = isExternal(base) || adds.some(isExternal)
  const starts = knownStrings(base)
  if (starts.length === 0) return external ? EXTERNAL : { t: "unknown", ...(isAnyObject(base) ? { any: true } : {}) }
  const tails = adds.flatMap(knownStrings)
  const some = [...new Set([...starts, ...starts.flatMap((s) => tails.map((t) => s + t))])].slice(0, MAX_ALTERNATIVES)
  let prefix = starts[0] ?? ""
  for (const s of starts) while (!s.startsWith(prefix)) prefix = prefix.slice(0, -1)
  return { t: "unknown", prefix, some, ...(external ? { external: true } : {}) }
}

/** A value without its being a SpinBox's LineEdit (to build on it, then mark the result). */
const asPlainOf = (v: Val): Val => {
  if (v.t !== "inst" && v.t !== "unknown") return v
  const { lineEdit: _dropped, ...rest } = v
  return rest
}

/** Comparisons and logic on constants (`false == false`, `1 != 2`, `true and x`); null when not constant. */
const compare = (op: string, l: Val, r: Val): Val | null => {
  const plain = (v: Val): boolean | number | null | string | undefined => (v.t === "lit" ? v.value : v.t === "str" && v.values.length === 1 ? v.values[0] : undefined)
  const a = plain(l)
  const b = plain(r)
  if (op === "and" || op === "&&") return a !== undefined && !godotTruth(a) ? { t: "lit", value: false } : a !== undefined && b !== undefined ? { t: "lit", value: godotTruth(b) } : null
  if (op === "or" || op === "||") return a !== undefined && godotTruth(a) ? { t: "lit", value: true } : a !== undefined && b !== undefined ? { t: "lit", value: godotTruth(b) } : null
  if (a === undefined || b === undefined) return null
  switch (op) {
    case "==":
    case "!=":
      // Only values of one type compare for sure; the engine's conversions between types are not folded.
      if (typeof a !== typeof b || a === null || b === null) return a === null && b === null ? { t: "lit", value: op === "==" } : null
      return { t: "lit", value: (a === b) === (op === "==") }
    case "<":
    case ">":
    case "<=":
    case ">=": {
      if (a === null || b === null) return null
      const x = typeof a === "boolean" ? Number(a) : a
      const y = typeof b === "boolean" ? Number(b) : b
      if (typeof x !== typeof y) return null
      return { t: "lit", value: op === "<" ? x < y : op === ">" ? x > y : op === "<=" ? x <= y : x >= y }
    }
    default:
      return null
  }
}

/**
 * A path method on `OS.get_user_data_dir()` + a known rest (`exact`, written `user://` + rest): the
 * result, still exact where it is known (`plus_file`, `path_join`); `get_base_dir` and the like of the
 * folder itself climb out of user:// (its parent is the data folder of every game), of something below it
 * stay inside. Undefined when the method is not one of these.
 */
const onDataDir = (grammar: Grammar, exact: string, name: string, args: ReadonlyArray<FoldArg | null>): Val | undefined => {
  const rest = exact.slice("user://".length).replace(/^\/+/, "")
  if (name === "plus_file" || name === "path_join") {
    const a = args[0]
    if (args.length !== 1 || a === null || a === undefined || !("s" in a)) return undefined
    const joined = foldStringMethod(grammar, name, exact, [a])
    return joined === null ? undefined : { t: "unknown", prefix: joined, dataDir: true }
  }
  if (!PATH_KEEPING.has(name)) return undefined
  if (rest === "" || rest.split("/").includes("..")) return { t: "unknown", prefix: "/" }
  return { t: "unknown", prefix: "user://" }
}
