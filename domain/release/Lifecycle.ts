// The release lifecycle after review (issue 16): withdraw, activate (go-live of a staged release or a rollback),
// takedown and reinstate of one release or of a whole game. The rules (which status allows what, where the pointer
// goes, which timeline events are written) are data in domain/review/ReviewMachine.ts; these use cases check who may
// act, move objects in and out of quarantine, re-verify bytes, and hand the step to the store.
import { Effect, Option, Schema } from "effect"
import { Clock } from "../../ports/Clock.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { type LifecycleOutcome, ReleaseStore } from "../../ports/ReleaseStore.ts"
import { actorOf } from "../auth/Actor.ts"
import { owns, type Principal, seesAllReleases } from "../auth/Principal.ts"
import {
  GameNotFoundOrForbidden,
  NotFound,
  ReleaseNotActivatable,
  ReleaseNotApproved,
  ReleaseNotPending,
  ReleaseNotTakenDown,
} from "../errors.ts"
import { GAME_ID_PATTERN } from "../game/Game.ts"
import { gameOutcome } from "../review/Review.ts"
import type { LifecycleStep } from "../review/ReviewMachine.ts"
import { ReasonText } from "../text/UserText.ts"
import { type HeldLease, leaseLost, recordUnderLease, withLifecycleLease } from "./LifecycleLease.ts"
import { quarantineObjectKey } from "./ObjectKey.ts"
import type { Release } from "./Release.ts"
import { movesThenRecord } from "./MovesThenRecord.ts"
import { moveReleaseObject, verifyStoredBytes } from "./StoredBytes.ts"

/** activate's optional body; branded, so only a decoded one reaches activateRelease. */
export const ActivateBody = Schema.Struct({ reason: Schema.optionalKey(ReasonText) }).pipe(Schema.brand("ActivateBody"))
export type ActivateBody = typeof ActivateBody.Type
/** The body of a takedown or reinstate (one release or the whole game). */
export const TakedownBody = Schema.Struct({ reason: ReasonText }).pipe(Schema.brand("TakedownBody"))
export type TakedownBody = typeof TakedownBody.Type

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

/** The store step (fenced by `lease` when the step runs under one); a refusal is `refused`'s 409. */
const applied = <E>(gameId: string, step: LifecycleStep, refused: (status: string, version: string) => E, lease?: HeldLease) =>
  (lease === undefined ? ReleaseStore.use((r) => r.lifecycle(gameId, step)) : recordUnderLease(lease, step)).pipe(
    Effect.catchTag("LifecycleLeaseLost", leaseLost),
    Effect.catchTag("LifecycleRefused", (e) => Effect.fail(refused(e.status, e.version))),
  )

/** The store step under `lease`, at the time it is recorded (after any moves). */
const recordStep = (lease: HeldLease, step: (at: Date) => LifecycleStep) =>
  Effect.flatMap(Clock.use((clock) => clock.now), (at) => recordUnderLease(lease, step(at)))

const answer = Effect.fnUntraced(function*(gameId: string, outcome: LifecycleOutcome) {
  return { releases: outcome.updated, ...(yield* gameOutcome(gameId)) }
})

/** POST /api/games/{gameId}/releases/{version}/withdraw (owner): a pending release leaves the queue; its version stays used. */
export const withdrawRelease = Effect.fn("withdrawRelease")(function*(principal: Principal, gameId: string, version: string) {
  yield* gameFor(principal, gameId, (ownerId) => owns(principal, ownerId))
  const release = yield* releaseOf(gameId, version)
  if (release.status !== "pending_review") return yield* new ReleaseNotPending({ gameId, version, status: release.status, operation: "withdraw" })
  const at = yield* (yield* Clock).now
  const outcome = yield* applied(gameId, { type: "withdraw", version, at, actor: actorOf(principal) }, (status) =>
    new ReleaseNotPending({ gameId, version, status, operation: "withdraw" }))
  return yield* answer(gameId, outcome)
})

