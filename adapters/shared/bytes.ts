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
 * The body stream itself failed (client gone, connection cut, a body timeout): the reader's fault, never the writer's.
 * Writers tell it apart from their own failures (a full disk) by this class.
 */
export class BodyStreamError extends Error {
  constructor(cause: unknown) {
    super("the body stream failed", { cause })
    this.name = "BodyStreamError"
  }
}

/**
 * Hands every chunk of the stream to `onChunk` (awaited when it returns a promise), giving up with "too_large" as soon as
 * the total passes `maxBytes`: the rest is cancelled, never read. Returns the total. A stream that errors rejects with
 * BodyStreamError; an `onChunk` that throws rejects with its error, and the rest of the stream is cancelled.
 */
export const eachChunkAtMost = async (
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  onChunk: (chunk: Uint8Array) => void | Promise<void>,
): Promise<number | "too_large"> => {
  let total = 0
  const reader = body.getReader()
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>
    try {
      next = await reader.read()
    } catch (error) {
      throw new BodyStreamError(error)
    }
    if (next.done) return total
    const value = next.value
    total += value.length
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined)
      return "too_large"
    }
    try {
      const pending = onChunk(value)
      if (pending !== undefined) await pending
    } catch (error) {
      await reader.cancel(error).catch(() => undefined)
      throw error
    }
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
