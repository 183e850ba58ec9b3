import type { Finding } from "../../../domain/scan/Finding.ts"
import { RULE } from "../../../domain/scan/RuleId.ts"
import type { Decompressors } from "../Decompressors.ts"
import { finding } from "../findings.ts"
import { analyzeScript, type ScriptAnalysis } from "../gdscript/analyzeScript.ts"
import { engineNames } from "../gdscript/engineClasses.ts"
import { PackModel } from "../gdscript/packModel.ts"
import { indexPolicy, type PatternHit, type PolicyIndex } from "../gdscript/PolicyIndex.ts"
import { headerOf } from "../gdscript/scriptHeader.ts"
import type { Grammar } from "../gdscript/tokenizer.ts"
import { MAX_FIELD_BYTES } from "../io/ByteCursor.ts"
import { describeError, MalformedData, SourceFailure } from "../io/errors.ts"
import { readExactly, type RandomAccess } from "../io/RandomAccess.ts"
import type { PackContents } from "../PackContents.ts"
import { extensionOf, normalisePackPath } from "../pack/packPath.ts"
import type { PackEntry } from "../pack/PackLayout.ts"
import type { DecodedSettings } from "../packFiles/projectBinary.ts"
import type { Policy } from "../policy/Policy.ts"
import { SNIFF_BYTES, sniff } from "../resource/sniff.ts"
import { decodeAsEngine, positionOfByte, startsWithBom, strictUtf8Problem } from "../text/godotUtf8.ts"
import { trojanSourceHits } from "../text/trojanSource.ts"
import { compiledScriptFinding, isNativeByName } from "./nameChecks.ts"
import { scanPoTranslation } from "./poTranslationScan.ts"
import { autoloadEntries, autoloadNameClash, autoloadSingletons, classEntriesOf, EXTENSION_LIST, extensionListFindings, projectSettingsFindings, REGISTRATION_KEYS, settingsReadApart, settingValues, type SettingsRemap, settingsRemaps, settingsText } from "./projectSettingsCheck.ts"
import { importBesideContentFinding, redirectFindings } from "./redirectCheck.ts"
import { builtObjectFindings } from "./resourceDataFindings.ts"
import { scanBitmapFont } from "./bitmapFontScan.ts"
import { registeredClasses, unresolvedClassFindings } from "./globalClassCheck.ts"
import { collectExpression, objectsInText, scanBinaryResource, scanTextResource, scanVariantString, scanVariantText } from "./resourceScan.ts"
import type { ScanState } from "./ScanState.ts"
import { sceneRootScript } from "./sceneRoot.ts"
import { type CollectedScript, type Context, collectScript } from "./scanContext.ts"
import { onePerPlace, placeOf, type ScriptLocation, scriptFindings } from "./scriptFindings.ts"
import { judgeBbcodeData } from "./bbcodeData.ts"
import { judgeShellData } from "./shellData.ts"
import { judgeDispatchData } from "./dispatchData.ts"
import { judgeLoadData } from "./loadData.ts"
import { judgeWriteData } from "./writeData.ts"
import { judgeUnpinnedLoads } from "./unpinnedLoads.ts"

/** Redirect stubs and sidecars are a few hundred bytes; larger ones are read up to this much. */
const MAX_REDIRECT_BYTES = 64 * 1024
const ENGINE_GAME = "EngineGame"

/**
 * Reads every entry a check needs, once: scripts (.gd), text and binary scenes/resources (by
 * content, whatever their extension), and the first bytes of everything else to recognise code
 * that hides behind another name. Large assets cost 16 bytes, or their resource tables.
 */
