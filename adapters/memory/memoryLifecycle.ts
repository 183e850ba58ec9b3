// The lifecycle step on the memory tables, in one synchronous step (like one transaction): plan, statuses, pointer,
// timeline, change feed.
import { Effect } from "effect"
import { Claimed } from "../../domain/errors.ts"
import { planLifecycle, type LifecycleStep } from "../../domain/review/ReviewMachine.ts"
import type { TimelineEvent } from "../../domain/timeline/TimelineEvent.ts"
import { type LeaseFence, LifecycleLeaseLost, LifecycleRefused, type LifecycleOutcome } from "../../ports/ReleaseStore.ts"
import { creatorDeliveries } from "../notifier/creatorEvents.ts"
import { CHANGE_OF_STEP } from "../shared/lifecycleSteps.ts"
import { appendChange } from "./MemoryChangeFeed.ts"
import { oldestFirst } from "./MemoryReleaseStore.ts"
import { releaseKey, type Tables } from "./MemoryTables.ts"

/**
 * Appends timeline events in the caller's synchronous step (the memory counterpart of SqlTimeline's appendEvent), with
 * the deliveries to the game owner's webhooks when it is an event creators are told about.
 */
export const appendTimelineEvent = (tables: Pick<Tables, "timeline" | "games" | "webhooks" | "outbox">, event: TimelineEvent): void => {
  tables.timeline.push({ ...event, seq: tables.timeline.length + 1 })
  const ownerId = tables.games.get(event.gameId)?.ownerId
  const subscriptions = [...tables.webhooks.values()].filter((s) => s.ownerId === ownerId).map((s) => s.id)
  const deliveries = creatorDeliveries(event, subscriptions)
  // The memory outbox's enqueue is one synchronous step, so it joins the caller's.
  if (deliveries.length > 0) Effect.runSync(tables.outbox.enqueue(deliveries))
}

/** Whether `holder` holds the game's lifecycle lease, unexpired at `now`. */
export const holdsLease = (tables: Pick<Tables, "leases">, gameId: string, holder: string, now: Date): boolean => {
  const lease = tables.leases.get(gameId)
  return lease !== undefined && lease.holder === holder && lease.until.getTime() > now.getTime()
}

export const applyLifecycle = (
  tables: Tables,
  gameId: string,
  step: LifecycleStep,
  lease?: LeaseFence,
): Effect.Effect<LifecycleOutcome, LifecycleRefused | LifecycleLeaseLost | Claimed> =>
  Effect.suspend((): Effect.Effect<LifecycleOutcome, LifecycleRefused | LifecycleLeaseLost | Claimed> => {
    if (lease !== undefined && !holdsLease(tables, gameId, lease.holder, lease.now)) return Effect.fail(new LifecycleLeaseLost({ gameId, holder: lease.holder }))
    const releases = [...tables.releases.values()].filter((r) => r.gameId === gameId).sort(oldestFirst)
    const pointer = tables.pointers.get(gameId) ?? { activeVersion: null, firstPublishedAt: null, activeReason: null }
    const everActive = new Set(tables.timeline.flatMap((e) => (e.gameId === gameId && e.kind === "activated" && e.version !== null ? [e.version] : [])))
    const planned = planLifecycle(gameId, { activeVersion: pointer.activeVersion, releases, everActive }, step)
    if ("refused" in planned) return Effect.fail(new LifecycleRefused({ gameId, ...planned.refused }))
    const { plan } = planned
    // The review gate (issue 15): another administrator's live claim refuses a decision; a decision ends the claim and
    // keeps an approval's override reason.
    if (step.type === "approve" || step.type === "reject") {
      const key = releaseKey(gameId, step.version)
      const claim = tables.claims.get(key)
      if (claim !== undefined && claim.by !== step.by && claim.until.getTime() > step.at.getTime()) {
        return Effect.fail(new Claimed({ gameId, version: step.version, claimedBy: claim.by, claimedUntil: claim.until }))
      }
      tables.claims.delete(key)
      const overrideReason = step.type === "approve" ? step.overrideReason ?? null : null
      if (overrideReason !== null) tables.overrides.set(key, { reason: overrideReason, by: step.by, at: step.at })
    }
    for (const release of plan.updated) tables.releases.set(releaseKey(gameId, release.version), release)
    tables.pointers.set(gameId, {
      activeVersion: plan.activeVersion,
      firstPublishedAt: pointer.firstPublishedAt ?? (plan.activeVersion !== null ? step.at : null),
      activeReason: plan.activeVersion === null ? null : plan.activeReason ?? pointer.activeReason,
    })
    for (const event of plan.events) appendTimelineEvent(tables, event)
    appendChange(tables.changes, { gameId, kind: CHANGE_OF_STEP[step.type], at: step.at })
    return Effect.succeed({
      updated: plan.updated,
      activeVersionBefore: pointer.activeVersion,
      activeVersion: plan.activeVersion,
      activationNote: plan.activationNote,
    })
  })
