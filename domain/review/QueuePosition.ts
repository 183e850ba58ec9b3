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

/** What every queue position is computed from: the queue, oldest first, and the typical wait (null: too few decisions). */
export interface QueueSnapshot {
  readonly pending: ReadonlyArray<Release>
  readonly typicalSeconds: number | null
  readonly now: Date
}

/**
 * The queue and the median time from submission to decision of the last 50 decisions (null with fewer than 5): read
 * once, for one release's detail or for every pending release of a page.
 */
export const queueSnapshot = Effect.fnUntraced(function*() {
  const store = yield* ReleaseStore
  const pending = yield* store.listPending()
  const decisions = yield* store.recentDecisions(ESTIMATE_DECISIONS)
  const typicalSeconds = decisions.length < MIN_DECISIONS
    ? null
    : median(decisions.map((d) => Math.max(0, d.decidedAt.getTime() - d.submittedAt.getTime()) / 1000))
  return { pending, typicalSeconds, now: yield* (yield* Clock).now } satisfies QueueSnapshot
})

/**
 * Where a pending release stands in the oldest-first review queue: position 1 is next. The estimate is the typical wait
 * less the time this release has already waited (never below 0). Null when it is not in the queue.
 */
export const positionIn = (snapshot: QueueSnapshot, release: Pick<Release, "gameId" | "version" | "createdAt">) => {
  const index = snapshot.pending.findIndex((r) => r.gameId === release.gameId && r.version === release.version)
  if (index === -1) return null
  const waitingSeconds = Math.max(0, Math.floor((snapshot.now.getTime() - release.createdAt.getTime()) / 1000))
  return {
    position: index + 1,
    ahead: index,
    waitingSeconds,
    estimatedWaitSeconds: snapshot.typicalSeconds === null ? null : Math.max(0, Math.round(snapshot.typicalSeconds - waitingSeconds)),
  }
}

/** One pending release's place in the queue (its detail). */
export const queuePosition = Effect.fnUntraced(function*(release: Release) {
  return positionIn(yield* queueSnapshot(), release)
})
