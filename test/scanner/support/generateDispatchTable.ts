// Regenerates adapters/scanner/gdscript/engine-dispatch.json from Godot's class reference
// (doc/classes/*.xml and modules/*/doc_classes/*.xml of an engine checkout), for Godot 3 and 4:
//
//   node test/scanner/support/generateDispatchTable.ts <godot-3.x checkout> <godot-4.x checkout> [out.json]
//
// A method is a dispatcher when one of its parameters names a method, a property, a class or a
// singleton (by the parameter names and types below); the argument positions come from the XML.
// docs/scanner.md#dispatch-table says which checkouts produced the committed table.
import { readFileSync, writeFileSync } from "node:fs"
import { classReferenceFiles } from "./classReference.ts"
import type { DispatchEntry, DispatchKind } from "../../../adapters/scanner/gdscript/engineDispatch.ts"

export type { DispatchEntry, DispatchKind }

const METHOD_PARAMS = new Set(["method", "method_name", "function", "callback", "func", "function_name", "funcname"])
const PROPERTY_PARAMS = new Set(["property", "property_name", "property_path"])
const TARGET_PARAMS = new Set(["object", "target", "instance", "receiver", "obj", "callback_object"])
const NAME_TYPES = new Set(["String", "StringName"])
/** Editor-only and visual-scripting classes cannot be reached from an exported game's GDScript. */
const SKIPPED_CLASS = /^(Editor|VisualScript|VisualShader|ScriptCreateDialog|ScriptEditor|ScriptExtension|ScriptLanguageExtension|MultiplayerAPIExtension)/
/**
 * Methods that take a method or property name only to ask about it or to build text, never to
 * call, read or write it; and virtual methods (leading underscore), which scripts implement rather than call.
 */
const NOT_DISPATCH = /^(_.*|has_method|class_has_method|get_method_argument_count|class_get_method_argument_count|is_connected|disconnect|rpc_config|property_can_revert|property_get_revert|make_request|make_notification|get_method_documentation)$/

/**
 * Methods whose property parameter names a property of the receiver itself (no target parameter) or of the
 * nodes of a group: Node's rset family (the property a remote peer writes, 3.x) and SceneTree.set_group*.
 */
const RECEIVER_PROPERTIES = /^(Node\.(rset(_id|_unreliable|_unreliable_id|_config)?|set_deferred_thread_group|set_thread_safe)|SceneTree\.set_group(_flags)?)$/

interface Param {
  readonly index: number
  readonly name: string
  readonly type: string
  readonly optional: boolean
}

const attr = (tag: string, name: string): string | undefined => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1]

export interface Callable {
  readonly element: string
  readonly name: string
  readonly params: ReadonlyArray<Param>
  readonly vararg: boolean
}

/** `<method>`s and `<constructor>`s with their `<param>` (4.x) or `<argument>` (3.x) elements. */
export const callablesOf = (xml: string): Array<Callable> => {
  const out: Array<Callable> = []
  for (const m of xml.matchAll(/<(method|constructor)\s([^>]*name="([^"]+)"[^>]*)>([\s\S]*?)<\/\1>/g)) {
    const params: Array<Param> = []
    for (const p of (m[4] ?? "").matchAll(/<(?:param|argument)\s[^>]*>/g)) {
      params.push({ index: Number(attr(p[0], "index")), name: attr(p[0], "name") ?? "", type: attr(p[0], "type") ?? "", optional: attr(p[0], "default") !== undefined })
    }
    const vararg = /\bvararg\b/.test(attr(m[2] ?? "", "qualifiers") ?? "")
    out.push({ element: m[1] ?? "", name: m[3] ?? "", params: params.sort((a, b) => a.index - b.index), vararg })
  }
  return out
}

const targetOf = (params: ReadonlyArray<Param>): number | undefined =>
  params.find((p) => p.type === "Object" && TARGET_PARAMS.has(p.name))?.index ??
  params.find((p) => p.type === "Object")?.index ??
  params.find((p) => p.type === "Variant" && p.name === "variant")?.index

