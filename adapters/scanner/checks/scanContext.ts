import type { LoadableWrite, PendingLoad } from "./unpinnedLoads.ts"
import type { Decompressors } from "../Decompressors.ts"
import type { ClassEntry } from "./classRegistrations.ts"
import type { ScriptAst } from "../gdscript/ast.ts"
import { type DataCall, type DataConnection, type PackScript, resolveScriptPath } from "../gdscript/packModel.ts"
import { onePerFolder } from "../pack/packPath.ts"
import type { DataPropertyValue, ScriptHost, ScriptReference } from "../resource/SceneFacts.ts"
import { parseScript } from "../gdscript/parser.ts"
import type { PatternHit } from "../gdscript/PolicyIndex.ts"
import type { Grammar } from "../gdscript/tokenizer.ts"
import { MalformedData } from "../io/errors.ts"
import type { PackContents } from "../PackContents.ts"
import type { PackEntry } from "../pack/PackLayout.ts"
import type { Policy } from "../policy/Policy.ts"
import { builtInScriptKey, type ScanState } from "./ScanState.ts"
import type { ScriptLocation } from "./scriptFindings.ts"

// What the content pass carries from entry to entry, and the scripts it collects for the pack-wide analysis.

/** A settings file's registration list (classRegistrations.ts), with where its findings go. */
export interface RegistrationList {
  readonly file: string
  readonly storedPath: string
  /** The setting: `_global_script_classes`, or `list` in Godot 4's class cache. */
  readonly key: string
  readonly entries: ReadonlyArray<ClassEntry>
}

export interface CollectedScript {
  readonly script: PackScript
  readonly location: ScriptLocation
  /** Hits found while reading it (its bytes are not strict UTF-8). */
  readonly hits: ReadonlyArray<PatternHit>
}


export interface Context {
  readonly contents: PackContents
  readonly policy: Policy
  readonly decompressors: Decompressors
  readonly state: ScanState
  readonly grammar: Grammar
  readonly scripts: Array<CollectedScript>
  /** The class registration lists of the settings files and Godot 4's class cache, by stored path (the last copy of a path wins). */
  readonly registrations: Map<string, RegistrationList>
  /** Autoload singletons of the project settings (`*` paths): name → path. */
  readonly autoloads: Map<string, string>
  /** The project settings' values by whole key (projectSettingsCheck.ts settingValues), of the files the engine starts from. */
  readonly settings: Map<string, Array<string | null>>
  /** The engine class of each text resource's main resource, by stored path (`[gd_resource type="…"]`). */
  readonly resourceTypes: Map<string, string>
  /** The paths a `.remap`, a settings path remap or a translation remap sends elsewhere (any key, any feature). */
  readonly redirectedPaths: Set<string>
  /** Every autoload, singleton or not, by name: a class may extend one by its name. */
  readonly baseAutoloads: Map<string, string>
  /** Scene connections whose method is a dispatch API, by signal. */
  readonly connections: Array<DataConnection>
  /** Every method a scene connection or a method track calls by name (their callers are out of the scripts' sight). */
  readonly dataMethods: Set<string>
  /** Those calls with the values their data hands the method (a track key's arguments, a connection's binds). */
  readonly dataCalls: Array<DataCall>
  /** Properties scenes and resources set on objects that may have a script of the pack, by property (memberWrites.ts); script keys as in `scripts`, null when not known. */
  readonly memberValues: Map<string, Array<{ readonly script: string | null; readonly value: string | null }>>
  /** Names in the property paths animation tracks write. */
  readonly trackWritten: Set<string>
  /** Entries already read as text the engine parses with VariantParser (so a ConfigFile.load of them is not read twice). */
  readonly variantTexts: Set<string>
  /** Engine classes of the nodes the pack's scenes create (scenes nested in resources included: textBundle.ts). */
  readonly sceneClasses: Set<string>
  /** Loads whose path is not pinned down, judged once every script is read (unpinnedLoads.ts). */
  readonly pendingLoads: Array<PendingLoad>
  /** The pack's writes whose file a load may read as code. */
  readonly loadableWrites: Array<LoadableWrite>
  /** The `[url]` metas of every string of the pack's scenes and resources, and whether some strings were not all read (value tracks' unjudged splices). */
  readonly linkMetas: { readonly urls: Set<string>; unread: boolean }
  /** The pack's scene nodes by name: their engine classes (null: instanced, inherited or scripted). */
  readonly sceneNodes: Map<string, Set<string | null>>
  /** The objects data attaches scripts to: script keys as in `scripts` (null: not known), engine classes (null: not known). */
  readonly scriptHosts: Array<{ readonly script: string | null; readonly type: string | null }>
}

/** Keeps the scene's nodes by name (`sceneNodes`). */
export const keepSceneNodes = (ctx: Context, nodes: ReadonlyArray<{ readonly name: string; readonly type: string | null }>): void => {
  for (const n of nodes) {
    const types = ctx.sceneNodes.get(n.name) ?? new Set()
    types.add(n.type)
    ctx.sceneNodes.set(n.name, types)
  }
}

/** The key (as in `scripts`) of the script a scene or resource of `file` names, null when not known. */
const scriptKey = (ctx: Context, file: string, script: ScriptReference | null): string | null =>
  script === null ? null : script._tag === "BuiltIn" ? builtInScriptKey(file, script.subResource) : ctx.contents.loadedPath(resolveScriptPath(script.path, file))

/** Keeps the objects a scene or resource attaches scripts to (`scriptHosts`). */
export const keepScriptHosts = (ctx: Context, file: string, hosts: ReadonlyArray<ScriptHost>): void => {
  for (const h of hosts) ctx.scriptHosts.push({ script: scriptKey(ctx, file, h.script), type: h.type })
}

/** Keeps what a scene or resource sets on objects that may have a script of the pack, with the scripts resolved from `file`. */
export const keepMemberValues = (ctx: Context, file: string, values: ReadonlyArray<DataPropertyValue>): void => {
  for (const v of values) {
    const script = scriptKey(ctx, file, v.script)
    const list = ctx.memberValues.get(v.property)
    const entry = { script, value: v.value }
    if (list === undefined) ctx.memberValues.set(v.property, [entry])
    else list.push(entry)
  }
}

/** Keeps the names of an animation track's property path (`Node/Child:property:sub`): what it writes is out of sight. */
export const keepTrackWritten = (ctx: Context, path: string): void => {
  for (const part of path.split(/[:/]/)) if (part !== "") ctx.trackWritten.add(part)
}

/** Parses a script and keeps it for the pack-wide analysis; a script nested beyond the parser's depth cannot be reviewed. */
export const collectScript = (ctx: Context, key: string, entry: PackEntry, source: string, location: ScriptLocation, hits: ReadonlyArray<PatternHit> = []): ScriptAst => {
  const ast = parseScript(source, ctx.grammar)
  if (ast.tooDeep) throw new MalformedData("a script nests expressions or blocks deeper than the scanner follows")
  const isLastCopy = ctx.contents.get(entry.path) === entry
  const scriptKey = isLastCopy ? key : `${key}@${entry.index}`
  const builtIn = key.includes("::")
  const path = builtIn || !isLastCopy ? null : key
  // A built-in script's relative `preload`/`extends` is joined to the folder of the path its resource was loaded by.
  const relativeTo = builtIn ? onePerFolder([location.file, ...ctx.contents.loadPaths(entry)]) : undefined
  ctx.scripts.push({ script: { key: scriptKey, path, ...(relativeTo === undefined ? {} : { relativeTo }), ast, grammar: ctx.grammar }, location: { ...location, source }, hits })
  return ast
}
