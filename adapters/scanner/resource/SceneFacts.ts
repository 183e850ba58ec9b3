// What the entry-scene and banned-node checks need from a scene, text or binary.

export type ScriptReference =
  /** A script file, as a `res://` path (possibly relative to the scene in hand-written files). */
  | { readonly _tag: "File"; readonly path: string }
  /** A built-in script: a GDScript sub-resource of the same scene. */
  | { readonly _tag: "BuiltIn"; readonly subResource: string }

export interface SceneNodeType {
  readonly type: string
  readonly name: string
  /** 1-based line of the `[node]` header in a text scene; null in a binary scene. */
  readonly line: number | null
  readonly column: number | null
}

export interface SceneFacts {
  /** Script on the root node, if the scene sets one itself. */
  readonly rootScript: ScriptReference | null
  /** The scene this one inherits from (its root is an instance of it), if any. */
  readonly baseScene: string | null
  /** Class of every node the scene creates itself (instanced nodes have none). */
  readonly nodeTypes: ReadonlyArray<SceneNodeType>
}

/** A value written in data: a string (a StringName, a NodePath), an array of values, or anything else (null). */
export type DataArg = string | ReadonlyArray<DataArg> | null

/** A signal connection the scene makes: the signal, the method it calls, and its bound arguments. */
export interface SceneConnection {
  readonly signal: string
  readonly method: string
  readonly binds: ReadonlyArray<DataArg>
}

/** A method an animation's method track calls on its node, with the key's arguments. */
export interface TrackCall {
  readonly method: string
  readonly args: ReadonlyArray<DataArg>
  /** The animation (sub-resource id, or "" for the main resource). */
  readonly animation: string
}

/**
 * A property data sets on an object that may have a script of the pack: a node or resource whose script
 * is given (`script`), or one whose script is not known here (null: an instanced or inherited node, an
 * `Object(…)` value with a script).
 */
export interface DataPropertyValue {
  readonly property: string
  /** The value when it is a string (a StringName, a NodePath's text); null for any other value. */
  readonly value: string | null
  readonly script: ScriptReference | null
}

/** Names a script member can have: what scenes and resources may set on one (not `script` itself). */
export const isMemberName = (key: string): boolean => key !== "script" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)
