// The release lifecycle after review (issue 16): withdraw, activate (go-live of a staged release or a rollback),
// takedown and reinstate of one release or of a whole game. The rules (which status allows what, where the pointer
// goes, which timeline events are written) are data in domain/review/ReviewMachine.ts; these use cases check who may
// act, move objects in and out of quarantine, re-verify bytes, and hand the step to the store.
import { Effect, Option, Schema } from "effect"
import { Clock } from "../../ports/Clock.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { type LifecycleOutcome, ReleaseStore } from "../../ports/ReleaseStore.ts"
import { actorOf } from "../auth/Actor.ts"
import { owns, type Principal, seesAllReleases } from "../auth/Principal.ts"
import { decodeInput } from "../decode.ts"
import {
  GameNotFoundOrForbidden,
  NotFound,
  ReleaseNotActivatable,
  ReleaseNotApproved,
  ReleaseNotPending,
  ReleaseNotTakenDown,
  StoredArtifactMissing,
  StoredChecksumMismatch,
  Unavailable,
} from "../errors.ts"
import { GAME_ID_PATTERN } from "../game/Game.ts"
import { gameOutcome } from "../review/Review.ts"
import type { LifecycleStep } from "../review/ReviewMachine.ts"
import { ReasonText } from "../text/UserText.ts"
import { quarantineObjectKey } from "./ObjectKey.ts"
import type { Release } from "./Release.ts"

export const ActivateBody = Schema.Struct({ reason: Schema.optionalKey(ReasonText) })
export const TakedownBody = Schema.Struct({ reason: ReasonText })

/** The game, if `allowed` says the caller may act on it; 404 game_not_found_or_forbidden otherwise. */
const gameFor = Effect.fnUntraced(function*(principal: Principal, gameId: string, allowed: (ownerId: string) => boolean) {
  if (!GAME_ID_PATTERN.test(gameId)) return yield* new GameNotFoundOrForbidden({ gameId })
  const game = Option.getOrNull(yield* GameStore.use((games) => games.get(gameId)))
  if (game === null || !allowed(game.ownerId)) return yield* new GameNotFoundOrForbidden({ gameId })
  return game
})

const releaseOf = Effect.fnUntraced(function*(gameId: string, version: string) {
  const release = Option.getOrNull(yield* ReleaseStore.use((r) => r.get(gameId, version)))
  if (release === null) return yield* new NotFound({ what: "release" })
  return release
})

/** The stored bytes at `key` are still the ones pinned at finalize. */
const verifyBytesAt = Effect.fnUntraced(function*(release: Release, key: string) {
  const digest = yield* ObjectStorage.use((s) => s.digest(key))
  if (Option.isNone(digest)) return yield* new StoredArtifactMissing({ key })
  if (digest.value.sha256 !== release.sha256 || digest.value.sizeBytes !== release.sizeBytes) {
    return yield* new StoredChecksumMismatch({ pinned: release.sha256, stored: digest.value.sha256 })
  }
})

/** Moves an object; a move that already happened (a retry after a crash between the move and the record) is done. */
const moveObject = Effect.fnUntraced(function*(from: string, to: string) {
  const storage = yield* ObjectStorage
  yield* storage.move(from, to).pipe(
    Effect.catchTags({
      ObjectNotFound: () =>
        Effect.flatMap(storage.head(to), (there) =>
          Option.isSome(there) ? Effect.void : Effect.fail(new StoredArtifactMissing({ key: from }))),
      ObjectExists: () => Effect.fail(new Unavailable({ dependency: "storage", reason: `${to} is already taken` })),
    }),
  )
})

const applied = <E>(gameId: string, step: LifecycleStep, refused: (status: string, version: string) => E) =>
  ReleaseStore.use((r) => r.lifecycle(gameId, step)).pipe(
    Effect.catchTag("LifecycleRefused", (e) => Effect.fail(refused(e.status, e.version))),
  )

const answer = Effect.fnUntraced(function*(gameId: string, outcome: LifecycleOutcome) {
  return { releases: outcome.updated, ...(yield* gameOutcome(gameId)) }
})

/** POST /api/games/{gameId}/releases/{version}/withdraw (owner): a pending release leaves the queue; its version stays used. */
export const withdrawRelease = Effect.fn("withdrawRelease")(function*(principal: Principal, gameId: string, version: string) {
  yield* gameFor(principal, gameId, (ownerId) => owns(principal, ownerId))
  const release = yield* releaseOf(gameId, version)
  if (release.status !== "pending_review") return yield* new ReleaseNotPending({ gameId, version, status: release.status })
  const at = yield* (yield* Clock).now
  const outcome = yield* applied(gameId, { type: "withdraw", version, at, actor: actorOf(principal) }, (status) =>
    new ReleaseNotPending({ gameId, version, status }))
  return yield* answer(gameId, outcome)
})

/**
 * POST /api/games/{gameId}/releases/{version}/activate (owner or admin): an approved release becomes active without a
 * new review (a staged go-live, or a rollback), after its bytes are verified again.
 */
export const activateRelease = Effect.fn("activateRelease")(function*(principal: Principal, gameId: string, version: string, body: unknown) {
  const { reason } = yield* decodeInput(ActivateBody, body ?? {})
  yield* gameFor(principal, gameId, (ownerId) => seesAllReleases(principal, ownerId))
  const release = yield* releaseOf(gameId, version)
  if (release.status !== "approved") return yield* new ReleaseNotActivatable({ gameId, version, status: release.status })
  yield* verifyBytesAt(release, release.objectKey)
  const at = yield* (yield* Clock).now
  const step: LifecycleStep = { type: "activate", version, at, actor: actorOf(principal), reason: reason?.trim() || null }
  const outcome = yield* applied(gameId, step, (status) => new ReleaseNotActivatable({ gameId, version, status }))
  return yield* answer(gameId, outcome)
})

