import { builtInParts, HEAD_BYTES, MAX_TEXT_BYTES, type PackFileContent } from "../../../domain/review/PackFile.ts"
import { readExactly, type RandomAccess, sliceOf } from "../io/RandomAccess.ts"
import type { PackEntry } from "../pack/PackLayout.ts"
import { sniff } from "../resource/sniff.ts"
import { builtInScriptsOf, kindOf, TEXT_PROBE_BYTES } from "./entryContent.ts"
import { bytesOf, openEntries, type OpenedEntries, remapTargetOf } from "./packEntries.ts"
import { projectBinaryToText } from "./projectBinary.ts"

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")

/** The stored entry a creator path names: itself, or the target of its `.remap` stub. Reads the stub only. */
const resolve = async (source: RandomAccess, opened: OpenedEntries, path: string): Promise<{ entry: PackEntry; stored: string } | null> => {
  const direct = opened.byStoredPath.get(path)
  if (direct !== undefined) return { entry: direct, stored: path }
  const stub = opened.byStoredPath.get(`${path}.remap`)
  if (stub === undefined) return null
  const target = await remapTargetOf(source, stub, opened.format)
  const entry = target === null ? undefined : opened.byStoredPath.get(target)
  return entry === undefined || target === null ? null : { entry, stored: target }
}

/** Text cut at MAX_TEXT_BYTES on a character boundary. */
const cutText = (bytes: Uint8Array, total: number): { text: string; truncated: boolean } => {
  const truncated = total > MAX_TEXT_BYTES
  const text = new TextDecoder("utf-8").decode(truncated ? bytes.subarray(0, MAX_TEXT_BYTES) : bytes, { stream: truncated })
  return { text, truncated }
}

/**
 * One entry's content, reading the header, the directory and that entry's bytes (plus a `.remap` stub when the path
 * is a remapped one); null when the pack has no such entry. `directory` lets several reads of one pack share one
 * reading of its directory.
 */
export const readPackFile = async (
  source: RandomAccess,
  path: string,
  directory: Promise<OpenedEntries | null> = openEntries(source),
): Promise<PackFileContent | null> => {
  const opened = await directory
  if (opened === null) return null
  const { file, subResource } = builtInParts(path)
  const found = await resolve(source, opened, file)
  if (found === null) return null
  const { entry, stored } = found
  const access = sliceOf(source, entry.dataOffset, entry.size)
  if (subResource !== null) {
    const script = (await builtInScriptsOf(access, stored)).find((s) => s.subResource === subResource)
    if (script === undefined) return null
    const bytes = new TextEncoder().encode(script.source)
    return { path, kind: "script", sizeBytes: bytes.length, ...cutText(bytes, bytes.length) }
  }
  const probe = await readExactly(access, 0, Math.min(TEXT_PROBE_BYTES, entry.size))
  const kind = kindOf(stored, file, probe)
  const binary = (): PackFileContent => ({ path, kind, sizeBytes: entry.size, text: null, truncated: false, head: hex(probe.subarray(0, HEAD_BYTES)) })
  if (kind === "binary") return binary()
  if (kind === "project" && stored.endsWith(".binary")) {
    const text = projectBinaryToText(await bytesOf(source, entry), opened.format <= 1 ? 3 : 4)
    return text === null ? binary() : { path, kind, sizeBytes: entry.size, text, truncated: false }
  }
  // Binary scenes and resources (RSRC/RSCC) have no text form here; their built-in scripts are entries of their own.
  if ((kind === "scene" || kind === "resource") && sniff(probe) === "binary-resource") return binary()
  const bytes = entry.size <= TEXT_PROBE_BYTES ? probe : await readExactly(access, 0, Math.min(entry.size, MAX_TEXT_BYTES))
  return { path, kind, sizeBytes: entry.size, ...cutText(bytes, entry.size) }
}