export const scanContents = async (
  contents: PackContents,
  policy: Policy,
  decompressors: Decompressors,
  state: ScanState,
  grammar: Grammar = 4,
): Promise<void> => {
  const ctx: Context = { contents, policy, decompressors, state, grammar, scripts: [], registrations: new Map(), autoloads: new Map(), settings: new Map(), resourceTypes: new Map(), redirectedPaths: new Set(), baseAutoloads: new Map(), connections: [], dataMethods: new Set(), dataCalls: [], memberValues: new Map(), trackWritten: new Set(), variantTexts: new Set(), sceneClasses: new Set(), pendingLoads: [], loadableWrites: [], linkMetas: { urls: new Set(), unread: false }, sceneNodes: new Map(), scriptHosts: [] }
  await registerSettingsRemaps(ctx)
  for (const entry of contents.entries) {
    if (!entry.readable || entry.size === 0) continue
    try {
      await scanEntry(ctx, entry)
    } catch (error) {
      if (error instanceof SourceFailure) throw error
      // Fail closed: content the scanner cannot read, for whatever reason, blocks the pack.
      const why = error instanceof MalformedData ? error.message : `the scanner failed on it (internal error: ${describeError(error)})`
      state.findings.push(unreadable(contents, entry, why))
      const creator = contents.creatorPath(entry)
      if (state.scenes.get(creator) === undefined) state.scenes.set(creator, null)
    }
  }
  await analyzeScripts(ctx)
}

/**
 * Every script with the whole pack in view: classes and constants of one script are known to all. Text a
 * script hands to ConfigFile (a file of the pack by a constant path, a constant string) is read as data
 * after it; scripts found in that data are analysed in a further round.
 */
const analyzeScripts = async (ctx: Context): Promise<void> => {
  const classes = registeredClasses(ctx)
  const registered = new Map([...classes].map(([name, c]) => [name, c.loads]))
  const idx = indexPolicy(ctx.policy)
  let done = 0
  const modelOf = (closedCalls: boolean): PackModel =>
    new PackModel(
      ctx.scripts.map((s) => s.script),
      registered,
      engineNames(ctx.grammar, idx),
      { files: ctx.contents, autoloads: autoloadScripts(ctx), settings: ctx.settings, resourceTypes: ctx.resourceTypes, redirectedPaths: ctx.redirectedPaths, baseAutoloads: ctx.baseAutoloads, connections: ctx.connections, dataMethods: ctx.dataMethods, dataCalls: ctx.dataCalls, closedCalls, dataProperties: { values: ctx.memberValues, written: ctx.trackWritten }, sceneClasses: ctx.sceneClasses, linkMetas: ctx.linkMetas, sceneNodes: ctx.sceneNodes, scriptHosts: ctx.scriptHosts, platformClasses: ctx.policy.platformClasses ?? [] },
    )
  for (let round = 0; round < 3 && done < ctx.scripts.length; round++) {
    const model = modelOf(true)
    const batch = ctx.scripts.slice(done)
    const first = done === 0
    done = ctx.scripts.length
    for (const collected of batch) await analyzeOne(ctx, collected, model, idx)
    // Scripts found in data after the first round may call the pack's functions: what the first round took
    // from the pack's calls alone (callers.ts) is judged again without that, keeping what it adds.
    if (!first) await analyzeAgainOpen(ctx, ctx.scripts.slice(0, ctx.scripts.length - batch.length), modelOf(false), idx)
  }
  ctx.state.findings.push(...unresolvedClassFindings(ctx, classes))
  for (const { hit, location } of judgeUnpinnedLoads(ctx.pendingLoads, ctx.loadableWrites)) pushHits(ctx, [hit], location)
}

/** The scripts' findings and uses again on a model where every function may be called from anywhere; only new ones are kept. */
const analyzeAgainOpen = async (ctx: Context, scripts: ReadonlyArray<CollectedScript>, model: PackModel, idx: PolicyIndex): Promise<void> => {
  const seenFindings = new Set(ctx.state.findings.map((f) => JSON.stringify(f)))
  const seenUses = new Set(ctx.state.capabilities.map((c) => JSON.stringify(c)))
  const findings = ctx.state.findings.length
  const capabilities = ctx.state.capabilities.length
  for (const collected of scripts) await analyzeOne(ctx, collected, model, idx, { hitsOnly: true })
  const newFindings = ctx.state.findings.splice(findings).filter((f) => !seenFindings.has(JSON.stringify(f)))
  const newUses = ctx.state.capabilities.splice(capabilities).filter((c) => !seenUses.has(JSON.stringify(c)))
  ctx.state.findings.push(...new Map(newFindings.map((f) => [JSON.stringify(f), f])).values())
  ctx.state.capabilities.push(...new Map(newUses.map((c) => [JSON.stringify(c), c])).values())
}

