import { Effect, Layer } from "effect"
import { type Change, ChangeFeed, type ChangeKind } from "../../ports/ChangeFeed.ts"
import { MemoryTables } from "./MemoryTables.ts"

/** The memory "database"'s change feed: entries oldest first, and the newest sequence ever given out. */
export interface ChangeLog {
  latest: number
  readonly entries: Array<Change>
}

/** For the memory stores: called in the same synchronous step as the change it announces. */
export const appendChange = (log: ChangeLog, change: { readonly gameId: string; readonly kind: ChangeKind; readonly at: Date }): void => {
  log.latest += 1
  log.entries.push({ seq: log.latest, ...change })
}

export const layerMemoryChangeFeed = Layer.effect(ChangeFeed, MemoryTables.useSync(({ changes }) =>
  ChangeFeed.of({
    since: (seq, limit) => Effect.sync(() => changes.entries.filter((change) => change.seq > seq).slice(0, limit)),
    latest: Effect.sync(() => changes.latest),
    prune: (before) =>
      Effect.sync(() => {
        const kept = changes.entries.filter((change) => change.seq === changes.latest || change.at.getTime() >= before.getTime())
        const removed = changes.entries.length - kept.length
        changes.entries.splice(0, changes.entries.length, ...kept)
        return removed
      }),
  })
))
