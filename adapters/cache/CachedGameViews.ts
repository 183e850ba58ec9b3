// An in-process cache in front of GameViews (download-url's one read, and the catalog's list): at thousands of
// downloads a second, most of them for the same few games, the database otherwise answers the same question over and
// over.
//
// Why a cached answer is right: entries are dropped explicitly, by the decisions that change them. A decision made on
// this instance drops its game's entries as soon as the store has committed it (layerForgetOnDecision); a decision made
// on another instance is announced in the records database's change feed, which ChangeFollower.ts reads every 250 ms
// and turns into the same `forget`. A read that a forget overtook (it began before the change) answers only the requests
// that were waiting for it: effect's Cache drops a pending read it has recorded, and one it recorded only after the
// forget (the read was still starting) is read again by the next request (forgets.ts, shared with the catalog's pages).
// An entry older than `maxLagMs` is served only while the follower has read the feed within `maxLagMs`; otherwise it is
// read again, so a change shows everywhere within that bound even when the feed cannot be read. `ttlMs` is only a
// backstop.
//
// Unknown games and failed reads are never kept: a game created elsewhere is visible at once, and an outage ends with
// the next request. Concurrent misses of one key share one read of the store.
import { Cache, type Clock, Context, Duration, Effect, Exit, Layer, Option } from "effect"
import type { Unavailable } from "../../domain/errors.ts"
import type { Release } from "../../domain/release/Release.ts"
import { type GameReleaseView, GameViews } from "../../ports/GameViews.ts"
import { type CacheCounters, makeCacheCounters } from "../observability/cacheMetrics.ts"
import { type Forgets, makeForgets, type ReadMark } from "./forgets.ts"

export interface GameViewCacheOptions {
  /** How long an entry may be served at most, however current the follower is. 0 disables the cache. */
  readonly ttlMs: number
  /** Game views kept at most; the least recently used goes first. */
  readonly capacity?: number
  /**
   * An entry read longer ago than this is served only while the change follower confirmed, at most this long ago, that
   * it had read every change (ChangeFollower.ts): the bound on how late another instance's decision shows here.
   * Without it (the default), entries are served for `ttlMs` whether or not anything follows the feed: for a single
   * instance.
   */
  readonly maxLagMs?: number
  /**
   * Game views the cache already holds are answered from a plain map, without a lookup in effect's Cache (on by
   * default): download-url's hot path. Same answers, same bounds, same invalidation; docs/performance.md has the figure.
   */
  readonly fastHits?: boolean
}

const DEFAULT_CAPACITY = 10_000
/** The catalog's list has one key. */
const EVERY_GAME = "*"

/** An answer of the store, and when it was asked (Effect clock, milliseconds). */
interface Timed<A> {
  readonly value: A
  readonly readAt: number
  /** The number of store reads begun by this cache, this one included: tells hits from the read's own requests. */
  readonly read: number
  /** What a hit answers, built once. */
  readonly answer: Effect.Effect<A>
  /** Whether a forget of its key overtook the read (forgets.ts): then it is served to no request that came after. */
  readonly mark: ReadMark
}

/** Counts store reads begun (misses); `begun()` is how many so far. */
interface ReadCount {
  readonly begin: () => number
  readonly begun: () => number
}

const timed = <A, E>(key: string, read: Effect.Effect<A, E>, reads: ReadCount, forgets: Forgets<string>): Effect.Effect<Timed<A>, E> =>
  Effect.clockWith((clock) => {
    const readAt = clock.currentTimeMillisUnsafe()
    const number = reads.begin()
    return Effect.map(forgets.marked(key, read), ({ value, mark }) => ({ value, readAt, read: number, answer: Effect.succeed(value), mark }))
  })

/** Store reads numbered for `timed`, and reported as the cache's misses on GET /metrics (hits by `served`). */
const readCount = (counters: CacheCounters): ReadCount => {
  let begun = 0
  return {
    begin: () => {
      counters.miss()
      return ++begun
    },
    begun: () => begun,
  }
}

/** What the cache holds, for those that change it: decisions on this instance, and the change follower. */
export class GameViewCache extends Context.Service<GameViewCache, {
  /** Drops what is cached about these games: their views, and the catalog's list. */
  forget(gameIds: ReadonlyArray<string>): Effect.Effect<void>
  /** Drops everything (changes were missed). */
  readonly forgetAll: Effect.Effect<void>
  /** The follower had applied every change committed before `readAt` (Effect clock, milliseconds). */
  confirmCurrent(readAt: number): Effect.Effect<void>
}>()("pckgate/adapters/cache/GameViewCache") {}

const passThrough = (views: GameViews["Service"]) =>
  Context.make(GameViews, views).pipe(
    Context.add(GameViewCache, GameViewCache.of({ forget: () => Effect.void, forgetAll: Effect.void, confirmCurrent: () => Effect.void })),
  )

