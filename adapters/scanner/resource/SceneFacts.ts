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
  /**
   * Whether the root sets its `script` property itself, whatever the value (null, a value the scanner cannot read as
   * a script): the root's script is then not its instanced or inherited scene's.
   */
  readonly rootScriptSet: boolean
  /** The scene this one inherits from (its root is an instance of it), if any. */
  readonly baseScene: string | null
  /** Class of every node the scene creates itself (instanced nodes have none). */
  readonly nodeTypes: ReadonlyArray<SceneNodeType>
  /** Every node the scene declares by name, with its class when the scene makes it of an engine class without a script (null: instanced, inherited, scripted). */
  readonly namedNodes: ReadonlyArray<NamedNode>
  /** Every object the file gives a script (`script = …` of a node or resource, an `Object(Class, "script": …)` value), with its class. */
  readonly scriptHosts: ReadonlyArray<ScriptHost>
}

/**
 * An object data attaches a script to: the script (null: not known here) and the engine class of the object
 * (null: not known here, an instanced or inherited node).
 */
export interface ScriptHost {
  readonly script: ScriptReference | null
  readonly type: string | null
}

/** A node of a scene by name: an engine class without a script (`type`), or null when its class is not only the engine's. */
export interface NamedNode {
  readonly name: string
  type: string | null
}

/**
 * An object data hands over as a value: an external resource (`ExtResource(2)`, an inline `Resource("…")`) by
 * the path the engine loads, or an object the file makes itself (a sub-resource, an `Object(Class, …)` value)
 * by the class the engine instances.
 */
export type DataResource = { readonly _tag: "External"; readonly path: string } | { readonly _tag: "Internal"; readonly type: string }

/** A value the scanner does not follow (a dictionary, an object the data builds): it may be anything. */
export const UNREAD: { readonly unread: true } = { unread: true }

/**
 * A value written in data: a string (a StringName, a NodePath), a number, a bool, an array of values, a
 * resource, a value not followed (UNREAD), or null for null and every other plain value (a vector, a colour):
 * no name, path, text or object.
 */
export type DataArg = string | number | boolean | ReadonlyArray<DataArg> | { readonly resource: DataResource } | typeof UNREAD | null

/** A signal connection the scene makes: the signal, the method it calls, and its bound arguments. */
export interface SceneConnection {
  readonly signal: string
  readonly method: string
  readonly binds: ReadonlyArray<DataArg>
  /** The nodes, as written in a text scene (paths from the scene's root). */
  readonly from?: string
  readonly to?: string
  /** What the scene says of the node emitting the signal (a text scene). */
  /** How many of the signal's last arguments the connection drops (Godot 4's `unbinds`). */
  readonly unbinds?: number
}


/** A method an animation's method track calls on its node, with the key's arguments. */
export interface TrackCall {
  readonly method: string
  readonly args: ReadonlyArray<DataArg>
  /** The animation (sub-resource id, or "" for the main resource). */
  readonly animation: string
  /** The track's path (`Tw`, `Sfx:stream`: a node, then the resource a property of it holds). */
  readonly path?: string
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

/** A node's scene file (3.x `filename`, 4.x `scene_file_path`), which the engine loads as a scene: Node::_duplicate, a pack() of its scene, reload_current_scene(). */
export const SCENE_FILE_KEYS: ReadonlySet<string> = new Set(["filename", "scene_file_path"])
