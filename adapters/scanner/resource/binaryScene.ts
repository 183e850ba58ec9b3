import { MalformedData } from "../io/errors.ts"
import { type BinaryResource, type InternalResource, internalByReference, readProperties, subResourceId } from "./binaryResource.ts"
import { type DataArg, type DataPropertyValue, isMemberName, type SceneConnection, type NamedNode, type SceneFacts, type ScriptHost, type SceneNodeType, type ScriptReference, SCENE_FILE_KEYS, UNREAD } from "./SceneFacts.ts"
import type { ObjectRef, Value } from "./variant.ts"

// The `_bundled` dictionary of a binary PackedScene (see packed_scene.cpp, set_bundled_scene):
// `names` and `variants` tables, and `nodes`, a flat int array of records
//   parent, owner, type, name|index, instance, property count, (name, value)*, group count, group*
// where property values and the instance/base scene are indexes into `variants` (a placeholder's
// instance has FLAG_INSTANCE_IS_PLACEHOLDER set and indexes its path).

const TYPE_INSTANTIATED = 0x7fffffff
/** A node's `instance` with this bit names a placeholder: the rest (FLAG_MASK) indexes its path in `variants`. */
const FLAG_INSTANCE_IS_PLACEHOLDER = 1 << 30
const FLAG_MASK = (1 << 24) - 1
const PROPERTY_NAME_MASK = (1 << 30) - 1
const NODE_NAME_MASK = (1 << 18) - 1

const isObjectRef = (v: Value | undefined): v is ObjectRef =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Map) && !(v instanceof Int32Array) && "_tag" in v

/**
 * A node's `instance_placeholder`: the engine converts the variant to a String (SceneState::instantiate,
 * `const String scene_path = props[n.instance & FLAG_MASK]`) and loads that path when the game calls
 * replace_by_instance() or create_instance(). `path` is null for a value that is not a string.
 */
export interface BinaryPlaceholder {
  readonly node: string
  readonly path: string | null
}

export interface BinarySceneFacts extends SceneFacts {
  readonly connections: ReadonlyArray<SceneConnection>
  readonly placeholders: ReadonlyArray<BinaryPlaceholder>
  /** Nodes' scene files (`filename`, 4.x `scene_file_path`), which the engine loads as scenes (textResource.ts SCENE_FILE_KEYS). */
  readonly sceneFiles: ReadonlyArray<BinaryPlaceholder>
  /** Properties the nodes set that may be a script's members (memberWrites.ts). */
  readonly memberValues: ReadonlyArray<DataPropertyValue>
}

/** The script an object reference of a binary resource names: an external file, or a built-in sub-resource; null for anything else. */
export const scriptReferenceOf = (resource: BinaryResource, ref: Value | undefined): ScriptReference | null => {
  if (!isObjectRef(ref)) return null
  if (ref._tag === "External") {
    const ext = resource.externals[ref.index]
    return ext === undefined ? null : { _tag: "File", path: ext.path }
  }
  if (ref._tag === "ExternalPath") return { _tag: "File", path: ref.path }
  if (ref._tag === "Internal") {
    const internal = internalByReference(resource, ref.index)
    return internal === undefined ? null : { _tag: "BuiltIn", subResource: subResourceId(internal) }
  }
  return null
}

export const readBinarySceneFacts = async (resource: BinaryResource, refs?: DataRefs): Promise<BinarySceneFacts | null> => {
  const main = resource.internals.at(-1)
  if (main === undefined || resource.mainType !== "PackedScene") return null
  return readInternalScene(resource, main, refs)
}

/** The scene an internal PackedScene of the resource holds (the main one, or one nested as a sub-resource). */
export const readInternalScene = async (resource: BinaryResource, internal: InternalResource, refs?: DataRefs): Promise<BinarySceneFacts> => {
  // Three levels: the dictionary, its tables, and arrays inside the variants table (a connection's bound array).
  const props = await readProperties(resource, internal, (name) => (name === "_bundled" ? 3 : null))
  return bundledSceneFacts(props.get("_bundled"), (ref) => scriptReferenceOf(resource, ref), refs)
}

/**
 * A count, index or version of `_bundled` as the engine reads it (SceneState::set_bundled_scene: `int x = d["key"]`, a
 * Variant converted to int): an integer, or undefined when absent. Any other value is refused here: the engine converts a
 * string, a bool or a float to an int (`base_scene = "0"` was the first external: a ninetieth red team's inherited root,
 * which the scanner read as not inherited) and no editor writes one.
 */
