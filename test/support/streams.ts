import { createHash } from "node:crypto"

export const streamOf = (...chunks: ReadonlyArray<Uint8Array>): ReadableStream<Uint8Array> =>
  new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk)
      controller.close()
    },
  })

/** Emits `chunks`, then fails: a client that disconnects mid-upload. */
export const brokenStreamOf = (...chunks: ReadonlyArray<Uint8Array>): ReadableStream<Uint8Array> => {
  let i = 0
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!)
      else controller.error(new Error("connection reset by peer"))
    },
  })
}

/** A deterministic pseudo-random stream of `total` bytes produced lazily, with its SHA-256 computed on the way. */
export const generatedStream = (total: number, chunkBytes = 1 << 20) => {
  const hash = createHash("sha256")
  let produced = 0
  let seed = 0x2545f491
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (produced >= total) {
        controller.close()
        return
      }
      const size = Math.min(chunkBytes, total - produced)
      const chunk = new Uint8Array(size)
      const words = new Uint32Array(chunk.buffer, 0, size >> 2)
      for (let i = 0; i < words.length; i++) {
        seed ^= seed << 13
        seed ^= seed >>> 17
        seed ^= seed << 5
        words[i] = seed
      }
      hash.update(chunk)
      produced += size
      controller.enqueue(chunk)
    },
  })
  return { stream, sha256: () => hash.digest("hex") }
}

export const bytes = (text: string) => new TextEncoder().encode(text)
export const sha256Hex = (data: Uint8Array) => createHash("sha256").update(data).digest("hex")
export const readAll = async (stream: ReadableStream<Uint8Array>): Promise<Uint8Array> =>
  new Uint8Array(await new Response(stream).arrayBuffer())
