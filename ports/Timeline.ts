import { Context, type Effect } from "effect"
import type { Unavailable } from "../domain/errors.ts"
import type { StoredTimelineEvent } from "../domain/timeline/TimelineEvent.ts"

/**
 * A game's timeline, read side. Events are appended by the stores, in the transaction of the change they record
 * (adapters/sql/SqlTimeline.ts `appendTimelineEvent(trx, time, event)`, adapters/memory/memoryLifecycle.ts
 * `appendTimelineEvent(tables, event)`); nothing updates or deletes them.
 */
export class Timeline extends Context.Service<Timeline, {
  /** The game's events after `afterSeq` (0: from the first), oldest first, at most `limit`. */
  list(gameId: string, afterSeq: number, limit: number): Effect.Effect<ReadonlyArray<StoredTimelineEvent>, Unavailable>
}>()("pckgate/ports/Timeline") {}
