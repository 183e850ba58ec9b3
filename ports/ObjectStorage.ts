import { Context, type Effect, type Option, Schema } from "effect"
import type { StorageNotConfigured, Unavailable } from "../domain/errors.ts"

/** The key already holds an object: every key is write-once. */
export class ObjectExists extends Schema.TaggedError<ObjectExists>()("ObjectExists", { key: Schema.String }) {}
/** The body was longer than the limit given to `put`; nothing was kept. */
export class ObjectTooLarge extends Schema.TaggedError<ObjectTooLarge>()("ObjectTooLarge", {
  key: Schema.String,
  limitBytes: Schema.Number,
}) {}
/** The body stream broke before its end (client gone, connection cut); nothing was kept. */
export class UploadAborted extends Schema.TaggedError<UploadAborted>()("UploadAborted", { key: Schema.String }) {}
/** The store has no room for the object (a full disk or quota); nothing was kept, and the space it took is free again. */
export class StorageFull extends Schema.TaggedError<StorageFull>()("StorageFull", { key: Schema.String }) {}
export class ObjectNotFound extends Schema.TaggedError<ObjectNotFound>()("ObjectNotFound", { key: Schema.String }) {}

export type StorageFailure = StorageNotConfigured | Unavailable

export interface PresignedPut {
  readonly url: string
  /** Exactly the headers the PUT must send verbatim; lowercase names. They are part of the signature. */
  readonly headers: Readonly<Record<string, string>>
  readonly expiresAt: Date
}

export interface PresignedGet {
  readonly url: string
  readonly expiresAt: Date
}

export interface StoredObject {
  readonly key: string
  readonly sizeBytes: number
  readonly modifiedAt: Date
}

export interface ObjectDigest {
  readonly sha256: string
  readonly sizeBytes: number
}

/** What a sweep of abandoned temporary writes removed. */
export interface AbandonedWrites {
  readonly removedFiles: number
  readonly removedBytes: number
}

export interface PutOptions {
  readonly maxBytes: number
  /**
   * A hint for large objects nothing reads back whole soon after (a multipart upload, hashed on the way in): a store
   * may write them around its cache. The local disk store writes them with O_DIRECT where the file system allows;
   * other stores ignore it. The stored bytes are the same either way.
   */
  readonly bypassCache?: boolean
}

/**
 * Object storage for artifacts. Writes are write-once and atomic: an interrupted write leaves nothing at the key.
 * Implementations: memory, local disk (the embedded default), Google Cloud Storage.
 */
export class ObjectStorage extends Context.Service<ObjectStorage, {
  /** A URL the client PUTs the bytes to, signed over method, key, expiry, the declared size and the returned headers. */
  presignPut(key: string, options: {
    readonly sizeBytes: number
    readonly now: Date
    readonly expiresInSeconds: number
  }): Effect.Effect<PresignedPut, StorageFailure>
  presignGet(key: string, options: {
    readonly now: Date
    readonly expiresInSeconds: number
    readonly downloadName?: string
  }): Effect.Effect<PresignedGet, StorageFailure>
  head(key: string): Effect.Effect<Option.Option<StoredObject>, StorageFailure>
  /** SHA-256 and size of the stored bytes, computed by the store at its best speed; None if the key is empty. */
  digest(key: string): Effect.Effect<Option.Option<ObjectDigest>, StorageFailure>
  /** Up to `length` bytes from `offset` (fewer at the end of the object). */
  readRange(key: string, offset: number, length: number): Effect.Effect<Uint8Array, ObjectNotFound | StorageFailure>
  read(key: string): Effect.Effect<ReadableStream<Uint8Array>, ObjectNotFound | StorageFailure>
  /** Writes the stream to a key that must be empty; more than `maxBytes` fails with ObjectTooLarge and keeps nothing. */
  put(key: string, body: ReadableStream<Uint8Array>, options: PutOptions): Effect.Effect<
    StoredObject,
    ObjectExists | ObjectTooLarge | UploadAborted | StorageFull | StorageFailure
  >
  /**
   * Moves an object to a key that must be empty (write-once at the destination). A store whose move is two steps may
   * finish, on a retry, a move a crash left half done (local disk does, when the destination holds the same bytes);
   * the lifecycle settles the rest by digest (domain/release/StoredBytes.ts).
   */
  move(fromKey: string, toKey: string): Effect.Effect<void, ObjectExists | ObjectNotFound | StorageFailure>
  /** Deletes the object; a missing object is not an error. */
  delete(key: string): Effect.Effect<void, StorageFailure>
  /** Every object under `prefix` (for the sweeper). */
  list(prefix: string): Effect.Effect<ReadonlyArray<StoredObject>, StorageFailure>
  /**
   * Removes what writes that no longer run left behind (a crashed process's partial files): those no live write owns
   * and whose owner is provably gone, and any other older than `graceSeconds`. Stores that keep no partial writes of
   * their own (memory, GCS) report nothing.
   */
  removeAbandonedWrites(options: { readonly now: Date; readonly graceSeconds: number }): Effect.Effect<AbandonedWrites, StorageFailure>
}>()("pckgate/ports/ObjectStorage") {}
