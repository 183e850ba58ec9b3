// The one reader dependency on the runtime: node:zlib (Node 24 and Deno 2.9 both ship zstd in it).
import { gunzipSync, inflateSync, zstdDecompressSync } from "node:zlib"
import type { Decompressors } from "./Decompressors.ts"

const asBytes = (b: Uint8Array): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength)

export const nodeDecompressors: Decompressors = {
  zstd: (input, maxOutput) => asBytes(zstdDecompressSync(input, { maxOutputLength: Math.max(1, maxOutput) })),
  deflate: (input, maxOutput) => asBytes(inflateSync(input, { maxOutputLength: Math.max(1, maxOutput) })),
  gzip: (input, maxOutput) => asBytes(gunzipSync(input, { maxOutputLength: Math.max(1, maxOutput) })),
}
