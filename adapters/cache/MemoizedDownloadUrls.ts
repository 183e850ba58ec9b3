// A download URL is a pure function of the object key, the file name, the signing time and the lifetime; the domain
// signs at whole seconds, so every download of one release within a second gets the same URL. Signing it once per
// second and key serves a burst of downloads of a popular game without a signature each (an HMAC on the local store,
// an RSA signature or an IAM call on GCS). The URL handed out is exactly the one a fresh signature would produce.
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
          const at = options.now.getTime()
          if (at !== signedAt) {
            signedAt = at
            urls.clear()
          }
          const known = urls.get(key)
          if (known !== undefined && known.ttl === options.expiresInSeconds && known.name === options.downloadName) return Effect.succeed(known.presigned)
          return Effect.tap(storage.presignGet(key, options), (presigned) =>
            Effect.sync(() => {
              if (signedAt === at && urls.size < MAX_ENTRIES) urls.set(key, { ttl: options.expiresInSeconds, name: options.downloadName, presigned })
            }))
        }),
    })
  }),
)
