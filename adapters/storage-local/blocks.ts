import type { FileHandle } from "node:fs/promises"
import { eachChunkAtMost } from "../shared/bytes.ts"

/**
 * Copies a stream into fixed-size blocks, for writes in large units: fills the buffer `block()` gives, calls `full()`
 * when it holds `blockBytes` and asks `block()` again afterwards (the same buffer or another one). Returns the total
 * and how much of the last buffer is filled, or "too_large" as soon as the total passes `maxBytes`.
 */
export const streamIntoBlocks = async (
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  blockBytes: number,
  block: () => Uint8Array,
  full: () => Promise<void>,
): Promise<{ readonly total: number; readonly filled: number } | "too_large"> => {
  let filled = 0
  const total = await eachChunkAtMost(body, maxBytes, async (chunk) => {
    for (let offset = 0; offset < chunk.length;) {
      const take = Math.min(blockBytes - filled, chunk.length - offset)
      block().set(chunk.subarray(offset, offset + take), filled)
      filled += take
      offset += take
      if (filled === blockBytes) {
        await full()
        filled = 0
      }
    }
  })
  return total === "too_large" ? total : { total, filled }
}

/** What a short write means on a regular file: the device had no room for the rest. */
export const noSpaceError = (): NodeJS.ErrnoException =>
  Object.assign(new Error("ENOSPC: no space left on device (short write)"), { code: "ENOSPC" })

/**
 * Writes all `length` bytes at `position`: a regular file may take fewer than asked when the device fills, and
 * FileHandle.write does not retry. `retryShort: false` (O_DIRECT, where the rest would be misaligned) reports a
 * short write as ENOSPC at once.
 */
export const writeFully = async (
  handle: FileHandle,
  buffer: Uint8Array,
  length: number,
  position: number,
  retryShort = true,
): Promise<void> => {
  for (let done = 0; done < length;) {
    const { bytesWritten } = await handle.write(buffer, done, length - done, position + done)
    if (bytesWritten === 0 || (bytesWritten < length - done && !retryShort)) throw noSpaceError()
    done += bytesWritten
  }
}
