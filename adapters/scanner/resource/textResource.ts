import { MalformedData } from "../io/errors.ts"
import { type DataArg, type DataPropertyValue, type DataResource, isMemberName, type SceneConnection, type NamedNode, type SceneFacts, type ScriptHost, type SceneNodeType, type ScriptReference, SCENE_FILE_KEYS, type TrackCall, UNREAD } from "./SceneFacts.ts"
import { bbcodeLoads, bbcodeUrlMetas, mayLoadBbcode } from "./bbcode.ts"
import { nodePathText } from "./nodePath.ts"
import { newSpliceBudget, trackStrings } from "./stringInterpolation.ts"
import { filePathProperty } from "./filePathProperties.ts"
import { REPLICATED_PATH, REPLICATION_CONFIG } from "./binaryScripts.ts"
import { ADVANCE_EXPRESSION, ADVANCE_EXPRESSION_CLASS, isEvaluated } from "../gdscript/advanceExpression.ts"
import { textBundleFacts } from "./textBundle.ts"
import { forEachNode, type Grammar, type Position, stringOf, VariantTextParser, type VNode } from "./variantText.ts"

// A streaming reader for text scenes and resources (.tscn/.tres), on the engine's own reading of them
// (variantText.ts). It keeps what the checks need: script sources (built-in GDScript sub-resources, a
// GDScript main resource, `Object(GDScript, …)` values; under `script/source` or `source_code`), node
// types, the root node's script, every path the resource makes the engine load (`[ext_resource]`,
// `Resource("…")`, `instance_placeholder`), property paths written by animation tracks, the scene's
// connections with their bound strings, and the class of every resource. Memory stays bounded by the largest single value.

export interface TextEmbeddedScript {
  readonly subResource: string
  readonly source: string
  /** The escaped text as it appears in the file, for mapping script positions back to file positions. */
  readonly raw: string
  /** Where the first character of the string content sits in the file (1-based). */
  readonly start: Position
}

/** A path the engine loads when it loads this resource. */
export interface LoadedPath {
  /** Null for a value the engine converts to a path that is not a string here (`instance_placeholder=5`). */
  readonly path: string | null
  readonly what: string
  readonly at: Position
  /** The `uid` of an `[ext_resource]` (Godot 4): the engine loads the path its uid cache gives that id, and `path` only when the cache lacks it. */
  readonly uid?: string
  /**
   * A relative path is under res:// itself, not next to this file: a placeholder's path goes to
   * ResourceLoader::load as written (ProjectSettings::localize_path), where [ext_resource] paths are
   * made relative to the resource first.
   */
  readonly fromRoot?: true
  /** Loads of strings a value track builds (stringInterpolation.ts): one finding per group is enough. */
  readonly group?: string
  /** The engine opens the path itself (filePathProperties.ts): only a res:// path of the pack stays inside. */
  readonly opened?: true
}

/** An object the engine builds while reading the text (`Object(_OS, …)`), with its class as written. */
export interface BuiltObject {
  readonly className: string
  readonly at: Position
}

/** A property written by data rather than code: an animation track's path, a connection to a setter with its binds. */
export interface PropertyWrite {
  /** `node:property:subproperty` or a bare property name. */
  readonly path: string
  readonly how: string
  readonly at: Position
}

