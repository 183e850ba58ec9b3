import { Effect, Option } from "effect"
import { Clock } from "../../../ports/Clock.ts"
import type { TooManyUploads } from "../../../domain/errors.ts"
import { GameStore } from "../../../ports/GameStore.ts"
import { ObjectStorage } from "../../../ports/ObjectStorage.ts"
import type { UrlSigner } from "../../signed-urls/UrlSigner.ts"
import { type BodyTimeouts, guardBody } from "../bodyTimeouts.ts"
import { requestBody } from "../nodeBody.ts"
import type { UploadSlots } from "../uploadSlots.ts"
import { errorResponse } from "../respond.ts"

/** What bounds one presigned PUT: its body's timeouts, and the uploads its account may run at once. */
export interface StorageLimits {
  readonly bodyTimeouts: BodyTimeouts
  readonly uploads: UploadSlots
}

// The presigned-URL endpoint of the self-served stores (memory, local disk): it behaves like a bucket, answering
// storage-style codes (403 SignatureDoesNotMatch, 412 PreconditionFailed) in the service's {error, detail} shape.
// It is not a declared route (routeInput.ts): the signature is its access, its codes are a bucket's rather than the
// error table's, and the PUT body is streamed into the store, never decoded.

const signatureError = (reason: "malformed" | "signature" | "expired") =>
  errorResponse(
    403,
    "SignatureDoesNotMatch",
    reason === "expired"
      ? "This presigned URL has expired; request a new one from the service."
      : "The request does not match the presigned URL's signature; send the URL unchanged with exactly the returned headers.",
  )

const unavailable = () => errorResponse(503, "ServiceUnavailable", "The object store is unavailable right now; retry in a moment.")

const emptyBody = () => new ReadableStream<Uint8Array>({ start: (c) => c.close() })

// Answers given while the client may still be sending: the rest of the body is drained until the answer has gone
// out, then the connection is cut (nodeBody.ts). A stalled client gets its 408 on a connection closed after it.
const CLOSE = { connection: "close" }
const alreadyStored = () => errorResponse(412, "PreconditionFailed", "An object is already stored at this key (write-once); if it is your artifact, call finalize.")
const tooLarge = (sizeBytes: number, what: string) => errorResponse(413, "EntityTooLarge", `The body is larger than the ${sizeBytes} bytes declared for this URL; ${what}`)
const noRoom = () =>
  errorResponse(507, "InsufficientStorage", "The store has no room for this upload right now; nothing was kept. Retry later, and tell the operator if it persists.")
const timedOut = (what: "idle" | "deadline") =>
  errorResponse(408, "RequestTimeout", what === "idle"
    ? "The upload stalled (no bytes for too long) and was dropped; nothing was stored. Upload again."
    : "The upload took longer than allowed and was dropped; nothing was stored. Upload again from a faster connection.", { headers: CLOSE })
const tooManyUploads = (error: TooManyUploads) =>
  errorResponse(429, "TooManyUploads", error.detail, { headers: { "retry-after": String(error.retryAfterSeconds) } })

/** The account a PUT counts against: the owner of the game its key belongs to (the key's game otherwise). */
const uploaderOf = Effect.fnUntraced(function*(key: string) {
  const gameId = /^releases\/([^/]+)\//.exec(key)?.[1] ?? key
  const game = yield* GameStore.use((games) => games.get(gameId))
  return Option.isSome(game) ? `user:${game.value.ownerId}` : `game:${gameId}`
})

const put = Effect.fnUntraced(function*(request: Request, key: string, sizeBytes: number, limits: StorageLimits) {
  const storage = yield* ObjectStorage
  const announced = request.headers.get("content-length")
  if (announced !== null && Number(announced) > sizeBytes) return tooLarge(sizeBytes, "upload the declared file.")
  if (Option.isSome(yield* storage.head(key))) return alreadyStored()
  const slot = yield* limits.uploads.take(yield* uploaderOf(key)).pipe(Effect.as(null), Effect.catchTag("TooManyUploads", (e) => Effect.succeed(e)))
  if (slot !== null) {
    requestBody(request, { onCancel: "drain" })?.cancel().catch(() => undefined)
    return tooManyUploads(slot)
  }
  const body = guardBody(requestBody(request, { onCancel: "drain" }) ?? emptyBody(), limits.bodyTimeouts)
  return yield* storage.put(key, body.stream, { maxBytes: sizeBytes }).pipe(
    Effect.as(new Response(null, { status: 200 })),
    Effect.catchTags({
      ObjectExists: () => Effect.succeed(alreadyStored()),
      ObjectTooLarge: () => Effect.succeed(tooLarge(sizeBytes, "nothing was stored.")),
      UploadAborted: () => {
        const fired = body.timedOut()
        return Effect.succeed(
          fired !== null ? timedOut(fired) : errorResponse(400, "IncompleteBody", "The upload was cut off; nothing was stored. Upload again."),
        )
      },
      StorageFull: () => Effect.succeed(noRoom()),
    }),
  )
}, Effect.scoped)

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
export const handleSignedStorage = Effect.fnUntraced(function*(request: Request, signer: UrlSigner, limits: StorageLimits) {
  const now = yield* Clock.use((clock) => clock.now)
  const verified = yield* Effect.promise(() => signer.verify(request, now))
  if (!verified.ok) return signatureError(verified.reason)
  return yield* verified.method === "PUT"
    ? put(request, verified.key, verified.sizeBytes, limits)
    : get(request, verified.key, verified.downloadName)
}, (effect) => effect.pipe(Effect.catchTags({ StorageNotConfigured: () => Effect.succeed(unavailable()), Unavailable: () => Effect.succeed(unavailable()) })))
