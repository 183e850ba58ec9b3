import { RULE } from "../../../domain/scan/RuleId.ts"
import { concatBytes } from "../../shared/bytes.ts"
import { finding } from "../findings.ts"
import { engineNames } from "../gdscript/engineClasses.ts"
import { dispatchIndex } from "../gdscript/engineDispatch.ts"
import { indexPolicy, type PatternHit } from "../gdscript/PolicyIndex.ts"
import { headerOf } from "../gdscript/scriptHeader.ts"
import { MalformedData } from "../io/errors.ts"
import { bytesSource, readExactly } from "../io/RandomAccess.ts"
import type { PackEntry } from "../pack/PackLayout.ts"
import { openBinaryResource, readInlineExternals, readInternalClass, readProperties, subResourceId } from "../resource/binaryResource.ts"
import { type BbcodeLoad, bbcodeLoads, bbcodeUrlMetas, mayLoadBbcode } from "../resource/bbcode.ts"
import { COMPRESSED_TRANSLATIONS, readTranslationTexts } from "../resource/compressedTranslation.ts"
import { packLookup } from "../pack/packPath.ts"
import { type BinarySceneFacts, dataRefsOf, readBinarySceneFacts, readInternalScene, scriptReferenceOf } from "../resource/binaryScene.ts"
import { readBinaryScripts } from "../resource/binaryScripts.ts"
import { mapUnescapedPosition } from "../resource/godotString.ts"
import { type DataResource, isMemberName, type SceneConnection, type TrackCall } from "../resource/SceneFacts.ts"
import type { Value } from "../resource/variant.ts"
import { type TextResourceFacts, TextResourceReader } from "../resource/textResource.ts"
import { POSITIONS_KEPT } from "../resource/variantText.ts"
import { decodeAsEngine, StrictUtf8Watch } from "../text/godotUtf8.ts"
import { type DataCallSite, dataCallScript, FIRST_LINE, type ResourceValue, trackTarget } from "./dataCallScript.ts"
import { signalArguments } from "./signalArguments.ts"
import { ADVANCE_EXPRESSION, ADVANCE_EXPRESSION_CLASS, advanceExpressionScript, isEvaluated } from "../gdscript/advanceExpression.ts"
import { type UidResolution, uidIdToText } from "../resource/uidCache.ts"
import type { Finding } from "../../../domain/scan/Finding.ts"
import { filePathProperty } from "../resource/filePathProperties.ts"
import { builtObjectFindings, type DataObject, type DataPaths, type DataPosition, loadedPathFinding, propertyWriteFindings, uidFinding } from "./resourceDataFindings.ts"
import { bannedNodeFindings, resourceClassFindings } from "./resourceFindings.ts"
import { builtInScriptKey } from "./ScanState.ts"
import { type Context, collectScript, keepMemberValues, keepSceneNodes, keepScriptHosts, keepTrackWritten } from "./scanContext.ts"
import { hitMessage, type ScriptLocation, scriptFindings } from "./scriptFindings.ts"

// Scenes and resources, and every other text the engine reads with VariantParser (ConfigFile's `.cfg`,
// `.remap` and `.import` files, a file a script loads with ConfigFile): the scripts in them, the paths
// they make the engine load, the properties they write and the calls they make by name (connections,
// method tracks), and the objects the engine builds while reading them.

/** Entries up to this size are read once and parsed from memory; larger ones are read piecewise. */
/**
 * The class of a scene's placeholder node (`instance_placeholder=…`): scene/main/instance_placeholder.cpp `_set`/`_get`
 * keep and hand back any property it is given, whatever its name (a twentieth red team's method-track key).
 */
const PLACEHOLDER = "InstancePlaceholder"

const IN_MEMORY_BYTES = 1024 * 1024
const TEXT_CHUNK_BYTES = 1024 * 1024

/** The file data findings point into. */
interface DataSite {
  readonly file: string
  readonly storedPath: string
}

/** `Object(` and a class name, for text the reader refused: the engine builds every object it read before the error. */
const OBJECT_TEXT = /Object\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)/g

