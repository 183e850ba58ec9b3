// Godot 4's `.godot/uid_cache.bin` as ResourceUID::save_to_cache writes it (core/io/resource_uid.cpp): a u32 count,
// then for each id a u64, a u32 length and the path's bytes.
import { uidTextToId } from "../../../adapters/scanner/resource/uidCache.ts"
import { ByteBuilder, utf8 } from "./bytes.ts"

/** A uid cache of `[uid://…, path]` pairs. */
export const writeUidCache = (entries: ReadonlyArray<readonly [string, string]>): Uint8Array => {
  const b = new ByteBuilder().u32(entries.length)
  for (const [uid, path] of entries) {
    const id = uidTextToId(uid) ?? 0n
    const bytes = utf8(path)
    b.u32(Number(id & 0xffffffffn)).u32(Number(id >> 32n)).u32(bytes.length).bytes(bytes)
  }
  return b.build()
}
