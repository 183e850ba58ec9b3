// Godot 4's resource ids (`uid://…`) and the cache that maps them to paths, read as the engine reads them
// (core/io/resource_uid.cpp). An exported game loads `res://.godot/uid_cache.bin` at start-up
// (ResourceUID::load_from_cache, called from main.cpp): a u32 count, then per entry a u64 id, a u32 length and
// that many bytes of UTF-8 path. A pack without the file makes the engine read it from the disk (the
// res:// file system falls back to the folder of the game or the working folder).

/** Where the engine reads the cache (ProjectSettings::get_project_data_path, joined with uid_cache.bin). */
export const UID_CACHE_PATH = "res://.godot/uid_cache.bin"

/** Characters of a text id, in the order of their values (ResourceUID::text_to_id: a-y then 0-8; base 34). */
const BASE = 34n
const MASK = 0x7fffffffffffffffn
const WRAP = (1n << 64n) - 1n

/** ResourceUID::text_to_id: the id a `uid://…` text names, or null for an invalid one (the engine's INVALID_ID). */
export const uidTextToId = (text: string): bigint | null => {
  if (!text.startsWith("uid://") || text === "uid://<invalid>") return null
  let id = 0n
  for (const ch of text.slice(6)) {
    const c = ch.charCodeAt(0)
    id = (id * BASE) & WRAP
    if (c >= 97 && c <= 122) id = (id + BigInt(c - 97)) & WRAP
    else if (c >= 48 && c <= 57) id = (id + BigInt(c - 48 + 25)) & WRAP
    else return null
  }
  return id & MASK
}

/** ResourceUID::id_to_text: the `uid://…` text of an id. */
export const uidIdToText = (id: bigint): string => {
  let digits = ""
  let rest = id
  do {
    const c = Number(rest % BASE)
    digits = String.fromCharCode(c < 25 ? 97 + c : 48 + c - 25) + digits
    rest /= BASE
  } while (rest > 0n)
  return `uid://${digits}`
}

/** The entries of a uid_cache.bin: id → path; a later entry of one id replaces an earlier one, as in the engine's map. */
export const readUidCache = (bytes: Uint8Array): ReadonlyMap<bigint, string> => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const out = new Map<bigint, string>()
  if (bytes.length < 4) return out
  const count = view.getUint32(0, true)
  let at = 4
  const decoder = new TextDecoder()
  for (let i = 0; i < count && at + 12 <= bytes.length; i++) {
    const id = view.getBigInt64(at, true)
    const length = view.getInt32(at + 8, true)
    at += 12
    // The engine stops at a short read (ERR_FILE_CORRUPT), keeping what it read before.
    if (length < 0 || at + length > bytes.length) break
    out.set(id, decoder.decode(bytes.subarray(at, at + length)))
    at += length
  }
  return out
}

/** What a `uid://` path is for the engine: the cached path, or why there is none the scanner can judge. */
export type UidResolution = { readonly path: string } | { readonly problem: string; readonly noCache: boolean }

/**
 * Resolves a `uid://` text through the pack's cache (null: the pack has none). A uid the cache lacks loads
 * nothing, but nobody can tell what it was meant to name; a pack without a cache makes the engine read the
 * cache from the disk, so any uid names whatever a file there says.
 */
export const resolveUid = (cache: ReadonlyMap<bigint, string> | null, uidOrId: string | bigint): UidResolution => {
  const id = typeof uidOrId === "string" ? uidTextToId(uidOrId) : uidOrId & MASK
  const uid = typeof uidOrId === "string" ? uidOrId : uidIdToText(id ?? 0n)
  if (cache === null) return { problem: `the pack has no ${UID_CACHE_PATH}, so the engine would read the cache that maps ${uid} to a path from the disk (next to the game or in the working folder), a mapping nobody reviewed`, noCache: true }
  const path = id === null ? undefined : cache.get(id)
  if (path === undefined) return { problem: `the pack's ${UID_CACHE_PATH} has no entry for ${uid}, so nobody can tell which file it names`, noCache: false }
  return { path }
}
