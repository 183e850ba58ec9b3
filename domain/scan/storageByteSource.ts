import { Effect } from "effect"
import type { ByteSource } from "../../ports/PackScanner.ts"
import { type ObjectNotFound, ObjectStorage, type StorageFailure } from "../../ports/ObjectStorage.ts"
import { quarantineObjectKey } from "../release/ObjectKey.ts"
import { type Release, storedKeyOf } from "../release/Release.ts"

/** Smallest read sent to storage: the scanner asks for many small pieces (headers, tables), mostly near each other. */
const READ_AHEAD_BYTES = 256 * 1024

export interface StorageSourceOptions {
  /** Smallest read sent to storage (default 256 KiB); a reader that wants few bytes asks for less. */
  readonly readAheadBytes?: number
  /**
   * Where the object may be by now: a read the key misses (ObjectNotFound) is tried once at this key, and later reads
   * go there first. For a takedown or reinstatement moving the object while a reader holds the release's older record.
   */
  readonly movedTo?: string
}

/**
 * The stored object as the scanner's random-access source. Each read fetches at least the read-ahead and keeps the
 * last block, so neighbouring small reads cost one storage call. A failing storage read rejects (the scanner turns
 * that into Unavailable).
 */
export const storageByteSource = Effect.fnUntraced(function*(key: string, size: number, options: StorageSourceOptions = {}) {
  const storage = yield* ObjectStorage
  const run = Effect.runPromiseWith(yield* Effect.context<never>())
  const readAhead = options.readAheadBytes ?? READ_AHEAD_BYTES
  let keys = { now: key, other: options.movedTo ?? null }
  const readRange = (offset: number, length: number) =>
    storage.readRange(keys.now, offset, length).pipe(Effect.catchTag("ObjectNotFound", (missing) => {
      if (keys.other === null) return Effect.fail(missing)
      keys = { now: keys.other, other: keys.now }
      return storage.readRange(keys.now, offset, length)
    }))
  // A failed read rejects with an Error that says what failed: the scanner reports its message as the reason.
  const readFailure = (error: ObjectNotFound | StorageFailure) =>
    new Error(error._tag === "ObjectNotFound" ? `no object at ${[key, options.movedTo].filter(Boolean).join(" nor at ")}` : `${error._tag}: ${error.reason}`)
  let block: { offset: number; bytes: Uint8Array } | null = null
  const source: ByteSource = {
    size,
    read: async (offset, length) => {
      const end = Math.min(size, offset + length)
      if (block !== null && offset >= block.offset && end <= block.offset + block.bytes.length) {
        return block.bytes.subarray(offset - block.offset, end - block.offset)
      }
      const want = Math.min(Math.max(0, size - offset), Math.max(length, readAhead))
      const bytes = await run(readRange(offset, want).pipe(Effect.mapError(readFailure)))
      block = { offset, bytes }
      return bytes.subarray(0, Math.max(0, end - offset))
    },
  }
  return source
})

/**
 * A release's stored pack: at its quarantine key while it is taken down, else at its own key. A takedown or
 * reinstatement moves the object before it records the move, so a read that misses is tried once at the other key.
 */
export const releaseByteSource = (release: Release, options: Omit<StorageSourceOptions, "movedTo"> = {}) => {
  const key = storedKeyOf(release)
  const movedTo = key === release.objectKey ? quarantineObjectKey(release.gameId, release.version, release.sha256) : release.objectKey
  return storageByteSource(key, release.sizeBytes, { ...options, movedTo })
}