/**
 * The script of each autoload singleton's node: the script itself, or the root script of a scene (sceneRoot.ts). Else
 * the path itself, which is no script of the pack.
 */
const autoloadScripts = (ctx: Context): ReadonlyMap<string, string> => {
  const out = new Map<string, string>()
  for (const [name, path] of ctx.autoloads) {
    const root = sceneRootScript(ctx.state, ctx.contents, path)
    out.set(name, root._tag === "Script" ? ctx.contents.loadedPath(root.key) : ctx.contents.loadedPath(path))
  }
  return out
}

/** BBCode built from the pack's own data files, load paths and method names read from them, judged with those files' strings. */
const judgeDataUses = async (ctx: Context, idx: PolicyIndex, analysis: ScriptAnalysis, location: ScriptLocation): Promise<void> => {
  for (const data of analysis.bbcodeData) pushHits(ctx, await judgeBbcodeData(ctx, idx, data), location)
  for (const data of analysis.loadData) pushHits(ctx, await judgeLoadData(ctx, idx, data), location)
  for (const data of analysis.writeData) pushHits(ctx, await judgeWriteData(ctx, data), location)
  for (const data of analysis.dispatchData) pushHits(ctx, await judgeDispatchData(ctx, idx, data), location)
  for (const data of analysis.shellData) pushHits(ctx, await judgeShellData(ctx, data), location)
}

const analyzeOne = async (ctx: Context, collected: CollectedScript, model: PackModel, idx: PolicyIndex, again: { readonly hitsOnly: boolean } = { hitsOnly: false }): Promise<void> => {
  const { script, location, hits: readHits } = collected
  try {
    const analysis = analyzeScript(script, model, ctx.policy)
    const hits = [...readHits, ...textHits(idx, location.source ?? "", ctx.grammar), ...analysis.hits]
    const uses = analysis.uses
    pushHits(ctx, hits, location)
    for (const w of analysis.loadableWrites) ctx.loadableWrites.push({ file: location.file, line: placeOf(location, w.line, w.column).line, shown: w.shown, mayClimb: w.mayClimb })
    for (const use of uses) {
      const position = placeOf(location, use.line, use.column)
      ctx.state.capabilities.push({ capability: use.capability, file: location.file, ...position, api: use.api, verdict: "allowed", ...(location.embeddedIn === undefined ? {} : { embeddedIn: location.embeddedIn }) })
    }
    // On the open model too: a value judged on the pack's data may now reach from further calls (only new findings are kept).
    if (again.hitsOnly) {
      await judgeDataUses(ctx, idx, analysis, location)
      return
    }
    // What the script reads with ConfigFile from the pack is data the engine parses: judged as such.
    for (const data of analysis.dataFiles) {
      const resolved = ctx.contents.resolve(data.path)
      if (!("missing" in resolved) && resolved.entry.readable) await scanVariantText(ctx, resolved.entry)
    }
    for (const data of analysis.expressionTexts) {
      const position = placeOf(location, data.line, data.column)
      const entry = ctx.contents.get(location.storedPath ?? location.file)
      const where = position.line === null || position.column === null ? { embedded: true as const } : { at: { line: position.line, column: position.column } }
      if (entry !== undefined) collectExpression(ctx, entry, { file: location.file, storedPath: location.storedPath ?? location.file }, data.text, data.what, where)
    }
    await judgeDataUses(ctx, idx, analysis, location)
    for (const data of analysis.dataTexts) {
      const position = placeOf(location, data.line, data.column)
      scanVariantString(ctx, data.text, { file: location.file, storedPath: location.storedPath ?? location.file, ...position })
    }
  } catch (error) {
    if (error instanceof SourceFailure) throw error
    ctx.state.findings.push(
      finding({
        rule: RULE.unreadableResource,
        file: location.file,
        storedPath: location.storedPath,
        embeddedIn: location.embeddedIn,
        pattern: "unreadable content",
        message: `A script in ${location.file} could not be analysed (internal error: ${describeError(error)}). A reviewer cannot rule out hidden code in it; report this to the operator.`,
      }),
    )
  }
  const root = script.ast.root
  if (root.name === ENGINE_GAME) {
    const position = root.nameAt === null ? null : (location.mapPosition?.(root.nameAt.line, root.nameAt.column) ?? root.nameAt)
    ctx.state.findings.push(
      finding({
        rule: RULE.entrySceneNotEngineGame,
        file: location.file,
        storedPath: location.storedPath,
        embeddedIn: location.embeddedIn,
        line: position?.line ?? null,
        column: position?.column ?? null,
        pattern: `class_name ${ENGINE_GAME}`,
        message: `${location.file} declares class_name ${ENGINE_GAME} itself; ${ENGINE_GAME} comes from the platform SDK, which is excluded from the pack, so a script extending it here would extend the pack's own copy. Remove the "class_name ${ENGINE_GAME}" line (and the file, if it is the SDK's: add "sdk/*" to exclude_filter).`,
      }),
    )
  }
}