export const scanTextResource = async (ctx: Context, entry: PackEntry): Promise<void> => {
  const reader = new TextResourceReader(ctx.grammar)
  const encoding = new StrictUtf8Watch()
  const access = ctx.contents.accessOf(entry)
  for (let at = 0; at < access.size; at += TEXT_CHUNK_BYTES) {
    const chunk = await readExactly(access, at, Math.min(TEXT_CHUNK_BYTES, access.size - at))
    encoding.feed(chunk)
    reader.feed(chunk)
  }
  encoding.finish()
  const facts = reader.finish()
  const file = ctx.contents.creatorPath(entry)
  ctx.variantTexts.add(entry.path)
  const problem = encoding.problem
  const strictEntry = indexPolicy(ctx.policy).text.get("strict-utf8")
  if (problem !== null && strictEntry !== undefined) {
    ctx.state.findings.push(...scriptFindings([{ entry: strictEntry, line: problem.line, column: problem.column, severity: strictEntry.severity, matched: "the resource is not strict UTF-8", note: `it holds ${problem.what}` }], { file, storedPath: entry.path }))
  }
  textFacts(ctx, facts, entry, { file, storedPath: entry.path })
  ctx.state.findings.push(...bannedNodeFindings(ctx.policy, facts.nodeTypes, file, entry.path))
  for (const n of facts.nodeTypes) ctx.sceneClasses.add(n.type)
  // A placeholder node is an InstancePlaceholder until replaced, which stores and answers any property (PLACEHOLDER).
  if (facts.loadedPaths.some((l) => l.what === "instance_placeholder")) ctx.sceneClasses.add(PLACEHOLDER)
  keepSceneNodes(ctx, facts.namedNodes)
  ctx.state.findings.push(...resourceClassFindings(ctx.policy, facts.classes, file, entry.path))
  // A compressed translation written as text (the editor writes one only as a binary .translation): its texts are byte
  // arrays the text reader keeps no copy of, so they are not read (a fifty-second red team's).
  const textTranslations = facts.classes.filter((c) => COMPRESSED_TRANSLATIONS.has(c.className)).length
  if (textTranslations > 0) ctx.state.findings.push(compressedBbcodeFinding(file, entry.path, textTranslations))
  if (facts.fileTag === "gd_scene") ctx.state.scenes.set(file, { rootScript: facts.rootScript, rootScriptSet: facts.rootScriptSet, baseScene: facts.baseScene })
  const main = facts.fileTag === "gd_resource" ? facts.classes.find((c) => c.subResource === "")?.className : undefined
  if (main !== undefined) ctx.resourceTypes.set(entry.path, main)
}

/**
 * A text the engine parses with VariantParser as ConfigFile does (simple section tags): a `.cfg`, a
 * `.remap` or `.import` file (ResourceLoader and the importer read them so), or a file a script loads
 * with ConfigFile. Text the reader refuses is no finding (the engine would refuse it too), but the
 * objects written before the error are still judged: the engine built them as it read.
 */
export const scanVariantText = async (ctx: Context, entry: PackEntry): Promise<void> => {
  if (ctx.variantTexts.has(entry.path)) return
  ctx.variantTexts.add(entry.path)
  const file = ctx.contents.creatorPath(entry)
  const reader = new TextResourceReader(ctx.grammar, { simpleTags: true })
  const access = ctx.contents.accessOf(entry)
  const seen: Array<Uint8Array> = []
  try {
    for (let at = 0; at < access.size; at += TEXT_CHUNK_BYTES) {
      const chunk = await readExactly(access, at, Math.min(TEXT_CHUNK_BYTES, access.size - at))
      if (seen.length < 4) seen.push(chunk)
      reader.feed(chunk)
    }
    textFacts(ctx, reader.finish(), entry, { file, storedPath: entry.path })
  } catch (error) {
    if (!(error instanceof MalformedData)) throw error
    const text = decodeAsEngine(concatBytes(seen, seen.reduce((n, c) => n + c.length, 0)), ctx.grammar)
    ctx.state.findings.push(...builtObjectFindings(ctx.policy, objectsInText(text), file, entry.path, ctx.state.capabilities))
  }
}

/** A place in a file for findings: a line and column, or none (a binary file). */
type DataSiteAt = DataSite & { readonly line: number | null; readonly column: number | null }

