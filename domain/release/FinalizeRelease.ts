import { actorOf } from "../auth/Actor.ts"
import { Effect, Option } from "effect"
import { Clock } from "../../ports/Clock.ts"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { ReviewNotifier } from "../../ports/ReviewNotifier.ts"
import { ScanWake } from "../../ports/ScanWake.ts"
import type { Principal } from "../auth/Principal.ts"
import { withBudget } from "../budget/withBudget.ts"
import { ArtifactMissing, ArtifactTooLarge, ChecksumMismatch, NoUploadIntent, SizeMismatch } from "../errors.ts"
import { type Declaration, uploadDeclaration } from "./Declaration.ts"
import { RELEASE_MAX_BYTES } from "./Limits.ts"
import type { Release, UploadDeclaration } from "./Release.ts"
import { ownedEngineGameWithFreeVersion } from "./ownedEngineGame.ts"

/**
 * Re-reads what storage holds and compares it with the declaration. On any mismatch the object is deleted, so the
 * write-once key is free for a corrected upload, and nothing is recorded.
 */
const verifyStoredArtifact = Effect.fnUntraced(function*(declaration: UploadDeclaration, key: string) {
  const storage = yield* ObjectStorage
  const head = yield* storage.head(key)
  if (Option.isNone(head)) return yield* new ArtifactMissing({ key })
  const storedBytes = head.value.sizeBytes
  if (storedBytes > RELEASE_MAX_BYTES) {
    yield* storage.delete(key)
    return yield* new ArtifactTooLarge({ sizeBytes: storedBytes, limitBytes: RELEASE_MAX_BYTES })
  }
  if (storedBytes !== declaration.sizeBytes) {
    yield* storage.delete(key)
    return yield* new SizeMismatch({ declaredBytes: declaration.sizeBytes, storedBytes })
  }
  const digest = yield* storage.digest(key)
  if (Option.isNone(digest)) return yield* new ArtifactMissing({ key })
  if (digest.value.sizeBytes !== declaration.sizeBytes) {
    yield* storage.delete(key)
    return yield* new SizeMismatch({ declaredBytes: declaration.sizeBytes, storedBytes: digest.value.sizeBytes })
  }
  if (digest.value.sha256 !== declaration.sha256) {
    yield* storage.delete(key)
    return yield* new ChecksumMismatch({ declared: declaration.sha256, stored: digest.value.sha256 })
  }
})

/** POST /api/games/{gameId}/releases/finalize: the server-verified record (spec §4.4). */
export const finalizeRelease = Effect.fn("finalizeRelease")(function*(principal: Principal, gameId: string, declared: Declaration) {
  const declaration = uploadDeclaration(gameId, declared)
  yield* ownedEngineGameWithFreeVersion(principal, gameId, declaration.version)
  return yield* withBudget(
    "finalize",
    principal.userId,
    Effect.gen(function*() {
      const releases = yield* ReleaseStore
      const now = yield* (yield* Clock).now
      const intent = yield* releases.findIntent(declaration, now)
      if (Option.isNone(intent)) return yield* new NoUploadIntent({ gameId, version: declaration.version })
      yield* verifyStoredArtifact(declaration, intent.value.objectKey)
      const release: Release = {
        gameId,
        version: declaration.version,
        sha256: declaration.sha256,
        sizeBytes: declaration.sizeBytes,
        contentType: declaration.contentType,
        objectKey: intent.value.objectKey,
        source: "release_api",
        status: "pending_review",
        createdBy: principal.userId,
        createdAt: yield* (yield* Clock).now,
        reviewedBy: null,
        reviewedAt: null,
        rejectionReason: null,
        publishMode: declaration.publishMode,
      }
      const stored = yield* releases.finalize(intent.value.id, release, actorOf(principal))
      yield* (yield* ReviewNotifier).notify({
        kind: "release_finalized",
        gameId,
        version: stored.version,
        sha256: stored.sha256,
        sizeBytes: stored.sizeBytes,
        at: stored.createdAt,
      })
      // The scan starts now, not on the worker's next tick (issue 15); other instances find it on their timer.
      const wake = yield* Effect.serviceOption(ScanWake)
      if (Option.isSome(wake)) yield* wake.value.wake
      return stored
    }),
  )
})
