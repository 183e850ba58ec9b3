// Response helpers of the GCS test double: GCS's JSON API errors, its XML API errors, and byte ranges.
import { createReadStream } from "node:fs"
import type { IncomingMessage, ServerResponse } from "node:http"
import { pipeline } from "node:stream/promises"
import type { Blob } from "./blobs.ts"

/** The JSON API's error shape: {error: {code, message, errors: [{message, domain, reason}]}}. */
export const jsonError = (res: ServerResponse, code: number, reason: string, message: string): void => {
  const body = JSON.stringify({ error: { code, message, errors: [{ message, domain: "global", reason }] } })
  res.writeHead(code, { "content-type": "application/json; charset=UTF-8", "content-length": Buffer.byteLength(body) })
  res.end(body)
}

export const json = (res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void => {
  const body = JSON.stringify(value)
  res.writeHead(status, { "content-type": "application/json; charset=UTF-8", "content-length": Buffer.byteLength(body), ...headers })
  res.end(body)
}

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

/** The XML API's error shape, as signed-URL requests get it. */
export const xmlError = (res: ServerResponse, status: number, code: string, message: string, details?: string): void => {
  const body = `<?xml version='1.0' encoding='UTF-8'?><Error><Code>${code}</Code><Message>${escapeXml(message)}</Message>${
    details === undefined ? "" : `<Details>${escapeXml(details)}</Details>`
  }</Error>`
  res.writeHead(status, { "content-type": "application/xml; charset=UTF-8", "content-length": Buffer.byteLength(body) })
  res.end(body)
}

/**
 * Answers before reading the body (412, 403 …): the rest of the body is drained rather than the socket closed, so
 * the client reliably sees the status.
 */
export const answerEarly = (req: IncomingMessage, answer: () => void): void => {
  answer()
  req.resume()
}

export type ByteRange = { readonly start: number; readonly end: number } | "unsatisfiable" | null

/** A single `bytes=` range against an object of `size` bytes; null = the whole object. */
export const parseRange = (header: string | undefined, size: number): ByteRange => {
  if (header === undefined) return null
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (m === null || (m[1] === "" && m[2] === "")) return null
  if (m[1] === "") {
    const suffix = Number(m[2])
    return suffix === 0 ? "unsatisfiable" : { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(m[1])
  if (start >= size) return "unsatisfiable"
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1)
  return end < start ? null : { start, end }
}

/** Streams an object (or one range of it) with GCS's download headers. */
export const sendBlob = async (
  req: IncomingMessage,
  res: ServerResponse,
  blob: Blob,
  extraHeaders: Record<string, string>,
  onUnsatisfiable: () => void,
): Promise<void> => {
  const range = parseRange(req.headers.range, blob.size)
  if (range === "unsatisfiable") return onUnsatisfiable()
  const headers: Record<string, string> = {
    "content-type": blob.contentType,
    "x-goog-generation": blob.generation,
    "x-goog-metageneration": "1",
    "x-goog-stored-content-length": String(blob.size),
    "x-goog-hash": `md5=${blob.md5}`,
    "last-modified": blob.created.toUTCString(),
    etag: `"${Buffer.from(blob.md5, "base64").toString("hex")}"`,
    "accept-ranges": "bytes",
    ...extraHeaders,
  }
  if (range === null) {
    res.writeHead(200, { ...headers, "content-length": String(blob.size) })
  } else {
    res.writeHead(206, {
      ...headers,
      "content-length": String(range.end - range.start + 1),
      "content-range": `bytes ${range.start}-${range.end}/${blob.size}`,
    })
  }
  if (req.method === "HEAD") return void res.end()
  const file = createReadStream(blob.path, range === null ? {} : { start: range.start, end: range.end })
  await pipeline(file, res).catch(() => undefined) // the client may hang up mid-download
}
