import { Effect } from "effect"
import { Clock } from "../../ports/Clock.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import type { Release } from "../release/Release.ts"

/** The estimate uses this many of the most recent decisions, and none with fewer than MIN_DECISIONS. */
export const ESTIMATE_DECISIONS = 50
export const MIN_DECISIONS = 5

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/**
 * Where a pending release stands in the oldest-first review queue: position 1 is next. The estimate is the median time
 * from submission to decision of the last 50 decisions, less the time this release has already waited (never below
 * 0); null with fewer than 5 decisions.
 */
export const queuePosition = Effect.fnUntraced(function*(release: Release) {
  const store = yield* ReleaseStore
  const pending = yield* store.listPending()
  const index = pending.findIndex((r) => r.gameId === release.gameId && r.version === release.version)
  if (index === -1) return null
  const now = yield* (yield* Clock).now
  const waitingSeconds = Math.max(0, Math.floor((now.getTime() - release.createdAt.getTime()) / 1000))
  const decisions = yield* store.recentDecisions(ESTIMATE_DECISIONS)
  const typical = decisions.length < MIN_DECISIONS
    ? null
    : median(decisions.map((d) => Math.max(0, d.decidedAt.getTime() - d.submittedAt.getTime()) / 1000))
  return {
    position: index + 1,
    ahead: index,
    waitingSeconds,
    estimatedWaitSeconds: typical === null ? null : Math.max(0, Math.round(typical - waitingSeconds)),
  }
})