/** Text a script hands to ConfigFile.parse as a constant: judged as data, its findings at the call. */
export const scanVariantString = (ctx: Context, text: string, site: DataSiteAt): void => {
  const reader = new TextResourceReader(ctx.grammar, { simpleTags: true })
  const at = site.line === null || site.column === null ? null : { line: site.line, column: site.column }
  try {
    reader.feed(text)
    const facts = reader.finish()
    ctx.state.findings.push(...builtObjectFindings(ctx.policy, facts.objects.map((o) => ({ ...o, at })), site.file, site.storedPath, ctx.state.capabilities))
    for (const loaded of facts.loadedPaths) {
      const found = loadedPathFinding(loaded.path, loaded.what, at, site.file, site.storedPath)
      if (found !== null) ctx.state.findings.push(found)
    }
    // Its scripts' own findings are the script's: at the call.
    for (const script of facts.scripts) collectText(ctx, site, script.source)
  } catch (error) {
    if (!(error instanceof MalformedData)) throw error
    ctx.state.findings.push(...builtObjectFindings(ctx.policy, objectsInText(text).map((o) => ({ ...o, at })), site.file, site.storedPath, ctx.state.capabilities))
  }
}

const collectText = (ctx: Context, site: DataSiteAt, source: string): void => {
  const entry = ctx.contents.get(site.storedPath)
  if (entry === undefined) return
  const { line, column } = site
  const place = line === null || column === null ? { lineless: true as const } : { mapPosition: () => ({ line, column }) }
  collectScript(ctx, builtInScriptKey(site.file, `ConfigFile.parse@${line ?? "-"}:${column ?? "-"}`), entry, source, { file: site.file, storedPath: site.storedPath, ...place })
}

/** `Object(Class` occurrences of a text, with their positions. */
export const objectsInText = (text: string): ReadonlyArray<DataObject> =>
  [...text.matchAll(OBJECT_TEXT)].map((m) => {
    const before = text.slice(0, m.index)
    const line = (before.match(/\n/g)?.length ?? 0) + 1
    return { className: m[1] ?? "", at: { line, column: m.index - before.lastIndexOf("\n") } }
  })

/**
 * A script's source given as another value than a string: the engine compiles the text it converts the value to (a
 * NodePath rebuilt from its parts, an object's `_to_string()`), which the scanner does not read as the script.
 */
const sourceNotTextFindings = (ctx: Context, location: ScriptLocation): void => {
  const rule = indexPolicy(ctx.policy).assignments.get("script/source") ?? []
  const note = "a script's source given as another value than a string (a NodePath, a StringName, an object): the engine compiles the text it converts that value to (a NodePath rebuilt from its parts, an object's _to_string()); write the source as a string"
  const hits = rule.map((e) => ({ entry: e, line: 1, column: 1, severity: e.severity, matched: "script/source", note }))
  ctx.state.findings.push(...scriptFindings(hits, location))
}

/** What a text resource or ConfigFile text holds that the checks judge. */
const textFacts = (ctx: Context, facts: TextResourceFacts, entry: PackEntry, site: DataSite): void => {
  const { file, storedPath } = site
  for (const script of facts.scripts) {
    const mapPosition = (line: number, column: number) => mapUnescapedPosition(script.raw, script.start, { line, column })
    const location = { file, storedPath, mapPosition }
    const key = builtInScriptKey(file, script.subResource)
    const ast = collectScript(ctx, key, entry, script.source, location)
    ctx.state.addScript(key, { header: headerOf(ast), ...location })
  }
  for (const at of facts.sourcesNotText) sourceNotTextFindings(ctx, { file, storedPath, mapPosition: () => at })
  const reported = new Set<string>()
  const loadedBy = ctx.contents.loadPaths(entry)
  for (const loaded of facts.loadedPaths) {
    if (loaded.group !== undefined && reported.has(loaded.group)) continue
    const inPack = dataPaths(ctx, loaded.opened === true ? "disk" : loaded.fromRoot === true ? null : file, loadedBy)
    const found = loaded.uid === undefined || loaded.path === null ? loadedPathFinding(loaded.path, loaded.what, loaded.at, file, storedPath, inPack, uidsOf(ctx)) : externalWithUid(ctx, loaded.uid, loaded.path, loaded.what, loaded.at, { file, storedPath }, inPack)
    if (found === null) continue
    ctx.state.findings.push(found)
    if (loaded.group !== undefined) reported.add(loaded.group)
  }
  for (const write of facts.propertyWrites) ctx.state.findings.push(...propertyWriteFindings(ctx.policy, write, file, storedPath, ctx.state.capabilities))
  for (const write of facts.propertyWrites) keepTrackWritten(ctx, write.path)
  keepMemberValues(ctx, file, facts.memberValues)
  keepScriptHosts(ctx, file, facts.scriptHosts)
  for (const url of facts.urlMetas) ctx.linkMetas.urls.add(url)
  if (facts.unjudgedSplices.length > 0) ctx.linkMetas.unread = true
  if (facts.unjudgedSplices.length > 0) ctx.state.findings.push(unjudgedSplicesFinding(file, storedPath, facts.unjudgedSplices[0] ?? null, facts.unjudgedSplices.length))
  for (const u of facts.unreadScenes) ctx.state.findings.push(unreadSceneFinding(file, storedPath, u.at, u.why))
  for (const r of facts.repeatedSubResources) ctx.state.findings.push(repeatedSubResourceFinding(file, storedPath, r.at, r.id))
  for (const c of facts.claimedPaths) ctx.state.findings.push(claimedPathFinding(file, storedPath, c.at, c.path))
  dataCalls(ctx, entry, facts.connections, facts.trackCalls, site, file, true)
  ctx.state.findings.push(...builtObjectFindings(ctx.policy, facts.objects, file, storedPath, ctx.state.capabilities))
  for (const e of facts.expressions) collectExpression(ctx, entry, site, e.text, `${e.subResource} ${ADVANCE_EXPRESSION}`, { at: e.at })
}

