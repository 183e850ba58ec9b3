// busboy wrapped once: a multipart body as an Effect stream of its parts, in order. A file part's bytes flow through
// Node streams (never one Effect per network chunk), so a 2 GiB part costs what busboy and the socket cost. Whatever
// stops the body early (a malformed body, the client gone, a timeout, or the consumer giving up) stops the parser at
// once and hands the rest of the body to the lingering close, so a client still sending reads the answer instead of
// a connection reset (nodeBody.ts).
import { Readable } from "node:stream"
import busboy from "busboy"
import { Cause, Deferred, Effect, Queue, Stream } from "effect"
import { InvalidRequest, UploadTimedOut } from "../../../domain/errors.ts"
import { drainThenClose, type NodeBodyOptions, rawNodeBody, rawNodeResponse, webStreamOf } from "../nodeBody.ts"
import { idleWatch } from "./idleWatch.ts"

export interface MultipartLimits {
  /**
   * A file part is cut once it reaches this many bytes (busboy stops there): pass one more than the largest size
   * accepted, so that the reader sees the byte too many and refuses the part.
   */
  readonly maxFileBytes: number
  /** A field that reaches this many bytes is cut there and marked truncated: likewise one more than accepted. */
  readonly maxFieldBytes: number
  /** Fail when no bytes arrive for this long while the parts are being read. */
  readonly idleTimeoutMs: number
  /** Fail when the whole body takes longer than this. */
  readonly deadlineMs: number
}

/** Why a body stopped before its end. */
export type BodyFailure = InvalidRequest | UploadTimedOut

export interface FieldPart {
  readonly _tag: "Field"
  readonly name: string
  readonly value: string
  readonly truncated: boolean
}

export interface FilePart {
  readonly _tag: "File"
  readonly name: string
  readonly filename: string
  /** The bytes as a web stream with a bounded read-ahead; `onChunk` sees each chunk on its way (to hash it). */
  readonly stream: (onChunk?: (chunk: Uint8Array) => void) => ReadableStream<Uint8Array>
  /** The bytes as UTF-8 text, or "too_large" as soon as they pass `maxBytes`. */
  readonly text: (maxBytes: number) => Effect.Effect<string | "too_large", BodyFailure>
  /** Reads and drops the bytes: the next part arrives only once this one is consumed. */
  readonly skip: Effect.Effect<void>
}

export type Part = FieldPart | FilePart

export interface MultipartBody {
  /** The parts in order. Consume each file part (stream, text or skip) before pulling the next one. */
  readonly parts: Stream.Stream<Part, BodyFailure>
  /**
   * Fails with the reason the body stopped early, once there is one. A writer fed by a file part reports only that
   * its input broke off (an aborted upload); this says why: a timeout, the client gone, a malformed body.
   */
  readonly whyStopped: Effect.Effect<never, BodyFailure>
}

const BUSBOY_LIMITS = { files: 4, fields: 8, parts: 12, headerPairs: 20 }
const MULTIPART_TYPE = /^multipart\/form-data\s*;/i

const malformed = (detail: string) => new InvalidRequest({ problems: [`body: ${detail}`] })
const cutOff = () => new InvalidRequest({ problems: ["body: the upload was cut off before its end; nothing was kept"] })

const filePart = (name: string, filename: string, file: Readable, whyStopped: Effect.Effect<never, BodyFailure>): FilePart => ({
  _tag: "File",
  name,
  filename,
  stream: (onChunk) => webStreamOf(file, onChunk === undefined ? {} : { onChunk }),
  text: (maxBytes) =>
    Effect.callback<string | "too_large", BodyFailure>((resume) => {
      // The body may have broken off while this part waited in the queue: its stream is gone, and so are its events.
      if (file.destroyed) return resume(whyStopped)
      const chunks: Array<Buffer> = []
      let size = 0
      file.on("data", (chunk: Buffer) => {
        size += chunk.length
        if (size > maxBytes) resume(Effect.succeed("too_large"))
        else chunks.push(chunk)
      })
      file.on("end", () => resume(Effect.succeed(Buffer.concat(chunks).toString("utf8"))))
      file.on("close", () => resume(whyStopped))
    }),
  skip: Effect.sync(() => void file.resume()),
})