export interface TextResourceFacts extends SceneFacts {
  readonly fileTag: string
  readonly scripts: ReadonlyArray<TextEmbeddedScript>
  /**
   * Scripts' sources given as another value than a string (`NodePath("…")`, `StringName("…")`, an Array, …): the
   * engine compiles its String (GDScript::_set of `script/source`; a sixty-first red team's). The text inside a
   * NodePath or StringName is also in `scripts`.
   */
  readonly sourcesNotText: ReadonlyArray<Position>
  /** `type` of every sub-resource and of the main resource, with its id (the main resource's is ""). */
  readonly classes: ReadonlyArray<{ readonly subResource: string; readonly className: string }>
  readonly loadedPaths: ReadonlyArray<LoadedPath>
  /** Where value tracks blend string keys into more strings than the scanner judges (stringInterpolation.ts). */
  readonly unjudgedSplices: ReadonlyArray<Position>
  /** Property paths animation tracks write. */
  readonly propertyWrites: ReadonlyArray<PropertyWrite>
  readonly connections: ReadonlyArray<SceneConnection & { readonly at: Position }>
  /** Every `Object(Class, …)` value: the engine instances the class as it reads it (VariantParser::parse_value). */
  readonly objects: ReadonlyArray<BuiltObject>
  /** Calls of method tracks (`tracks/N/type = "method"`). */
  readonly trackCalls: ReadonlyArray<TrackCall & { readonly at: Position }>
  /** Properties set on objects that may have a script of the pack (memberWrites.ts). */
  readonly memberValues: ReadonlyArray<DataPropertyValue>
  /** Godot 4 state machine transitions' `advance_expression` texts (advanceExpression.ts), by sub-resource. */
  readonly expressions: ReadonlyArray<DataExpression>
  /** The `[url]` metas of every string the file holds (bbcode.ts bbcodeUrlMetas), value tracks' splices included. */
  readonly urlMetas: ReadonlyArray<string>
  /** PackedScenes the file holds whose `_bundled` records the scanner cannot read (textBundle.ts), and why. */
  readonly unreadScenes: ReadonlyArray<{ readonly at: Position; readonly why: string }>
  /** `[sub_resource]` headers repeating an id an earlier one has: the engine keeps the first and skips the later's properties. */
  readonly repeatedSubResources: ReadonlyArray<{ readonly id: string; readonly at: Position }>
  /** `resource_path = "…"` set on an object of the file (its place in the engine's resource cache), with the path. */
  readonly claimedPaths: ReadonlyArray<{ readonly path: string | null; readonly at: Position }>
}

/** Text the engine evaluates as an Expression, where the data holds it. */
export interface DataExpression {
  readonly subResource: string
  /** Null for a value that is not a string: the engine converts it to text (an array's strings unquoted), which the scanner does not follow. */
  readonly text: string | null
  readonly at: Position
}

const PACKED_SCENE = "PackedScene"
/** The property holding a PackedScene's nodes and connections (packed_scene.cpp). */
const BUNDLED = "_bundled"

/** Keys of a GDScript resource that hold its source (`script/source` recompiles it; `source_code` is the property). */
const SOURCE_KEYS: ReadonlySet<string> = new Set(["script/source", "source_code"])

/** The largest id the engine's `int` holds: a longer number wraps round (resource_format_text.cpp, `int index = …`). */
const MAX_ID = 2 ** 31 - 1

/**
 * A number id as the editor writes it (`1`, no sign, leading zero, point or exponent). The engine reads every number
 * as a whole one (`int id = token.value`), so `1.0`, `01` and `1e0` are id 1 to it: a seventy-eighth red team's autoload
 * scene declared `id=1.0` and `id=1` for a decoy and the real script. Any other spelling is refused.
 */
const wholeId = (text: string, written: string): string => {
  if (/^(0|[1-9][0-9]*)$/.test(text) && Number(text) <= MAX_ID) return text
  throw new MalformedData(`${written} is not a resource id written plainly as a whole number, and the engine reads every id as one (so it may name another resource than it seems). Write ids as the editor does (id=1, ExtResource( 1 )) or save the file again in the editor`)
}

/** `ExtResource( 1 )`, `ExtResource("1_abc")`, `SubResource("GDScript_x")` → kind and id. */
export const parseResourceCall = (value: VNode | undefined): { readonly kind: "Ext" | "Sub"; readonly id: string } | null => {
  if (value?.k !== "call" || (value.name !== "ExtResource" && value.name !== "SubResource")) return null
  const arg = value.args[0]
  const id = arg?.k === "str" ? arg.value : arg?.k === "num" ? wholeId(arg.text, `${value.name}( ${arg.text} )`) : null
  return id === null ? null : { kind: value.name === "ExtResource" ? "Ext" : "Sub", id }
}

