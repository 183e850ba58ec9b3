import { decodeUtf8 } from "./io/ByteCursor.ts"
import { readExactly, type RandomAccess, sliceOf } from "./io/RandomAccess.ts"
import { normalisePackPath } from "./pack/packPath.ts"
import type { PackEntry } from "./pack/PackLayout.ts"
import { parseRemapTarget } from "./resource/remap.ts"

/** Stubs are ~40 bytes; a larger `.remap` is not something an exporter wrote and is not followed. */
const MAX_REMAP_BYTES = 64 * 1024

/**
 * The pack's entries by path, plus the `.remap` links the exporter wrote, so every finding can
 * name the file a creator knows (`res://player.gd`) and, when different, where the bytes are
 * (`res://player.gdc`, `res://.godot/exported/…/export-…-main.scn`).
 */
export class PackContents {
  readonly source: RandomAccess
  readonly entries: ReadonlyArray<PackEntry>
  readonly #byPath = new Map<string, PackEntry>()
  /** original path → stored target */
  readonly #remapTargets = new Map<string, string>()
  /** stored target → original path */
  readonly #originals = new Map<string, string>()

  private constructor(source: RandomAccess, entries: ReadonlyArray<PackEntry>) {
    this.source = source
    this.entries = [...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.index - b.index))
    // The engine keeps the last of duplicate entries (core/io/file_access_pack.cpp, PackedData::add_path).
    for (const e of this.entries) this.#byPath.set(e.path, e)
  }

  static async load(source: RandomAccess, entries: ReadonlyArray<PackEntry>): Promise<PackContents> {
    const contents = new PackContents(source, entries)
    for (const entry of contents.entries) {
      if (!entry.path.endsWith(".remap") || !entry.readable || entry.size > MAX_REMAP_BYTES || contents.#byPath.get(entry.path) !== entry) continue
      const target = parseRemapTarget(decodeUtf8(await contents.bytesOf(entry)))
      if (target === null) continue
      const original = entry.path.slice(0, -".remap".length)
      const stored = normalisePackPath(target)
      contents.#remapTargets.set(original, stored)
      if (!contents.#originals.has(stored)) contents.#originals.set(stored, original)
    }
    return contents
  }

  get(path: string): PackEntry | undefined {
    return this.#byPath.get(path)
  }

  /** The stored file a creator path resolves to: itself, or its `.remap` target. */
  resolve(path: string): { readonly entry: PackEntry; readonly viaRemap: boolean } | { readonly missing: string } {
    const direct = this.#byPath.get(path)
    if (direct !== undefined) return { entry: direct, viaRemap: false }
    const target = this.#remapTargets.get(path)
    if (target === undefined) return { missing: path }
    const stored = this.#byPath.get(target)
    return stored === undefined ? { missing: target } : { entry: stored, viaRemap: true }
  }

  remapTargetOf(path: string): string | undefined {
    return this.#remapTargets.get(path)
  }

  /** The path a creator knows for a stored entry. */
  creatorPath(entry: PackEntry): string {
    const original = this.#originals.get(entry.path)
    if (original !== undefined) return original
    if (entry.path.endsWith(".remap")) return entry.path.slice(0, -".remap".length)
    if (entry.path.endsWith(".import")) return entry.path.slice(0, -".import".length)
    return entry.path
  }

  /** The entry's bytes as random access (addressed from 0). */
  accessOf(entry: PackEntry): RandomAccess {
    return sliceOf(this.source, entry.dataOffset, entry.size)
  }

  bytesOf(entry: PackEntry): Promise<Uint8Array> {
    return readExactly(this.source, entry.dataOffset, entry.size)
  }
}