/** The request's body as multipart parts; nothing is read before the parts stream runs. */
export const multipartBody = (request: Request, limits: MultipartLimits, options: NodeBodyOptions = {}): MultipartBody => {
  const stopped = Deferred.makeUnsafe<never, BodyFailure>()
  const whyStopped = Deferred.await(stopped)
  const parts = Stream.callback<Part, BodyFailure>((queue) =>
    Effect.gen(function*() {
      // The raw stream is chosen before `request.body` is touched: srvx's body getter wraps the same IncomingMessage in
      // a web stream, and that reader would then pause it under back-pressure.
      const raw = rawNodeBody(request, options)
      const web = raw === null ? request.body : null
      const source = raw ?? (web === null ? null : Readable.fromWeb(web as import("node:stream/web").ReadableStream<Uint8Array>))
      const contentType = request.headers.get("content-type") ?? ""
      if (source === null || !MULTIPART_TYPE.test(contentType)) {
        if (source !== null) drainThenClose(source, rawNodeResponse(request))
        return yield* malformed("the body must be multipart/form-data with a boundary")
      }
      const parser = yield* Effect.try({
        try: () => busboy({
          headers: { "content-type": contentType },
          limits: { ...BUSBOY_LIMITS, fieldSize: limits.maxFieldBytes, fileSize: limits.maxFileBytes },
        }),
        catch: (error) => malformed((error as Error).message),
      }).pipe(Effect.tapError(() => Effect.sync(() => drainThenClose(source, rawNodeResponse(request)))))

      // From `halted` on, not one more chunk reaches the parser (busboy throws on a write after it was destroyed).
      let halted = false
      let parserClosed = false
      const halt = () => {
        if (halted) return
        halted = true
        idle.stop()
        clearTimeout(deadline)
        // Later, not inside one of busboy's own callbacks: it keeps using its state after emitting. Its open file
        // stream errors, and so does whatever reads it.
        if (!parserClosed) setImmediate(() => parser.destroy(new Error("the body was not read to its end")))
      }
      /** The first reason wins; later ones (the teardown's own errors) change nothing. */
      const stop = (reason: BodyFailure) => {
        if (!Deferred.doneUnsafe(stopped, Effect.fail(reason))) return
        Queue.failCauseUnsafe(queue, Cause.fail(reason))
        halt()
      }
      const idle = idleWatch(limits.idleTimeoutMs, () => stop(new UploadTimedOut({ what: "idle" })))
      const deadline = setTimeout(() => stop(new UploadTimedOut({ what: "deadline" })), limits.deadlineMs)
      // Whatever ended the stream (all parts read, a failure, the consumer giving up), the parser stops, and a body
      // not read to its end is drained until the answer is out, then the connection is cut.
      yield* Effect.addFinalizer(() =>
        Effect.sync(() => {
          halt()
          if (!source.readableEnded) drainThenClose(source, rawNodeResponse(request))
        })
      )

      parser.on("file", (name: string, file: Readable, info: busboy.FileInfo) => {
        // Destroying the parser errors its open file stream; an 'error' nobody listens to would end the process.
        file.on("error", (error: Error) => stop(malformed(error.message)))
        if (halted) return void file.resume()
        Queue.offerUnsafe(queue, filePart(name, info.filename ?? "", file, whyStopped))
      })
      parser.on("field", (name: string, value: string, info: busboy.FieldInfo) => {
        if (!halted) Queue.offerUnsafe(queue, { _tag: "Field", name, value, truncated: info.valueTruncated })
      })
      parser.on("partsLimit", () => stop(malformed("too many parts")))
      parser.on("filesLimit", () => stop(malformed("too many files")))
      parser.on("fieldsLimit", () => stop(malformed("too many fields")))
      parser.on("error", (error: Error) => stop(malformed(error.message)))
      parser.on("close", () => {
        parserClosed = true
        if (!halted) Queue.endUnsafe(queue)
      })

      // Fed by hand rather than piped, so that nothing reaches the parser once it is halted, and so that the idle
      // clock pauses while the parser holds the input back.
      source.on("data", (chunk: Buffer) => {
        if (halted) return
        idle.touch()
        if (!parser.write(chunk)) {
          source.pause()
          idle.pause()
          parser.once("drain", () => {
            if (halted) return
            idle.resume()
            source.resume()
          })
        }
      })
      source.on("end", () => {
        idle.stop()
        clearTimeout(deadline)
        if (!halted) parser.end()
      })
      source.on("error", () => stop(cutOff()))
      source.on("close", () => {
        if (!source.readableEnded) stop(cutOff())
      })
      idle.resume()
    })
  )
  return { parts, whyStopped }
}
