import { Effect, Option, Schema } from "effect"
import { Clock } from "../../ports/Clock.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { ReviewGateStore } from "../../ports/ReviewGateStore.ts"
import { ScanStore } from "../../ports/ScanStore.ts"
import { type Principal, requireAdmin } from "../auth/Principal.ts"
import { Claimed, FindingsUnresolved, GameNotFoundOrForbidden, NotFound, type PendingOnly, ReleaseNotPending, ScanPending } from "../errors.ts"
import { type HeldLease, leaseLost, recordUnderLease, withLifecycleLease } from "../release/LifecycleLease.ts"
import type { Release } from "../release/Release.ts"
import { verifyStoredBytes } from "../release/StoredBytes.ts"
import { FIRST_PAGE, pendingReleasesPage } from "../paging/lists.ts"
import type { PageParams } from "../paging/Page.ts"
import { ReasonText } from "../text/UserText.ts"
import { actorOf } from "../auth/Actor.ts"
import { catalogStatus, type LifecycleStep, nextReleaseStatus, type ReviewEvent } from "./ReviewMachine.ts"
import { type ApproveBody, NO_OVERRIDE, pendingScan, scanCounts, scannedState, unresolvedErrors } from "./ReviewGate.ts"

/** The reason the creator reads: several lines allowed, decoded to NFC (see domain/text/UserText.ts). Branded like ApproveBody. */
export const RejectBody = Schema.Struct({ reason: ReasonText }).pipe(Schema.brand("RejectBody"))
export type RejectBody = typeof RejectBody.Type

// Administrator-only operations answer 404 to everyone else, like unknown routes (the one rule, domain/auth/Principal.ts).
export { requireAdmin }

/** An administrator's call about a game: an unknown game is 404 game_not_found_or_forbidden (api-conventions.md). */
export const existingGame = Effect.fnUntraced(function*(gameId: string) {
  if (Option.isNone(yield* GameStore.use((g) => g.get(gameId)))) return yield* new GameNotFoundOrForbidden({ gameId })
})

/** The release, if `event` may happen to it now: 404 not_found, else 409 release_not_pending (worded for `operation`). */
export const pendingRelease = Effect.fnUntraced(function*(gameId: string, version: string, event: ReviewEvent, operation: PendingOnly = "review") {
  const release = Option.getOrNull(yield* ReleaseStore.use((r) => r.get(gameId, version)))
  if (release === null) return yield* new NotFound({ what: "release" })
  if (nextReleaseStatus(release.status, event) === null) {
    return yield* new ReleaseNotPending({ gameId, version, status: release.status, operation })
  }
  return release
})

/** The game's state after a review decision, for the response. */
export const gameOutcome = Effect.fnUntraced(function*(gameId: string) {
  const store = yield* ReleaseStore
  const releases = yield* store.listByGame(gameId)
  const activeVersion = yield* store.activeVersion(gameId)
  return { gameStatus: catalogStatus(releases, activeVersion), activeVersion }
})

/**
 * The review gate (issue 15), after the release is known to be pending: another administrator's live claim refuses the
 * decision; approval also waits for the scan and wants every error finding accepted, or an override reason.
 */
const refuseOthersClaim = Effect.fnUntraced(function*(principal: Principal, gameId: string, version: string, now: Date) {
  const claim = Option.getOrNull(yield* ReviewGateStore.use((g) => g.getClaim(gameId, version)))
  if (claim !== null && claim.by !== principal.userId && claim.until.getTime() > now.getTime()) {
    return yield* new Claimed({ gameId, version, claimedBy: claim.by, claimedUntil: claim.until })
  }
})

const passScanGate = Effect.fnUntraced(function*(gameId: string, version: string, override: string | null) {
  const record = Option.getOrNull(yield* ScanStore.use((s) => s.get(gameId, version)))
  if (record === null) return yield* new ScanPending({ gameId, version })
  const accepted = new Set((yield* ReviewGateStore.use((g) => g.acceptances(gameId))).map((a) => a.fingerprint))
  const unresolved = unresolvedErrors(record.report, accepted)
  if (unresolved > 0 && override === null) return yield* new FindingsUnresolved({ gameId, version, unresolvedErrors: unresolved })
  return scannedState(scanCounts(record.report))
})

/**
 * A review decision runs under the game's lifecycle lease (domain/release/LifecycleLease.ts), like takedowns: a game-wide
 * takedown in progress has either listed this release's approval among those it takes down, or recorded its step
 * before the decision is made. An unknown or decided release is answered before waiting for the lease (and decided
 * again under it).
 */
const decision = <A, E, R>(
  gameId: string,
  version: string,
  event: ReviewEvent,
  decide: (release: Release, lease: HeldLease) => Effect.Effect<A, E, R>,
) =>
  Effect.andThen(
    pendingRelease(gameId, version, event),
    withLifecycleLease(gameId, (lease) => Effect.flatMap(pendingRelease(gameId, version, event), (release) => decide(release, lease))),
  )

/** Records the decision while the lease is held; a release decided meanwhile is 409 release_not_pending. */
const recordDecision = (lease: HeldLease, step: LifecycleStep & { readonly type: "approve" | "reject" }) =>
  recordUnderLease(lease, step).pipe(
    Effect.catchTag("LifecycleRefused", (refused) =>
      Effect.fail(new ReleaseNotPending({ gameId: lease.gameId, version: step.version, status: refused.status, operation: "review" }))),
    Effect.catchTag("LifecycleLeaseLost", leaseLost),
  )

/**
 * POST /api/admin/games/{gameId}/releases/{version}/approve (spec §3): the gate (claim, scan, findings), then re-verify
 * the stored bytes, then publish and move the pointer. `body` is optional: `{"override": {"reason": "…"}}`.
 */