export const dispatchEntries = (root: string): Array<DispatchEntry> => {
  const entries: Array<DispatchEntry> = []
  /** The classes defining a method of each name, with the most arguments each accepts. */
  const definers = new Map<string, Map<string, number>>()
  /** The arguments a call of `Class.method` must pass. */
  const required = new Map<string, number>()
  const parents = new Map<string, string>()
  for (const file of classReferenceFiles(root)) {
    const xml = readFileSync(file, "utf8")
    const cls = /<class\s[^>]*name="([^"]+)"/.exec(xml)?.[1] ?? ""
    const inherits = /<class\s[^>]*inherits="([^"]+)"/.exec(xml)?.[1]
    if (inherits !== undefined) parents.set(cls, inherits)
    for (const { element, name, params, vararg } of callablesOf(xml)) {
      if (element !== "method") continue
      const byClass = definers.get(name) ?? new Map<string, number>()
      byClass.set(cls, vararg ? Infinity : params.length)
      definers.set(name, byClass)
      required.set(`${cls}.${name}`, params.filter((p) => !p.optional).length)
    }
  }
  for (const file of classReferenceFiles(root)) {
    const xml = readFileSync(file, "utf8")
    const cls = /<class\s[^>]*name="([^"]+)"/.exec(xml)?.[1]
    if (cls === undefined || SKIPPED_CLASS.test(cls)) continue
    for (const { element, name, params } of callablesOf(xml)) {
      if (NOT_DISPATCH.test(name)) continue
      const method = element === "constructor" ? cls : name
      const named = (set: ReadonlySet<string>) => params.find((p) => set.has(p.name) && NAME_TYPES.has(p.type))
      const target = targetOf(params)
      const methodParam = named(METHOD_PARAMS)
      const propertyParam = params.find((p) => PROPERTY_PARAMS.has(p.name) && (NAME_TYPES.has(p.type) || p.type === "NodePath"))
      // class_call_static calls the static method of the class its `class` argument names (core/core_bind.cpp).
      const classParam = cls === "ClassDB" && name === "class_call_static" ? params.find((x) => x.name === "class" && NAME_TYPES.has(x.type)) : undefined
      const on = classParam !== undefined ? { targetClass: classParam.index } : target === undefined ? {} : { target }
      if (methodParam !== undefined) entries.push({ class: cls, method, kind: "method", name: methodParam.index, ...on })
      else if (propertyParam !== undefined && (cls === "Object" || target !== undefined || RECEIVER_PROPERTIES.test(`${cls}.${name}`))) {
        entries.push({ class: cls, method, kind: "property", name: propertyParam.index, ...(target === undefined ? {} : { target }) })
      } else if (cls === "ClassDB" && /^(instance|instantiate|class_call_static)$/.test(name)) {
        const p = params.find((x) => x.name === "class" && NAME_TYPES.has(x.type))
        if (p !== undefined) entries.push({ class: cls, method, kind: "class", name: p.index })
      } else if (cls === "Engine" && name === "get_singleton") {
        const p = params.find((x) => NAME_TYPES.has(x.type))
        if (p !== undefined) entries.push({ class: cls, method, kind: "singleton", name: p.index })
      } else if (cls === "JSONRPC" && name === "set_scope" && target !== undefined) {
        // process_action()/process_string() later call methods named by the incoming JSON on `target`.
        entries.push({ class: cls, method, kind: "target", target })
      } else if (cls === "JSONRPC" && /^process_(action|string)$/.test(name)) {
        // A method outside every scope is called on the JSONRPC object itself (jsonrpc.cpp: `Object *object = this`).
        entries.push({ class: cls, method, kind: "target" })
      }
      // A second method named on a second object (3.x Tween.follow_method's `target`, `target_method`; targeting_method's
      // `initial`, `initial_method`: tween.cpp calls it by name on that object): an entry of its own, the target the
      // Object parameter just before the name.
      for (const extra of params.filter((p) => p !== methodParam && /_method$/.test(p.name) && NAME_TYPES.has(p.type))) {
        const before = params.filter((p) => p.index < extra.index && p.type === "Object").at(-1)
        if (before !== undefined) entries.push({ class: cls, method, kind: "method", name: extra.index, target: before.index })
      }
      // class_call_static names both: the class whose static method it calls (above) and that class, judged as instantiate's.
      if (cls === "ClassDB" && name === "class_call_static") {
        const p = params.find((x) => x.name === "class" && NAME_TYPES.has(x.type))
        if (p !== undefined) entries.push({ class: cls, method, kind: "class", name: p.index })
      }
    }
    // Properties holding a method name (FuncRef.function): assigning them, or calling their setter, dispatches later.
    for (const m of xml.matchAll(/<member\s[^>]*>/g)) {
      const name = attr(m[0], "name") ?? ""
      if (!METHOD_PARAMS.has(name) || !NAME_TYPES.has(attr(m[0], "type") ?? "")) continue
      entries.push({ class: cls, method: name, kind: "member" })
      const setter = attr(m[0], "setter")
      if (setter !== undefined && setter !== "") entries.push({ class: cls, method: setter, kind: "method", name: 0 })
    }
  }
  /** Node or one of its subclasses (the `inherits` chain of the class reference): a node of the scene tree may be one. */
  const isNode = (cls: string): boolean => {
    for (let c: string | undefined = cls, n = 0; c !== undefined && n < 64; c = parents.get(c), n++) if (c === "Node") return true
    return false
  }
  /** Another class's method of that name that a call passing this one's required arguments could be. */
  const shared = (e: DispatchEntry): boolean =>
    [...(definers.get(e.method) ?? [])].some(([c, most]) => c !== e.class && c !== "Object" && !SKIPPED_CLASS.test(c) && most >= (required.get(`${e.class}.${e.method}`) ?? 0))
  const marked = entries
    .map((e) => (shared(e) ? { ...e, shared: true as const } : e))
    .map((e) => (isNode(e.class) ? { ...e, node: true as const } : e))
  return marked.sort((a, b) => (a.class + "." + a.method < b.class + "." + b.method ? -1 : 1))
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [godot3, godot4, out = "adapters/scanner/gdscript/engine-dispatch.json"] = process.argv.slice(2)
  if (godot3 === undefined || godot4 === undefined) {
    console.error("usage: node test/scanner/support/generateDispatchTable.ts <godot-3.x checkout> <godot-4.x checkout> [out.json]")
    process.exit(2)
  }
  const table = { godot3: dispatchEntries(godot3), godot4: dispatchEntries(godot4) }
  const line = (e: DispatchEntry) => `    ${JSON.stringify(e)}`
  writeFileSync(out, `{\n  "godot3": [\n${table.godot3.map(line).join(",\n")}\n  ],\n  "godot4": [\n${table.godot4.map(line).join(",\n")}\n  ]\n}\n`)
  console.log(`${out}: ${table.godot3.length} Godot 3 and ${table.godot4.length} Godot 4 dispatchers`)
}
