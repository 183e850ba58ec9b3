// A release's stored bytes: checked again against the digest pinned at finalize before a step relies on them, and
// moved between the release's own key and its quarantine key by takedowns and reinstatements.
import { Effect, Option } from "effect"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { StoredArtifactMissing, type StoredBytesCheck, StoredChecksumMismatch, Unavailable } from "../errors.ts"
import type { Release } from "./Release.ts"

/** The bytes at `key` are the ones pinned at finalize; else 409 checksum_mismatch / artifact_missing for `operation`. */
export const verifyStoredBytes = Effect.fnUntraced(function*(release: Release, key: string, operation: StoredBytesCheck) {
  const digest = yield* ObjectStorage.use((s) => s.digest(key))
  if (Option.isNone(digest)) return yield* new StoredArtifactMissing({ key, operation })
  if (digest.value.sha256 !== release.sha256 || digest.value.sizeBytes !== release.sizeBytes) {
    return yield* new StoredChecksumMismatch({ pinned: release.sha256, stored: digest.value.sha256, operation })
  }
})

/** True when `key` holds exactly the release's bytes. */
const holdsReleaseBytes = (release: Release, key: string) =>
  Effect.map(
    ObjectStorage.use((s) => s.digest(key)),
    Option.match({ onNone: () => false, onSome: (d) => d.sha256 === release.sha256 && d.sizeBytes === release.sizeBytes }),
  )

/** Attempts at replacing what sits at the destination before a move gives up (someone keeps writing there). */
const MOVE_ATTEMPTS = 3

/**
 * Moves the release's object from `from` to `to`, where both keys belong to this release alone, and settles what a
 * crash or a creator may have left there:
 * - nothing at `from` and the release's bytes at `to`: the move was done already (a crash before the record);
 * - the release's bytes at both keys: a move left half done; the copy at `from` goes;
 * - anything else at `to`: not the release's (bytes PUT to the release's own key, through an upload URL kept from
 *   before, while the release was taken down and the key empty); it is deleted, never served, and the move done.
 * Callers hold the game's lifecycle lease, so no other step moves these objects meanwhile.
 */
export const moveReleaseObject = Effect.fnUntraced(function*(release: Release, from: string, to: string, operation: StoredBytesCheck) {
  const storage = yield* ObjectStorage
  for (let attempt = 1;; attempt++) {
    const outcome = yield* storage.move(from, to).pipe(
      Effect.as("moved" as const),
      Effect.catchTags({ ObjectNotFound: () => Effect.succeed("missing" as const), ObjectExists: () => Effect.succeed("taken" as const) }),
    )
    if (outcome === "moved") return
    if (yield* holdsReleaseBytes(release, to)) {
      if (outcome === "taken") yield* storage.delete(from)
      return
    }
    if (outcome === "missing") return yield* new StoredArtifactMissing({ key: from, operation })
    if (attempt === MOVE_ATTEMPTS) {
      return yield* new Unavailable({ dependency: "storage", reason: `${to} was written again each time it was cleared; retry later` })
    }
    yield* storage.delete(to)
  }
})

export interface ReleaseMove {
  readonly release: Release
  readonly from: string
  readonly to: string
}

/**
 * Moves back, best effort, the objects a step moved before it failed, so they are where the unchanged records say
 * (replacing, like any move of a release's object, what was written at the emptied key meanwhile).
 */
export const undoMoves = (moves: ReadonlyArray<ReleaseMove>, operation: StoredBytesCheck) =>
  Effect.forEach(moves, (m) => moveReleaseObject(m.release, m.to, m.from, operation).pipe(Effect.ignore), { discard: true })
