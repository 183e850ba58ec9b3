import type { Finding } from "../../../domain/scan/Finding.ts"
import { RULE } from "../../../domain/scan/RuleId.ts"
import type { Decompressors } from "../Decompressors.ts"
import { finding } from "../findings.ts"
import { tokenize } from "../gdscript/lexer.ts"
import { matchPolicy } from "../gdscript/matchPolicy.ts"
import { readScriptHeader } from "../gdscript/scriptHeader.ts"
import { decodeUtf8, MAX_FIELD_BYTES } from "../io/ByteCursor.ts"
import { describeError, MalformedData, SourceFailure } from "../io/errors.ts"
import { bytesSource, readExactly, type RandomAccess } from "../io/RandomAccess.ts"
import type { PackContents } from "../PackContents.ts"
import { extensionOf } from "../pack/packPath.ts"
import type { PackEntry } from "../pack/PackLayout.ts"
import type { Policy } from "../policy/Policy.ts"
import { openBinaryResource } from "../resource/binaryResource.ts"
import { readBinarySceneFacts } from "../resource/binaryScene.ts"
import { readBinaryScripts } from "../resource/binaryScripts.ts"
import { mapUnescapedPosition } from "../resource/godotString.ts"
import { SNIFF_BYTES, sniff } from "../resource/sniff.ts"
import { TextResourceReader } from "../resource/textResource.ts"
import { compiledScriptFinding, isNativeByName } from "./nameChecks.ts"
import { bannedNodeFindings, resourceClassFindings } from "./resourceFindings.ts"
import { scriptFindings } from "./scriptFindings.ts"
import { builtInScriptKey, type ScanState } from "./ScanState.ts"

/** Entries up to this size are read once and parsed from memory; larger ones are read piecewise. */
const IN_MEMORY_BYTES = 1024 * 1024
const TEXT_CHUNK_BYTES = 1024 * 1024

interface Context {
  readonly contents: PackContents
  readonly policy: Policy
  readonly decompressors: Decompressors
  readonly state: ScanState
}

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
): Promise<void> => {
  const ctx: Context = { contents, policy, decompressors, state }
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
  if (ext === ".gd") return scanTextScript(ctx, entry)
  if (ext === ".remap" || ext === ".import") return
  // Content decides, the name only breaks ties: a binary scene named .tscn is still read as binary.
  const head = await readExactly(ctx.contents.source, entry.dataOffset, Math.min(SNIFF_BYTES, entry.size))
  const kind = sniff(head)
  if (kind === "other" && (ext === ".tscn" || ext === ".tres")) return scanTextResource(ctx, entry)
  switch (kind) {
    case "binary-resource":
      return scanBinaryResource(ctx, entry)
    case "text-resource":
      return scanTextResource(ctx, entry)
    case "tokenized-script":
      if (ext !== ".gdc" && ext !== ".gde") ctx.state.findings.push(compiledScriptFinding(ctx.contents, entry))
      return
    case "encrypted-file":
      if (ext !== ".gde") ctx.state.findings.push(encryptedFile(ctx.contents, entry))
      return
    case "native-pe-candidate":
      if (await hasPeSignature(ctx.contents.accessOf(entry))) nativeContent(ctx, entry, "Windows executable code (PE)")
      return
    case "native-elf":
      return nativeContent(ctx, entry, "Linux/Android native code (ELF)")
    case "native-macho":
      return nativeContent(ctx, entry, "macOS/iOS native code (Mach-O) or Java class file")
    case "native-wasm":
      return nativeContent(ctx, entry, "WebAssembly code")
    case "other":
      return
  }
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

const readScriptText = async (ctx: Context, entry: PackEntry): Promise<string> => {
  if (entry.size > MAX_FIELD_BYTES) throw new MalformedData(`a ${entry.size}-byte script exceeds the ${MAX_FIELD_BYTES}-byte limit`)
  return decodeUtf8(await ctx.contents.bytesOf(entry))
}

const scanTextScript = async (ctx: Context, entry: PackEntry): Promise<void> => {
  const source = await readScriptText(ctx, entry)
  const tokens = tokenize(source)
  const file = ctx.contents.creatorPath(entry)
  ctx.state.findings.push(...scriptFindings(matchPolicy(tokens, ctx.policy), { file, storedPath: entry.path }))
  ctx.state.addScript(file, { header: readScriptHeader(tokens), file, storedPath: entry.path })
}

const scanTextResource = async (ctx: Context, entry: PackEntry): Promise<void> => {
  const reader = new TextResourceReader()
  const decoder = new TextDecoder("utf-8")
  const access = ctx.contents.accessOf(entry)
  for (let at = 0; at < access.size; at += TEXT_CHUNK_BYTES) {
    const chunk = await readExactly(access, at, Math.min(TEXT_CHUNK_BYTES, access.size - at))
    reader.feed(decoder.decode(chunk, { stream: true }))
  }
  reader.feed(decoder.decode())
  const facts = reader.finish()
  const file = ctx.contents.creatorPath(entry)
  for (const script of facts.scripts) {
    const tokens = tokenize(script.source)
    const mapPosition = (line: number, column: number) => mapUnescapedPosition(script.raw, script.start, { line, column })
    const location = { file, storedPath: entry.path, mapPosition }
    ctx.state.findings.push(...scriptFindings(matchPolicy(tokens, ctx.policy), location))
    ctx.state.addScript(builtInScriptKey(file, script.subResource), { header: readScriptHeader(tokens), ...location })
  }
  ctx.state.findings.push(...bannedNodeFindings(ctx.policy, facts.nodeTypes, file, entry.path))
  ctx.state.findings.push(...resourceClassFindings(ctx.policy, facts.classes, file, entry.path))
  if (facts.fileTag === "gd_scene") ctx.state.scenes.set(file, { rootScript: facts.rootScript, baseScene: facts.baseScene })
}

const scanBinaryResource = async (ctx: Context, entry: PackEntry): Promise<void> => {
  const access = entry.size <= IN_MEMORY_BYTES ? bytesSource(await ctx.contents.bytesOf(entry)) : ctx.contents.accessOf(entry)
  const resource = await openBinaryResource(access, ctx.decompressors)
  const file = ctx.contents.creatorPath(entry)
  const { scripts, classes } = await readBinaryScripts(resource)
  for (const script of scripts) {
    const tokens = tokenize(script.source)
    const location = { file, storedPath: entry.path, embeddedIn: { resource: file, subResource: script.subResource } }
    ctx.state.findings.push(...scriptFindings(matchPolicy(tokens, ctx.policy), location))
    ctx.state.addScript(builtInScriptKey(file, script.subResource), { header: readScriptHeader(tokens), ...location })
  }
  ctx.state.findings.push(...resourceClassFindings(ctx.policy, classes, file, entry.path))
  const scene = await readBinarySceneFacts(resource)
  if (scene !== null) {
    ctx.state.findings.push(...bannedNodeFindings(ctx.policy, scene.nodeTypes, file, entry.path))
    ctx.state.scenes.set(file, { rootScript: scene.rootScript, baseScene: scene.baseScene })
  }
}