/**
 * POST /api/games/{gameId}/releases/{version}/activate (owner or admin): an approved release becomes active without a
 * new review (a staged go-live, or a rollback), after its bytes are verified again. Under the game's lifecycle lease, so
 * a takedown in progress is either finished (409 release_not_activatable) or not started.
 */
export const activateRelease = Effect.fn("activateRelease")(function*(principal: Principal, gameId: string, version: string, body: ActivateBody) {
  const { reason } = body
  yield* gameFor(principal, gameId, (ownerId) => seesAllReleases(principal, ownerId))
  const outcome = yield* withLifecycleLease(gameId, (lease) =>
    Effect.gen(function*() {
      const release = yield* releaseOf(gameId, version)
      if (release.status !== "approved") return yield* new ReleaseNotActivatable({ gameId, version, status: release.status })
      yield* verifyStoredBytes(release, release.objectKey, "activate")
      const at = yield* (yield* Clock).now
      const step: LifecycleStep = { type: "activate", version, at, actor: actorOf(principal), reason: reason?.trim() || null }
      return yield* applied(gameId, step, (status) => new ReleaseNotActivatable({ gameId, version, status }), lease)
    }))
  return { ...(yield* answer(gameId, outcome)), activated: true as const }
})

/**
 * Takes `releases` down: each object moves to its quarantine key first (so URLs issued for it fail at once), then the
 * store records the step; when that fails, the moves are settled by what was recorded (MovesThenRecord.ts). Runs under
 * the game's lease.
 */
const takeDown = Effect.fnUntraced(function*(
  principal: Principal,
  lease: HeldLease,
  releases: ReadonlyArray<Release>,
  reason: string,
  scope: "release" | "game",
) {
  const { gameId } = lease
  const quarantineKeys = Object.fromEntries(releases.map((r) => [r.version, quarantineObjectKey(gameId, r.version, r.sha256)]))
  const versions = releases.map((r) => r.version)
  return yield* movesThenRecord(
    { operation: "take_down", statusBefore: "approved" },
    (moved) =>
      Effect.forEach(releases, (release) =>
        moveReleaseObject(release, release.objectKey, quarantineKeys[release.version]!, "take_down").pipe(
          Effect.tap(() => Effect.sync(() => moved.push({ release, from: release.objectKey, to: quarantineKeys[release.version]! }))),
        ), { discard: true }),
    recordStep(lease, (at) => ({ type: "take_down", versions, at, actor: actorOf(principal), reason, quarantineKeys, scope })),
  ).pipe(
    Effect.catchTag("LifecycleRefused", (e) => Effect.fail(new ReleaseNotApproved({ gameId, version: e.version, status: e.status }))),
    Effect.catchTag("LifecycleLeaseLost", leaseLost),
  )
})

/**
 * Brings `releases` back from quarantine (replacing whatever else was written at their own keys meanwhile), verifies
 * their bytes, and records them approved again; when that fails, the moves are settled by what was recorded. Under the
 * game's lease.
 */
const reinstate = Effect.fnUntraced(function*(
  principal: Principal,
  lease: HeldLease,
  releases: ReadonlyArray<Release>,
  reason: string,
  scope: "release" | "game",
) {
  const { gameId } = lease
  const versions = releases.map((r) => r.version)
  return yield* movesThenRecord(
    { operation: "reinstate", statusBefore: "taken_down" },
    (moved) =>
      Effect.forEach(releases, (release) =>
        Effect.gen(function*() {
          if (release.quarantineKey) {
            yield* moveReleaseObject(release, release.quarantineKey, release.objectKey, "reinstate")
            moved.push({ release, from: release.quarantineKey, to: release.objectKey })
          }
          yield* verifyStoredBytes(release, release.objectKey, "reinstate")
        }), { discard: true }),
    recordStep(lease, (at) => ({ type: "reinstate", versions, at, actor: actorOf(principal), reason, scope })),
  ).pipe(
    Effect.catchTag("LifecycleRefused", (e) => Effect.fail(new ReleaseNotTakenDown({ gameId, version: e.version, status: e.status }))),
    Effect.catchTag("LifecycleLeaseLost", leaseLost),
  )
})