/** A script's hits as findings, each listed under its capability too. */
const pushHits = (ctx: Context, all: ReadonlyArray<PatternHit>, location: ScriptLocation): void => {
  // Loads whose path is not pinned down wait for every script's writes (unpinnedLoads.ts).
  for (const hit of all) if (hit.unpinnedLoad !== undefined) ctx.pendingLoads.push({ hit, location })
  const hits = onePerPlace(all.filter((h) => h.unpinnedLoad === undefined), location)
  const findings = scriptFindings(hits, location)
  ctx.state.findings.push(...findings)
  findings.forEach((f, i) => {
    const capability = hits[i]?.entry.capability
    if (capability !== undefined) ctx.state.capabilities.push({ capability, file: f.file, line: f.line, column: f.column, api: hits[i]?.matched ?? f.pattern, verdict: f.severity, ...(f.embeddedIn === undefined ? {} : { embeddedIn: f.embeddedIn }) })
  })
}

/** Trojan Source hits of a script's text. */
const textHits = (idx: PolicyIndex, source: string, grammar: Grammar): ReadonlyArray<PatternHit> => {
  const entry = idx.text.get("trojan-source")
  if (entry === undefined) return []
  return trojanSourceHits(source, grammar).map((h) => ({ entry, line: h.line, column: h.column, severity: h.severity, matched: "hidden characters", note: h.note }))
}

/** A hit for bytes that are not strict UTF-8, at the first offending byte. */
const encodingHit = (policy: Policy, bytes: Uint8Array, what: string): PatternHit | null => {
  const entry = indexPolicy(policy).text.get("strict-utf8")
  const problem = entry === undefined ? null : strictUtf8Problem(bytes)
  if (entry === undefined || problem === null) return null
  return { entry, ...positionOfByte(bytes, problem.offset), severity: entry.severity, matched: `${what} not strict UTF-8`, note: `it holds ${problem.what}` }
}

const unreadable = (contents: PackContents, entry: PackEntry, why: string): Finding =>
  finding({
    rule: RULE.unreadableResource,
    file: contents.creatorPath(entry),
    storedPath: entry.path,
    pattern: "unreadable content",
    message: `${entry.path} cannot be reviewed: ${why}. A reviewer cannot rule out hidden code in it; export the pack again with a stock Godot editor.`,
  })