/** A tag's `id`: Godot 3 converts a string one to a whole number too (`int index = next_tag.fields["id"]`); Godot 4 keeps strings. */
const idOf = (value: VNode | undefined, grammar: Grammar): string => {
  if (value?.k === "num") return wholeId(value.text, `id=${value.text}`)
  const text = stringOf(value) ?? ""
  return grammar === 3 && value !== undefined ? wholeId(text, `id=${JSON.stringify(text)}`) : text
}

/** Constructors of plain values (vectors, colours, transforms): no name, path, text or object. */
const PLAIN_VALUES: ReadonlySet<string> = new Set(["Vector2", "Vector2i", "Vector3", "Vector3i", "Vector4", "Vector4i", "Rect2", "Rect2i", "Transform2D", "Plane", "Quat", "Quaternion", "AABB", "Basis", "Transform", "Transform3D", "Projection", "Color", "RID"])

/**
 * A value as data (DataArg): strings (and StringNames, NodePaths), numbers, bools, arrays (and packed arrays),
 * resources (`ExtResource`/`SubResource` as `resourceOf` resolves them, `Resource("…")`), the object an
 * `Object(Class, …)` builds (by its class), null for null and plain values; a dictionary and anything else is UNREAD.
 */
export const dataArgOf = (value: VNode | undefined, resourceOf: (ref: { readonly kind: "Ext" | "Sub"; readonly id: string }) => DataResource | null = () => null): DataArg => {
  if (value === undefined) return null
  const text = stringOf(value)
  if (text !== null) return text
  switch (value.k) {
    case "num": {
      const n = Number(value.text)
      return Number.isFinite(n) ? n : null
    }
    case "ident":
      return value.name === "true" ? true : value.name === "false" ? false : null
    case "scalar":
      return null
    case "array":
      return value.items.map((v) => dataArgOf(v, resourceOf))
    case "call": {
      if (/^(Array|Pool\w*Array|Packed\w*Array)$/.test(value.name)) return value.args.map((v) => dataArgOf(v, resourceOf))
      const ref = parseResourceCall(value)
      const built = value.args[0]
      const resource =
        ref !== null
          ? resourceOf(ref)
          : value.name === "Resource" && stringOf(value.args[0]) !== null
            ? { _tag: "External" as const, path: stringOf(value.args[0]) ?? "" }
            : value.name === "Object" && built?.k === "ident"
              ? { _tag: "Internal" as const, type: built.name }
              : null
      if (resource !== null) return { resource }
      return PLAIN_VALUES.has(value.name) ? null : UNREAD
    }
    default:
      return UNREAD
  }
}

/** A dictionary value's entry by its string key. */
const entryOf = (dict: VNode | undefined, key: string): VNode | undefined => {
  if (dict?.k !== "dict") return undefined
  for (const item of dict.items) if (item.k === "pair" && stringOf(item.key) === key) return item.value
  return undefined
}

type Section = { readonly kind: "main" } | { readonly kind: "sub"; readonly id: string; readonly type: string } | { readonly kind: "node"; readonly root: boolean } | { readonly kind: "other" }

