import { Effect } from "effect"
import type { ByteSource } from "../../ports/PackScanner.ts"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"

/** Smallest read sent to storage: the scanner asks for many small pieces (headers, tables), mostly near each other. */
const READ_AHEAD_BYTES = 256 * 1024

/**
 * The stored object as the scanner's random-access source. Each read fetches at least READ_AHEAD_BYTES and keeps the
 * last block, so neighbouring small reads cost one storage call. A failing storage read rejects (the scanner turns
 * that into Unavailable).
 */
export const storageByteSource = Effect.fnUntraced(function*(key: string, size: number) {
  const storage = yield* ObjectStorage
  const run = Effect.runPromiseWith(yield* Effect.context<never>())
  let block: { offset: number; bytes: Uint8Array } | null = null
  const source: ByteSource = {
    size,
    read: async (offset, length) => {
      const end = Math.min(size, offset + length)
      if (block !== null && offset >= block.offset && end <= block.offset + block.bytes.length) {
        return block.bytes.subarray(offset - block.offset, end - block.offset)
      }
      const fetchLength = Math.max(length, READ_AHEAD_BYTES)
      const bytes = await run(storage.readRange(key, offset, fetchLength))
      block = { offset, bytes }
      return bytes.subarray(0, Math.max(0, end - offset))
    },
  }
  return source
})
