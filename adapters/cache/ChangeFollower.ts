// Follows the records database's change feed (ports/ChangeFeed.ts) so this instance's game view cache reflects the
// decisions other instances make: every `intervalMs` it reads the changes after the last one it applied and forgets
// the games they name. A scoped layer: the loop starts with the layer graph and is interrupted when it closes.
//
// It starts at the feed's newest change (dropping whatever the cache read before), and after every read tells the
// cache when that read began: the cache serves entries older than its bound only while that is recent
// (CachedGameViews.ts), so an instance that cannot read the feed reads the store again rather than serve what may be
// stale. Sequences are dense, so a read that does not continue at the next sequence means pruned changes were missed:
// everything is forgotten. Every instance also prunes the feed now and then; doing it on several at once is harmless.
import { Cause, Context, Duration, Effect, Layer, Schedule, Stream, SubscriptionRef } from "effect"
import type { Unavailable } from "../../domain/errors.ts"
import { type Change, ChangeFeed } from "../../ports/ChangeFeed.ts"
import { GameViewCache } from "./CachedGameViews.ts"

export interface ChangeFollowerOptions {
  /** How often the feed is read. */
  readonly intervalMs?: number
  /** Changes read per query at most; a longer backlog takes several queries in one round. */
  readonly batch?: number
  /** How often this instance prunes the feed, and how old a change must be to go. */
  readonly pruneEveryMs?: number
  readonly keepMs?: number
}

/** Reading every 250 ms is what lets another instance's decision show here within 1 s. */
export const FOLLOW_INTERVAL_MS = 250
const DEFAULT_BATCH = 500
const DEFAULT_PRUNE_EVERY_MS = 10 * 60_000
/** Far longer than any follower may fall behind; one that does forgets everything instead. */
const DEFAULT_KEEP_MS = 60 * 60_000

/** Where this instance's follower stands. */
export class ChangeFollower extends Context.Service<ChangeFollower, {
  /** The newest change this instance has applied to its cache; -1 until the follower has read the feed once. */
  readonly position: Effect.Effect<number>
  /** Waits until this instance has applied every change up to `seq` (a test's "the other instance has seen it"). */
  reached(seq: number): Effect.Effect<void>
}>()("pckgate/adapters/cache/ChangeFollower") {}

/** True when `changes` continue `position` without a gap. */
const continues = (position: number, changes: ReadonlyArray<Change>) => changes.every((change, i) => change.seq === position + 1 + i)

export const layerChangeFollower = (options: ChangeFollowerOptions = {}): Layer.Layer<ChangeFollower, never, ChangeFeed | GameViewCache> =>
  Layer.effect(
    ChangeFollower,
    Effect.gen(function*() {
      const feed = yield* ChangeFeed
      const cache = yield* GameViewCache
      const batch = options.batch ?? DEFAULT_BATCH
      const keepMs = options.keepMs ?? DEFAULT_KEEP_MS
      const position = yield* SubscriptionRef.make(-1)

      /** Applies every change after `from`; returns the newest one applied. */
      const applyAfter = (from: number): Effect.Effect<number, Unavailable> =>
        Effect.flatMap(feed.since(from, batch), (changes) => {
          if (changes.length === 0) return Effect.succeed(from)
          const forgetting = continues(from, changes) ? cache.forget([...new Set(changes.map((change) => change.gameId))]) : cache.forgetAll
          const newest = changes.at(-1)!.seq
          return Effect.andThen(forgetting, changes.length < batch ? Effect.succeed(newest) : applyAfter(newest))
        })

      const round = Effect.gen(function*() {
        const readAt = yield* Effect.clockWith((clock) => clock.currentTimeMillis)
        const from = yield* SubscriptionRef.get(position)
        // The first round starts at the newest change; what the cache read before it may predate changes it skips.
        const reached = from < 0 ? yield* Effect.tap(feed.latest, () => cache.forgetAll) : yield* applyAfter(from)
        yield* cache.confirmCurrent(readAt)
        if (reached !== from) yield* SubscriptionRef.set(position, reached)
      })

      // One warning when reading starts failing, one line when it works again: not four lines a second.
      let failing = false
      const followed = round.pipe(
        Effect.tap(() =>
          failing ? Effect.logInfo("change feed readable again").pipe(Effect.andThen(Effect.sync(() => void (failing = false)))) : Effect.void
        ),
        Effect.catchCause((cause) =>
          failing ? Effect.void : Effect.logWarning("change feed unreadable; caches answer from the store until it is").pipe(
            Effect.annotateLogs({ cause: Cause.pretty(cause) }),
            Effect.andThen(Effect.sync(() => void (failing = true))),
          )
        ),
      )
      yield* Effect.forkScoped(Effect.repeat(followed, Schedule.fixed(Duration.millis(options.intervalMs ?? FOLLOW_INTERVAL_MS))))

      const prune = Effect.clockWith((clock) => clock.currentTimeMillis).pipe(
        Effect.flatMap((now) => feed.prune(new Date(now - keepMs))),
        Effect.catchCause((cause) => Effect.logWarning("pruning the change feed failed").pipe(Effect.annotateLogs({ cause: Cause.pretty(cause) }))),
      )
      const pruneEvery = Duration.millis(options.pruneEveryMs ?? DEFAULT_PRUNE_EVERY_MS)
      yield* Effect.forkScoped(Effect.andThen(Effect.sleep(pruneEvery), Effect.repeat(prune, Schedule.spaced(pruneEvery))))

      return ChangeFollower.of({
        position: SubscriptionRef.get(position),
        reached: (seq) => SubscriptionRef.changes(position).pipe(Stream.takeUntil((applied) => applied >= seq), Stream.runDrain),
      })
    }),
  )