const bundledInt = (bundled: ReadonlyMap<Value, Value>, key: string): number | undefined => {
  if (!bundled.has(key)) return undefined
  const value = bundled.get(key)
  if (typeof value !== "number" || !Number.isInteger(value)) throw new MalformedData(`PackedScene _bundled ${key} is not an integer`)
  return value
}

/**
 * The facts of a PackedScene's `_bundled` dictionary as values (variant.ts), whichever file holds it: `toScript`
 * names the script an object reference of its variants is, `refs` reads them as data.
 */
export const bundledSceneFacts = (bundled: Value | undefined, toScript: (ref: Value | undefined) => ScriptReference | null, refs?: DataRefs): BinarySceneFacts => {
  if (!(bundled instanceof Map)) throw new MalformedData("PackedScene without a _bundled dictionary")
  const names = bundled.get("names")
  const variants = bundled.get("variants")
  const nodes = bundled.get("nodes")
  const nodeCount = bundledInt(bundled, "node_count")
  if (!Array.isArray(names) || !Array.isArray(variants) || !(nodes instanceof Int32Array) || nodeCount === undefined) {
    throw new MalformedData("PackedScene _bundled lacks names, variants, nodes or node_count")
  }
  const nameAt = (i: number): string | undefined => (typeof names[i] === "string" ? names[i] : undefined)

  const nodeTypes: Array<SceneNodeType> = []
  const namedNodes: Array<NamedNode> = []
  const placeholders: Array<BinaryPlaceholder> = []
  const sceneFiles: Array<BinaryPlaceholder> = []
  let rootScript: ScriptReference | null = null
  // A root that instances another scene (`instance` of node 0): its node has that scene's root script, unless it sets one.
  let rootInstance: string | null = null
  let rootScriptSet = false
  const memberValues: Array<DataPropertyValue> = []
  const scriptHosts: Array<ScriptHost> = []
  let at = 0
  const next = (): number => {
    const v = nodes[at++]
    if (v === undefined) throw new MalformedData("PackedScene node records run past the nodes array")
    return v
  }
  for (let n = 0; n < Math.min(nodeCount, nodes.length); n++) {
    next() // parent
    next() // owner
    const type = next()
    const nodeName = nameAt(next() & NODE_NAME_MASK) ?? ""
    const instance = next()
    if (instance >= 0 && (instance & FLAG_INSTANCE_IS_PLACEHOLDER) !== 0) {
      const value = variants[instance & FLAG_MASK]
      placeholders.push({ node: nodeName, path: typeof value === "string" ? value : null })
    }
    if (n === 0 && instance >= 0 && (instance & FLAG_INSTANCE_IS_PLACEHOLDER) === 0) {
      const instanced = toScript(variants[instance & FLAG_MASK])
      rootInstance = instanced?._tag === "File" ? instanced.path : null
    }
    const propertyCount = next()
    if (propertyCount < 0 || propertyCount * 2 > nodes.length - at) throw new MalformedData("PackedScene node has an impossible property count")
    // A node of an engine class has a script of the pack only if it sets one; an instanced or inherited one may have one.
    let script: ScriptReference | null | undefined = type === TYPE_INSTANTIATED || instance >= 0 ? null : undefined
    const props: Array<{ readonly property: string; readonly value: string | null }> = []
    for (let p = 0; p < propertyCount; p++) {
      const name = nameAt(next() & PROPERTY_NAME_MASK)
      const value = next()
      if (n === 0 && name === "script") {
        rootScript = toScript(variants[value])
        rootScriptSet = true
      }
      if (name !== undefined && SCENE_FILE_KEYS.has(name)) sceneFiles.push({ node: nodeName, path: typeof variants[value] === "string" ? (variants[value] as string) : null })
      if (name === "script") {
        script = toScript(variants[value])
        scriptHosts.push({ script, type: type === TYPE_INSTANTIATED || instance >= 0 ? null : (nameAt(type) ?? null) })
      } else if (name !== undefined && isMemberName(name)) props.push({ property: name, value: typeof variants[value] === "string" ? (variants[value] as string) : null })
    }
    if (script !== undefined) for (const p of props) memberValues.push({ ...p, script })
    const groupCount = next()
    if (groupCount < 0 || groupCount > nodes.length - at) throw new MalformedData("PackedScene node has an impossible group count")
    at += groupCount
    const typeName = type === TYPE_INSTANTIATED ? undefined : nameAt(type)
    if (typeName !== undefined) nodeTypes.push({ type: typeName, name: nodeName, line: null, column: null })
    namedNodes.push({ name: nodeName, type: typeName === undefined || instance >= 0 || script !== undefined ? null : typeName })
  }
  const baseIndex = bundledInt(bundled, "base_scene") ?? -1
  if (baseIndex >= variants.length) throw new MalformedData(`PackedScene base_scene ${baseIndex} outside its ${variants.length} variants`)
  const baseScript = baseIndex >= 0 ? toScript(variants[baseIndex]) : null
  // A base scene builds the root whatever the root's own instance says (SceneState::instance tests base_scene_idx
  // first); one that is no external scene (an internal PackedScene: a ninety-fourth red team's) is not followed here.
  if (baseIndex >= 0 && baseScript?._tag !== "File") throw new MalformedData("PackedScene base_scene is no external scene")
  return { rootScript, rootScriptSet, baseScene: baseScript?._tag === "File" ? baseScript.path : rootInstance, nodeTypes, namedNodes, connections: connectionsOf(bundled, nameAt, variants, refs), placeholders, sceneFiles, memberValues, scriptHosts }
}