export class TextResourceReader {
  readonly #parser: VariantTextParser
  readonly #grammar: Grammar
  #fileTag = ""
  #mainType = ""
  #section: Section = { kind: "other" }
  #sawRoot = false
  readonly #externals = new Map<string, string>()
  /** Class of each sub-resource, by id. */
  readonly #subTypes = new Map<string, string>()
  readonly #scripts: Array<TextEmbeddedScript> = []
  readonly #sourcesNotText: Array<Position> = []
  readonly #classes: Array<{ subResource: string; className: string }> = []
  readonly #nodeTypes: Array<SceneNodeType> = []
  readonly #namedNodes: Array<NamedNode> = []
  readonly #urlMetas: Array<string> = []
  readonly #loaded: Array<LoadedPath> = []
  /** Keys of value tracks with more splices than the scanner judges. */
  readonly #unjudged: Array<Position> = []
  readonly #spliceBudget = newSpliceBudget()
  readonly #writes: Array<PropertyWrite> = []
  readonly #connections: Array<SceneConnection & { readonly at: Position }> = []
  readonly #objects: Array<BuiltObject> = []
  readonly #expressions: Array<DataExpression> = []
  readonly #unreadScenes: Array<{ readonly at: Position; readonly why: string }> = []
  readonly #repeatedSubResources: Array<{ readonly id: string; readonly at: Position }> = []
  readonly #claimedPaths: Array<{ readonly path: string | null; readonly at: Position }> = []
  /** Track types and keys of the animation being read (section key → track index → …), matched when the file ends. */
  readonly #tracks = new Map<string, Map<string, { type?: string; keys?: VNode; at?: Position; path?: string }>>()
  #rootScript: ScriptReference | null = null
  #rootInstance: string | null = null
  /** Whether the root sets `script` itself (then no instanced scene's root script stands, whatever the value). */
  #rootScriptSet = false
  readonly #memberValues: Array<DataPropertyValue> = []
  readonly #scriptHosts: Array<ScriptHost> = []
  /** The section being read: whether it is an engine object unless it sets a script, its class (null: instanced or inherited), its script, its properties. */
  #object: { readonly engine: boolean; readonly type: string | null; script?: ScriptReference | null; readonly props: Array<{ readonly property: string; readonly value: string | null }> } | null = null

  /** `simpleTags`: a settings or ConfigFile text (`.cfg`, `.remap`, `.import`), whose sections are simple tags (see VariantTextParser). */
  constructor(grammar: Grammar = 4, options: { readonly simpleTags?: boolean } = {}) {
    this.#grammar = grammar
    this.#parser = new VariantTextParser(grammar, { tag: (t) => this.#tag(t.name, t.fields, t.at), assign: (k, v, at) => this.#assign(k, v, at) }, options)
  }

  /** Bytes of the file, in order, in chunks of any size (a string is taken as the file's UTF-8). */
  feed(chunk: Uint8Array | string): void {
    this.#parser.feed(typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk)
  }