/**
 * A Godot 4 transition's advance_expression (advanceExpression.ts), held by data or written by a script as a
 * constant: judged as the method of a node it is, its findings at the text (`at`) or, in a binary resource, at
 * the expression's own lines. A value that is not a string is an error of the Expression pattern: the engine
 * converts it to text the scanner does not follow.
 */
export const collectExpression = (ctx: Context, entry: PackEntry, site: DataSite, text: string | null, name: string, where: { readonly at: DataPosition } | { readonly embedded: true }): void => {
  const at = "at" in where ? where.at : null
  if (text === null) {
    const rule = indexPolicy(ctx.policy).identifiers.get("Expression") ?? []
    const hits = rule.map((e) => ({ entry: e, line: 1, column: 1, severity: e.severity, matched: `${ADVANCE_EXPRESSION_CLASS}.${ADVANCE_EXPRESSION}`, note: "its value is not a string: the engine converts it to text (an array's strings without quotes) and evaluates that as an Expression on the AnimationTree's base node" }))
    ctx.state.findings.push(...scriptFindings(hits, { file: site.file, storedPath: site.storedPath, mapPosition: () => at ?? { line: 1, column: 1 } }))
    return
  }
  if (!isEvaluated(text)) return
  const source = advanceExpressionScript(text)
  const key = builtInScriptKey(site.file, at === null ? name : `${name}@${at.line}:${at.column}`)
  const mapPosition = (line: number, column: number) => at ?? { line: Math.max(1, line - 3), column }
  collectScript(ctx, key, entry, source, { file: site.file, storedPath: site.storedPath, mapPosition, ...(at === null ? { embeddedIn: { resource: site.file, subResource: name } } : {}) })
}

/**
 * A compressed translation (a CSV imported with compress on) whose texts hold `[`: BBCode the scanner cannot
 * read in full, whose [img] and [font=…] tags a RichTextLabel showing the translation would load.
 */
const compressedBbcodeFinding = (file: string, storedPath: string, count: number): Finding =>
  finding({
    rule: RULE.unreadableResource,
    file,
    storedPath,
    pattern: "compressed BBCode",
    message: `${file} is a compressed translation with ${count} text(s) the scanner cannot read in full (stored past the end of the translation's strings, in a text resource, with its tables in a form the editor never writes, or not decoding to their recorded size): a RichTextLabel showing them loads what their [img] and [font=…] tags name. Import the translation CSV again with the editor (a binary .translation), or turn "compress" off in its import settings, and export again.`,
  })

/** Value tracks whose string keys splice more strings than the scanner judges: BBCode built at run time. */
const unjudgedSplicesFinding = (file: string, storedPath: string, at: { readonly line: number; readonly column: number } | null, count: number): Finding =>
  finding({
    rule: RULE.unreadableResource,
    file,
    storedPath,
    line: at?.line ?? null,
    column: at?.column ?? null,
    pattern: "spliced BBCode",
    message: `${file} has ${count} value track(s) blending long strings with "[" (the engine splices the two keys into a new string at every step), more strings than the scanner judges: a RichTextLabel given them would load what tags they build. Make the track discrete (update mode 1) or shorten its keys and export again.`,
  })