/** Decorates the GameViews it is given (provide one to it) with the cache, and provides the handle that empties it. */
export const layerCachedGameViews = (options: GameViewCacheOptions): Layer.Layer<GameViews | GameViewCache, never, GameViews> =>
  Layer.effectContext(
    Effect.gen(function*() {
      const store = yield* GameViews
      if (options.ttlMs <= 0) return passThrough(store)
      const ttl = Duration.millis(options.ttlMs)
      const context = yield* Effect.context<never>()
      const viewCounters = makeCacheCounters("game_views", context)
      // The active releases of every game (listActive; the catalog pages have a cache of their own, CatalogPages.ts).
      const activeCounters = makeCacheCounters("active_releases", context)
      const viewReads = readCount(viewCounters)
      const activeReads = readCount(activeCounters)
      const capacity = options.capacity ?? DEFAULT_CAPACITY
      /** Forgets of games (and of the list of every game, EVERY_GAME), and the reads they overtook. */
      const forgets = makeForgets<string>()
      /**
       * The game views answered without effect's Cache (`fastHits`): what the Cache holds for a game, once its read has
       * succeeded. A read that a forget overtook is never put here.
       */
      const hot = new Map<string, Timed<Option.Option<GameReleaseView>>>()
      const keepHot = (gameId: string) => (kept: Timed<Option.Option<GameReleaseView>>) =>
        Effect.sync(() => {
          if (kept.mark.overtakenBy(Infinity) || Option.isNone(kept.value)) return
          if (hot.size >= capacity) hot.clear()
          hot.set(gameId, kept)
        })
      const lookupView = options.fastHits === false
        ? (gameId: string) => timed(gameId, store.view(gameId), viewReads, forgets)
        : (gameId: string) => Effect.tap(timed(gameId, store.view(gameId), viewReads, forgets), keepHot(gameId))
      const views = yield* Cache.makeWith(lookupView, {
        capacity,
        timeToLive: (exit: Exit.Exit<Timed<Option.Option<GameReleaseView>>, Unavailable>) =>
          Exit.isSuccess(exit) && Option.isSome(exit.value.value) ? ttl : Duration.zero,
      })
      const active = yield* Cache.makeWith((_: typeof EVERY_GAME) => timed(EVERY_GAME, store.listActive(), activeReads, forgets), {
        capacity: 1,
        timeToLive: (exit: Exit.Exit<Timed<ReadonlyArray<Release>>, Unavailable>) => (Exit.isSuccess(exit) ? ttl : Duration.zero),
      })
      const maxLagMs = options.maxLagMs ?? Infinity
      let trustedUntil = options.maxLagMs === undefined ? Infinity : -Infinity
      /**
       * The cached answer for `key` unless a forget of it that came before this request overtook its read, if the
       * follower is current or the answer was read within `maxLagMs` (it may lack only what changed since, as a current
       * follower's may); otherwise read again. Concurrent requests for the key share that new read, so a follower that
       * falls behind costs a read per key and `maxLagMs`, not one per request.
       */
      const servedWith = <K, A>(
        clock: Clock.Clock,
        cache: Cache.Cache<K, Timed<A>, Unavailable>,
        key: K,
        reads: ReadCount,
        counters: CacheCounters,
      ) => {
        // A kept answer whose read began before this request is a hit; one read since (by this request, or by one it
        // waited for) was counted as a miss when it began.
        const readsBefore = reads.begun()
        const forgetsBefore = forgets.current()
        return Effect.flatMap(Cache.get(cache, key), (kept) => {
          const now = clock.currentTimeMillisUnsafe()
          if (!kept.mark.overtakenBy(forgetsBefore) && (now < trustedUntil || now - kept.readAt < maxLagMs)) {
            if (kept.read <= readsBefore) counters.hit()
            return kept.answer
          }
          return Effect.andThen(Cache.invalidate(cache, key), Effect.map(Cache.get(cache, key), (fresh) => fresh.value))
        })
      }
      const served = <K, A>(cache: Cache.Cache<K, Timed<A>, Unavailable>, key: K, reads: ReadCount, counters: CacheCounters) =>
        Effect.clockWith((clock) => servedWith(clock, cache, key, reads, counters))
      /** The hot answer when it is as good as the Cache's (younger than the time to live, and current), else the Cache. */
      const view = (gameId: string) =>
        Effect.clockWith((clock) => {
          const kept = hot.get(gameId)
          if (kept !== undefined) {
            const now = clock.currentTimeMillisUnsafe()
            const age = now - kept.readAt
            if (age < options.ttlMs && (now < trustedUntil || age < maxLagMs)) {
              viewCounters.hit()
              return kept.answer
            }
            hot.delete(gameId)
          }
          return servedWith(clock, views, gameId, viewReads, viewCounters)
        })
      const forgetAll = Effect.andThen(
        Effect.sync(() => {
          forgets.forget()
          hot.clear()
        }),
        Effect.andThen(Cache.invalidateAll(views), Cache.invalidateAll(active)),
      )
      return Context.make(
        GameViews,
        GameViews.of({
          view: options.fastHits === false ? (gameId) => served(views, gameId, viewReads, viewCounters) : view,
          listActive: () => served(active, EVERY_GAME, activeReads, activeCounters),
        }),
      ).pipe(Context.add(
        GameViewCache,
        GameViewCache.of({
          forget: (gameIds) =>
            Effect.andThen(
              Effect.sync(() => {
                forgets.forget([...gameIds, EVERY_GAME])
                for (const gameId of gameIds) hot.delete(gameId)
              }),
              Effect.andThen(Effect.forEach(gameIds, (gameId) => Cache.invalidate(views, gameId), { discard: true }), Cache.invalidate(active, EVERY_GAME)),
            ),
          forgetAll,
          confirmCurrent: (readAt) => Effect.sync(() => void (trustedUntil = Math.max(trustedUntil, readAt + maxLagMs))),
        }),
      ))
    }),
  )
