import { Effect } from "effect"
import { Clock } from "../../ports/Clock.ts"
import { ObjectStorage, type StoredObject } from "../../ports/ObjectStorage.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { TEMP_PREFIX } from "../release/ObjectKey.ts"

/** Where releaseObjectKey puts every artifact. */
const RELEASES_PREFIX = "releases/"

/** Objects younger than this are never deleted: an upload may be landing, or a multipart scan still reading its temp file. */
export const DEFAULT_SWEEP_GRACE_SECONDS = 3600

export interface SweepReport {
  /** Upload intents that expired (24 h) without a finalize, now removed. */
  readonly expiredIntents: number
  readonly deletedObjects: ReadonlyArray<string>
  readonly keptObjects: number
  /** Partial files of writes that no longer run (a crashed upload), now removed, and the bytes they held. */
  readonly abandonedWrites: number
  readonly abandonedBytes: number
}

const DELETE_CONCURRENCY = 4

/**
 * Removes what nothing will ever use: partial files of writes that no longer run, expired upload intents, then objects under `releases/` and `tmp/` that are older
 * than the grace period and that no release and no live intent refers to. Referenced objects are never deleted; the
 * intents are swept first so their objects go in the same run.
 *
 * One race remains by design: an upload-url for an orphan's exact declaration recorded between the check and the
 * delete. Its PUT answered 412 (the key was taken), so its finalize then answers artifact_missing and the client
 * uploads again; nothing committed is touched.
 */
export const sweep = Effect.fn("sweep")(function*(graceSeconds: number = DEFAULT_SWEEP_GRACE_SECONDS) {
  const releases = yield* ReleaseStore
  const storage = yield* ObjectStorage
  const now = yield* (yield* Clock).now
  const abandoned = yield* storage.removeAbandonedWrites({ now, graceSeconds })
  const expiredIntents = yield* releases.deleteExpiredIntents(now)
  const stored: ReadonlyArray<StoredObject> = [...(yield* storage.list(RELEASES_PREFIX)), ...(yield* storage.list(TEMP_PREFIX))]
  const settled = stored.filter((object) => object.modifiedAt.getTime() <= now.getTime() - graceSeconds * 1000)
  const inUse = yield* releases.keysInUse(settled.map((object) => object.key), now)
  const orphans = settled.filter((object) => !inUse.has(object.key)).map((object) => object.key)
  yield* Effect.forEach(orphans, (key) => storage.delete(key), { concurrency: DELETE_CONCURRENCY, discard: true })
  return {
    expiredIntents,
    deletedObjects: orphans,
    keptObjects: stored.length - orphans.length,
    abandonedWrites: abandoned.removedFiles,
    abandonedBytes: abandoned.removedBytes,
  } satisfies SweepReport
})