/** An unreadable-resource finding at a place of a text (`pattern` names which part). */
const unreadAt = (file: string, storedPath: string, at: DataPosition, pattern: string, message: string): Finding =>
  finding({ rule: RULE.unreadableResource, file, storedPath, line: at.line, column: at.column, pattern, message })

/** A PackedScene held in a text whose records the scanner cannot read: the engine may build nodes it did not see. */
const unreadSceneFinding = (file: string, storedPath: string, at: DataPosition, why: string): Finding =>
  unreadAt(file, storedPath, at, "unreadable nested scene", `${file} holds a PackedScene whose _bundled data the scanner cannot read (${why}): the engine builds its nodes and connections all the same. Save the scene as its own .tscn in the pack and load it, and export again.`)

/** `resource_path` written on an object: the engine caches it under that path in place of the file there. */
const claimedPathFinding = (file: string, storedPath: string, at: DataPosition, path: string | null): Finding =>
  unreadAt(file, storedPath, at, "resource_path", `${file} sets resource_path${path === null ? "" : ` to ${JSON.stringify(path)}`} on an object: the engine then caches it under that path, and a later load of the path gets this object instead of the file (a script the scanner read elsewhere is not the one that runs). No editor saves it; save the scene or resource again in the editor and export again.`)

/** A `[sub_resource]` repeating an earlier one's id: no editor writes one, and the engine reads only the first. */
const repeatedSubResourceFinding = (file: string, storedPath: string, at: DataPosition, id: string): Finding =>
  unreadAt(file, storedPath, at, "repeated sub_resource id", `${file} has a second [sub_resource] with id ${id}: the engine keeps the first and ignores this one's properties, so what this block says is not what runs, and no editor saves such a file. Save the scene or resource again in the editor and export again.`)

/**
 * How the pack serves a resource's paths, relative ones starting at `from` (see DataPaths). A path the engine
 * opens itself (a StreamTexture's load_path, filePathProperties.ts) stays inside only as a res:// file of the
 * pack: a relative one is in the working folder ("disk").
 */
const dataPaths = (ctx: Context, from: string | null | "disk", loadedBy?: ReadonlyArray<string>): DataPaths => ({ has: (path) => ctx.contents.has(path), from, grammar: ctx.grammar, ...(loadedBy === undefined ? {} : { loadedBy }) })

/** How the pack resolves `uid://` paths: through its uid cache for Godot 4; Godot 3 has no resource ids. */
const uidsOf = (ctx: Context): ((uid: string) => UidResolution) | undefined => (ctx.grammar === 4 ? (uid) => ctx.contents.resolveUid(uid) : undefined)

/**
 * An `[ext_resource]` with a resource id (Godot 4): ResourceLoaderText and ResourceLoaderBinary load the path
 * the uid cache gives the id, and the written path only when the cache lacks the id; without a cache in the
 * pack the engine reads one from the disk, which can send the id anywhere.
 */
const externalWithUid = (ctx: Context, uid: string | bigint, path: string, what: string, at: DataPosition | null, site: DataSite, inPack: DataPaths): Finding | null => {
  if (ctx.grammar !== 4) return loadedPathFinding(path, what, at, site.file, site.storedPath, inPack)
  const resolved = ctx.contents.resolveUid(uid)
  const text = typeof uid === "string" ? uid : uidIdToText(uid)
  if ("path" in resolved) return loadedPathFinding(resolved.path, `${what} ${text}`, at, site.file, site.storedPath, inPack)
  if (resolved.noCache) return uidFinding(text, what, resolved.problem, at, site.file, site.storedPath)
  return loadedPathFinding(path, what, at, site.file, site.storedPath, inPack, uidsOf(ctx))
}

/**
 * Connections and method tracks: the calls they make by name, judged as the same calls in code
 * (dataCallScript.ts), and kept with the values they hand a method of the pack (reachingCalls.ts). Relative paths
 * of the resources they pass start at `from` (see DataPaths); `text`: read from a text resource (variantText.ts).
 */
