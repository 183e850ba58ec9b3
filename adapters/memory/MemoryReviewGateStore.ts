import { Effect, Layer, Option } from "effect"
import { Claimed } from "../../domain/errors.ts"
import { ReviewGateStore } from "../../ports/ReviewGateStore.ts"
import { MemoryTables, releaseKey } from "./MemoryTables.ts"

export const layerMemoryReviewGateStore = Layer.effect(
  ReviewGateStore,
  MemoryTables.useSync(({ claims, overrides, acceptances }) =>
    ReviewGateStore.of({
      claim: (claim, now) =>
        Effect.suspend(() => {
          const key = releaseKey(claim.gameId, claim.version)
          const held = claims.get(key)
          if (held !== undefined && held.by !== claim.by && held.until.getTime() > now.getTime()) {
            return Effect.fail(new Claimed({ gameId: claim.gameId, version: claim.version, claimedBy: held.by, claimedUntil: held.until }))
          }
          claims.set(key, claim)
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
      accept: (acceptance) =>
        Effect.sync(() => {
          acceptances.set(releaseKey(acceptance.gameId, acceptance.fingerprint), acceptance)
          return acceptance
        }),
      withdraw: (gameId, fingerprint) => Effect.sync(() => acceptances.delete(releaseKey(gameId, fingerprint))),
      acceptances: (gameId) =>
        Effect.sync(() =>
          [...acceptances.values()].filter((a) => a.gameId === gameId).sort((a, b) => (a.fingerprint < b.fingerprint ? -1 : a.fingerprint > b.fingerprint ? 1 : 0))
        ),
    })
  ),
)
