// Moving bytes between web streams (the port's) and the library's Node streams, with idle timeouts: the library puts no
// deadline on a stream that stops moving, so a stalled connection would otherwise hang a request forever.
import type { Readable, Writable } from "node:stream"
import { GcsTimeout } from "./gcsFailures.ts"

/** `promise`, or a GcsTimeout after `ms` (then `onTimeout` runs, to tear down whatever is stuck). */
export const within = <A>(promise: Promise<A>, ms: number, what: string, onTimeout: () => void = () => undefined): Promise<A> =>
  new Promise<A>((resolve, reject) => {
    const timer = setTimeout(() => {
      onTimeout()
      reject(new GcsTimeout(what, ms))
    }, ms)
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error: unknown) => (clearTimeout(timer), reject(error)),
    )
  })

/**
 * A web stream over a download. The idle timeout runs only while the consumer waits for bytes, so a slow consumer
 * is never cut off, but a silent server is.
 */
export const webStreamOf = (source: Readable, idleMs: number): ReadableStream<Uint8Array> => {
  const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await within(chunks.next(), idleMs, "GCS download", () => source.destroy())
      if (next.done === true) controller.close()
      else controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength))
    },
    cancel() {
      source.destroy()
    },
  }, { highWaterMark: 0 })
}

/** Reads a stream to its end, handing each chunk to `onChunk`; the total byte count. */
export const eachChunk = async (stream: ReadableStream<Uint8Array>, onChunk: (chunk: Uint8Array) => unknown): Promise<number> => {
  const reader = stream.getReader()
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return total
    onChunk(value)
    total += value.length
  }
}

export type UploadOutcome =
  | { readonly kind: "stored" }
  | { readonly kind: "too_large" }
  /** The body stream broke (client gone); the upload was aborted, so nothing is stored. */
  | { readonly kind: "aborted" }
  | { readonly kind: "failed"; readonly error: unknown }

const waitForDrain = (sink: Writable) =>
  new Promise<void>((resolve, reject) => {
    const done = (error?: unknown) => {
      sink.off("drain", done)
      sink.off("error", done)
      if (error === undefined) resolve()
      else reject(error)
    }
    sink.on("drain", done)
    sink.on("error", done)
  })

/**
 * Feeds `body` into the library's upload stream with backpressure, stopping at `maxBytes`. Whatever goes wrong, the
 * upload is destroyed before it completes, which aborts its request: GCS then keeps nothing.
 */
export const feedUpload = async (
  sink: Writable,
  body: ReadableStream<Uint8Array>,
  options: { readonly maxBytes: number; readonly idleMs: number; readonly finishMs: number },
): Promise<UploadOutcome> => {
  let sinkError: unknown = null
  const finished = new Promise<void>((resolve, reject) => {
    sink.once("finish", resolve)
    sink.once("error", reject)
  })
  finished.catch((error: unknown) => (sinkError ??= error))
  const reader = body.getReader()
  const abandon = async (outcome: UploadOutcome, sinkReason: Error | null): Promise<UploadOutcome> => {
    if (sinkReason !== null) sink.destroy(sinkReason)
    await reader.cancel().catch(() => undefined)
    return outcome
  }
  let total = 0
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>
      try {
        chunk = await reader.read()
      } catch {
        return await abandon({ kind: "aborted" }, new Error("the upload body broke off"))
      }
      if (sinkError !== null) return await abandon({ kind: "failed", error: sinkError }, null)
      if (chunk.done) break
      total += chunk.value.length
      if (total > options.maxBytes) return await abandon({ kind: "too_large" }, new Error("the upload body is over the limit"))
      if (!sink.write(chunk.value)) await within(waitForDrain(sink), options.idleMs, "GCS upload")
    }
    sink.end()
    await within(finished, options.finishMs, "GCS upload completion")
    return { kind: "stored" }
  } catch (error) {
    return abandon({ kind: "failed", error: sinkError ?? error }, error instanceof Error ? error : new Error(String(error)))
  }
}