const dataCalls = (ctx: Context, entry: PackEntry, connections: ReadonlyArray<SceneConnection & { readonly at?: DataPosition }>, tracks: ReadonlyArray<TrackCall & { readonly at?: DataPosition }>, site: DataSite, from: string, text: boolean): void => {
  // A plain array of a text keeps the numbers of its first items only: in a longer one, a value may stand later than it is kept.
  const sparse = (args: ReadonlyArray<unknown>) => (text && args.length >= POSITIONS_KEPT ? ({ sparse: true } as const) : {})
  const dispatch = dispatchIndex(ctx.grammar, ctx.policy)
  for (const c of connections) {
    ctx.dataMethods.add(c.method)
    ctx.dataCalls.push({ method: c.method, args: c.binds, afterSignal: true, ...sparse(c.binds) })
    // A script that emits the signal chooses the arguments that come before the binds.
    if (dispatch.byName.has(c.method)) ctx.connections.push({ signal: c.signal, method: c.method, binds: c.binds })
  }
  for (const t of tracks) {
    ctx.dataMethods.add(t.method)
    ctx.dataCalls.push({ method: t.method, args: t.args, afterSignal: false, ...sparse(t.args) })
  }
  const calls: ReadonlyArray<DataCallSite> = [
    ...connections.map((c): DataCallSite => {
      const ends = c.to === undefined ? "" : ` from ${JSON.stringify(c.from ?? "")} to ${JSON.stringify(c.to)}`
      return { node: c.to ?? ".", resource: [], method: c.method, args: c.binds, afterSignal: true, signalArgs: signalArguments(c.signal, c.unbinds ?? 0), at: c.at ?? null, what: `the scene connection of ${JSON.stringify(c.signal)}${ends} calling ${c.method} with the signal's arguments, then its binds` }
    }),
    ...tracks.map((t): DataCallSite => {
      const animation = t.animation === "" ? "the animation" : `animation ${t.animation}`
      const path = t.path === undefined ? "" : ` on ${JSON.stringify(t.path)}`
      return { ...trackTarget(t.path ?? "."), method: t.method, args: t.args, afterSignal: false, at: t.at ?? null, what: `a method track of ${animation}${path} calling ${t.method}` }
    }),
  ]
  const script = dataCallScript(calls, (r) => resourceValue(ctx, r, from))
  if (script === null) return
  const lineless = script.calls.some((c) => c.at === null)
  // The function's own lines (its header) stand for the first call.
  const callAt = (line: number): DataCallSite | undefined => script.calls[Math.max(0, line - FIRST_LINE)]
  collectScript(ctx, builtInScriptKey(site.file, DATA_CALLS), entry, script.source, {
    file: site.file,
    storedPath: site.storedPath,
    mapPosition: (line, column) => callAt(line)?.at ?? { line, column },
    standsFor: (line) => callAt(line)?.what ?? "a call the data makes by name",
    ...(lineless ? { lineless: true as const } : {}),
  })
}

/** The key of the script that stands for a file's data calls (a file holds at most one). */
const DATA_CALLS = "data calls"

/**
 * How the data-call script writes a resource the data passes: a file of the pack as the `load` of its path (the
 * analysis then knows it as code would: a script of the pack is that script), an object the file makes (a
 * sub-resource, an `Object(…)` value) as a value of its class, an engine class no policy pattern bans by name
 * (one that is banned has its own finding where the data makes it, and its name in code would be another);
 * anything else, a resource from outside the pack among them (its own finding says so), is a value not known.
 */
const resourceValue = (ctx: Context, r: DataResource, from: string): ResourceValue => {
  if (r._tag === "Internal") {
    const idx = indexPolicy(ctx.policy)
    const named = /^[A-Za-z_][A-Za-z0-9_]*$/.test(r.type) && engineNames(ctx.grammar, idx)(r.type)
    return named && !idx.identifiers.has(r.type) ? { type: r.type } : null
  }
  const lookup = packLookup(r.path, from, ctx.grammar)
  return lookup.untidy === null && lookup.path.startsWith("res://") && ctx.contents.has(lookup.path) ? { load: lookup.path } : null
}

