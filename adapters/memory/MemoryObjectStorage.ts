import { Effect, Layer, Option } from "effect"
import { Unavailable } from "../../domain/errors.ts"
import { Clock } from "../../ports/Clock.ts"
import {
  ObjectExists,
  ObjectNotFound,
  ObjectStorage,
  ObjectTooLarge,
  type StoredObject,
  UploadAborted,
} from "../../ports/ObjectStorage.ts"
import { SignedUrls } from "../signed-urls/SignedUrls.ts"
import { PUT_HEADERS } from "../signed-urls/UrlSigner.ts"
import { readAtMost } from "../shared/bytes.ts"
import { createSha256 } from "./sha256.ts"

interface Entry {
  readonly bytes: Uint8Array
  readonly modifiedAt: Date
}

const info = (key: string, entry: Entry): StoredObject => ({ key, sizeBytes: entry.bytes.length, modifiedAt: entry.modifiedAt })

/**
 * Objects in a Map: a complete object store for tests and embedding, with the same presigned URLs as the local-disk
 * store (served by the app's /storage/ routes).
 */
export const makeMemoryObjectStorage = Effect.gen(function*() {
    const signer = yield* SignedUrls
    const clock = yield* Clock
    const objects = new Map<string, Entry>()
    const storageDown = (e: unknown) => new Unavailable({ dependency: "storage", reason: String(e) })

    return ObjectStorage.of({
      presignPut: (key, { sizeBytes, now, expiresInSeconds }) => {
        const expiresAt = new Date(now.getTime() + expiresInSeconds * 1000)
        return Effect.tryPromise({ try: () => signer.presignPut(key, sizeBytes, expiresAt), catch: storageDown }).pipe(
          Effect.map((url) => ({ url, headers: { ...PUT_HEADERS }, expiresAt })),
        )
      },
      presignGet: (key, { now, expiresInSeconds, downloadName }) => {
        const expiresAt = new Date(now.getTime() + expiresInSeconds * 1000)
        return Effect.tryPromise({ try: () => signer.presignGet(key, expiresAt, downloadName), catch: storageDown }).pipe(
          Effect.map((url) => ({ url, expiresAt })),
        )
      },
      head: (key) => Effect.sync(() => Option.map(Option.fromNullishOr(objects.get(key)), (e) => info(key, e))),
      digest: (key) =>
        Effect.sync(() => {
          const entry = objects.get(key)
          if (entry === undefined) return Option.none()
          const hash = createSha256()
          hash.update(entry.bytes)
          return Option.some({ sha256: hash.digestHex(), sizeBytes: entry.bytes.length })
        }),
      readRange: (key, offset, length) => {
        const entry = objects.get(key)
        return entry === undefined
          ? Effect.fail(new ObjectNotFound({ key }))
          : Effect.succeed(entry.bytes.slice(offset, offset + Math.max(0, length)))
      },
      read: (key) => {
        const entry = objects.get(key)
        if (entry === undefined) return Effect.fail(new ObjectNotFound({ key }))
        return Effect.sync(() =>
          new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(entry.bytes.slice())
              controller.close()
            },
          })
        )
      },
      put: (key, body, { maxBytes }) =>
        Effect.gen(function*() {
          if (objects.has(key)) {
            yield* Effect.promise(() => body.cancel().catch(() => undefined))
            return yield* new ObjectExists({ key })
          }
          const bytes = yield* Effect.tryPromise({ try: () => readAtMost(body, maxBytes), catch: () => new UploadAborted({ key }) })
          if (bytes === "too_large") return yield* new ObjectTooLarge({ key, limitBytes: maxBytes })
          // Checked again at the end: a concurrent put may have won while this body streamed.
          if (objects.has(key)) return yield* new ObjectExists({ key })
          const entry = { bytes, modifiedAt: yield* clock.now }
          objects.set(key, entry)
          return info(key, entry)
        }),
      move: (fromKey, toKey) =>
        Effect.gen(function*() {
          const entry = objects.get(fromKey)
          if (entry === undefined) return yield* new ObjectNotFound({ key: fromKey })
          if (objects.has(toKey)) return yield* new ObjectExists({ key: toKey })
          objects.set(toKey, entry)
          objects.delete(fromKey)
        }),
      delete: (key) => Effect.sync(() => void objects.delete(key)),
      list: (prefix) =>
        Effect.sync(() => [...objects].filter(([key]) => key.startsWith(prefix)).map(([key, entry]) => info(key, entry))),
      // Writes happen in memory and leave nothing behind when they fail.
      removeAbandonedWrites: () => Effect.succeed({ removedFiles: 0, removedBytes: 0 }),
    })
  })

export const layerMemoryObjectStorage = Layer.effect(ObjectStorage, makeMemoryObjectStorage)
