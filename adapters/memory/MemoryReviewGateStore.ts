import { Effect, Layer, Option } from "effect"
import { Claimed } from "../../domain/errors.ts"
import { acceptanceWithdrawnEvent, claimedEvent, findingAcceptedEvent, takesClaim } from "../../domain/review/gateTimeline.ts"
import { ReviewGateStore } from "../../ports/ReviewGateStore.ts"
import { appendTimelineEvent } from "./memoryLifecycle.ts"
import { MemoryTables, releaseKey } from "./MemoryTables.ts"

export const layerMemoryReviewGateStore = Layer.effect(
  ReviewGateStore,
  MemoryTables.useSync((tables) => {
    const { claims, overrides, acceptances } = tables
    return ReviewGateStore.of({
      claim: (claim, now, actor) =>
        Effect.suspend(() => {
          const key = releaseKey(claim.gameId, claim.version)
          const held = claims.get(key)
          if (held !== undefined && held.by !== claim.by && held.until.getTime() > now.getTime()) {
            return Effect.fail(new Claimed({ gameId: claim.gameId, version: claim.version, claimedBy: held.by, claimedUntil: held.until }))
          }
          claims.set(key, claim)
          if (takesClaim(held ?? null, claim.by, now)) appendTimelineEvent(tables, claimedEvent(claim, now, actor))
          return Effect.succeed(claim)
        }),
      getClaim: (gameId, version) => Effect.sync(() => Option.fromNullishOr(claims.get(releaseKey(gameId, version)))),
      claimsOf: (releases) => Effect.sync(() => releases.flatMap((r) => claims.get(releaseKey(r.gameId, r.version)) ?? [])),
      unclaim: (gameId, version, by) =>
        Effect.sync(() => {
          const key = releaseKey(gameId, version)
          if (claims.get(key)?.by !== by) return false
          return claims.delete(key)
        }),
      getOverride: (gameId, version) => Effect.sync(() => Option.fromNullishOr(overrides.get(releaseKey(gameId, version)))),
      accept: (acceptance, actor) =>
        Effect.sync(() => {
          acceptances.set(releaseKey(acceptance.gameId, acceptance.fingerprint), acceptance)
          appendTimelineEvent(tables, findingAcceptedEvent(acceptance, actor))
          return acceptance
        }),
      withdraw: (gameId, fingerprint, withdrawal) =>
        Effect.sync(() => {
          if (!acceptances.delete(releaseKey(gameId, fingerprint))) return false
          appendTimelineEvent(tables, acceptanceWithdrawnEvent(gameId, fingerprint, withdrawal))
          return true
        }),
      acceptances: (gameId) =>
        Effect.sync(() =>
          [...acceptances.values()].filter((a) => a.gameId === gameId).sort((a, b) => (a.fingerprint < b.fingerprint ? -1 : a.fingerprint > b.fingerprint ? 1 : 0))
        ),
    })
  }),
)
