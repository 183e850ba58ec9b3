/** Joins chunks whose total length is known. */
export const concatBytes = (chunks: ReadonlyArray<Uint8Array>, total: number): Uint8Array<ArrayBuffer> => {
  const out = new Uint8Array(total)
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.length
  }
  return out
}

/**
 * Hands every chunk of the stream to `onChunk` (awaited when it returns a promise), giving up with "too_large" as soon as
 * the total passes `maxBytes`: the rest is cancelled, never read. Returns the total. A stream that errors rejects.
 */
export const eachChunkAtMost = async (
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  onChunk: (chunk: Uint8Array) => void | Promise<void>,
): Promise<number | "too_large"> => {
  let total = 0
  const reader = body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return total
    total += value.length
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined)
      return "too_large"
    }
    const pending = onChunk(value)
    if (pending !== undefined) await pending
  }
}

/** Reads a whole stream, giving up as soon as it grows past `maxBytes` (see eachChunkAtMost). */
export const readAtMost = async (body: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array<ArrayBuffer> | "too_large"> => {
  const chunks: Array<Uint8Array> = []
  const total = await eachChunkAtMost(body, maxBytes, (chunk) => void chunks.push(chunk))
  return total === "too_large" ? total : concatBytes(chunks, total)
}

export const toBase64Url = (bytes: Uint8Array): string => {
  let binary = ""
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

export const fromBase64Url = (text: string): Uint8Array<ArrayBuffer> | null => {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"))
  return Uint8Array.from(binary, (c) => c.charCodeAt(0))
}
