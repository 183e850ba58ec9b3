// Multipart requests for the submit endpoint, streamed over raw HTTP: a 2 GiB part is never held in memory, and a
// test can cut a request off midway.
import { request } from "node:http"

export interface Part {
  readonly name: string
  readonly filename?: string
  readonly contentType?: string
  /** The part's bytes: text, bytes, or chunks produced lazily. */
  readonly body: string | Uint8Array | (() => Iterable<Uint8Array>)
  /** Byte count of a lazy body (needed for Content-Length). */
  readonly size?: number
}

export type Outcome =
  | { readonly kind: "answered"; readonly status: number; readonly body: any }
  | { readonly kind: "reset"; readonly error: string }

const BOUNDARY = "----pckgate-test-boundary-7f3a9c"
const encoder = new TextEncoder()

const partHeader = (part: Part) =>
  encoder.encode(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"${part.filename === undefined ? "" : `; filename="${part.filename}"`}\r\n` +
      (part.contentType === undefined ? "" : `Content-Type: ${part.contentType}\r\n`) + "\r\n",
  )
const CRLF = encoder.encode("\r\n")
const CLOSING = encoder.encode(`--${BOUNDARY}--\r\n`)

const sizeOf = (part: Part) =>
  typeof part.body === "string" ? encoder.encode(part.body).length : part.body instanceof Uint8Array ? part.body.length : part.size ?? Number.NaN

export interface SendOptions {
  readonly headers?: Record<string, string>
  /** Stop after this many body bytes and destroy the socket: a client that disconnects midway. */
  readonly cutAfterBytes?: number
  /** Send no Content-Length (chunked transfer encoding). */
  readonly chunked?: boolean
  /** Stop sending for `pauseMs` once this many body bytes went out: a client that stalls midway. */
  readonly pauseAfterBytes?: number
  readonly pauseMs?: number
  /** Override the announced Content-Length. */
  readonly contentLength?: number
}

export const sendMultipart = (url: string, parts: ReadonlyArray<Part>, options: SendOptions = {}): Promise<Outcome> => {
  const total = parts.reduce((n, p) => n + partHeader(p).length + sizeOf(p) + CRLF.length, CLOSING.length)
  const headers: Record<string, string> = { "content-type": `multipart/form-data; boundary=${BOUNDARY}`, ...options.headers }
  if (options.chunked !== true) headers["content-length"] = String(options.contentLength ?? total)
  function* body(): Iterable<Uint8Array> {
    for (const part of parts) {
      yield partHeader(part)
      if (typeof part.body === "string") yield encoder.encode(part.body)
      else if (part.body instanceof Uint8Array) yield part.body
      else yield* part.body()
      yield CRLF
    }
    yield CLOSING
  }
  return sendRequest(url, "POST", headers, body(), options)
}

/**
 * Sends a request whose body is produced lazily, reading the answer as soon as it comes (also while still sending):
 * a server that refuses early is heard, and a reset is reported as such.
 */
export const sendRequest = (
  url: string,
  method: string,
  headers: Record<string, string>,
  chunks: Iterable<Uint8Array>,
  options: Pick<SendOptions, "cutAfterBytes" | "pauseAfterBytes" | "pauseMs"> = {},
) =>
  new Promise<Outcome>((resolve) => {
    let settled = false
    const settle = (outcome: Outcome) => {
      if (!settled) {
        settled = true
        resolve(outcome)
      }
    }
    const req = request(url, { method, headers }, (res) => {
      let text = ""
      res.setEncoding("utf8")
      res.on("data", (d: string) => (text += d))
      res.on("end", () => {
        let body: unknown = text
        try {
          body = JSON.parse(text)
        } catch {
          // not JSON
        }
        settle({ kind: "answered", status: res.statusCode ?? 0, body })
      })
      res.on("error", (e) => settle({ kind: "reset", error: e.message }))
    })
    req.on("error", (e) => settle({ kind: "reset", error: e.message }))
    let sent = 0
    let paused = false
    const write = async (chunk: Uint8Array): Promise<boolean> => {
      if (options.cutAfterBytes !== undefined && sent + chunk.length > options.cutAfterBytes) {
        req.write(chunk.subarray(0, Math.max(0, options.cutAfterBytes - sent)))
        await new Promise((r) => setTimeout(r, 50))
        req.destroy()
        setTimeout(() => settle({ kind: "reset", error: "cut off by the test" }), 100)
        return false
      }
      sent += chunk.length
      if (!req.write(chunk)) await new Promise((r) => req.once("drain", r))
      if (!paused && options.pauseAfterBytes !== undefined && sent >= options.pauseAfterBytes) {
        paused = true
        await new Promise((r) => setTimeout(r, options.pauseMs ?? 0))
      }
      return !req.destroyed && !settled
    }
    void (async () => {
      for (const chunk of chunks) if (!(await write(chunk))) return
      req.end()
    })()
  })

/** `count` chunks of `chunk` (a large body without holding it in memory). */
export function* repeated(chunk: Uint8Array, count: number): Iterable<Uint8Array> {
  for (let i = 0; i < count; i++) yield chunk
}
