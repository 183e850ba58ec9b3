import { Effect, Layer } from "effect"
import { StorageNotConfigured } from "../../domain/errors.ts"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"

/**
 * The object store when GCS is selected but cannot work (no bucket, no usable credentials): the server still starts,
 * and every storage operation fails with StorageNotConfigured (503 storage_not_configured) without any network call.
 */
export const layerUnconfiguredStorage = (reason: string) =>
  Layer.sync(ObjectStorage, () => {
    const refuse = Effect.fail(new StorageNotConfigured({ reason }))
    return ObjectStorage.of({
      presignPut: () => refuse,
      presignGet: () => refuse,
      head: () => refuse,
      digest: () => refuse,
      readRange: () => refuse,
      read: () => refuse,
      put: (_key, body) => Effect.andThen(Effect.promise(() => body.cancel().catch(() => undefined)), refuse),
      move: () => refuse,
      delete: () => refuse,
      list: () => refuse,
      removeAbandonedWrites: () => Effect.succeed({ removedFiles: 0, removedBytes: 0 }),
    })
  })
