import { readExactly, type RandomAccess, sliceOf } from "./io/RandomAccess.ts"
import { normalisePackPath } from "./pack/packPath.ts"
import type { PackEntry } from "./pack/PackLayout.ts"
import { readRedirect } from "./resource/redirect.ts"
import { parseRemapTarget } from "./resource/remap.ts"
import { readUidCache, resolveUid, UID_CACHE_PATH, type UidResolution } from "./resource/uidCache.ts"

/** A uid cache larger than this is not read (an export writes ~100 bytes a resource). */
const MAX_UID_CACHE_BYTES = 16 * 1024 * 1024

/** Stubs are ~40 bytes; a larger `.remap` is not something an exporter wrote and is not followed. */
const MAX_REMAP_BYTES = 64 * 1024

const push = (map: Map<string, Array<string>>, key: string, value: string): void => {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}

/**
 * The pack's entries by path, plus the `.remap` links the exporter wrote, so every finding can
 * name the file a creator knows (`res://player.gd`) and, when different, where the bytes are
 * (`res://player.gdc`, `res://.godot/exported/…/export-…-main.scn`).
 */
export class PackContents {
  readonly source: RandomAccess
  /** The engine that reads the pack: 3 for format 1 and below. */
  readonly grammar: 3 | 4
  readonly entries: ReadonlyArray<PackEntry>
  /** Entries the engine finds by their res:// path, sorted like `entries` (an unreachable one is scanned but not found). */
  readonly #reachable: ReadonlyArray<PackEntry>
  readonly #byPath = new Map<string, PackEntry>()
  /** original path → stored target */
  readonly #remapTargets = new Map<string, string>()
  /** stored target → every original path redirected to it */
  readonly #originals = new Map<string, Array<string>>()
  /** stored file → every other path it is loaded by: an `.import`'s original (any of its targets), a settings remap's (addLoadPath) */
  readonly #alsoLoadedAs = new Map<string, Array<string>>()
  /**
   * Originals whose `.remap` or `.import` names no target the engine takes: the engine then loads the original
   * itself, from the disk when the pack lacks it (a fifty-eighth red team's `[remap]` alone, `importer="keep"`).
   */
  readonly #targetless = new Set<string>()
  /** Godot 4's uid cache of the pack (uidCache.ts): id → path; null when the pack has none (or is a Godot 3 pack). */
  #uids: ReadonlyMap<bigint, string> | null = null
  /** original → the targets the settings' path remaps send it to on every platform (addPathRemap) */
  readonly #pathRemapped = new Map<string, ReadonlyArray<string>>()

  private constructor(source: RandomAccess, entries: ReadonlyArray<PackEntry>, grammar: 3 | 4) {
    this.source = source
    this.grammar = grammar
    this.entries = [...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.index - b.index))
    this.#reachable = this.entries.filter((e) => e.unreachable === undefined)
    // The engine keeps the last of duplicate entries (core/io/file_access_pack.cpp, PackedData::add_path).
    for (const e of this.#reachable) this.#byPath.set(e.path, e)
  }

