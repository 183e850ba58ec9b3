// Streams a multipart submission (spec §4.6) with busboy: the `pck` part goes straight to object storage while it is
// hashed, the `manifest` part (a JSON file or a text field) is kept in memory up to a small limit. Nothing of a
// refused or broken upload is kept: every outcome but "ok" has already discarded the temporary object.
import { Readable } from "node:stream"
import busboy from "busboy"
import type { IncrementalSha256 } from "../../../ports/Sha256Hasher.ts"
import { drainThenClose, rawNodeBody, rawNodeResponse, webStreamOf } from "../nodeBody.ts"

export interface SubmissionLimits {
  /** Largest accepted `pck` part, inclusive. */
  readonly maxPckBytes: number
  readonly maxManifestBytes: number
  /** Abort when no bytes arrive for this long. */
  readonly idleTimeoutMs: number
  /** Abort when the whole body takes longer than this. */
  readonly deadlineMs: number
}

export type SinkResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: "too_large" | "aborted" | "storage_full" | "unavailable" }

/** Where the `pck` bytes go: a temporary object, removed again on any failure. */
export interface PckSink {
  write(key: string, body: ReadableStream<Uint8Array>, maxBytes: number): Promise<SinkResult>
  discard(key: string): Promise<void>
}

export interface ReceivedPck {
  readonly key: string
  readonly filename: string
  readonly sha256: string
  readonly sizeBytes: number
}

export type SubmissionRead =
  | { readonly kind: "ok"; readonly pck: ReceivedPck; readonly manifestText: string | null }
  | { readonly kind: "missing_pck" }
  | { readonly kind: "not_a_pck"; readonly filename: string }
  | { readonly kind: "manifest_rejected"; readonly manifestText: string }
  | { readonly kind: "manifest_too_large" }
  | { readonly kind: "too_large" }
  | { readonly kind: "timeout"; readonly what: "idle" | "deadline" }
  | { readonly kind: "malformed"; readonly detail: string }
  | { readonly kind: "aborted" }
  | { readonly kind: "storage_full" }
  | { readonly kind: "unavailable" }

export interface ReadSubmissionOptions {
  readonly limits: SubmissionLimits
  readonly sink: PckSink
  readonly tempKey: string
  readonly hasher: () => IncrementalSha256
  /** Called as soon as the manifest has arrived; returning false stops reading (the upload is not worth taking). */
  readonly acceptManifest: (text: string) => boolean
}

