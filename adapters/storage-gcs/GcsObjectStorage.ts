// The object store on a Google Cloud Storage bucket, through @google-cloud/storage. Object keys are the same
// content-addressed keys as the other stores'. Clients upload and download with V4 signed URLs straight to GCS; the
// service itself reads objects (finalize's and approval's SHA-256, ranged reads for the pack scanner) and writes them
// (multipart path) with the JSON API. Every call has a deadline, every stream an idle timeout.
import { createHash } from "node:crypto"
import { type File, type FileMetadata, Storage } from "@google-cloud/storage"
import { Effect, Layer, Option } from "effect"
import type { Unavailable } from "../../domain/errors.ts"
import { ObjectExists, ObjectNotFound, ObjectStorage, ObjectTooLarge, type StoredObject, UploadAborted } from "../../ports/ObjectStorage.ts"
import { bucketMissing, httpStatusOf, storageUnavailable } from "./gcsFailures.ts"
import { type GcsSettings } from "./GcsSettings.ts"
import { presignGet, presignPut } from "./gcsSignedUrls.ts"
import { eachChunk, feedUpload, webStreamOf, within } from "./gcsStreams.ts"

export interface GcsTimeouts {
  /** Deadline of one metadata, delete, copy or list call, retries included. */
  readonly callMs: number
  /** A download or upload that moves no bytes for this long is cut off. */
  readonly idleMs: number
  /** Deadline of one URL signature (IAM signBlob is a network call when keyless). */
  readonly signMs: number
}

export const DEFAULT_GCS_TIMEOUTS: GcsTimeouts = { callMs: 30_000, idleMs: 60_000, signMs: 15_000 }

// Transient failures (429, 5xx, resets) are retried a few times with short backoff, and the library gives up before
// our own deadline does. Writes are retried only when a generation precondition makes them idempotent.
const RETRIES = { autoRetry: true, maxRetries: 3, retryDelayMultiplier: 2, maxRetryDelay: 4, totalTimeout: 25 }

const toStored = (key: string, metadata: { readonly size?: unknown; readonly updated?: unknown }): StoredObject => ({
  key,
  sizeBytes: Number(metadata.size),
  modifiedAt: new Date(String(metadata.updated)),
})

