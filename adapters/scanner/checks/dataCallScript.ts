import type { DataArg, DataResource } from "../resource/SceneFacts.ts"
import type { DataPosition } from "./resourceDataFindings.ts"

// The calls scene and resource data make the engine do by name, written as the GDScript that makes the same
// calls, so the script analysis judges them with every rule and table it has for code (the dispatch table,
// setters, property paths, file writes, argument patterns, the capability summary): one judgement, not a copy.
// A scene connection calls its method on its target node with the signal's arguments (signalArguments.ts: one
// call for each way the signal may be emitted), then its binds (3.x Object::emit_signal appends the binds; 4.x
// binds them to the Callable likewise); a method track's key calls
// its method with its arguments on the track's node (3.x AnimationPlayer, scene/animation/animation_player.cpp,
// `nc->node->call`) or, when the track's path goes on to a resource (`Sfx:stream`), on that resource (3.5
// AnimationTree, scene/animation/animation_tree.cpp `track_method->object = resource.ptr()`; Godot 4's
// scene/animation/animation_mixer.cpp, `track_method->object_id = resource->get_instance_id()`). What the data
// passes is written as it is: strings, numbers and arrays as literals, a resource of the pack by the `load` of
// its path (a script is then the pack's script), an object the file makes as a value of its class, and anything
// the scanner does not follow (a dictionary) as a value that is not known. So `[connection …
// method="interpolate_callback" binds=[ExtResource(2), 0.1, "set_source_code", "…"]]` is judged as
// `get_node("Tw").interpolate_callback(load("res://base.gd"), 0.1, "set_source_code", "…")`.

/** One call data makes by name, and where it is written. */
export interface DataCallSite {
  /** The node it is made on (a path from the scene's root or the animation's root). */
  readonly node: string
  /** For a method track whose path goes on past the node (`Sfx:stream`): the properties leading to a resource, on which the call may be made instead. */
  readonly resource: ReadonlyArray<string>
  readonly method: string
  readonly args: ReadonlyArray<DataArg>
  /** A connection: the signal's arguments come before the binds. */
  readonly afterSignal: boolean
  /** The lists of values the signal may pass (signalArguments.ts); absent: 0 to SIGNAL_ARGUMENTS nulls. */
  readonly signalArgs?: ReadonlyArray<ReadonlyArray<DataArg>>
  /** Where the data writes it (null in a binary file), and what it is, for the reviewer. */
  readonly at: DataPosition | null
  readonly what: string
}

/** How a resource the data passes is written: the `load` of a path of the pack, a value of an engine class, or not known (null). */
export type ResourceValue = { readonly load: string } | { readonly type: string } | null

export interface DataCallScript {
  readonly source: string
  /** The call each line of the function's body stands for (line `FIRST_LINE + i`). */
  readonly calls: ReadonlyArray<DataCallSite>
}

/** The line of the script where the first call is written. */
export const FIRST_LINE = 3

/**
 * A signal a script emits is judged with this many arguments before the binds, and with each fewer down to none:
 * a bind may then stand at any position up to the largest position of a name in the dispatch table (4: 3.x Tween's
 * `follow_method`, whose second method name is its fifth argument). Those arguments are `null` there, a value that is no name, path,
 * text or object: a script that emits the signal has its arguments judged at the emit (analyzeScript.ts). An
 * engine signal passes its own number of values (signalArguments.ts).
 */
export const SIGNAL_ARGUMENTS = 4

/** What a signal only a script emits passes before the binds (none to four nulls; also where a call site does not say, as in a test). */
export const SCRIPT_SIGNAL_ARGUMENTS: ReadonlyArray<ReadonlyArray<DataArg>> = Array.from({ length: SIGNAL_ARGUMENTS + 1 }, (_, k) => Array<DataArg>(k).fill(null))

/** The value of a parameter the engine calls the function with: anything. */
const UNKNOWN = "u"

/** Words that cannot follow a `.` as a method's name in either grammar: such a name is called with `call`. */
const RESERVED: ReadonlySet<string> = new Set(
  "if elif else for while match when break continue pass return class class_name extends is in as self super tool signal func static const enum var onready export setget breakpoint preload yield await remote master puppet slave sync remotesync mastersync puppetsync not and or true false null PI TAU INF NAN void namespace trait".split(" "),
)

const isIdentifier = (name: string): boolean => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !RESERVED.has(name)

/** A GDScript string literal both grammars read back as `text`: every character outside printable ASCII escaped. */
export const gdscriptString = (text: string): string =>
  JSON.stringify(text).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)

/** The script for `calls` (null when there are none); `resourceValue` says how each resource they pass is written. */
export const dataCallScript = (calls: ReadonlyArray<DataCallSite>, resourceValue: (r: DataResource) => ResourceValue): DataCallScript | null => {
  if (calls.length === 0) return null
  const typed = new Map<string, string>()
  const value = (arg: DataArg): string => {
    if (typeof arg === "string") return gdscriptString(arg)
    if (typeof arg === "number") return Number.isFinite(arg) ? String(arg) : "null"
    if (typeof arg === "boolean") return String(arg)
    if (arg === null) return "null"
    if (Array.isArray(arg)) return `[${(arg as ReadonlyArray<DataArg>).map(value).join(", ")}]`
    if (!("resource" in arg)) return UNKNOWN
    const written = resourceValue(arg.resource)
    if (written === null) return UNKNOWN
    if ("load" in written) return `load(${gdscriptString(written.load)})`
    const name = typed.get(written.type) ?? `r${typed.size}`
    typed.set(written.type, name)
    return name
  }
  const call = (receiver: string, method: string, args: ReadonlyArray<string>): string =>
    isIdentifier(method) ? `${receiver}.${method}(${args.join(", ")})` : `${receiver}.call(${[gdscriptString(method), ...args].join(", ")})`
  const lines = calls.map((c) => {
    const args = c.args.map(value)
    const node = `get_node(${gdscriptString(c.node === "" ? "." : c.node)})`
    const receivers = [node, ...(c.resource.length === 0 ? [] : [c.resource.every(isIdentifier) ? `${node}.${c.resource.join(".")}` : `${node}.get_indexed(${gdscriptString(c.resource.join(":"))})`])]
    const emitted = c.afterSignal ? (c.signalArgs ?? SCRIPT_SIGNAL_ARGUMENTS) : [[]]
    return `\t${receivers.flatMap((r) => emitted.map((before) => call(r, c.method, [...before.map(value), ...args]))).join("; ")}`
  })
  const params = [UNKNOWN, ...[...typed].map(([type, name]) => `${name}: ${type}`)]
  return { source: ["extends Node", `func _data_calls(${params.join(", ")}):`, ...lines, ""].join("\n"), calls }
}

/** A track's path as a node and the properties after it (`Sfx:stream` → `Sfx`, [`stream`]). */
export const trackTarget = (path: string): { readonly node: string; readonly resource: ReadonlyArray<string> } => {
  const [node = "", ...resource] = path.split(":")
  return { node, resource: resource.filter((p) => p !== "") }
}