const scanEntry = async (ctx: Context, entry: PackEntry): Promise<void> => {
  const ext = extensionOf(entry.path)
  const small = ext === ".gd" || ext === ".remap" || ext === ".import"
  // Every entry's first bytes decide what it is, whatever its name; small text files are read whole at once.
  const whole = small ? await readScriptBytes(ctx, entry, ext === ".gd" ? MAX_FIELD_BYTES : MAX_REDIRECT_BYTES) : null
  const head = whole !== null ? whole.subarray(0, SNIFF_BYTES) : await readExactly(ctx.contents.source, entry.dataOffset, Math.min(SNIFF_BYTES, entry.size))
  let kind = sniff(head)
  const imported = ctx.contents.has(`${entry.path}.import`) ? importBesideContentFinding(entry.path, kind) : null
  if (imported !== null) ctx.state.findings.push(imported)
  switch (kind) {
    case "tokenized-script":
      if (ext !== ".gdc" && ext !== ".gde") ctx.state.findings.push(compiledScriptFinding(ctx.contents, entry))
      return
    case "encrypted-file":
      if (ext !== ".gde") ctx.state.findings.push(encryptedFile(ctx.contents, entry))
      return
    case "native-pe-candidate":
      if (await hasPeSignature(ctx.contents.accessOf(entry))) return nativeContent(ctx, entry, "Windows executable code (PE)")
      // `MZ` without a PE header is text like any other (a line the engine skips in a .po, a .fnt or the settings: a
      // fifty-fifth red team's), read by its name's reader.
      kind = "other"
      break
    case "native-elf":
      return nativeContent(ctx, entry, "Linux/Android native code (ELF)")
    case "native-macho":
      return nativeContent(ctx, entry, "macOS/iOS native code (Mach-O) or Java class file")
    case "native-wasm":
      return nativeContent(ctx, entry, "WebAssembly code")
    default:
      break
  }
  if (SETTINGS_FILES.has(entry.path)) return scanSettings(ctx, entry)
  if (entry.path === EXTENSION_LIST && entry.size <= MAX_SETTINGS_BYTES) {
    ctx.state.findings.push(...extensionListFindings(decodeAsEngine(await ctx.contents.bytesOf(entry), ctx.grammar), entry.path, (path) => ctx.contents.has(path)))
    return
  }
  if (whole !== null && ext !== ".gd") {
    ctx.state.findings.push(...redirectFindings(entry.path, whole, (path) => ctx.contents.has(path), ctx.grammar))
    // The engine reads them with VariantParser, which builds the objects they hold.
    return scanVariantText(ctx, entry)
  }
  if (whole !== null) return scanTextScript(ctx, entry, whole)
  if (ext === ".fnt") return scanBitmapFont(ctx, entry)
  if (ext === ".po") return scanPoTranslation(ctx, entry)
  // Content decides, the name only breaks ties: a binary scene named .tscn is still read as binary.
  if (kind === "other" && (ext === ".tscn" || ext === ".tres")) return scanTextResource(ctx, entry)
  if (kind === "other" && ext === ".cfg") return scanVariantText(ctx, entry)
  if (kind === "binary-resource") return scanBinaryResource(ctx, entry)
  if (kind === "text-resource") return scanTextResource(ctx, entry)
}

/** Files of project settings and class registrations the engine reads at start-up. */
const SETTINGS_FILES: ReadonlySet<string> = new Set(["res://project.binary", "res://project.godot", "res://override.cfg", "res://.godot/global_script_class_cache.cfg"])
const MAX_SETTINGS_BYTES = 4 * 1024 * 1024

/**
 * The settings' path and translation remaps, known to the pack's files before any is scanned (PackContents.addLoadPath):
 * a remapped file is loaded under the original's path.
 */
