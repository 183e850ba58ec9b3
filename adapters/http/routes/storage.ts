import { Effect, Option } from "effect"
import { Clock } from "../../../ports/Clock.ts"
import { ObjectStorage } from "../../../ports/ObjectStorage.ts"
import type { UrlSigner } from "../../signed-urls/UrlSigner.ts"
import { requestBody } from "../nodeBody.ts"
import { errorResponse } from "../respond.ts"

// The presigned-URL endpoint of the self-served stores (memory, local disk): it behaves like a bucket, answering
// storage-style codes (403 SignatureDoesNotMatch, 412 PreconditionFailed) in the service's {error, detail} shape.

const signatureError = (reason: "malformed" | "signature" | "expired") =>
  errorResponse(
    403,
    "SignatureDoesNotMatch",
    reason === "expired"
      ? "This presigned URL has expired; request a new one from the service."
      : "The request does not match the presigned URL's signature; send the URL unchanged with exactly the returned headers.",
  )

const unavailable = () => errorResponse(503, "service_unavailable", "The object store is unavailable right now; retry in a moment.")

const emptyBody = () => new ReadableStream<Uint8Array>({ start: (c) => c.close() })

const put = Effect.fnUntraced(function*(request: Request, key: string, sizeBytes: number) {
  const storage = yield* ObjectStorage
  const announced = request.headers.get("content-length")
  if (announced !== null && Number(announced) > sizeBytes) {
    return errorResponse(413, "EntityTooLarge", `The body is larger than the ${sizeBytes} bytes declared for this URL; upload the declared file.`)
  }
  if (Option.isSome(yield* storage.head(key))) {
    return errorResponse(412, "PreconditionFailed", "An object is already stored at this key (write-once); if it is your artifact, call finalize.")
  }
  return yield* storage.put(key, requestBody(request) ?? emptyBody(), { maxBytes: sizeBytes }).pipe(
    Effect.as(new Response(null, { status: 200 })),
    Effect.catchTags({
      ObjectExists: () => Effect.succeed(errorResponse(412, "PreconditionFailed", "An object is already stored at this key (write-once); if it is your artifact, call finalize.")),
      ObjectTooLarge: () => Effect.succeed(errorResponse(413, "EntityTooLarge", `The body is larger than the ${sizeBytes} bytes declared for this URL; nothing was stored.`)),
      UploadAborted: () => Effect.succeed(errorResponse(400, "IncompleteBody", "The upload was cut off; nothing was stored. Upload again.")),
    }),
  )
})

const get = Effect.fnUntraced(function*(request: Request, key: string, downloadName: string | null) {
  const storage = yield* ObjectStorage
  const head = yield* storage.head(key)
  if (Option.isNone(head)) return errorResponse(404, "NoSuchKey", "No object is stored at this key.")
  const headers: Record<string, string> = {
    "content-type": "application/octet-stream",
    "content-length": String(head.value.sizeBytes),
    "cache-control": "private, no-store",
  }
  if (downloadName !== null) headers["content-disposition"] = `attachment; filename="${downloadName.replace(/[^A-Za-z0-9._-]/g, "_")}"`
  if (request.method === "HEAD") return new Response(null, { status: 200, headers })
  const body = yield* storage.read(key)
  return new Response(body, { status: 200, headers })
}, (effect) => effect.pipe(Effect.catchTag("ObjectNotFound", () => Effect.succeed(errorResponse(404, "NoSuchKey", "No object is stored at this key.")))))

/** Serves PUT, GET and HEAD on presigned /storage/ URLs. */
export const handleSignedStorage = Effect.fnUntraced(function*(request: Request, signer: UrlSigner) {
  const now = yield* Clock.use((clock) => clock.now)
  const verified = yield* Effect.promise(() => signer.verify(request, now))
  if (!verified.ok) return signatureError(verified.reason)
  return yield* verified.method === "PUT"
    ? put(request, verified.key, verified.sizeBytes)
    : get(request, verified.key, verified.downloadName)
}, (effect) => effect.pipe(Effect.catchTags({ StorageNotConfigured: () => Effect.succeed(unavailable()), Unavailable: () => Effect.succeed(unavailable()) })))
