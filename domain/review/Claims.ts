import { Effect, Option } from "effect"
import { Clock } from "../../ports/Clock.ts"
import { ReviewGateStore } from "../../ports/ReviewGateStore.ts"
import { actorOf } from "../auth/Actor.ts"
import type { Principal } from "../auth/Principal.ts"
import { Claimed } from "../errors.ts"
import { existingGame, pendingRelease, requireAdmin } from "./Review.ts"
import { CLAIM_MINUTES } from "./ReviewGate.ts"

/**
 * POST /api/admin/games/{gameId}/releases/{version}/claim: holds a pending release for the caller for 30 minutes, so
 * no other administrator decides it meanwhile; the holder renews by claiming again. Another's live claim → Claimed.
 */
export const claimRelease = Effect.fn("claimRelease")(function*(principal: Principal, gameId: string, version: string) {
  yield* requireAdmin(principal)
  yield* existingGame(gameId)
  yield* pendingRelease(gameId, version, { type: "approve" }, "claim")
  const now = yield* Clock.use((c) => c.now)
  const until = new Date(now.getTime() + CLAIM_MINUTES * 60_000)
  // The store appends the "claimed" event in the claim's own step.
  const claim = yield* ReviewGateStore.use((g) => g.claim({ gameId, version, by: principal.userId, until }, now, actorOf(principal)))
  return { gameId, version, claimedBy: claim.by, claimedUntil: claim.until }
})

/**
 * DELETE /api/admin/games/{gameId}/releases/{version}/claim: ends the caller's own claim (idempotent); another
 * administrator's live claim is theirs to end → Claimed.
 */
export const releaseClaim = Effect.fn("releaseClaim")(function*(principal: Principal, gameId: string, version: string) {
  yield* requireAdmin(principal)
  yield* existingGame(gameId)
  yield* pendingRelease(gameId, version, { type: "approve" }, "claim")
  const now = yield* Clock.use((c) => c.now)
  const held = Option.getOrNull(yield* ReviewGateStore.use((g) => g.getClaim(gameId, version)))
  if (held !== null && held.by !== principal.userId && held.until.getTime() > now.getTime()) {
    return yield* new Claimed({ gameId, version, claimedBy: held.by, claimedUntil: held.until })
  }
  yield* ReviewGateStore.use((g) => g.unclaim(gameId, version, principal.userId))
})