  #tag(name: string, fields: ReadonlyMap<string, VNode>, at: Position): void {
    for (const value of fields.values()) this.#objectScripts(value)
    this.#endObject()
    // A node of an engine class, a resource: its properties reach a script only if it sets one; an instanced or inherited node may have one.
    if (name === "node" || name === "sub_resource" || name === "resource") {
      const type = name === "resource" ? this.#mainType : fields.has("instance") ? null : stringOf(fields.get("type"))
      this.#object = { engine: name !== "node" || (fields.has("type") && !fields.has("instance")), type, props: [] }
    }
    switch (name) {
      case "gd_scene":
      case "gd_resource":
        if (this.#fileTag !== "") throw new MalformedData(`line ${at.line}: a second [${name}] tag`)
        this.#fileTag = name
        this.#mainType = stringOf(fields.get("type")) ?? (name === "gd_scene" ? "PackedScene" : "")
        if (name === "gd_resource") this.#classes.push({ subResource: "", className: this.#mainType })
        this.#section = { kind: "other" }
        return
      case "ext_resource": {
        const path = stringOf(fields.get("path"))
        if (path !== null) {
          this.#externals.set(idOf(fields.get("id"), this.#grammar), path)
          const uid = stringOf(fields.get("uid"))
          this.#loaded.push({ path, what: `[ext_resource] ${stringOf(fields.get("type")) ?? ""}`.trim(), at, ...(uid !== null ? { uid } : {}) })
        }
        this.#section = { kind: "other" }
        return
      }
      case "sub_resource": {
        const id = idOf(fields.get("id"), this.#grammar)
        const type = stringOf(fields.get("type")) ?? ""
        // A repeated id: the engine's text loader finds the first in its cache and skips every property of this one
        // (resource_format_text.cpp, `do_assign` false), so the first block is the one read (a seventy-first red
        // team's autoload scene whose second built-in script was a decoy).
        if (this.#subTypes.has(id)) {
          this.#repeatedSubResources.push({ id, at })
          this.#section = { kind: "other" }
          return
        }
        this.#classes.push({ subResource: id, className: type })
        this.#subTypes.set(id, type)
        this.#section = { kind: "sub", id, type }
        return
      }
      case "resource":
        this.#section = { kind: "main" }
        return
      case "node": {
        const type = stringOf(fields.get("type"))
        if (type !== null) this.#nodeTypes.push({ type, name: stringOf(fields.get("name")) ?? "", line: at.line, column: at.column })
        this.#namedNodes.push({ name: stringOf(fields.get("name")) ?? "", type: fields.has("instance") ? null : type })
        const root = !this.#sawRoot && !fields.has("parent")
        if (root) {
          this.#sawRoot = true
          const instance = parseResourceCall(fields.get("instance"))
          if (instance?.kind === "Ext") this.#rootInstance = instance.id
        }
        // The engine converts the value to a String (ResourceLoaderText, `String path = next_tag.fields["instance_placeholder"]`).
        if (fields.has("instance_placeholder")) this.#loaded.push({ path: stringOf(fields.get("instance_placeholder")), what: "instance_placeholder", at, fromRoot: true })
        this.#section = { kind: "node", root }
        return
      }
      case "connection": {
        const binds = this.#dataArg(fields.get("binds"))
        const ends = { from: stringOf(fields.get("from")) ?? "", to: stringOf(fields.get("to")) ?? "" }
        const unbinds = fields.get("unbinds")
        // Godot 3's loader ignores `unbinds` (a 4.x field): the signal's values still come first there.
        const dropped = this.#grammar === 4 && unbinds?.k === "num" && Number.isInteger(Number(unbinds.text)) && Number(unbinds.text) > 0 ? { unbinds: Number(unbinds.text) } : {}
        this.#connections.push({ signal: stringOf(fields.get("signal")) ?? "", method: stringOf(fields.get("method")) ?? "", binds: Array.isArray(binds) ? binds : [], ...ends, ...dropped, at })
        this.#section = { kind: "other" }
        return
      }
      default:
        this.#section = { kind: "other" }
    }
  }


  /** A value as data, its resources those this file declares before it (the engine resolves them as it reads). */
  #dataArg(value: VNode | undefined): DataArg {
    return dataArgOf(value, (ref) => {
      if (ref.kind === "Sub") {
        const type = this.#subTypes.get(ref.id)
        return type === undefined ? null : { _tag: "Internal", type }
      }
      const path = this.#externals.get(ref.id)
      return path === undefined ? null : { _tag: "External", path }
    })
  }

