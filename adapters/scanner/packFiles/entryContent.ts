// What one stored entry is for a reviewer: its kind, whether it reads as text, and the scripts built into it.
import type { PackFileKind } from "../../../domain/review/PackFile.ts"
import { nodeDecompressors } from "../nodeDecompressors.ts"
import { decodeUtf8 } from "../io/ByteCursor.ts"
import { MalformedData } from "../io/errors.ts"
import { readExactly, type RandomAccess } from "../io/RandomAccess.ts"
import { extensionOf } from "../pack/packPath.ts"
import { openBinaryResource } from "../resource/binaryResource.ts"
import { readBinaryScripts } from "../resource/binaryScripts.ts"
import { SNIFF_BYTES, sniff } from "../resource/sniff.ts"
import { TextResourceReader } from "../resource/textResource.ts"

/** How much of an entry decides whether an unknown file is text. */
export const TEXT_PROBE_BYTES = 8192

/** Valid UTF-8 without NUL bytes in the probe (a sequence cut at the probe's end still counts as text). */
export const looksLikeText = (probe: Uint8Array): boolean => {
  if (probe.includes(0)) return false
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(probe, { stream: true })
    return true
  } catch {
    return false
  }
}

/** The kind by where the bytes are (`stored`) and the path a creator knows (`path`); content decides only for others. */
export const kindOf = (stored: string, path: string, probe: Uint8Array): PackFileKind => {
  const ext = extensionOf(stored)
  if (ext === ".gd") return "script"
  if (ext === ".tscn" || ext === ".scn") return "scene"
  if (ext === ".tres" || ext === ".res") return "resource"
  if (ext === ".remap" || ext === ".import") return "remap"
  if (path === "res://manifest.json") return "manifest"
  if (path === "res://project.godot" || path === "res://project.binary") return "project"
  if (ext === ".gdc" || ext === ".gde") return "binary"
  return looksLikeText(probe) ? "text" : "binary"
}

export interface BuiltInScript {
  readonly subResource: string
  readonly source: string
}

/** Entries larger than this are not parsed for built-in scripts (a scene that size is an asset dump, not code). */
const MAX_PARSED_BYTES = 16 * 1024 * 1024

/** GDScript sub-resources of a text or binary scene/resource; none when the entry is neither or cannot be parsed. */
export const builtInScriptsOf = async (access: RandomAccess, stored: string): Promise<ReadonlyArray<BuiltInScript>> => {
  if (access.size === 0 || access.size > MAX_PARSED_BYTES) return []
  const kind = sniff(await readExactly(access, 0, Math.min(SNIFF_BYTES, access.size)))
  const ext = extensionOf(stored)
  try {
    if (kind === "text-resource" || (kind === "other" && (ext === ".tscn" || ext === ".tres"))) {
      const reader = new TextResourceReader()
      reader.feed(decodeUtf8(await readExactly(access, 0, access.size)))
      return reader.finish().scripts.map((s) => ({ subResource: s.subResource, source: s.source }))
    }
    if (kind === "binary-resource") {
      const resource = await openBinaryResource(access, nodeDecompressors)
      return (await readBinaryScripts(resource)).scripts
    }
  } catch (error) {
    // A damaged scene lists no built-in scripts here; the scan already reported it as unreadable.
    if (error instanceof MalformedData || error instanceof RangeError) return []
    throw error
  }
  return []
}