export const makeGcsObjectStorage = (settings: GcsSettings, timeouts: GcsTimeouts = DEFAULT_GCS_TIMEOUTS) => {
  // No credentials are passed: the library uses application default credentials (GOOGLE_APPLICATION_CREDENTIALS, or
  // the metadata server on Google Cloud), which GcsSettings has already checked are usable.
  const storage = new Storage({
    ...(settings.apiEndpoint === null ? {} : { apiEndpoint: settings.apiEndpoint }),
    retryOptions: RETRIES,
  })
  const bucket = storage.bucket(settings.bucket)
  const name = settings.bucket

  /** One library call under the deadline; its failure as the raw error, for the caller to read. */
  const call = <A>(what: string, f: () => Promise<A>): Effect.Effect<A, unknown> =>
    Effect.tryPromise({ try: () => within(f(), timeouts.callMs, what), catch: (error) => error })

  // A 404 means either "no such object" or "no such bucket"; only a bucket that answers a listing makes it the former,
  // so a deleted or misnamed bucket is reported as unavailable storage, never as a missing artifact.
  const bucketExists = call("bucket check", () => bucket.getFiles({ maxResults: 1, autoPaginate: false })).pipe(
    Effect.as(true),
    Effect.catch((error) => httpStatusOf(error) === 404 ? Effect.succeed(false) : Effect.fail(storageUnavailable("bucket check", name, error))),
  )
  const whenNotFound = <A, E>(operation: string, onMissingObject: () => Effect.Effect<A, E>) => (error: unknown) =>
    httpStatusOf(error) !== 404
      ? Effect.fail(storageUnavailable(operation, name, error))
      : Effect.flatMap(bucketExists, (exists): Effect.Effect<A, E | Unavailable> => exists ? onMissingObject() : Effect.fail(bucketMissing(name)))

  const metadataOf = (key: string): Effect.Effect<Option.Option<FileMetadata>, Unavailable> =>
    call("metadata", () => bucket.file(key).getMetadata().then(([metadata]) => metadata)).pipe(
      Effect.map(Option.some),
      Effect.catch(whenNotFound("metadata", () => Effect.succeed(Option.none<FileMetadata>()))),
    )

  const copyFailure = (fromKey: string, toKey: string) => (error: unknown): Effect.Effect<never, ObjectExists | ObjectNotFound | Unavailable> =>
    httpStatusOf(error) === 412
      ? Effect.fail(new ObjectExists({ key: toKey }))
      : whenNotFound("copy", () => Effect.fail(new ObjectNotFound({ key: fromKey })))(error)

  /** A download of the object (or a range of it), pinned to the generation just looked up. */
  const download = (file: File, generation: unknown, range?: { start: number; end: number }) =>
    (generation === undefined ? file : bucket.file(file.name, { generation: String(generation) }))
      // Integrity is checked by the callers' SHA-256, not by the library's CRC32C in JavaScript (~140 MB/s).
      .createReadStream({ validation: false, ...range })

  const digestOf = (file: File, generation: unknown) =>
    Effect.tryPromise({
      try: async () => {
        const hash = createHash("sha256")
        const sizeBytes = await eachChunk(webStreamOf(download(file, generation), timeouts.idleMs), (chunk) => hash.update(chunk))
        return { sha256: hash.digest("hex"), sizeBytes }
      },
      catch: (error) => error,
    })

  const bytesOf = (key: string, offset: number, length: number) =>
    Effect.tryPromise({
      try: async () => {
        const chunks: Array<Uint8Array> = []
        const range = { start: offset, end: offset + length - 1 }
        const total = await eachChunk(webStreamOf(download(bucket.file(key), undefined, range), timeouts.idleMs), (c) => chunks.push(c))
        const out = new Uint8Array(total)
        chunks.reduce((at, chunk) => (out.set(chunk, at), at + chunk.length), 0)
        return out
      },
      catch: (error) => error,
    })

  return ObjectStorage.of({
    presignPut: (key, options) => presignPut(bucket.file(key), options, timeouts.signMs),
    presignGet: (key, options) => presignGet(bucket.file(key), options, timeouts.signMs),

    head: (key) => Effect.map(metadataOf(key), Option.map((metadata) => toStored(key, metadata))),

    digest: (key) =>
      Effect.gen(function*() {
        const metadata = yield* metadataOf(key)
        if (Option.isNone(metadata)) return Option.none()
        return yield* digestOf(bucket.file(key), metadata.value.generation).pipe(
          Effect.map(Option.some),
          // Deleted between the lookup and the read: the key is empty now.
          Effect.catch(whenNotFound("download", () => Effect.succeed(Option.none()))),
        )
      }),

    readRange: (key, offset, length) =>
      length <= 0
        ? Effect.flatMap(metadataOf(key), (m) => Option.isNone(m) ? Effect.fail(new ObjectNotFound({ key })) : Effect.succeed(new Uint8Array(0)))
        : bytesOf(key, offset, length).pipe(
          Effect.catch((error) =>
            // GCS answers 416 for a range that starts at or past the end: there are no bytes there.
            httpStatusOf(error) === 416
              ? Effect.succeed(new Uint8Array(0))
              : whenNotFound("ranged download", () => Effect.fail(new ObjectNotFound({ key })))(error)
          ),
        ),

    read: (key) =>
      Effect.gen(function*() {
        const metadata = yield* metadataOf(key)
        if (Option.isNone(metadata)) return yield* new ObjectNotFound({ key })
        return webStreamOf(download(bucket.file(key), metadata.value.generation), timeouts.idleMs)
      }),

    put: (key, body, { maxBytes }) =>
      Effect.gen(function*() {
        const file = bucket.file(key)
        const sink = file.createWriteStream({
          resumable: true,
          contentType: "application/octet-stream",
          // MD5 is computed natively; the library's default CRC32C runs in JavaScript at ~140 MB/s.
          validation: "md5",
          // Write-once: GCS refuses the upload (412) if any generation of the object exists.
          preconditionOpts: { ifGenerationMatch: 0 },
        })
        const outcome = yield* Effect.promise(() =>
          feedUpload(sink, body, { maxBytes, idleMs: timeouts.idleMs, finishMs: timeouts.callMs })
        )
        if (outcome.kind === "too_large") return yield* new ObjectTooLarge({ key, limitBytes: maxBytes })
        if (outcome.kind === "aborted") return yield* new UploadAborted({ key })
        if (outcome.kind === "failed") {
          const status = httpStatusOf(outcome.error)
          if (status === 412) return yield* new ObjectExists({ key })
          return yield* (status === 404 ? bucketMissing(name) : storageUnavailable("upload", name, outcome.error))
        }
        return toStored(key, file.metadata)
      }),

    move: (fromKey, toKey) =>
      Effect.gen(function*() {
        // GCS has no rename: a server-side copy that must create the destination, then the source goes.
        yield* call("copy", () => bucket.file(fromKey).copy(bucket.file(toKey), { preconditionOpts: { ifGenerationMatch: 0 } })).pipe(
          Effect.catch(copyFailure(fromKey, toKey)),
        )
        yield* call("delete", () => bucket.file(fromKey).delete()).pipe(
          Effect.catch(whenNotFound("delete", () => Effect.void)),
        )
      }),

    delete: (key) =>
      call("delete", () => bucket.file(key).delete()).pipe(
        Effect.asVoid,
        Effect.catch(whenNotFound("delete", () => Effect.void)),
      ),

    list: (prefix) =>
      call("list", () => bucket.getFiles({ prefix, autoPaginate: true })).pipe(
        Effect.map(([files]) => files.map((file) => toStored(file.name, file.metadata))),
        Effect.catch((error) => Effect.fail(httpStatusOf(error) === 404 ? bucketMissing(name) : storageUnavailable("list", name, error))),
      ),

    // Uploads stream straight into the bucket; GCS discards an upload that never completed, so nothing is left here.
    removeAbandonedWrites: () => Effect.succeed({ removedFiles: 0, removedBytes: 0 }),
  })
}

export const layerGcsObjectStorage = (settings: GcsSettings, timeouts?: GcsTimeouts) =>
  Layer.sync(ObjectStorage, () => makeGcsObjectStorage(settings, timeouts))