  /** The properties of the section just read, when it may be an object with a script of the pack. */
  #endObject(): void {
    const o = this.#object
    this.#object = null
    if (o === null || (o.engine && o.script === undefined)) return
    for (const p of o.props) this.#memberValues.push({ ...p, script: o.script ?? null })
  }

  /**
   * The script a `script = …` value gives: a file, a built-in one, or not known (null). `Resource("res://…")` is a file
   * too: VariantParser loads the path when the loader has no resource function of its own, as the text scene loader
   * (3.x variant_parser.cpp, a seventy-fifth red team's autoload root).
   */
  #scriptOf(value: VNode): ScriptReference | null {
    const call = parseResourceCall(value)
    if (call?.kind === "Sub") return { _tag: "BuiltIn", subResource: call.id }
    const loaded = value.k === "call" && value.name === "Resource" && value.args.length >= 1 ? stringOf(value.args[0]) : null
    const path = call?.kind === "Ext" ? this.#externals.get(call.id) : (loaded ?? undefined)
    return path === undefined ? null : { _tag: "File", path }
  }

  /** A script's source: a string as written; any other value noted, and the string inside a NodePath or StringName read too. */
  #source(subResource: string, value: VNode, at: Position): void {
    let text: VNode = value
    while (text.k === "call" && (text.name === "NodePath" || text.name === "StringName") && text.args.length === 1 && text.args[0] !== undefined) text = text.args[0]
    if (value.k !== "str") this.#sourcesNotText.push(at)
    if (text.k === "str") this.#scripts.push({ subResource, source: text.value, raw: text.raw, start: text.start })
  }

  #assign(key: string, value: VNode, at: Position): void {
    this.#objectScripts(value)
    // Resource::set_path: the object takes that path in the engine's resource cache, so a later load of the path (an
    // ext_resource, an autoload) gets it instead of the file (a seventy-seventh red team's built-in script standing in
    // for an autoload's). No editor saves the property.
    if (key === "resource_path") this.#claimedPaths.push({ path: stringOf(value), at })
    if (this.#object !== null) {
      if (key === "script") this.#object.script = this.#scriptOf(value)
      if (key === "script") this.#scriptHosts.push({ script: this.#object.script ?? null, type: this.#object.type })
      if (key === "script" && this.#section.kind === "node") {
        const node = this.#namedNodes.at(-1)
        if (node !== undefined) node.type = null
      }
      else if (isMemberName(key)) this.#object.props.push({ property: key, value: stringOf(value) })
    }
    const section = this.#section
    const isScript = (section.kind === "sub" && section.type === "GDScript") || (section.kind === "main" && this.#mainType === "GDScript")
    if (isScript && SOURCE_KEYS.has(key)) this.#source(section.kind === "sub" ? section.id : "", value, at)
    else this.#bbcode(key, value, at)
    // The last `script` of the root wins, as the engine sets a node's properties in order (a sixty-seventh red team
    // gave an autoload scene's root a decoy script first and the one that runs second).
    if (section.kind === "node" && section.root && key === "script") {
      this.#rootScript = this.#scriptOf(value)
      this.#rootScriptSet = true
    }
    // A node's scene file, loaded by its duplicate(), a pack() of the scene or reload_current_scene() (a fifty-sixth red team's).
    if (section.kind === "node" && SCENE_FILE_KEYS.has(key)) this.#loaded.push({ path: stringOf(value), what: `a node's ${key}`, at, fromRoot: true })
    const cls = section.kind === "sub" ? section.type : section.kind === "main" ? this.#mainType : undefined
    if (cls === PACKED_SCENE && key === BUNDLED) this.#bundledScene(value, at)
    if (cls === ADVANCE_EXPRESSION_CLASS && key === ADVANCE_EXPRESSION) this.#expression(section.kind === "sub" ? section.id : "", value, at)
    if (cls !== undefined && filePathProperty(cls) === key) this.#loaded.push({ path: stringOf(value), what: `${cls}.${key}`, at, opened: true })
    if (cls === REPLICATION_CONFIG && REPLICATED_PATH.test(key)) {
      const path = stringOf(value)
      if (path !== null) this.#writes.push({ path, how: "a MultiplayerSynchronizer's replication config (with the values a remote peer sends)", at })
    }
    if (/^tracks\/\d+\/path$/.test(key)) {
      const path = stringOf(value)
      if (path !== null) this.#writes.push({ path, how: "an animation track", at })
    }
    const track = /^tracks\/(\d+)\/(type|keys|path)$/.exec(key)
    if (track !== null && section.kind !== "node" && section.kind !== "other") {
      const animation = section.kind === "sub" ? section.id : ""
      let byTrack = this.#tracks.get(animation)
      if (byTrack === undefined) this.#tracks.set(animation, (byTrack = new Map()))
      const entry = byTrack.get(track[1] ?? "") ?? {}
      if (track[2] === "type") entry.type = stringOf(value) ?? ""
      else if (track[2] === "path") entry.path = stringOf(value) ?? ""
      else {
        entry.keys = value
        entry.at = at
      }
      byTrack.set(track[1] ?? "", entry)
    }
  }

  /**
   * Paths BBCode in the value's strings loads (bbcode.ts): a RichTextLabel's text, a translation's messages,
   * or any string a script may give to one. Relative paths go to ResourceLoader::load as written (under res://).
   */
  #bbcode(key: string, value: VNode, at: Position): void {
    const check = (text: string, where: Position, group?: string): void => {
      if (text.includes("[url")) this.#urlMetas.push(...bbcodeUrlMetas(text))
      if (!mayLoadBbcode(text)) return
      for (const load of bbcodeLoads(text, this.#grammar)) this.#loaded.push({ path: load.path, what: `[${load.tag}] BBCode of ${key}`, at: where, fromRoot: true, ...(group === undefined ? {} : { group }) })
    }
    if (/^tracks\/\d+\/keys$/.test(key)) {
      const values = entryOf(value, "values")
      const update = entryOf(value, "update")
      const strings = values?.k === "array" ? values.items.map((v) => (v.k === "str" ? v.value : null)) : []
      const built = trackStrings(update?.k === "num" ? Number(update.text) : null, strings, this.#spliceBudget)
      for (const text of built.splices) check(text, at, `${key}@${at.line}:${at.column}`)
      if (built.unjudged > 0) this.#unjudged.push(at)
    }
    forEachNode(value, (n) => {
      if (n.k === "str") check(n.value, n.start)
      // A NodePath given to a String property: the engine's text of the path (its empty names dropped) too.
      const raw = n.k === "call" && n.name === "NodePath" ? stringOf(n) : null
      if (raw !== null && n.k === "call" && nodePathText(raw) !== raw) check(nodePathText(raw), n.at)
    })
  }

  /**
   * A PackedScene this file holds as a sub-resource, its main resource or an `Object(PackedScene, …)` value
   * (wherever the file refers to it: metadata, an array, a property): its nodes and connections are the pack's as
   * a scene's are; its root's script is no scene's root (the file is no scene).
   */
  #bundledScene(value: VNode, at: Position): void {
    let scene: ReturnType<typeof textBundleFacts>
    try {
      scene = textBundleFacts(value, { external: (id) => this.#externals.get(id), subType: (id) => this.#subTypes.get(id) })
    } catch (error) {
      if (!(error instanceof MalformedData)) throw error
      this.#unreadScenes.push({ at, why: error.message })
      return
    }
    for (const n of scene.nodeTypes) this.#nodeTypes.push({ ...n, line: at.line, column: at.column })
    this.#namedNodes.push(...scene.namedNodes)
    for (const c of scene.connections) this.#connections.push({ ...c, at })
    this.#memberValues.push(...scene.memberValues)
    this.#scriptHosts.push(...scene.scriptHosts)
    for (const p of scene.placeholders) this.#loaded.push({ path: p.path, what: `instance_placeholder of ${p.node}`, at, fromRoot: true })
    for (const p of scene.sceneFiles) this.#loaded.push({ path: p.path, what: `the scene file of ${p.node}`, at, fromRoot: true })
  }

  /** An `advance_expression` the engine evaluates (only Godot 4 has the property). */
  #expression(subResource: string, value: VNode, at: Position): void {
    if (this.#grammar !== 4) return
    const text = value.k === "str" ? value.value : null
    if (text === null || isEvaluated(text)) this.#expressions.push({ subResource, text, at })
  }

  /** The calls of every method track: each key of `values` is `{"method": name, "args": [...]}`. */
  #trackCalls(): ReadonlyArray<TrackCall & { readonly at: Position }> {
    const out: Array<TrackCall & { readonly at: Position }> = []
    for (const [animation, tracks] of this.#tracks) {
      for (const { type, keys, at, path } of tracks.values()) {
        const values = entryOf(keys, "values")
        if (type !== "method" || values?.k !== "array" || at === undefined) continue
        for (const key of values.items) {
          const method = stringOf(entryOf(key, "method"))
          const args = this.#dataArg(entryOf(key, "args"))
          if (method !== null) out.push({ method, args: Array.isArray(args) ? args : [], animation, at, ...(path === undefined ? {} : { path }) })
        }
      }
    }
    return out
  }

  /** Scripts built inside a value (`Object(GDScript, "script/source": "…")`) and resources loaded by path (`Resource("…")`). */
  #objectScripts(value: VNode): void {
    forEachNode(value, (n) => {
      if (n.k !== "call") return
      const cls = n.args[0]
      if (n.name === "Object" && cls?.k === "ident") this.#objects.push({ className: cls.name, at: n.at })
      if (n.name === "Resource") {
        const path = stringOf(n.args[0])
        if (path !== null) this.#loaded.push({ path, what: "Resource()", at: n.at })
      }
      // An object built with a script: its other properties are set on an object of that script.
      if (n.name === "Object" && n.args.some((a) => a.k === "pair" && stringOf(a.key) === "script")) {
        for (const a of n.args) if (a.k === "pair" && isMemberName(stringOf(a.key) ?? "")) this.#memberValues.push({ property: stringOf(a.key) ?? "", value: stringOf(a.value), script: null })
        for (const a of n.args) if (a.k === "pair" && stringOf(a.key) === "script") this.#scriptHosts.push({ script: this.#scriptOf(a.value), type: cls?.k === "ident" ? cls.name : null })
      }
      const type = n.args[0]
      if (n.name === "Object" && type?.k === "ident" && type.name === PACKED_SCENE) {
        for (const arg of n.args) if (arg.k === "pair" && stringOf(arg.key) === BUNDLED) this.#bundledScene(arg.value, n.at)
      }
      if (n.name === "Object" && type?.k === "ident" && type.name === ADVANCE_EXPRESSION_CLASS) {
        for (const arg of n.args) if (arg.k === "pair" && stringOf(arg.key) === ADVANCE_EXPRESSION) this.#expression(`Object@${n.at.line}:${n.at.column}`, arg.value, arg.value.k === "str" ? arg.value.start : n.at)
      }
      if (n.name !== "Object" || type?.k !== "ident" || type.name !== "GDScript") return
      for (const arg of n.args) {
        if (arg.k === "pair" && SOURCE_KEYS.has(stringOf(arg.key) ?? "")) this.#source(`Object@${n.at.line}:${n.at.column}`, arg.value, n.at)
      }
    })
  }

  /**
   * A node's scene file set by a value track (`tracks/N/path = NodePath("N:filename")`): each key is a scene the engine
   * loads by itself, as a node's own `filename` is (a hundredth red team's value track, then `duplicate(
   * DUPLICATE_USE_INSTANCING)` of the node, loading a scene the game wrote to user://).
   */
  #trackSceneFiles(): void {
    for (const tracks of this.#tracks.values()) {
      for (const { type, keys, at, path } of tracks.values()) {
        const property = path?.slice(path.lastIndexOf(":") + 1) ?? ""
        if ((type !== undefined && type !== "value") || !path?.includes(":") || !SCENE_FILE_KEYS.has(property) || at === undefined) continue
        const values = entryOf(keys, "values")
        const items = values?.k === "array" ? values.items : [null]
        for (const item of items) this.#loaded.push({ path: item === null ? null : stringOf(item), what: `a node's ${property} set by an animation track`, at, fromRoot: true })
      }
    }
  }

  finish(): TextResourceFacts {
    this.#parser.finish()
    this.#endObject()
    this.#trackSceneFiles()
    const base = this.#rootInstance === null ? null : (this.#externals.get(this.#rootInstance) ?? null)
    return {
      fileTag: this.#fileTag,
      scripts: this.#scripts,
      sourcesNotText: this.#sourcesNotText,
      classes: this.#classes,
      nodeTypes: this.#nodeTypes,
      namedNodes: this.#namedNodes,
      urlMetas: this.#urlMetas,
      rootScript: this.#rootScript,
      rootScriptSet: this.#rootScriptSet,
      baseScene: base,
      loadedPaths: this.#loaded,
      unjudgedSplices: this.#unjudged,
      propertyWrites: this.#writes,
      connections: this.#connections,
      objects: this.#objects,
      trackCalls: this.#trackCalls(),
      memberValues: this.#memberValues,
      scriptHosts: this.#scriptHosts,
      expressions: this.#expressions,
      unreadScenes: this.#unreadScenes,
      repeatedSubResources: this.#repeatedSubResources,
      claimedPaths: this.#claimedPaths,
    }
  }
}
