import { type PackFileEntry } from "../../../domain/review/PackFile.ts"
import { readExactly, type RandomAccess, sliceOf } from "../io/RandomAccess.ts"
import type { IncrementalSha256 } from "../../../ports/Sha256Hasher.ts"
import type { PackEntry } from "../pack/PackLayout.ts"
import { builtInScriptsOf, kindOf, TEXT_PROBE_BYTES } from "./entryContent.ts"
import { openEntries, remapTargetOf } from "./packEntries.ts"

const HASH_CHUNK_BYTES = 1024 * 1024

/** A new streaming SHA-256 (nodeSha256.ts on Node and Deno; any IncrementalSha256 elsewhere). */
export type NewSha256 = () => IncrementalSha256

const sha256Hex = (newHash: NewSha256, text: string): string => {
  const hash = newHash()
  hash.update(new TextEncoder().encode(text))
  return hash.digestHex()
}

/** Streams the entry through SHA-256 in chunks; returns the digest and the first bytes (to tell text from binary). */
const hashEntry = async (newHash: NewSha256, source: RandomAccess, entry: PackEntry): Promise<{ sha256: string; probe: Uint8Array }> => {
  const hash = newHash()
  let probe = new Uint8Array(0)
  for (let at = 0; at < entry.size; at += HASH_CHUNK_BYTES) {
    const chunk = await readExactly(source, entry.dataOffset + at, Math.min(HASH_CHUNK_BYTES, entry.size - at))
    if (at === 0) probe = chunk.slice(0, TEXT_PROBE_BYTES)
    hash.update(chunk)
  }
  return { sha256: hash.digestHex(), probe }
}

/**
 * Every entry a reviewer can open, sorted by path: the pack's own entries under their creator paths, plus each
 * scene's built-in scripts as `<scene>::<sub-resource>`. Reads every entry once.
 */
export const indexPack = async (source: RandomAccess, newHash: NewSha256): Promise<ReadonlyArray<PackFileEntry>> => {
  const opened = await openEntries(source)
  if (opened === null) return []
  // Stored target → the original path its `.remap` stub names (the first stub wins, as in the scanner).
  const originals = new Map<string, string>()
  for (const [stored, stub] of opened.byStoredPath) {
    if (!stored.endsWith(".remap")) continue
    const target = await remapTargetOf(source, stub, opened.format)
    const original = stored.slice(0, -".remap".length)
    if (target !== null && !originals.has(target) && !opened.byStoredPath.has(original)) originals.set(target, original)
  }
  const out: Array<PackFileEntry> = []
  for (const [stored, entry] of opened.byStoredPath) {
    const path = originals.get(stored) ?? stored
    const { sha256, probe } = await hashEntry(newHash, source, entry)
    const kind = kindOf(stored, path, probe)
    out.push({ path, ...(path !== stored ? { storedPath: stored } : {}), sizeBytes: entry.size, kind, sha256 })
    if (kind === "scene" || kind === "resource") {
      for (const script of await builtInScriptsOf(sliceOf(source, entry.dataOffset, entry.size), stored)) {
        const bytes = new TextEncoder().encode(script.source).length
        out.push({ path: `${path}::${script.subResource}`, embeddedIn: path, sizeBytes: bytes, kind: "script", sha256: sha256Hex(newHash, script.source) })
      }
    }
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}