const registerSettingsRemaps = async (ctx: Context): Promise<void> => {
  const remaps: Array<{ readonly file: string; readonly remap: SettingsRemap }> = []
  const pathRemapKeysOf = new Map<string, ReadonlyArray<string>>()
  for (const path of SETTINGS_FILES) {
    const entry = ctx.contents.get(path)
    if (entry === undefined || !entry.readable || entry.size > MAX_SETTINGS_BYTES) continue
    try {
      const decoded = settingsText(entry.path, await ctx.contents.bytesOf(entry), ctx.grammar)
      const found = decoded === null ? null : settingsRemaps(decoded.text)
      for (const remap of found?.remaps ?? []) remaps.push({ file: path, remap })
      pathRemapKeysOf.set(path, found?.pathRemapKeys ?? [])
    } catch (error) {
      // Judged where the file is scanned (an unreadable file is its own finding there).
      if (error instanceof SourceFailure) throw error
    }
  }
  registerPathRemaps(ctx, remaps, pathRemapKeysOf)
  for (const { remap } of remaps) ctx.redirectedPaths.add(normalisePackPath(remap.original))
  for (const original of ctx.contents.remaps.keys()) ctx.redirectedPaths.add(original)
  const next = new Map<string, Array<string>>()
  for (const { remap } of remaps) {
    const from = normalisePackPath(remap.original)
    next.set(from, [...(next.get(from) ?? []), normalisePackPath(remap.target)])
  }
  // The remaps chain: a translation remap's target is looked up in the path remaps, and (3.5) beside a `.remap` (a
  // ninety-third red team's translation remap to a path-remap original): every file down a chain is loaded under its
  // first original.
  for (const original of next.keys()) {
    const seen = new Set<string>()
    const walk = (path: string, depth: number): void => {
      for (const target of [...(next.get(path) ?? []), ctx.contents.remapTargetOf(path)]) {
        if (target === undefined || seen.has(target) || depth > MAX_REMAP_CHAIN) continue
        seen.add(target)
        ctx.contents.addLoadPath(target, original)
        walk(target, depth + 1)
      }
    }
    walk(original, 0)
  }
}

/**
 * The paths the settings' path remaps send elsewhere on every platform (PackContents.addPathRemap), which the engine
 * loads from there (ResourceLoader::_path_remap applies a path remap whatever the path's own file): a ninety-fourth
 * hunt's legacy `res://old_ui/hud_font.tres` remapped to the font's new folder. A key with a feature tag replaces the
 * untagged one where the feature is, so a path counts only where every key of the settings the engine may read (the
 * primary files, whose untagged key counts even when absent, and override.cfg) sends it somewhere.
 */
const registerPathRemaps = (
  ctx: Context,
  remaps: ReadonlyArray<{ readonly file: string; readonly remap: SettingsRemap }>,
  keysOf: ReadonlyMap<string, ReadonlyArray<string>>,
): void => {
  const read = (file: string): boolean => isPrimarySettings(file) || file === "res://override.cfg"
  const primaries = [...PRIMARY_SETTINGS].filter((file) => ctx.contents.has(file))
  const byKey = new Map<string, Map<string, Array<string>>>(primaries.map((file) => [`${file} path_remap/remapped_paths`, new Map()]))
  for (const [file, keys] of keysOf) for (const key of keys) if (read(file)) byKey.set(`${file} ${key}`, new Map())
  for (const { file, remap } of remaps) {
    const byOriginal = remap.pathRemapKey === null || !read(file) ? undefined : byKey.get(`${file} ${remap.pathRemapKey}`)
    if (byOriginal === undefined) continue
    const from = normalisePackPath(remap.original)
    byOriginal.set(from, [...(byOriginal.get(from) ?? []), normalisePackPath(remap.target)])
  }
  const keys = [...byKey.values()]
  for (const original of keys[0]?.keys() ?? []) {
    const everywhere = keys.map((byOriginal) => byOriginal.get(original))
    if (everywhere.every((targets) => targets !== undefined)) ctx.contents.addPathRemap(original, everywhere.flatMap((targets) => targets ?? []))
  }
}

/** How many remaps one load may follow here (the engine applies a translation remap, then a path remap, then a `.remap`). */
const MAX_REMAP_CHAIN = 8

/**
 * The settings the engine may start from: project.godot and project.binary, both where both are stored. Godot 3.2 reads
 * project.godot first and project.binary only without it, Godot 4 the other way round, each falling back to the other
 * when the first cannot be read (ProjectSettings::_load_settings_text_or_binary): a ninety-fifth red team's nameless
 * project.godot beside the exported project.binary put user:// in the working folder. Godot 3 exports both where the
 * preset's include filter names project.godot (`*`).
 */
const PRIMARY_SETTINGS: ReadonlySet<string> = new Set(["res://project.godot", "res://project.binary"])
const isPrimarySettings = (path: string): boolean => PRIMARY_SETTINGS.has(path)