export const approveRelease = Effect.fn("approveRelease")(function*(principal: Principal, gameId: string, version: string, body: ApproveBody = NO_OVERRIDE) {
  yield* requireAdmin(principal)
  yield* existingGame(gameId)
  const overrideReason = body.override?.reason.trim() ?? null
  return yield* decision(gameId, version, { type: "approve" }, (release, lease) => Effect.gen(function*() {
    const now = yield* (yield* Clock).now
    yield* refuseOthersClaim(principal, gameId, version, now)
    const scan = yield* passScanGate(gameId, version, overrideReason)
    yield* verifyStoredBytes(release, release.objectKey, "approve")
    const at = yield* (yield* Clock).now
    // Approval activates only by the rules of ReviewMachine.ts (newer than the active release, published on approval);
    // the store re-checks the claim, ends it and records the override in the same step as the decision.
    const outcome = yield* recordDecision(lease, { type: "approve", version, by: principal.userId, at, actor: actorOf(principal), overrideReason })
    const approvalOverride = overrideReason === null ? null : { reason: overrideReason, by: principal.userId, at }
    return {
      release: outcome.updated[0]!,
      scan,
      approvalOverride,
      ...(yield* gameOutcome(gameId)),
      activated: outcome.activationNote === null,
      activationNote: outcome.activationNote,
    }
  }))
})

/** POST /api/admin/games/{gameId}/releases/{version}/reject: records the reason; the active release stays. */
export const rejectRelease = Effect.fn("rejectRelease")(function*(principal: Principal, gameId: string, version: string, body: RejectBody) {
  yield* requireAdmin(principal)
  yield* existingGame(gameId)
  const reason = body.reason.trim()
  const event: ReviewEvent = { type: "reject", reason }
  return yield* decision(gameId, version, event, (_release, lease) => Effect.gen(function*() {
    const at = yield* (yield* Clock).now
    // Rejecting never waits for the scan; only another administrator's claim holds it back.
    yield* refuseOthersClaim(principal, gameId, version, at)
    const outcome = yield* recordDecision(lease, { type: "reject", version, by: principal.userId, at, actor: actorOf(principal), reason })
    return { release: outcome.updated[0]!, scan: yield* scanState(gameId, version), approvalOverride: null, ...(yield* gameOutcome(gameId)) }
  }))
})

/** The scan state of one release, for decisions and release details. */
export const scanState = Effect.fnUntraced(function*(gameId: string, version: string) {
  const [counts] = yield* ScanStore.use((s) => s.countsOf([{ gameId, version }]))
  return counts === undefined ? pendingScan : scannedState(counts)
})

/**
 * The queue's gate columns, from the stored counts (never the reports): scan state, capabilities this release adds to
 * its game's active release, and who holds a live claim.
 */
const queueGateColumns = Effect.fnUntraced(function*(pending: ReadonlyArray<Release>, now: Date) {
  const gameIds = [...new Set(pending.map((r) => r.gameId))]
  // The game's stored pointer (issue 16), not the most recent approval: a staged or older approval is not active.
  const actives = yield* Effect.forEach(gameIds, (gameId) =>
    Effect.map(ReleaseStore.use((r) => r.activeVersion(gameId)), (version) => (version === null ? null : { gameId, version })))
  const activeKeys = actives.flatMap((a) => (a === null ? [] : [a]))
  const activeVersion = new Map(activeKeys.map((a) => [a.gameId, a.version]))
  const counts = yield* ScanStore.use((s) => s.countsOf([...pending, ...activeKeys]))
  const countsByKey = new Map(counts.map((c) => [`${c.gameId}\u0000${c.version}`, c]))
  const claims = yield* ReviewGateStore.use((g) => g.claimsOf(pending))
  const liveClaims = new Map(claims.filter((c) => c.until.getTime() > now.getTime()).map((c) => [`${c.gameId}\u0000${c.version}`, c]))
  return (key: string) => {
    const own = countsByKey.get(key)
    const gameId = key.slice(0, key.indexOf("\u0000"))
    const active = activeVersion.get(gameId)
    const before = new Set(active === undefined ? [] : countsByKey.get(`${gameId}\u0000${active}`)?.capabilities ?? [])
    return {
      scan: own === undefined ? pendingScan : scannedState(own),
      capabilitiesAdded: (own?.capabilities ?? []).filter((c) => !before.has(c)),
      claimedBy: liveClaims.get(key)?.by ?? null,
      claimedUntil: liveClaims.get(key)?.until ?? null,
    }
  }
})

/** GET /api/admin/review-queue: a page of pending releases, oldest first, with how long each has waited. */
export const reviewQueue = Effect.fn("reviewQueue")(function*(principal: Principal, pageParams: PageParams = FIRST_PAGE) {
  yield* requireAdmin(principal)
  const { items: pending, nextCursor } = yield* pendingReleasesPage(pageParams)
  const games = new Map((yield* GameStore.use((g) => g.getMany([...new Set(pending.map((r) => r.gameId))]))).map((g) => [g.id, g]))
  const now = yield* (yield* Clock).now
  const gate = yield* queueGateColumns(pending, now)
  const items = pending.flatMap((release) => {
    const game = games.get(release.gameId)
    if (game === undefined) return []
    const key = `${release.gameId}\u0000${release.version}`
    return [{
      gameId: game.id,
      gameName: game.name,
      slug: game.slug,
      ownerId: game.ownerId,
      version: release.version,
      sha256: release.sha256,
      sizeBytes: release.sizeBytes,
      source: release.source,
      submittedAt: release.createdAt,
      waitingSeconds: Math.max(0, Math.floor((now.getTime() - release.createdAt.getTime()) / 1000)),
      ...gate(key),
    }]
  })
  return { items, nextCursor }
})