const adminGame = (principal: Principal, gameId: string) => gameFor(principal, gameId, () => principal.isAdmin)

/** The game's releases as they are once the lease is held: what the decision is made on. */
const releasesOf = (gameId: string) => ReleaseStore.use((r) => r.listByGame(gameId))

/** An administrator's takedown or reinstate: the game checked, then `decide` under the game's lease. */
const adminStep = Effect.fnUntraced(function*<E, R>(
  principal: Principal,
  gameId: string,
  body: TakedownBody,
  decide: (reason: string, lease: HeldLease) => Effect.Effect<LifecycleOutcome, E, R>,
) {
  const { reason } = body
  yield* adminGame(principal, gameId)
  return yield* answer(gameId, yield* withLifecycleLease(gameId, (lease) => decide(reason.trim(), lease)))
})

/** POST /api/admin/games/{gameId}/releases/{version}/takedown {reason}. */
export const takeDownRelease = Effect.fn("takeDownRelease")((principal: Principal, gameId: string, version: string, body: TakedownBody) =>
  adminStep(principal, gameId, body, (reason, lease) =>
    Effect.gen(function*() {
      const release = yield* releaseOf(gameId, version)
      if (release.status !== "approved") return yield* new ReleaseNotApproved({ gameId, version, status: release.status })
      return yield* takeDown(principal, lease, [release], reason, "release")
    }))
)

/** POST /api/admin/games/{gameId}/releases/{version}/reinstate {reason}: approved again, not active until activated. */
export const reinstateRelease = Effect.fn("reinstateRelease")((principal: Principal, gameId: string, version: string, body: TakedownBody) =>
  adminStep(principal, gameId, body, (reason, lease) =>
    Effect.gen(function*() {
      const release = yield* releaseOf(gameId, version)
      if (release.status !== "taken_down") return yield* new ReleaseNotTakenDown({ gameId, version, status: release.status })
      return yield* reinstate(principal, lease, [release], reason, "release")
    }))
)

/**
 * POST /api/admin/games/{gameId}/takedown {reason}: every approved release at once (no falling back through old builds),
 * each recorded as taken down with the game (and the active one as such), so that the game-wide reinstate reverses
 * exactly this.
 */
export const takeDownGame = Effect.fn("takeDownGame")((principal: Principal, gameId: string, body: TakedownBody) =>
  adminStep(principal, gameId, body, (reason, lease) =>
    Effect.gen(function*() {
      const approved = (yield* releasesOf(gameId)).filter((r) => r.status === "approved")
      if (approved.length === 0) return yield* new ReleaseNotApproved({ gameId, version: "*", status: "not approved (none is)" })
      return yield* takeDown(principal, lease, approved, reason, "game")
    }))
)

/**
 * POST /api/admin/games/{gameId}/reinstate {reason}: reverses the game-wide takedown — only the releases it took (not
 * those taken down alone, before or after), and, when nothing is active, the release that was active then is again.
 */
export const reinstateGame = Effect.fn("reinstateGame")((principal: Principal, gameId: string, body: TakedownBody) =>
  adminStep(principal, gameId, body, (reason, lease) =>
    Effect.gen(function*() {
      const takenWithGame = (yield* releasesOf(gameId)).filter((r) =>
        r.status === "taken_down" && (r.takedownScope === "game" || r.takedownScope === "game_active")
      )
      if (takenWithGame.length === 0) {
        return yield* new ReleaseNotTakenDown({ gameId, version: "*", status: "not taken down with the game (none is)" })
      }
      return yield* reinstate(principal, lease, takenWithGame, reason, "game")
    }))
)