/** `conns`: from, to, signal, method, flags, bind count, binds (indexes into `variants`), and since version 3 unbinds. */
const connectionsOf = (bundled: ReadonlyMap<Value, Value>, nameAt: (i: number) => string | undefined, variants: ReadonlyArray<Value>, refs?: DataRefs): ReadonlyArray<SceneConnection> => {
  const conns = bundled.get("conns")
  const count = bundledInt(bundled, "conn_count")
  const version = bundledInt(bundled, "version")
  if (!(conns instanceof Int32Array) || count === undefined) return []
  const out: Array<SceneConnection> = []
  let at = 0
  for (let n = 0; n < count && at + 6 <= conns.length; n++) {
    const method = nameAt(conns[at + 3] ?? -1) ?? ""
    const bindCount = conns[at + 5] ?? 0
    if (bindCount < 0 || at + 6 + bindCount > conns.length) throw new MalformedData("PackedScene connection records run past the conns array")
    const binds = Array.from(conns.subarray(at + 6, at + 6 + bindCount), (i) => dataArgOfValue(variants[i], refs))
    const hasUnbinds = version !== undefined && version >= 3
    const unbinds = hasUnbinds ? (conns[at + 6 + bindCount] ?? 0) : 0
    out.push({ signal: nameAt(conns[at + 2] ?? -1) ?? "", method, binds, ...(unbinds > 0 ? { unbinds } : {}) })
    at += 6 + bindCount + (hasUnbinds ? 1 : 0)
  }
  return out
}

/** How the object references of a binary resource read as data (DataArg). */
export type DataRefs = (ref: ObjectRef) => DataArg

/** A resource's references as data: its externals by path, its internal resources by class (`classes`, by sub-resource id). */
export const dataRefsOf = (resource: BinaryResource, classes: ReadonlyArray<{ readonly subResource: string; readonly className: string }>): DataRefs => {
  const classOf = new Map(classes.map((c) => [c.subResource, c.className]))
  return (ref) => {
    if (ref._tag === "Empty") return null
    if (ref._tag === "ExternalPath") return { resource: { _tag: "External", path: ref.path } }
    if (ref._tag === "External") {
      const ext = resource.externals[ref.index]
      return ext === undefined ? UNREAD : { resource: { _tag: "External", path: ext.path } }
    }
    const internal = internalByReference(resource, ref.index)
    const type = internal === undefined ? undefined : classOf.get(subResourceId(internal))
    return type === undefined ? UNREAD : { resource: { _tag: "Internal", type } }
  }
}

/**
 * A binary variant as data (DataArg): strings, numbers, bools, arrays (and packed string arrays), object
 * references as `refs` reads them; packed number arrays and null are null; a dictionary or a value the reader
 * skipped (a vector, a colour, …) is UNREAD.
 */
export const dataArgOfValue = (v: Value | undefined, refs: DataRefs = () => UNREAD): DataArg => {
  if (v === undefined || v === null) return null
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return v
  if (Array.isArray(v)) return (v as ReadonlyArray<Value>).map((x) => dataArgOfValue(x, refs))
  if (v instanceof Int32Array || v instanceof Uint8Array) return null
  return isObjectRef(v) ? refs(v) : UNREAD
}
