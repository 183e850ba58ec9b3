// Local file work for the CLI: hashing with progress, and streaming uploads and downloads over HTTP(S).
import { createHash } from "node:crypto"
import { createReadStream, createWriteStream } from "node:fs"
import { open, rename, rm } from "node:fs/promises"
import { type IncomingHttpHeaders, request as httpRequest } from "node:http"
import { request as httpsRequest } from "node:https"
import { pipeline } from "node:stream/promises"
import { Transform } from "node:stream"

/** SHA-256 and size of a local file with positional reads (as fast as openssl), reporting progress. */
export const hashFile = async (path: string, onProgress: (done: number) => void) => {
  const handle = await open(path, "r")
  try {
    const hash = createHash("sha256")
    const buffer = Buffer.allocUnsafe(4 * 2 ** 20)
    let size = 0
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, size)
      if (bytesRead === 0) break
      hash.update(buffer.subarray(0, bytesRead))
      size += bytesRead
      onProgress(size)
    }
    return { sha256: hash.digest("hex"), sizeBytes: size }
  } finally {
    await handle.close()
  }
}

const counting = (onProgress: (done: number) => void) => {
  let done = 0
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      done += chunk.length
      onProgress(done)
      callback(null, chunk)
    },
  })
}

export interface HttpReply {
  readonly status: number
  readonly body: string
  /** The Retry-After header, when the answer had one. */
  readonly retryAfter: string | null
}

export const retryAfterOf = (headers: IncomingHttpHeaders): string | null => {
  const value = headers["retry-after"]
  return typeof value === "string" ? value : null
}

/** PUTs a file with a Content-Length and exactly `headers` (presigned uploads must send them verbatim). */
export const putFile = (url: string, headers: Readonly<Record<string, string>>, path: string, sizeBytes: number, onProgress: (done: number) => void) =>
  new Promise<HttpReply>((resolve, reject) => {
    const target = new URL(url)
    const send = target.protocol === "https:" ? httpsRequest : httpRequest
    const req = send(target, { method: "PUT", headers: { ...headers, "content-length": String(sizeBytes) } }, (res) => {
      let body = ""
      res.setEncoding("utf8")
      res.on("data", (d: string) => (body += d.length < 10_000 ? d : ""))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, retryAfter: retryAfterOf(res.headers) }))
      res.on("error", reject)
    })
    req.on("error", reject)
    pipeline(createReadStream(path), counting(onProgress), req).catch(reject)
  })

/** Downloads `url` to `path` (through a temporary file), returning the SHA-256 of what arrived. */
export const downloadFile = async (url: string, path: string, onProgress: (done: number, total: number) => void) => {
  const response = await fetch(url)
  if (!response.ok || response.body === null) return { ok: false as const, status: response.status, body: await response.text() }
  const total = Number(response.headers.get("content-length") ?? 0)
  const hash = createHash("sha256")
  const partial = `${path}.part`
  let done = 0
  try {
    await pipeline(
      response.body as unknown as NodeJS.ReadableStream,
      new Transform({
        transform(chunk: Buffer, _e, callback) {
          hash.update(chunk)
          done += chunk.length
          onProgress(done, total)
          callback(null, chunk)
        },
      }),
      createWriteStream(partial),
    )
    await rename(partial, path)
  } catch (error) {
    await rm(partial, { force: true })
    throw error
  }
  return { ok: true as const, sha256: hash.digest("hex"), sizeBytes: done }
}
