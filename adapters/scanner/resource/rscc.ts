import type { Decompressors } from "../Decompressors.ts"
import { ByteCursor, MAX_FIELD_BYTES } from "../io/ByteCursor.ts"
import { describeError, MalformedData } from "../io/errors.ts"
import type { RandomAccess } from "../io/RandomAccess.ts"

/** 4 GiB of content at Godot's default 4 KiB blocks; smaller blocks than that are a forgery, not an export. */
const MAX_BLOCKS = 1 << 20
const CACHED_BLOCKS = 8
const MODE_NAMES = ["FastLZ", "deflate", "zstd", "gzip", "brotli"]

/**
 * The decompressed stream of an RSCC file (Godot's FileAccessCompressed), as random access.
 * Blocks are independent, so reading an offset inflates only the blocks that cover it.
 */
export const openRscc = async (file: RandomAccess, decompressors: Decompressors): Promise<RandomAccess> => {
  const c = new ByteCursor(file, 4, 64)
  const mode = await c.u32()
  const blockSize = await c.u32()
  const total = await c.u32()
  const inflate =
    mode === 2 ? decompressors.zstd : mode === 1 ? decompressors.deflate : mode === 3 ? decompressors.gzip : null
  if (inflate === null) {
    throw new MalformedData(`RSCC compression mode ${mode} (${MODE_NAMES[mode] ?? "unknown"}) is not supported by the scanner; save the resource with Godot's default (zstd)`)
  }
  if (blockSize === 0 || blockSize > MAX_FIELD_BYTES) throw new MalformedData(`RSCC block size ${blockSize} is invalid`)
  const blockCount = Math.floor(total / blockSize) + 1
  if (blockCount > MAX_BLOCKS || 16 + blockCount * 4 > file.size) {
    throw new MalformedData(`RSCC declares ${blockCount} blocks, more than its ${file.size} bytes can hold`)
  }
  const sizes = await c.bytes(blockCount * 4)
  const view = new DataView(sizes.buffer, sizes.byteOffset, sizes.byteLength)
  const starts = new Float64Array(blockCount + 1)
  starts[0] = 16 + blockCount * 4
  for (let i = 0; i < blockCount; i++) {
    const next = (starts[i] ?? 0) + view.getUint32(i * 4, true)
    if (next > file.size) throw new MalformedData(`RSCC block ${i} ends past the end of the file`)
    starts[i + 1] = next
  }
  const cache = new Map<number, Uint8Array>()
  const block = async (index: number): Promise<Uint8Array> => {
    const hit = cache.get(index)
    if (hit !== undefined) return hit
    const expected = index === blockCount - 1 ? total - index * blockSize : blockSize
    const from = starts[index] ?? 0
    const compressed = await readAll(file, from, (starts[index + 1] ?? 0) - from)
    let out: Uint8Array
    try {
      out = expected === 0 && compressed.length === 0 ? new Uint8Array(0) : inflate(compressed, expected)
    } catch (error) {
      throw new MalformedData(`RSCC block ${index} does not decompress (${describeError(error)})`)
    }
    if (out.length !== expected) throw new MalformedData(`RSCC block ${index} inflates to ${out.length} bytes, not ${expected}`)
    if (cache.size >= CACHED_BLOCKS) cache.delete(cache.keys().next().value ?? -1)
    cache.set(index, out)
    return out
  }
  return {
    size: total,
    read: async (offset, length) => {
      const end = Math.min(total, offset + length)
      if (!(offset >= 0) || end <= offset) return new Uint8Array(0)
      const out = new Uint8Array(end - offset)
      for (let at = offset; at < end; ) {
        const index = Math.floor(at / blockSize)
        const bytes = await block(index)
        const within = at - index * blockSize
        const take = Math.min(bytes.length - within, end - at)
        out.set(bytes.subarray(within, within + take), at - offset)
        at += take
      }
      return out
    },
  }
}

const readAll = async (file: RandomAccess, offset: number, length: number): Promise<Uint8Array> => {
  const bytes = await file.read(offset, length)
  if (bytes.length !== length) throw new MalformedData(`RSCC block at ${offset} is cut short`)
  return bytes
}
