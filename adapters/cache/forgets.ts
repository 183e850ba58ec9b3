// Which kept answers a forget overtook, for the caches built on effect's Cache (CachedGameViews.ts, CatalogPages.ts).
// Invalidating a key whose read is under way drops that read from the Cache, except while the read is starting: the
// Cache records a lookup only once it has begun, so a forget that runs in between finds nothing to drop, and the read,
// which may have seen the store before the change, would be kept afterwards. So every read is marked while it runs,
// a forget marks the reads of its keys that are under way as overtaken, and an overtaken answer is read again for any
// request that began after that forget.
import { Effect } from "effect"

/** What a forget did to one read. */
export interface ReadMark {
  /**
   * True when a forget of the read's key overtook it, and that forget came at or before `asOf` (a count of forgets, as
   * `current` gives it when a request begins; Infinity: any forget). A request that began earlier may still get the
   * answer: it asked before the change was known here.
   */
  readonly overtakenBy: (asOf: number) => boolean
}

export interface Forgets<K> {
  /** How many forgets so far: what a request notes as it begins. */
  readonly current: () => number
  /** Runs `read` of `key` marked: a forget of `key` (or of every key) while it runs overtakes it. */
  readonly marked: <A, E, R>(key: K, read: Effect.Effect<A, E, R>) => Effect.Effect<{ readonly value: A; readonly mark: ReadMark }, E, R>
  /** Records a forget of `keys`, or of every key when none are given. */
  readonly forget: (keys?: Iterable<K>) => void
}

/** Only the reads under way are remembered, so this holds no more than the cache's concurrent reads. */
export const makeForgets = <K>(): Forgets<K> => {
  let count = 0
  const underWay = new Map<K, Set<{ overtakenAt: number | null }>>()
  const overtake = (reads: Iterable<{ overtakenAt: number | null }>) => {
    for (const read of reads) read.overtakenAt ??= count
  }
  return {
    current: () => count,
    marked: (key, read) =>
      Effect.suspend(() => {
        const state: { overtakenAt: number | null } = { overtakenAt: null }
        const reads = underWay.get(key) ?? new Set()
        underWay.set(key, reads.add(state))
        const mark: ReadMark = { overtakenBy: (asOf) => state.overtakenAt !== null && state.overtakenAt <= asOf }
        return read.pipe(
          Effect.map((value) => ({ value, mark })),
          Effect.ensuring(Effect.sync(() => {
            reads.delete(state)
            if (reads.size === 0 && underWay.get(key) === reads) underWay.delete(key)
          })),
        )
      }),
    forget: (keys) => {
      count++
      if (keys === undefined) for (const reads of underWay.values()) overtake(reads)
      else for (const key of keys) overtake(underWay.get(key) ?? [])
    },
  }
}