export const scanBinaryResource = async (ctx: Context, entry: PackEntry): Promise<void> => {
  const access = entry.size <= IN_MEMORY_BYTES ? bytesSource(await ctx.contents.bytesOf(entry)) : ctx.contents.accessOf(entry)
  const resource = await openBinaryResource(access, ctx.decompressors)
  const file = ctx.contents.creatorPath(entry)
  const { scripts, sourcesNotText, classes, propertyPaths, trackCalls, splicedStrings, unjudgedSplices } = await readBinaryScripts(resource)
  for (const subResource of sourcesNotText) sourceNotTextFindings(ctx, { file, storedPath: entry.path, embeddedIn: { resource: file, subResource } })
  // Relative paths are relative to the path the engine loads the file by (ResourceLoaderBinary's res_path: the
  // original of a redirect); one file reached from two folders makes a relative path an error (loadedPathFinding).
  // A placeholder's path goes to ResourceLoader::load as written: a relative one is under res:// (see LoadedPath.fromRoot).
  const loadedBy = ctx.contents.loadPaths(entry)
  const inPack = (from: string | null): DataPaths => dataPaths(ctx, from, loadedBy)
  const loaded = (path: string | null, what: string, relativeTo: string | null): void => {
    const found = loadedPathFinding(path, what, null, file, entry.path, inPack(relativeTo), uidsOf(ctx))
    if (found !== null) ctx.state.findings.push(found)
  }
  for (const external of resource.externals) {
    if (external.uid === null) loaded(external.path, `[ext_resource] ${external.type}`, entry.path)
    else {
      const found = externalWithUid(ctx, external.uid, external.path, `[ext_resource] ${external.type}`, null, { file, storedPath: entry.path }, inPack(entry.path))
      if (found !== null) ctx.state.findings.push(found)
    }
  }
  // Strings of every property at any depth: BBCode (a RichTextLabel's text, a translation's messages) loads what its tags name.
  const bbcode: Array<BbcodeLoad> = []
  const strings = (value: string): void => {
    if (value.includes("[url")) for (const url of bbcodeUrlMetas(value)) ctx.linkMetas.urls.add(url)
    if (mayLoadBbcode(value)) bbcode.push(...bbcodeLoads(value, ctx.grammar))
  }
  const scripted = (script: Value, properties: ReadonlyMap<string, Value>, cls: string): void => {
    const ref = scriptReferenceOf(resource, script)
    keepMemberValues(ctx, file, [...properties].filter(([name]) => isMemberName(name)).map(([property, value]) => ({ property, value: typeof value === "string" ? value : null, script: ref })))
    // The object the engine gives the script (a binary `.res` of type GDScript holding a helper's script: a
    // hundred-and-twenty-sixth red team's), as for a text resource's `[resource]` or `[sub_resource]`.
    keepScriptHosts(ctx, file, [{ script: ref, type: cls }])
  }
  for (const inline of await readInlineExternals(resource, strings, scripted)) loaded(inline.path, `Resource() ${inline.type}`, entry.path)
  // Strings value tracks build: one finding is enough (they are many variations of the same keys).
  for (const s of splicedStrings) if (s.includes("[url")) for (const url of bbcodeUrlMetas(s)) ctx.linkMetas.urls.add(url)
  if (unjudgedSplices > 0) ctx.linkMetas.unread = true
  const spliced = splicedStrings.flatMap((s) => (mayLoadBbcode(s) ? bbcodeLoads(s, ctx.grammar) : []))
  const splicedFinding = spliced.map((load) => loadedPathFinding(load.path, `[${load.tag}] BBCode a value track builds`, null, file, entry.path, inPack(null), uidsOf(ctx))).find((f) => f !== null)
  if (splicedFinding !== undefined) ctx.state.findings.push(splicedFinding)
  if (unjudgedSplices > 0) ctx.state.findings.push(unjudgedSplicesFinding(file, entry.path, null, unjudgedSplices))
  const pathProperties: Array<{ readonly cls: string; readonly property: string; readonly internal: (typeof resource.internals)[number] }> = []
  for (const internal of resource.internals) {
    const cls = await readInternalClass(resource, internal)
    const property = filePathProperty(cls)
    if (property !== undefined) pathProperties.push({ cls, property, internal })
    if (!COMPRESSED_TRANSLATIONS.has(cls)) continue
    const texts = await readTranslationTexts(resource, internal)
    texts.plain.forEach(strings)
    if (texts.compressedWithTags > 0) ctx.state.findings.push(compressedBbcodeFinding(file, entry.path, texts.compressedWithTags))
  }
  for (const load of bbcode) loaded(load.path, `[${load.tag}] BBCode of a string`, null)
  for (const { cls, property, internal } of pathProperties) {
    const value = (await readProperties(resource, internal, (name) => (name === property ? 0 : null))).get(property)
    if (value === undefined) continue
    const found = loadedPathFinding(typeof value === "string" ? value : null, `${cls}.${property}`, null, file, entry.path, dataPaths(ctx, "disk"))
    if (found !== null) ctx.state.findings.push(found)
  }
  for (const { path } of propertyPaths) keepTrackWritten(ctx, path)
  for (const internal of resource.internals) {
    if (resource.engineMajor < 4 || (await readInternalClass(resource, internal)) !== ADVANCE_EXPRESSION_CLASS) continue
    const value = (await readProperties(resource, internal, (name) => (name === ADVANCE_EXPRESSION ? 0 : null))).get(ADVANCE_EXPRESSION)
    if (value !== undefined) collectExpression(ctx, entry, { file, storedPath: entry.path }, typeof value === "string" ? value : null, `${subResourceId(internal)} ${ADVANCE_EXPRESSION}`, { embedded: true })
  }
  for (const { path, subResource, how } of propertyPaths) ctx.state.findings.push(...propertyWriteFindings(ctx.policy, { path, how: how ?? `the animation track of ${subResource}`, at: null }, file, entry.path, ctx.state.capabilities))
  const strictEntry = indexPolicy(ctx.policy).text.get("strict-utf8")
  for (const script of scripts) {
    const location = { file, storedPath: entry.path, embeddedIn: { resource: file, subResource: script.subResource } }
    const key = builtInScriptKey(file, script.subResource)
    const notStrict: ReadonlyArray<PatternHit> = script.notStrict === true && strictEntry !== undefined ? [{ entry: strictEntry, line: 1, column: 1, severity: strictEntry.severity, matched: "the built-in script is not strict UTF-8" }] : []
    const ast = collectScript(ctx, key, entry, script.source, location, notStrict)
    ctx.state.addScript(key, { header: headerOf(ast), ...location })
  }
  ctx.state.findings.push(...resourceClassFindings(ctx.policy, classes, file, entry.path))
  const refs = dataRefsOf(resource, classes)
  const scene = await readBinarySceneFacts(resource, refs)
  // PackedScenes held inside the resource (wherever it refers to them: metadata, an array, a property) are the pack's scenes too.
  const main = scene === null ? undefined : resource.internals.at(-1)
  const nested: Array<BinarySceneFacts> = []
  for (const internal of resource.internals) if (internal !== main && (await readInternalClass(resource, internal)) === "PackedScene") nested.push(await readInternalScene(resource, internal, refs))
  const scenes = scene === null ? nested : [scene, ...nested]
  dataCalls(ctx, entry, scenes.flatMap((s) => s.connections), trackCalls, { file, storedPath: entry.path }, entry.path, false)
  for (const s of scenes) {
    keepMemberValues(ctx, file, s.memberValues)
    keepScriptHosts(ctx, file, s.scriptHosts)
    for (const placeholder of s.placeholders) loaded(placeholder.path, `instance_placeholder of ${placeholder.node}`, null)
    for (const file of s.sceneFiles) loaded(file.path, `the scene file of ${file.node}`, null)
    if (s.placeholders.length > 0) ctx.sceneClasses.add(PLACEHOLDER)
    ctx.state.findings.push(...bannedNodeFindings(ctx.policy, s.nodeTypes, file, entry.path))
    for (const n of s.nodeTypes) ctx.sceneClasses.add(n.type)
    keepSceneNodes(ctx, s.namedNodes)
  }
  if (scene !== null) ctx.state.scenes.set(file, { rootScript: scene.rootScript, rootScriptSet: scene.rootScriptSet, baseScene: scene.baseScene })
  // Names and other strings (class and property names, paths, the string table) the engine decoded leniently;
  // a script's own source is flagged at the script above.
  const sources = new Set(scripts.map((s) => s.source))
  const lenient = [...(resource.context.notStrict ?? [])].find((s) => !sources.has(s))
  if (lenient !== undefined && strictEntry !== undefined) {
    const hit = { entry: strictEntry, line: 1, column: 1, severity: strictEntry.severity, matched: "a name or string of the binary resource is not strict UTF-8", note: `the engine reads it as ${JSON.stringify(lenient.slice(0, 80))}` }
    ctx.state.findings.push(finding({ rule: RULE.bannedApi, file, storedPath: entry.path, pattern: strictEntry.pattern, message: hitMessage(hit, ""), severity: strictEntry.severity }))
  }
}