/**
 * The engine reads settings text byte by byte (VariantParser::StreamFile) and skips no byte-order mark: its bytes
 * begin the first key, so a section header on the first line is no header (`<BOM>[autoload]` then `Towers=…` set
 * `autoload/Towers` nowhere, and a later top-level `autoload/Towers=…` did: an eighty-fifth red team's). The scanner's
 * text decoding drops the mark, as it does for scripts, so such a file is refused; no editor writes one.
 */
const BOM_IN_SETTINGS = "the settings text starts with a byte-order mark, which the engine reads as the start of the first key (so a section header on the first line is none to it); save the file without one, as the Godot editor does"

const scanSettings = async (ctx: Context, entry: PackEntry): Promise<void> => {
  if (entry.size > MAX_SETTINGS_BYTES) throw new MalformedData(`a ${entry.size}-byte settings file exceeds the ${MAX_SETTINGS_BYTES}-byte limit`)
  const bytes = await ctx.contents.bytesOf(entry)
  if (!entry.path.endsWith(".binary") && startsWithBom(bytes)) throw new MalformedData(BOM_IN_SETTINGS)
  let decoded: DecodedSettings | null
  try {
    decoded = settingsText(entry.path, bytes, ctx.grammar)
  } catch (error) {
    if (error instanceof SourceFailure) throw error
    throw new MalformedData(`the settings file cannot be decoded (${error instanceof Error ? error.message : String(error)})`)
  }
  if (decoded === null) throw new MalformedData("project.binary is not an ECFG settings file")
  const { text } = decoded
  // The checks read settings text line by line: only where the engine reads it alike (project.binary's is the scanner's own text).
  const apart = (entry.path.endsWith(".binary") ? null : settingsReadApart(text, ctx.grammar)) ?? autoloadNameClash(text)
  if (apart !== null) throw new MalformedData(apart)
  const file = ctx.contents.creatorPath(entry)
  const strictEntry = indexPolicy(ctx.policy).text.get("strict-utf8")
  if (strictEntry !== undefined) {
    const hits = decoded.notStrictLines.map((line) => ({ entry: strictEntry, line, column: 1, severity: strictEntry.severity, matched: "the setting is not strict UTF-8", note: "the engine decodes it leniently (an overlong byte sequence is a letter for Godot 3)" }))
    ctx.state.findings.push(...scriptFindings(hits, { file, storedPath: entry.path, source: text }))
  }
  ctx.state.findings.push(...projectSettingsFindings(text, file, entry.path, (path) => ctx.contents.has(path), ctx.grammar === 4 ? (uid) => ctx.contents.resolveUid(uid) : undefined, ctx.grammar, ctx.policy.platformClasses ?? [], isPrimarySettings(entry.path), (path) => ctx.contents.hasPathRemapTarget(path)))
  // The engine decodes settings with objects allowed: an object of a dangerous class in them is one.
  ctx.state.findings.push(...builtObjectFindings(ctx.policy, objectsInText(text), file, entry.path, ctx.state.capabilities))
  const key = REGISTRATION_KEYS.get(entry.path)
  if (key !== undefined) ctx.registrations.set(entry.path, { file, storedPath: entry.path, key, entries: classEntriesOf(text, entry.path, ctx.grammar) })
  // The autoloads are those of the files the engine may start from (the class cache is never read for them: a
  // seventy-eighth red team's decoy autoloads there), and an autoload in override.cfg is an error of its own
  // (projectSettingsFindings). project.godot and project.binary naming different scripts for one autoload start a
  // different game on Godot 3 and 4 (a ninety-fifth red team's): the file is refused.
  if (isPrimarySettings(entry.path)) {
    for (const [name, path] of autoloadSingletons(text)) setAgreeing(ctx.autoloads, name, path)
    for (const [key, values] of settingValues(text)) ctx.settings.set(key, [...(ctx.settings.get(key) ?? []), ...values])
    for (const [name, path] of autoloadEntries(text, false)) setAgreeing(ctx.baseAutoloads, name, ctx.contents.loadedPath(path))
  }
  ctx.state.findings.push(...scriptFindings(shadowingAutoloads(ctx, text), { file, storedPath: entry.path, source: text }))
}