  /** `grammar`: the engine that reads the pack (3 for format 1 and below), whose reader decodes the `.remap` stubs. */
  static async load(source: RandomAccess, entries: ReadonlyArray<PackEntry>, grammar: 3 | 4): Promise<PackContents> {
    const contents = new PackContents(source, entries, grammar)
    for (const entry of contents.entries) {
      if (!entry.readable || entry.size > MAX_REMAP_BYTES || contents.#byPath.get(entry.path) !== entry) continue
      if (entry.path.endsWith(".import")) {
        const { targets } = readRedirect(await contents.bytesOf(entry), ".import", grammar)
        const original = entry.path.slice(0, -".import".length)
        if (!targets.some((t) => t.followed && t.path !== null)) contents.#targetless.add(original)
        for (const t of targets) if (t.path !== null) push(contents.#alsoLoadedAs, normalisePackPath(t.path), original)
        continue
      }
      if (!entry.path.endsWith(".remap")) continue
      const target = parseRemapTarget(await contents.bytesOf(entry), grammar)
      const original = entry.path.slice(0, -".remap".length)
      if (target === null) {
        contents.#targetless.add(original)
        continue
      }
      const stored = normalisePackPath(target)
      contents.#remapTargets.set(original, stored)
      push(contents.#originals, stored, original)
    }
    const cache = contents.#byPath.get(UID_CACHE_PATH)
    if (grammar === 4 && cache !== undefined && cache.readable && cache.size <= MAX_UID_CACHE_BYTES) contents.#uids = readUidCache(await contents.bytesOf(cache))
    return contents
  }

  /** What a `uid://` path names for the engine: the path the pack's uid cache gives it, or why it cannot be told. */
  resolveUid(uid: string | bigint): UidResolution {
    return resolveUid(this.#uids, uid)
  }

  /** The entry the engine reads for a stored res:// path (the last copy; never one it cannot find). */
  get(path: string): PackEntry | undefined {
    return this.#byPath.get(path)
  }

  /**
   * The stored file the engine loads for a creator path: its `.remap` target when there is one (the
   * engine looks for `<path>.remap` before anything else, even when the path itself is in the pack:
   * core/io/resource_loader.cpp, _path_remap), else the path itself.
   */
  resolve(path: string): { readonly entry: PackEntry; readonly viaRemap: boolean } | { readonly missing: string } {
    const target = this.#remapTargets.get(path)
    if (target !== undefined) {
      const stored = this.#byPath.get(target)
      return stored === undefined ? { missing: target } : { entry: stored, viaRemap: true }
    }
    const direct = this.#byPath.get(path)
    return direct === undefined ? { missing: path } : { entry: direct, viaRemap: false }
  }

  /** The creator path of what the engine loads for `path` (see resolve), or `path` when nothing is there. */
  loadedPath(path: string): string {
    const resolved = this.resolve(path)
    return "missing" in resolved ? path : this.creatorPath(resolved.entry)
  }

  /** Every `.remap` original and the stored target it redirects to. */
  get remaps(): ReadonlyMap<string, string> {
    return this.#remapTargets
  }

  /**
   * Whether the engine finds a resource at a res:// path in the pack: the file, or its `.remap` or `.import` sidecar
   * naming a target (one naming none leaves the path to the file itself). A res:// path the pack lacks is read from
   * the disk instead (FileAccess::fix_path turns it into a path next to the game or in the working folder).
   */
  has(path: string): boolean {
    return this.#byPath.has(path) || (!this.#targetless.has(path) && (this.#byPath.has(`${path}.remap`) || this.#byPath.has(`${path}.import`))) ||
      (this.#pathRemapped.get(path)?.every((target) => this.hasPathRemapTarget(target)) ?? false)
  }

  /**
   * Whether the engine finds a settings path remap's target in the pack: the file, or its `.import` naming a target.
   * After a path remap the engine neither looks for a `.remap` nor applies another path remap
   * (ResourceLoader::_path_remap), so the target is read from the disk when the pack lacks the file itself.
   */
  hasPathRemapTarget(path: string): boolean {
    return this.#byPath.has(path) || (!this.#targetless.has(path) && this.#byPath.has(`${path}.import`))
  }

  /**
   * Records that the settings send `original` to `targets` on every platform (a path remap of every key that may hold
   * it: contentScan.ts registerSettingsRemaps), so a path the pack lacks is served by it when every target is stored.
   */
  addPathRemap(original: string, targets: ReadonlyArray<string>): void {
    this.#pathRemapped.set(normalisePackPath(original), targets.map(normalisePackPath))
  }

  /** Whether some entry's path starts with `prefix` (a folder of the pack, or the start of a name in one). */
  hasUnder(prefix: string): boolean {
    let lo = 0
    let hi = this.#reachable.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if ((this.#reachable[mid] as PackEntry).path < prefix) lo = mid + 1
      else hi = mid
    }
    return this.#reachable[lo]?.path.startsWith(prefix) === true
  }

  remapTargetOf(path: string): string | undefined {
    return this.#remapTargets.get(path)
  }

  /**
   * The path a creator knows for a stored entry: the one original redirected to it (`player.gd` for
   * `player.gdc`); the stored path itself when several originals are redirected to it, or when the
   * original is also in the pack under its own name (no export writes either).
   */
  creatorPath(entry: PackEntry): string {
    const originals = this.#originals.get(entry.path)
    const original = originals?.length === 1 ? originals[0] : undefined
    if (original !== undefined && !this.#byPath.has(original)) return original
    if (originals !== undefined) return entry.path
    if (entry.path.endsWith(".remap")) return entry.path.slice(0, -".remap".length)
    if (entry.path.endsWith(".import")) return entry.path.slice(0, -".import".length)
    return entry.path
  }

  /**
   * Records that the engine may load the stored file `stored` by the path `original` (a path or translation remap of
   * the project settings: checks/projectSettingsCheck.ts settingsRemaps), for loadPaths; before the files are scanned.
   */
  addLoadPath(stored: string, original: string): void {
    push(this.#alsoLoadedAs, normalisePackPath(stored), normalisePackPath(original))
  }

  /**
   * The paths the engine may load a stored file by: its own, and each original a `.remap`, an `.import` or a remap of
   * the settings redirects to it. The text and binary loaders take the path asked for as the resource's path
   * (ResourceFormatLoaderText and ResourceFormatLoaderBinary `load_interactive` of 3.x: `p_original_path` when given),
   * so the file's relative paths, its built-in scripts' included, are resolved from that path's folder.
   */
  loadPaths(entry: PackEntry): ReadonlyArray<string> {
    return [...new Set([entry.path, ...(this.#originals.get(entry.path) ?? []), ...(this.#alsoLoadedAs.get(entry.path) ?? [])])]
  }

  /** The entry's bytes as random access (addressed from 0). */
  accessOf(entry: PackEntry): RandomAccess {
    return sliceOf(this.source, entry.dataOffset, entry.size)
  }

  bytesOf(entry: PackEntry): Promise<Uint8Array> {
    return readExactly(this.source, entry.dataOffset, entry.size)
  }
}
