// A download URL is a pure function of the object key, the file name, the signing time and the lifetime. Signing at
// the start of the current second instead of at the request's millisecond makes every download of one release within
// a second the same URL, so it is signed once per second and key: a burst of downloads of a popular game costs one
// signature, not one each (an HMAC on the local store, an RSA signature or an IAM call on GCS). The URL handed out is
// exactly the one a fresh signature at that second would produce; it expires at most a second earlier than one signed
// at the request's millisecond would, and its `expiresAt` is exact (signatures carry the expiry in whole seconds).
import { Effect, Layer } from "effect"
import { ObjectStorage, type PresignedGet } from "../../ports/ObjectStorage.ts"

/** Distinct releases remembered within one second, at most; beyond that, URLs are signed as usual. */
const MAX_ENTRIES = 10_000

/** Decorates the ObjectStorage it is given (provide one to it); every other operation passes through. */
export const layerMemoizedDownloadUrls: Layer.Layer<ObjectStorage, never, ObjectStorage> = Layer.effect(
  ObjectStorage,
  Effect.gen(function*() {
    const storage = yield* ObjectStorage
    // Only URLs signed at one instant are kept: the first request at a new instant starts afresh. Keyed by the object
    // key alone (the cached game view hands out the same string each time, whose hash V8 keeps); the lifetime and the
    // file name are compared on a hit.
    let signedAt = Number.NaN
    const urls = new Map<string, { readonly ttl: number; readonly name: string | undefined; readonly presigned: PresignedGet }>()
    return ObjectStorage.of({
      ...storage,
      presignGet: (key, options) =>
        Effect.suspend(() => {
          const at = options.now.getTime() - (options.now.getTime() % 1000)
          if (at !== signedAt) {
            signedAt = at
            urls.clear()
          }
          const known = urls.get(key)
          if (known !== undefined && known.ttl === options.expiresInSeconds && known.name === options.downloadName) return Effect.succeed(known.presigned)
          return Effect.tap(storage.presignGet(key, { ...options, now: new Date(at) }), (presigned) =>
            Effect.sync(() => {
              if (signedAt === at && urls.size < MAX_ENTRIES) urls.set(key, { ttl: options.expiresInSeconds, name: options.downloadName, presigned })
            }))
        }),
    })
  }),
)
