// Request bodies read straight from Node's IncomingMessage when the app runs behind Node's HTTP server (srvx keeps it
// as `request.runtime.node.req`): srvx's own body is a generic web stream whose small chunks and buffering cost much
// of the throughput (and memory) of multi-gigabyte uploads. Elsewhere (Deno, `app.fetch` in tests) this returns null.
import { Readable } from "node:stream"

/** How far network reads may run ahead of the consumer (storage writes). */
const BUFFER_BYTES = 2 * 1024 * 1024

/** The raw Node stream of the body, if it has not been touched yet. Check this before reading `request.body`. */
export const rawNodeBody = (request: Request): Readable | null => {
  const req = (request as { runtime?: { node?: { req?: unknown } } }).runtime?.node?.req
  return req instanceof Readable && !req.readableDidRead ? req : null
}

/** A Node stream as a web stream with a byte-counted buffer; `onChunk` sees every chunk on the way (e.g. to hash it). */
export const webStreamOf = (source: Readable, onChunk: (chunk: Buffer) => void = () => undefined): ReadableStream<Uint8Array> =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      source.on("data", (chunk: Buffer) => {
        onChunk(chunk)
        controller.enqueue(chunk)
        if ((controller.desiredSize ?? 0) <= 0) source.pause()
      })
      source.on("end", () => controller.close())
      source.on("error", (error) => controller.error(error))
      source.on("close", () => {
        if (!source.readableEnded) controller.error(new Error("the stream ended early"))
      })
    },
    pull: () => void source.resume(),
    cancel: () => void source.destroy(),
  }, { highWaterMark: BUFFER_BYTES, size: (chunk) => chunk.byteLength })

/** The request body as a web stream, read from Node directly when possible; null when there is none. */
export const requestBody = (request: Request): ReadableStream<Uint8Array> | null => {
  const raw = rawNodeBody(request)
  return raw !== null ? webStreamOf(raw) : request.body
}
