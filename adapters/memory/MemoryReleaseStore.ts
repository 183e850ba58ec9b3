import { Effect, Layer, Option } from "effect"
import { Claimed, NoUploadIntent, ReleaseNotPending, VersionExists } from "../../domain/errors.ts"
import { type Release, sameDeclaration } from "../../domain/release/Release.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { appendChange } from "./MemoryChangeFeed.ts"
import { MemoryTables, releaseKey } from "./MemoryTables.ts"

/** Oldest first, ties by game then version: the order every listing shares with the SQL stores. */
export const oldestFirst = (a: Release, b: Release) =>
  a.createdAt.getTime() - b.createdAt.getTime() ||
  (a.gameId < b.gameId ? -1 : a.gameId > b.gameId ? 1 : 0) ||
  (a.version < b.version ? -1 : a.version > b.version ? 1 : 0)

export const layerMemoryReleaseStore = Layer.effect(ReleaseStore, MemoryTables.useSync(({ releases, intents, changes, claims, overrides }) => {
  const sorted = (predicate: (r: Release) => boolean) => [...releases.values()].filter(predicate).sort(oldestFirst)

  return ReleaseStore.of({
    recordIntent: (intent) =>
      Effect.sync(() => {
        for (const existing of intents.values()) {
          if (sameDeclaration(existing, intent)) {
            const refreshed = { ...existing, expiresAt: intent.expiresAt }
            intents.set(existing.id, refreshed)
            return refreshed
          }
        }
        intents.set(intent.id, intent)
        return intent
      }),
    findIntent: (declaration, now) =>
      Effect.sync(() =>
        Option.fromNullishOr(
          [...intents.values()].find((i) => sameDeclaration(i, declaration) && i.expiresAt.getTime() > now.getTime()),
        )
      ),
    // One synchronous step: the version check, the intent consumption and the insert cannot interleave.
    finalize: (intentId, release) =>
      Effect.suspend((): Effect.Effect<Release, VersionExists | NoUploadIntent> => {
        if (releases.has(releaseKey(release.gameId, release.version))) {
          return Effect.fail(new VersionExists({ gameId: release.gameId, version: release.version }))
        }
        if (!intents.delete(intentId)) return Effect.fail(new NoUploadIntent({ gameId: release.gameId, version: release.version }))
        releases.set(releaseKey(release.gameId, release.version), release)
        return Effect.succeed(release)
      }),
    get: (gameId, version) => Effect.sync(() => Option.fromNullishOr(releases.get(releaseKey(gameId, version)))),
    listByGame: (gameId) => Effect.sync(() => sorted((r) => r.gameId === gameId)),
    listPending: () => Effect.sync(() => sorted((r) => r.status === "pending_review")),
    listApproved: () => Effect.sync(() => sorted((r) => r.status === "approved")),
    review: (gameId, version, decision) =>
      Effect.suspend((): Effect.Effect<Release, ReleaseNotPending | Claimed> => {
        const key = releaseKey(gameId, version)
        const current = releases.get(key)
        if (current === undefined || current.status !== "pending_review") {
          return Effect.fail(new ReleaseNotPending({ gameId, version, status: current?.status ?? "missing" }))
        }
        const claim = claims.get(key)
        if (claim !== undefined && claim.by !== decision.by && claim.until.getTime() > decision.at.getTime()) {
          return Effect.fail(new Claimed({ gameId, version, claimedBy: claim.by, claimedUntil: claim.until }))
        }
        claims.delete(key)
        const overrideReason = decision.overrideReason ?? null
        if (overrideReason !== null) overrides.set(key, { reason: overrideReason, by: decision.by, at: decision.at })
        const reviewed: Release = {
          ...current,
          status: decision.status,
          reviewedBy: decision.by,
          reviewedAt: decision.at,
          rejectionReason: decision.reason,
        }
        releases.set(releaseKey(gameId, version), reviewed)
        appendChange(changes, { gameId, kind: decision.status, at: decision.at })
        return Effect.succeed(reviewed)
      }),
    deleteExpiredIntents: (now) =>
      Effect.sync(() => {
        let removed = 0
        for (const [id, intent] of intents) {
          if (intent.expiresAt.getTime() <= now.getTime()) removed += intents.delete(id) ? 1 : 0
        }
        return removed
      }),
    keysInUse: (objectKeys, now) =>
      Effect.sync(() => {
        const inUse = new Set<string>()
        for (const release of releases.values()) inUse.add(release.objectKey)
        for (const intent of intents.values()) if (intent.expiresAt.getTime() > now.getTime()) inUse.add(intent.objectKey)
        return new Set(objectKeys.filter((key) => inUse.has(key)))
      }),
  })
}))
