import { type BinaryResource, readInternalClass, readProperties, subResourceId } from "./binaryResource.ts"
import { dataArgOfValue, dataRefsOf } from "./binaryScene.ts"
import type { TrackCall } from "./SceneFacts.ts"
import { newSpliceBudget, trackStrings } from "./stringInterpolation.ts"
import type { Value } from "./variant.ts"

export interface EmbeddedScript {
  /** Sub-resource id: `GDScript_k3x9a` (Godot 4 named ids) or a number (Godot 3). */
  readonly subResource: string
  readonly source: string
  /** Its bytes were not strict UTF-8 (the source is what the engine decodes from them). */
  readonly notStrict?: true
}

export interface BinaryScripts {
  readonly scripts: ReadonlyArray<EmbeddedScript>
  /**
   * GDScripts whose source is another value than a string (an object: the engine compiles what its `_to_string()`
   * gives; a sixty-second red team's), by sub-resource.
   */
  readonly sourcesNotText: ReadonlyArray<string>
  /** Class of every internal resource, for checks that care about resource types (native, non-GDScript). */
  readonly classes: ReadonlyArray<{ readonly subResource: string; readonly className: string }>
  /** The property paths animation tracks write. */
  readonly propertyPaths: ReadonlyArray<{ readonly subResource: string; readonly path: string; readonly how?: string }>
  /** The calls of method tracks. */
  readonly trackCalls: ReadonlyArray<TrackCall>
  /** Strings value tracks build between their string keys (stringInterpolation.ts), judged like the resource's strings. */
  readonly splicedStrings: ReadonlyArray<string>
  /** Value tracks with more splices than the scanner judges. */
  readonly unjudgedSplices: number
}

/** A dictionary value's entry by its string key. */
const entryOf = (v: Value | undefined, key: string): Value | undefined => (v instanceof Map ? v.get(key) : undefined)

/**
 * Finds built-in GDScript sub-resources and returns their `script/source` (and `source_code`), and the
 * property paths of animation tracks. Built-in scripts are
 * never tokenized by the exporter, so this source text is what the engine runs.
 */
/** Godot 4's SceneReplicationConfig: `properties/N/path` are the property paths a MultiplayerSynchronizer syncs. */
export const REPLICATION_CONFIG = "SceneReplicationConfig"
export const REPLICATED_PATH = /^properties\/\d+\/path$/

export const readBinaryScripts = async (resource: BinaryResource): Promise<BinaryScripts> => {
  const scripts: Array<EmbeddedScript> = []
  const sourcesNotText: Array<string> = []
  const classes: Array<{ subResource: string; className: string }> = []
  const propertyPaths: Array<{ subResource: string; path: string; how?: string }> = []
  /** Method track keys, their arguments read as data once every internal resource's class is known. */
  const keyCalls: Array<Omit<TrackCall, "args"> & { readonly args: Value | undefined }> = []
  const splicedStrings: Array<string> = []
  let unjudgedSplices = 0
  const budget = newSpliceBudget()
  for (const internal of resource.internals) {
    const className = await readInternalClass(resource, internal)
    classes.push({ subResource: subResourceId(internal), className })
    if (className === REPLICATION_CONFIG) {
      // Godot 4: a MultiplayerSynchronizer writes these property paths with the values a remote peer sends.
      const props = await readProperties(resource, internal, (name) => (REPLICATED_PATH.test(name) ? 0 : null))
      for (const path of props.values()) if (typeof path === "string") propertyPaths.push({ subResource: subResourceId(internal), path, how: `the replication config ${subResourceId(internal)} (a remote peer's values)` })
    }
    if (className === "Animation") {
      // A track's path names a node and a property path its keys write (`.:s:source_code`); a method track's keys call methods by name.
      const props = await readProperties(resource, internal, (name) => (/^tracks\/\d+\/(path|type)$/.test(name) ? 0 : /^tracks\/\d+\/keys$/.test(name) ? 6 : null))
      for (const [name, path] of props) if (name.endsWith("/path") && typeof path === "string") propertyPaths.push({ subResource: subResourceId(internal), path })
      for (const [name, keys] of props) {
        if (!name.endsWith("/keys")) continue
        const values = entryOf(keys, "values")
        const update = entryOf(keys, "update")
        // NodePath keys read as strings too: the engine does not blend them, so this only judges more.
        const built = trackStrings(typeof update === "number" ? update : null, Array.isArray(values) ? (values as ReadonlyArray<Value>).map((v) => (typeof v === "string" ? v : null)) : [], budget)
        splicedStrings.push(...built.splices)
        unjudgedSplices += built.unjudged
      }
      for (const [name, type] of props) {
        if (!name.endsWith("/type") || type !== "method") continue
        const values = entryOf(props.get(name.replace(/type$/, "keys")), "values")
        const path = props.get(name.replace(/type$/, "path"))
        for (const key of Array.isArray(values) ? (values as ReadonlyArray<Value>) : []) {
          const method = entryOf(key, "method")
          if (typeof method === "string") keyCalls.push({ method, args: entryOf(key, "args"), animation: subResourceId(internal), ...(typeof path === "string" ? { path } : {}) })
        }
      }
      continue
    }
    if (className !== "GDScript") continue
    // `script/source` recompiles the script; `source_code` is the property itself: both are its code.
    const props = await readProperties(resource, internal, (name) => (name === "script/source" || name === "source_code" ? 0 : null))
    for (const source of props.values()) {
      if (typeof source === "string") scripts.push({ subResource: subResourceId(internal), source, ...(resource.context.notStrict?.has(source) === true ? { notStrict: true as const } : {}) })
      else sourcesNotText.push(subResourceId(internal))
    }
  }
  const refs = dataRefsOf(resource, classes)
  const trackCalls = keyCalls.map((k): TrackCall => {
    const args = dataArgOfValue(k.args, refs)
    return { ...k, args: Array.isArray(args) ? args : [] }
  })
  return { scripts, sourcesNotText, classes, propertyPaths, trackCalls, splicedStrings, unjudgedSplices }
}
