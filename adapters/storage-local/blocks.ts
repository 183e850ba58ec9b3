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