/**
 * Takes `versions` down: each object moves to its quarantine key first (so URLs issued for it fail at once), then the
 * store records the step; if the store refuses (the release changed meanwhile), the objects move back.
 */
const takeDown = Effect.fnUntraced(function*(principal: Principal, gameId: string, releases: ReadonlyArray<Release>, reason: string) {
  const quarantineKeys: Record<string, string> = {}
  const moved: Array<Release> = []
  const moveBack = Effect.forEach(moved, (r) => moveObject(quarantineKeys[r.version]!, r.objectKey).pipe(Effect.ignore), { discard: true })
  return yield* Effect.gen(function*() {
    for (const release of releases) {
      const key = quarantineObjectKey(gameId, release.version, release.sha256)
      yield* moveObject(release.objectKey, key)
      quarantineKeys[release.version] = key
      moved.push(release)
    }
    const at = yield* (yield* Clock).now
    const step: LifecycleStep = {
      type: "take_down",
      versions: releases.map((r) => r.version),
      at,
      actor: actorOf(principal),
      reason,
      quarantineKeys,
    }
    return yield* applied(gameId, step, (status, version) => new ReleaseNotApproved({ gameId, version, status }))
  }).pipe(Effect.onError(() => moveBack))
})

/** Brings `releases` back from quarantine, verifies their bytes, and records them approved again. */
const reinstate = Effect.fnUntraced(function*(
  principal: Principal,
  gameId: string,
  releases: ReadonlyArray<Release>,
  reason: string,
  restorePointer: boolean,
) {
  const moved: Array<Release> = []
  const moveBack = Effect.forEach(moved, (r) => moveObject(r.objectKey, r.quarantineKey!).pipe(Effect.ignore), { discard: true })
  return yield* Effect.gen(function*() {
    for (const release of releases) {
      if (release.quarantineKey) yield* moveObject(release.quarantineKey, release.objectKey)
      moved.push(release)
      yield* verifyBytesAt(release, release.objectKey)
    }
    const at = yield* (yield* Clock).now
    const step: LifecycleStep = {
      type: "reinstate",
      versions: releases.map((r) => r.version),
      at,
      actor: actorOf(principal),
      reason,
      restorePointer,
    }
    return yield* applied(gameId, step, (status, version) => new ReleaseNotTakenDown({ gameId, version, status }))
  }).pipe(Effect.onError(() => moveBack))
})

const adminGame = (principal: Principal, gameId: string) => gameFor(principal, gameId, () => principal.isAdmin)

/** POST /api/admin/games/{gameId}/releases/{version}/takedown {reason}. */
export const takeDownRelease = Effect.fn("takeDownRelease")(function*(principal: Principal, gameId: string, version: string, body: unknown) {
  const { reason } = yield* decodeInput(TakedownBody, body)
  yield* adminGame(principal, gameId)
  const release = yield* releaseOf(gameId, version)
  if (release.status !== "approved") return yield* new ReleaseNotApproved({ gameId, version, status: release.status })
  return yield* answer(gameId, yield* takeDown(principal, gameId, [release], reason.trim()))
})

/** POST /api/admin/games/{gameId}/releases/{version}/reinstate {reason}: approved again, not active until activated. */
export const reinstateRelease = Effect.fn("reinstateRelease")(function*(principal: Principal, gameId: string, version: string, body: unknown) {
  const { reason } = yield* decodeInput(TakedownBody, body)
  yield* adminGame(principal, gameId)
  const release = yield* releaseOf(gameId, version)
  if (release.status !== "taken_down") return yield* new ReleaseNotTakenDown({ gameId, version, status: release.status })
  return yield* answer(gameId, yield* reinstate(principal, gameId, [release], reason.trim(), false))
})

/** POST /api/admin/games/{gameId}/takedown {reason}: every approved release at once (no falling back through old builds). */
export const takeDownGame = Effect.fn("takeDownGame")(function*(principal: Principal, gameId: string, body: unknown) {
  const { reason } = yield* decodeInput(TakedownBody, body)
  yield* adminGame(principal, gameId)
  const approved = (yield* ReleaseStore.use((r) => r.listByGame(gameId))).filter((r) => r.status === "approved")
  if (approved.length === 0) return yield* new ReleaseNotApproved({ gameId, version: "*", status: "not approved (none is)" })
  return yield* answer(gameId, yield* takeDown(principal, gameId, approved, reason.trim()))
})

/** POST /api/admin/games/{gameId}/reinstate {reason}: reverses a game-wide takedown; the newest reinstated release is active again. */
export const reinstateGame = Effect.fn("reinstateGame")(function*(principal: Principal, gameId: string, body: unknown) {
  const { reason } = yield* decodeInput(TakedownBody, body)
  yield* adminGame(principal, gameId)
  const takenDown = (yield* ReleaseStore.use((r) => r.listByGame(gameId))).filter((r) => r.status === "taken_down")
  if (takenDown.length === 0) return yield* new ReleaseNotTakenDown({ gameId, version: "*", status: "not taken down (none is)" })
  return yield* answer(gameId, yield* reinstate(principal, gameId, takenDown, reason.trim(), true))
})
