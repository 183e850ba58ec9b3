// Streams a multipart submission (a manifest field and a file part) with a Content-Length, reporting progress.
import { createReadStream } from "node:fs"
import { request as httpRequest } from "node:http"
import { request as httpsRequest } from "node:https"
import { type HttpReply, retryAfterOf } from "./files.ts"

export const postMultipart = (
  url: string,
  headers: Readonly<Record<string, string>>,
  fields: ReadonlyArray<{ readonly name: string; readonly value: string; readonly contentType?: string; readonly filename?: string }>,
  file: { readonly name: string; readonly path: string; readonly filename: string; readonly sizeBytes: number },
  onProgress: (done: number) => void,
) =>
  new Promise<HttpReply>((resolve, reject) => {
    const boundary = `----pckgate-${crypto.randomUUID()}`
    const head = (name: string, filename?: string, contentType?: string) =>
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename === undefined ? "" : `; filename="${filename.replace(/["\r\n]/g, "_")}"`}\r\n` +
          (contentType === undefined ? "" : `Content-Type: ${contentType}\r\n`) + "\r\n",
      )
    const preamble = Buffer.concat([
      ...fields.flatMap((f) => [head(f.name, f.filename, f.contentType), Buffer.from(f.value), Buffer.from("\r\n")]),
      head(file.name, file.filename, "application/octet-stream"),
    ])
    const closing = Buffer.from(`\r\n--${boundary}--\r\n`)
    const target = new URL(url)
    const send = target.protocol === "https:" ? httpsRequest : httpRequest
    const req = send(target, {
      method: "POST",
      headers: {
        ...headers,
        "content-type": `multipart/form-data; boundary=${boundary}`,
        "content-length": String(preamble.length + file.sizeBytes + closing.length),
      },
    }, (res) => {
      let body = ""
      res.setEncoding("utf8")
      res.on("data", (d: string) => (body += d))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, retryAfter: retryAfterOf(res.headers) }))
      res.on("error", reject)
    })
    req.on("error", reject)
    req.write(preamble)
    let done = 0
    const stream = createReadStream(file.path, { highWaterMark: 1024 * 1024 })
    stream.on("data", (chunk) => {
      done += chunk.length
      onProgress(done)
      if (!req.write(chunk)) {
        stream.pause()
        req.once("drain", () => stream.resume())
      }
    })
    stream.on("end", () => req.end(closing))
    stream.on("error", (error) => {
      req.destroy()
      reject(error)
    })
  })