/** Records an autoload's script, refusing a settings file that names another one than the pack's other settings file. */
const setAgreeing = (autoloads: Map<string, string>, name: string, path: string): void => {
  const other = autoloads.get(name)
  if (other !== undefined && other !== path) throw new MalformedData(`its autoload ${name} is ${path}, where the pack's other settings file says ${other}: Godot 3 reads project.godot first, Godot 4 project.binary, so the game would start with different code. Export again so the two files agree (or exclude project.godot from the export)`)
  autoloads.set(name, path)
}

/**
 * Autoload singletons named like an engine class or singleton (`OS="*res://clock.gd"`): Godot 3 adds each as a global
 * of GDScript over the engine's own (modules/gdscript/gdscript.cpp `_add_global` replaces the entry), so `OS` in every
 * script is then the pack's node (a twenty-second red team's `OS.get_unix_time()` handing back a climbing path).
 */
const shadowingAutoloads = (ctx: Context, text: string): ReadonlyArray<PatternHit> => {
  const idx = indexPolicy(ctx.policy)
  const shadow = idx.classNameShadow
  if (shadow === null) return []
  const isEngine = engineNames(ctx.grammar, idx)
  const lines = text.split("\n")
  return [...autoloadSingletons(text).keys()].filter(isEngine).map((name) => {
    const at = lines.findIndex((l) => l.trimStart().startsWith(`${name}=`) || l.trimStart().startsWith(`autoload/${name}=`))
    return { entry: shadow, line: at < 0 ? 1 : at + 1, column: 1, severity: shadow.severity, matched: `autoload ${name}`, note: `${name} is an engine class or singleton, and an autoload of that name replaces it for every script of the game` }
  })
}

const readScriptBytes = async (ctx: Context, entry: PackEntry, limit: number): Promise<Uint8Array> => {
  if (entry.size > limit) {
    if (limit === MAX_FIELD_BYTES) throw new MalformedData(`a ${entry.size}-byte script exceeds the ${MAX_FIELD_BYTES}-byte limit`)
    return readExactly(ctx.contents.source, entry.dataOffset, limit)
  }
  return ctx.contents.bytesOf(entry)
}

const encryptedFile = (contents: PackContents, entry: PackEntry): Finding =>
  finding({
    rule: RULE.encrypted,
    file: contents.creatorPath(entry),
    storedPath: entry.path,
    pattern: "encrypted file",
    message: `${entry.path} is an encrypted file (GDEC); encrypted content cannot be reviewed. Export it unencrypted.`,
  })

const nativeContent = (ctx: Context, entry: PackEntry, what: string): void => {
  if (isNativeByName(entry.path, ctx.policy)) return
  ctx.state.findings.push(
    finding({
      rule: RULE.nativeCode,
      file: ctx.contents.creatorPath(entry),
      storedPath: entry.path,
      pattern: "native code content",
      message: `${entry.path} contains ${what} under a name that hides it. Packs may contain only game content and GDScript; remove the file.`,
    }),
  )
}

const hasPeSignature = async (access: RandomAccess): Promise<boolean> => {
  if (access.size < 0x40) return false
  const at = new DataView((await readExactly(access, 0x3c, 4)).slice().buffer).getUint32(0, true)
  if (at + 4 > access.size) return false
  const sig = await readExactly(access, at, 4)
  return sig[0] === 0x50 && sig[1] === 0x45 && sig[2] === 0 && sig[3] === 0
}

const scanTextScript = async (ctx: Context, entry: PackEntry, bytes: Uint8Array): Promise<void> => {
  // The text the engine runs, decoded as it decodes it; bytes that are not strict UTF-8 are a finding of their own.
  const source = decodeAsEngine(bytes, ctx.grammar)
  const file = ctx.contents.creatorPath(entry)
  const location = { file, storedPath: entry.path }
  const encoding = encodingHit(ctx.policy, bytes, "the script is")
  const ast = collectScript(ctx, file, entry, source, location, encoding === null ? [] : [encoding])
  ctx.state.addScript(file, { header: headerOf(ast), file, storedPath: entry.path })
}
