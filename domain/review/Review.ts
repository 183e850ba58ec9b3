import { Effect, Option, Schema } from "effect"
import { Clock } from "../../ports/Clock.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import type { Principal } from "../auth/Principal.ts"
import { decodeInput } from "../decode.ts"
import { NotFound, ReleaseNotPending, StoredArtifactMissing, StoredChecksumMismatch } from "../errors.ts"
import type { Release } from "../release/Release.ts"
import { FIRST_PAGE, pendingReleasesPage } from "../paging/lists.ts"
import type { PageParams } from "../paging/Page.ts"
import { ReasonText } from "../text/UserText.ts"
import { actorOf } from "../auth/Actor.ts"
import { catalogStatus, nextReleaseStatus, type ReviewEvent } from "./ReviewMachine.ts"

/** The reason the creator reads: several lines allowed, decoded to NFC (see domain/text/UserText.ts). */
export const RejectBody = Schema.Struct({ reason: ReasonText })

/** Administrator-only operations answer 404 to everyone else, like unknown routes. */
const requireAdmin = (principal: Principal) =>
  principal.isAdmin ? Effect.void : Effect.fail(new NotFound({ what: "route" }))

const pendingRelease = Effect.fnUntraced(function*(gameId: string, version: string, event: ReviewEvent) {
  const release = Option.getOrNull(yield* ReleaseStore.use((r) => r.get(gameId, version)))
  if (release === null) return yield* new NotFound({ what: "release" })
  if (nextReleaseStatus(release.status, event) === null) {
    return yield* new ReleaseNotPending({ gameId, version, status: release.status })
  }
  return release
})

/** Re-reads the stored bytes and compares them with the digest pinned at finalize. */
const reverifyStoredBytes = Effect.fnUntraced(function*(release: Release) {
  const digest = yield* ObjectStorage.use((s) => s.digest(release.objectKey))
  if (Option.isNone(digest)) return yield* new StoredArtifactMissing({ key: release.objectKey })
  if (digest.value.sha256 !== release.sha256 || digest.value.sizeBytes !== release.sizeBytes) {
    return yield* new StoredChecksumMismatch({ pinned: release.sha256, stored: digest.value.sha256 })
  }
})

/** The game's state after a review decision, for the response. */
export const gameOutcome = Effect.fnUntraced(function*(gameId: string) {
  const store = yield* ReleaseStore
  const releases = yield* store.listByGame(gameId)
  const activeVersion = yield* store.activeVersion(gameId)
  return { gameStatus: catalogStatus(releases, activeVersion), activeVersion }
})

/** POST /api/admin/games/{gameId}/releases/{version}/approve (spec §3): re-verify, then publish and move the pointer. */
export const approveRelease = Effect.fn("approveRelease")(function*(principal: Principal, gameId: string, version: string) {
  yield* requireAdmin(principal)
  const release = yield* pendingRelease(gameId, version, { type: "approve" })
  yield* reverifyStoredBytes(release)
  const at = yield* (yield* Clock).now
  // Approval activates only by the rules of ReviewMachine.ts (newer than the active release, published on approval).
  const outcome = yield* ReleaseStore.use((r) =>
    r.lifecycle(gameId, { type: "approve", version, by: principal.userId, at, actor: actorOf(principal) })
  ).pipe(Effect.catchTag("LifecycleRefused", (refused) => Effect.fail(new ReleaseNotPending({ gameId, version, status: refused.status }))))
  return {
    release: outcome.updated[0]!,
    ...(yield* gameOutcome(gameId)),
    activated: outcome.activationNote === null,
    activationNote: outcome.activationNote,
  }
})

/** POST /api/admin/games/{gameId}/releases/{version}/reject: records the reason; the active release stays. */
export const rejectRelease = Effect.fn("rejectRelease")(function*(principal: Principal, gameId: string, version: string, body: unknown) {
  yield* requireAdmin(principal)
  const { reason } = yield* decodeInput(RejectBody, body)
  yield* pendingRelease(gameId, version, { type: "reject", reason })
  const at = yield* (yield* Clock).now
  const reviewed = yield* ReleaseStore.use((r) =>
    r.review(gameId, version, { status: "rejected", by: principal.userId, at, reason: reason.trim() })
  )
  return { release: reviewed, ...(yield* gameOutcome(gameId)) }
})

/** GET /api/admin/review-queue: a page of pending releases, oldest first, with how long each has waited. */
export const reviewQueue = Effect.fn("reviewQueue")(function*(principal: Principal, pageParams: PageParams = FIRST_PAGE) {
  yield* requireAdmin(principal)
  const { items: pending, nextCursor } = yield* pendingReleasesPage(pageParams)
  const games = new Map((yield* GameStore.use((g) => g.getMany([...new Set(pending.map((r) => r.gameId))]))).map((g) => [g.id, g]))
  const now = yield* (yield* Clock).now
  const items = pending.flatMap((release) => {
    const game = games.get(release.gameId)
    if (game === undefined) return []
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
    }]
  })
  return { items, nextCursor }
})
