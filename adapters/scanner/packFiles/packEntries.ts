// The pack's readable entries keyed the way a reviewer knows them: the last copy of each path (the one the engine
// loads), `.remap` targets under their original path.
import { readExactly, type RandomAccess } from "../io/RandomAccess.ts"
import { openPack } from "../pack/openPack.ts"
import { normalisePackPath } from "../pack/packPath.ts"
import type { PackEntry } from "../pack/PackLayout.ts"
import { parseRemapTarget } from "../resource/remap.ts"

const MAX_STUB_BYTES = 64 * 1024

export interface OpenedEntries {
  /** Pack format: 1 and below is Godot 3. */
  readonly format: number
  /** Stored path → the engine's copy. */
  readonly byStoredPath: ReadonlyMap<string, PackEntry>
}

/** Header and directory only; null when the bytes are no readable Godot pack. */
export const openEntries = async (source: RandomAccess): Promise<OpenedEntries | null> => {
  const opened = await openPack(source)
  if (opened._tag !== "Readable") return null
  const byStoredPath = new Map<string, PackEntry>()
  for (const entry of opened.entries) if (entry.readable && entry.unreachable === undefined) byStoredPath.set(entry.path, entry)
  // An entry the engine cannot find under its path (stored without res://) is listed only where no other is.
  for (const entry of opened.entries) if (entry.readable && entry.unreachable !== undefined && !byStoredPath.has(entry.path)) byStoredPath.set(entry.path, entry)
  return { format: opened.header.format, byStoredPath }
}

/** Where a `.remap` stub of a pack of `format` points (normalised), or null. Reads the stub only. */
export const remapTargetOf = async (source: RandomAccess, stub: PackEntry, format: number): Promise<string | null> => {
  if (stub.size > MAX_STUB_BYTES) return null
  const target = parseRemapTarget(await readExactly(source, stub.dataOffset, stub.size), format <= 1 ? 3 : 4)
  return target === null ? null : normalisePackPath(target)
}

export const bytesOf = (source: RandomAccess, entry: PackEntry): Promise<Uint8Array> => readExactly(source, entry.dataOffset, entry.size)