export const readSubmission = (request: Request, options: ReadSubmissionOptions): Promise<SubmissionRead> =>
  new Promise((resolve) => {
    const { limits, sink, tempKey } = options
    const contentType = request.headers.get("content-type") ?? ""
    // The raw stream is chosen before `request.body` is touched: srvx's body getter wraps the same IncomingMessage in a
    // web stream, and that reader would then pause it under back-pressure.
    const raw = rawNodeBody(request)
    const web = raw === null ? request.body : null
    if (!/^multipart\/form-data\s*;/i.test(contentType) || (raw === null && web === null)) {
      return resolve({ kind: "malformed", detail: "the body must be multipart/form-data with a boundary" })
    }
    let parser: busboy.Busboy
    try {
      parser = busboy({
        headers: { "content-type": contentType },
        limits: { files: 4, fields: 8, parts: 12, fieldSize: limits.maxManifestBytes + 1, fileSize: limits.maxPckBytes + 1, headerPairs: 20 },
      })
    } catch (error) {
      return resolve({ kind: "malformed", detail: (error as Error).message })
    }
    const source = raw ?? Readable.fromWeb(web as import("node:stream/web").ReadableStream<Uint8Array>)
    let settled = false
    let manifestText: string | null = null
    let pck: Promise<ReceivedPck | SubmissionRead> | null = null
    let idleTimer: ReturnType<typeof setTimeout> | undefined
    const deadlineTimer = setTimeout(() => finish({ kind: "timeout", what: "deadline" }), limits.deadlineMs)
    const touch = () => {
      if (settled) return
      clearTimeout(idleTimer)
      idleTimer = setTimeout(() => finish({ kind: "timeout", what: "idle" }), limits.idleTimeoutMs)
    }

    /** Settles once; a failure stops the input and discards whatever reached storage. */
    const finish = (outcome: SubmissionRead) => {
      if (settled) return
      settled = true
      clearTimeout(idleTimer)
      clearTimeout(deadlineTimer)
      if (outcome.kind === "ok") return resolve(outcome)
      // No chunk is fed to the parser from here on (see `feed`). The teardown waits a tick: `finish` may be running
      // inside one of busboy's own event callbacks, and busboy keeps using its state after emitting.
      setImmediate(() => parser.destroy())
      // The refusal is answered while the client may still be sending: the rest of the body is read and dropped for a
      // while, so the answer reaches the client instead of a connection reset, then the connection is cut.
      drainThenClose(source, rawNodeResponse(request))
      const written = pck
      void (async () => {
        // Wait for the write to stop (the stream it reads was just cut), then remove what it left.
        if (written !== null) await written.catch(() => undefined)
        await sink.discard(tempKey).catch(() => undefined)
        resolve(outcome)
      })()
    }

    const acceptManifestText = (text: string) => {
      manifestText = text
      if (!options.acceptManifest(text)) finish({ kind: "manifest_rejected", manifestText: text })
    }

    parser.on("file", (name, file, info) => {
      // Destroying the parser errors its open file streams; an 'error' nobody listens to would end the process.
      // The storage write still sees the failure through the web stream it reads.
      file.on("error", () => undefined)
      if (settled) return void file.resume()
      if (name === "manifest") {
        const chunks: Array<Buffer> = []
        let size = 0
        file.on("data", (chunk: Buffer) => {
          size += chunk.length
          if (size > limits.maxManifestBytes) return finish({ kind: "manifest_too_large" })
          chunks.push(chunk)
        })
        file.on("end", () => {
          if (!settled && size <= limits.maxManifestBytes) acceptManifestText(Buffer.concat(chunks).toString("utf8"))
        })
        return
      }
      if (name !== "pck") return void file.resume()
      const filename = info.filename ?? ""
      if (pck !== null) return finish({ kind: "malformed", detail: "more than one 'pck' part" })
      if (!/\.pck$/i.test(filename)) {
        file.resume()
        return finish({ kind: "not_a_pck", filename })
      }
      const hash = options.hasher()
      let sizeBytes = 0
      file.on("limit", () => finish({ kind: "too_large" }))
      // One web stream with a byte-counted buffer: network reads and storage writes overlap, and the bytes are hashed
      // on the way in.
      const hashed = webStreamOf(file, {
        onChunk: (chunk) => {
          hash.update(chunk)
          sizeBytes += chunk.length
        },
      })
      pck = sink.write(tempKey, hashed, limits.maxPckBytes).then((result): ReceivedPck | SubmissionRead => {
        if (result.ok) return { key: tempKey, filename, sha256: hash.digestHex(), sizeBytes }
        // A failed write (a full disk) ends the request at once: the client is told now, not after an idle timeout.
        const failed: SubmissionRead = { kind: result.reason }
        finish(failed)
        return failed
      }).catch((): SubmissionRead => {
        finish({ kind: "unavailable" })
        return { kind: "unavailable" }
      })
    })
    parser.on("field", (name, value, info) => {
      if (settled || name !== "manifest") return
      if (info.valueTruncated) return finish({ kind: "manifest_too_large" })
      acceptManifestText(value)
    })
    parser.on("partsLimit", () => finish({ kind: "malformed", detail: "too many parts" }))
    parser.on("filesLimit", () => finish({ kind: "malformed", detail: "too many files" }))
    parser.on("fieldsLimit", () => finish({ kind: "malformed", detail: "too many fields" }))
    parser.on("error", (error: Error) => finish({ kind: "malformed", detail: error.message }))
    parser.on("close", () => {
      if (settled) return
      if (pck === null) return finish({ kind: "missing_pck" })
      void pck.then((received) => {
        if ("kind" in received) return finish(received)
        finish({ kind: "ok", pck: received, manifestText })
      })
    })
    // Fed by hand rather than piped: once the outcome is settled not one more chunk reaches the parser (with `pipe`,
    // a chunk already in flight could still arrive after the parser was destroyed, and busboy throws on it).
    const feed = (chunk: Buffer) => {
      touch()
      if (settled) return
      if (!parser.write(chunk)) {
        source.pause()
        parser.once("drain", () => {
          if (!settled) source.resume()
        })
      }
    }
    source.on("data", feed)
    source.on("end", () => {
      if (!settled) parser.end()
    })
    source.on("error", () => finish({ kind: "aborted" }))
    touch()
  })
