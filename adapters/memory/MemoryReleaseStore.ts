import type { Actor } from "../../domain/auth/Actor.ts"
import { Effect, Layer, Option } from "effect"
import { NoUploadIntent, ReleaseNotPending, VersionExists } from "../../domain/errors.ts"
import { type Release, sameDeclaration, type UploadIntent } from "../../domain/release/Release.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { applyLifecycle, appendTimelineEvent, holdsLease } from "./memoryLifecycle.ts"
import { MemoryTables, releaseKey } from "./MemoryTables.ts"
import { reviewStep } from "../shared/lifecycleSteps.ts"

/** Oldest first, ties by game then version: the order every listing shares with the SQL stores. */
export const oldestFirst = (a: Release, b: Release) =>
  a.createdAt.getTime() - b.createdAt.getTime() ||
  (a.gameId < b.gameId ? -1 : a.gameId > b.gameId ? 1 : 0) ||
  (a.version < b.version ? -1 : a.version > b.version ? 1 : 0)

export const layerMemoryReleaseStore = Layer.effect(ReleaseStore, MemoryTables.useSync((tables) => {
  const { releases, intents, pointers } = tables
  const issued = (intent: UploadIntent, actor: Actor | undefined) =>
    appendTimelineEvent(tables, {
      gameId: intent.gameId, version: intent.version, kind: "upload_url_issued", actor: actor ?? `user:${intent.createdBy}`, reason: null, at: intent.createdAt,
    })
  const sorted = (predicate: (r: Release) => boolean) => [...releases.values()].filter(predicate).sort(oldestFirst)

  return ReleaseStore.of({
    recordIntent: (intent, actor) =>
      Effect.sync(() => {
        for (const existing of intents.values()) {
          // One intent per declaration; asking again (with another publish mode, too) refreshes it.
          if (sameDeclaration({ ...existing, publishMode: intent.publishMode ?? "on_approval" }, intent)) {
            const refreshed = { ...existing, expiresAt: intent.expiresAt, publishMode: intent.publishMode ?? "on_approval" }
            intents.set(existing.id, refreshed)
            issued(intent, actor)
            return refreshed
          }
        }
        intents.set(intent.id, intent)
        issued(intent, actor)
        return intent
      }),
    findIntent: (declaration, now) =>
      Effect.sync(() =>
        Option.fromNullishOr(
          [...intents.values()].find((i) => sameDeclaration(i, declaration) && i.expiresAt.getTime() > now.getTime()),
        )
      ),
    // One synchronous step: the version check, the intent consumption and the insert cannot interleave.
    finalize: (intentId, release, actor) =>
      Effect.suspend((): Effect.Effect<Release, VersionExists | NoUploadIntent> => {
        if (releases.has(releaseKey(release.gameId, release.version))) {
          return Effect.fail(new VersionExists({ gameId: release.gameId, version: release.version }))
        }
        if (!intents.delete(intentId)) return Effect.fail(new NoUploadIntent({ gameId: release.gameId, version: release.version }))
        releases.set(releaseKey(release.gameId, release.version), release)
        appendTimelineEvent(tables, {
          gameId: release.gameId, version: release.version, kind: "finalized", actor: actor ?? `user:${release.createdBy}`, reason: null, at: release.createdAt,
        })
        return Effect.succeed(release)
      }),
    get: (gameId, version) => Effect.sync(() => Option.fromNullishOr(releases.get(releaseKey(gameId, version)))),
    listByGame: (gameId) => Effect.sync(() => sorted((r) => r.gameId === gameId)),
    listPending: () => Effect.sync(() => sorted((r) => r.status === "pending_review")),
    listApproved: () => Effect.sync(() => sorted((r) => r.status === "approved")),
    review: (gameId, version, decision) =>
      applyLifecycle(tables, gameId, reviewStep(version, decision)).pipe(
        Effect.map((outcome) => outcome.updated[0]!),
        Effect.catchTag("LifecycleRefused", (refused) => Effect.fail(new ReleaseNotPending({ gameId, version, status: refused.status, operation: "review" }))),
        // No lease is given, so none can be lost.
        Effect.catchTag("LifecycleLeaseLost", (lost) => Effect.die(lost)),
      ),
    lifecycle: (gameId, step, lease) => applyLifecycle(tables, gameId, step, lease),
    recentDecisions: (limit) =>
      Effect.sync(() =>
        [...releases.values()].flatMap((r) => (r.reviewedAt === null ? [] : [{ submittedAt: r.createdAt, decidedAt: r.reviewedAt }]))
          .sort((a, b) => b.decidedAt.getTime() - a.decidedAt.getTime()).slice(0, limit)
      ),
    activeVersion: (gameId) => Effect.sync(() => pointers.get(gameId)?.activeVersion ?? null),
    takeLifecycleLease: (gameId, holder, now, until) =>
      Effect.sync(() => {
        const lease = tables.leases.get(gameId)
        if (!tables.games.has(gameId)) return false
        if (lease !== undefined && lease.holder !== holder && lease.until.getTime() > now.getTime()) return false
        tables.leases.set(gameId, { holder, until })
        return true
      }),
    renewLifecycleLease: (gameId, holder, now, until) =>
      Effect.sync(() => {
        if (!holdsLease(tables, gameId, holder, now)) return false
        tables.leases.set(gameId, { holder, until })
        return true
      }),
    dropLifecycleLease: (gameId, holder) =>
      Effect.sync(() => {
        if (tables.leases.get(gameId)?.holder === holder) tables.leases.delete(gameId)
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
        for (const release of releases.values()) {
          inUse.add(release.objectKey)
          if (release.quarantineKey) inUse.add(release.quarantineKey)
        }
        for (const intent of intents.values()) if (intent.expiresAt.getTime() > now.getTime()) inUse.add(intent.objectKey)
        return new Set(objectKeys.filter((key) => inUse.has(key)))
      }),
  })
}))
