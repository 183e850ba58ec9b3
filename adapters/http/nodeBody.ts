// Request bodies read straight from Node's IncomingMessage when the app runs behind Node's HTTP server (srvx keeps it
// as `request.runtime.node.req`): srvx's own body is a generic web stream whose small chunks and buffering cost much
// of the throughput of multi-gigabyte uploads (docs/performance.md). Elsewhere (Deno, `app.fetch` in tests), or with
// `rawNodeBody: false`, the runtime's own `request.body` is read. The lingering close below needs Node's objects too.
import type { ServerResponse } from "node:http"
import { Readable } from "node:stream"

/** How far network reads may run ahead of the consumer (storage writes). */
const BUFFER_BYTES = 2 * 1024 * 1024

/** How long a refused body is still read and dropped after the answer went out, before the connection is cut. */
const LINGER_MS = 1000
/** The longest a refused body is drained in any case (also when the answer is not known to have gone out). */
const DRAIN_MAX_MS = 10_000

/** The Node response of a request served by Node's HTTP server; null elsewhere. */
export const rawNodeResponse = (request: Request): ServerResponse | null => {
  const res = (request as { runtime?: { node?: { res?: unknown } } }).runtime?.node?.res
  return res !== undefined && res !== null && typeof (res as ServerResponse).writeHead === "function" ? res as ServerResponse : null
}

export interface NodeBodyOptions {
  /** Read the body from Node's IncomingMessage when the app is served by Node (default true). */
  readonly rawNodeBody?: boolean
}

/** The raw Node stream of the body, if it has not been touched yet. Check this before reading `request.body`. */
export const rawNodeBody = (request: Request, options: NodeBodyOptions = {}): Readable | null => {
  if (options.rawNodeBody === false) return null
  const req = (request as { runtime?: { node?: { req?: unknown } } }).runtime?.node?.req
  return req instanceof Readable && !req.readableDidRead ? req : null
}

/**
 * For a body the server stopped reading early (refused, failed, timed out): the rest is read and dropped until the
 * answer has gone out and a moment more, then the connection is cut. Closing a socket with unread bytes makes the
 * kernel send a reset, which can overtake the answer at a client that is still sending: this is the lingering close
 * that lets it read the answer first. Without the response at hand, the body is drained for a fixed while.
 */
export const drainThenClose = (source: Readable, response: ServerResponse | null = null): void => {
  const cut = () => {
    clearTimeout(latest)
    clearTimeout(linger)
    source.destroy()
  }
  const latest = setTimeout(cut, response === null ? LINGER_MS * 2 : DRAIN_MAX_MS)
  let linger: ReturnType<typeof setTimeout> | undefined
  response?.once("finish", () => (linger = setTimeout(cut, LINGER_MS)))
  response?.once("close", () => clearTimeout(linger))
  source.once("close", () => {
    clearTimeout(latest)
    clearTimeout(linger)
  })
  source.on("data", () => undefined)
  source.resume()
}

export interface WebStreamOptions {
  /** Sees every chunk on the way (e.g. to hash it). */
  readonly onChunk?: (chunk: Buffer) => void
  /** What cancelling the web stream does to the Node stream: destroy it (default), or drain it so an answer gets out. */
  readonly onCancel?: "destroy" | "drain"
  /** With "drain": the response whose sending ends the drain (see drainThenClose). */
  readonly response?: ServerResponse | null
}

/** A Node stream as a web stream with a byte-counted buffer. */
export const webStreamOf = (source: Readable, options: WebStreamOptions = {}): ReadableStream<Uint8Array> => {
  const onChunk = options.onChunk
  // Once cancelled, nothing more reaches the controller: the Node stream may still end or close (while drained), and a
  // controller that is closed throws on close() from inside an event listener, which would end the process.
  let cancelled = false
  return new ReadableStream<Uint8Array>({
    start(controller) {
      // Destroyed before it was asked for (the body broke off while it waited): its events are gone already.
      if (source.destroyed) {
        if (source.readableEnded) controller.close()
        else controller.error(source.errored ?? new Error("the stream ended early"))
        return
      }
      source.on("data", (chunk: Buffer) => {
        if (cancelled) return
        onChunk?.(chunk)
        controller.enqueue(chunk)
        if ((controller.desiredSize ?? 0) <= 0) source.pause()
      })
      source.on("end", () => {
        if (!cancelled) controller.close()
      })
      source.on("error", (error) => {
        if (!cancelled) controller.error(error)
      })
      source.on("close", () => {
        if (!cancelled && !source.readableEnded) controller.error(new Error("the stream ended early"))
      })
    },
    pull: () => void source.resume(),
    cancel: () => {
      cancelled = true
      if (options.onCancel === "drain") drainThenClose(source, options.response ?? null)
      else source.destroy()
    },
  }, { highWaterMark: BUFFER_BYTES, size: (chunk) => chunk.byteLength })
}

/** The request body as a web stream, read from Node directly when possible; null when there is none. */
export const requestBody = (request: Request, options: WebStreamOptions & NodeBodyOptions = {}): ReadableStream<Uint8Array> | null => {
  const raw = rawNodeBody(request, options)
  return raw !== null ? webStreamOf(raw, { response: rawNodeResponse(request), ...options }) : request.body
}
