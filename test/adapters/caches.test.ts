// The in-process caches the server puts in front of the stores (adapters/cache): what they serve, what makes them stop
// serving it, and that nothing they hand out differs from what the store itself would answer. Time is effect's
// TestClock (the caches' lifetimes and the follower's rounds run on it), moved by hand.
import { assert, describe, it } from "@effect/vitest"
import { Context, Deferred, Effect, Fiber, Layer, Metric, Option, type Scope } from "effect"
import { TestClock } from "effect/testing"
import { GameViewCache, type GameViewCacheOptions, layerCachedGameViews } from "../../adapters/cache/CachedGameViews.ts"
import { ChangeFollower, layerChangeFollower } from "../../adapters/cache/ChangeFollower.ts"
import { layerForgetOnDecision } from "../../adapters/cache/ForgetOnDecision.ts"
import { layerMemoizedDownloadUrls } from "../../adapters/cache/MemoizedDownloadUrls.ts"
import { layerManualClock } from "../../adapters/memory/MemoryClock.ts"
import { layerMemoryObjectStorage } from "../../adapters/memory/MemoryObjectStorage.ts"
import { layerMemoryRecords } from "../../adapters/memory/MemoryRecords.ts"
import { SignedUrls } from "../../adapters/signed-urls/SignedUrls.ts"
import { Unavailable } from "../../domain/errors.ts"
import { ChangeFeed } from "../../ports/ChangeFeed.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { type GameReleaseView, GameViews } from "../../ports/GameViews.ts"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { aGame, anIntent, aReleaseFor } from "../support/fixtures.ts"

const APPROVE = { status: "approved", by: "admin", at: new Date("2026-05-01T00:00:00.000Z"), reason: null } as const

/** A game with one pending release, written to the records underneath the cache. */
const gameWithPendingRelease = (version = "1.0.0") =>
  Effect.gen(function*() {
    const store = yield* ReleaseStore
    const game = aGame()
    yield* GameStore.use((games) => games.insert(game, "system"))
    const intent = anIntent(game.id, { version })
    yield* store.recordIntent(intent)
    yield* store.finalize(intent.id, aReleaseFor(intent))
    return game
  })

/** Another instance's decision: straight to the store, announced in the feed, unseen by this instance's cache. */
const approvedElsewhere = (gameId: string, version = "1.0.0") => ReleaseStore.use((store) => store.review(gameId, version, APPROVE))

/** Counts the reads that reach the records' GameViews; `around` may alter each read of a view. */
const counting = (views: GameViews["Service"], around: (read: Effect.Effect<Option.Option<GameReleaseView>, Unavailable>) => typeof read = (read) => read) => {
  const reads = { views: 0, lists: 0 }
  const counted = GameViews.of({
    view: (gameId) => Effect.suspend(() => (reads.views++, around(views.view(gameId)))),
    listActive: () => Effect.suspend(() => (reads.lists++, views.listActive())),
  })
  return { counted, reads }
}

/** The cache over the records' GameViews (counted). */
const cachedOver = (views: GameViews["Service"], options: GameViewCacheOptions) =>
  Effect.gen(function*() {
    const context = yield* Layer.build(layerCachedGameViews(options).pipe(Layer.provide(Layer.succeed(GameViews, views))))
    return { cached: Context.get(context, GameViews), cache: Context.get(context, GameViewCache) }
  })

const activeVersion = (view: Option.Option<GameReleaseView>) => Option.getOrThrow(view).active?.version ?? null

const onMemoryRecords = <A, E>(effect: Effect.Effect<A, E, GameViews | ReleaseStore | GameStore | ChangeFeed | Scope.Scope>) =>
  effect.pipe(Effect.scoped, Effect.provide(layerMemoryRecords))

describe("CachedGameViews", () => {
  it.effect("without a follower, serves a view for ttlMs; a decision made elsewhere shows once it expires", () =>
    onMemoryRecords(Effect.gen(function*() {
      const game = yield* gameWithPendingRelease()
      const { counted, reads } = counting(yield* GameViews)
      const { cached } = yield* cachedOver(counted, { ttlMs: 1000 })
      assert.isNull(activeVersion(yield* cached.view(game.id)))
      yield* approvedElsewhere(game.id)
      yield* TestClock.adjust(999)
      assert.isNull(activeVersion(yield* cached.view(game.id)))
      assert.strictEqual(reads.views, 1)
      yield* TestClock.adjust(1)
      assert.strictEqual(activeVersion(yield* cached.view(game.id)), "1.0.0")
      assert.strictEqual(reads.views, 2)
    })))

  it.effect("counts hits and misses for GET /metrics: a miss per store read, a hit per answer kept from before the request", () =>
    onMemoryRecords(Effect.gen(function*() {
      const game = yield* gameWithPendingRelease()
      const { cached, cache } = yield* cachedOver(yield* GameViews, { ttlMs: 1000 })
      const lookups = Effect.map(Metric.snapshot, (series) => {
        const counts: Record<string, number> = {}
        for (const s of series) {
          if (s.id !== "pckgate_cache_lookups_total" || s.type !== "Counter") continue
          counts[`${s.attributes?.["cache"]} ${s.attributes?.["result"]}`] = Number(s.state.count)
        }
        return counts
      })
      yield* cached.view(game.id)
      yield* cached.view(game.id)
      yield* cached.view(game.id)
      yield* cached.listActive()
      assert.deepStrictEqual(yield* lookups, { "game_views hit": 2, "game_views miss": 1, "active_releases hit": 0, "active_releases miss": 1 })
      yield* TestClock.adjust(1000)
      yield* cached.view(game.id)
      yield* cache.forget([game.id])
      yield* cached.view(game.id)
      yield* cached.listActive()
      assert.deepStrictEqual(yield* lookups, { "game_views hit": 2, "game_views miss": 3, "active_releases hit": 0, "active_releases miss": 2 })
    }).pipe(Effect.provideService(Metric.MetricRegistry, new Map()))))

  it.effect("forget drops a game's view and the catalog's list; other games stay", () =>
    onMemoryRecords(Effect.gen(function*() {
      const [game, other] = [yield* gameWithPendingRelease(), yield* gameWithPendingRelease()]
      const { counted, reads } = counting(yield* GameViews)
      const { cached, cache } = yield* cachedOver(counted, { ttlMs: 60_000 })
      const listed = Effect.map(cached.listActive(), (releases) => releases.map((r) => r.gameId).filter((id) => id === game.id || id === other.id))
      assert.isNull(activeVersion(yield* cached.view(game.id)))
      assert.isNull(activeVersion(yield* cached.view(other.id)))
      assert.deepStrictEqual(yield* listed, [])
      yield* approvedElsewhere(game.id)
      yield* approvedElsewhere(other.id)
      assert.deepStrictEqual(yield* listed, [], "served from the cache")
      yield* cache.forget([game.id])
      assert.strictEqual(activeVersion(yield* cached.view(game.id)), "1.0.0")
      assert.isNull(activeVersion(yield* cached.view(other.id)), "not named: still cached")
      assert.sameMembers(yield* listed, [game.id, other.id])
      assert.deepStrictEqual(reads, { views: 3, lists: 2 })
      yield* cache.forgetAll
      assert.strictEqual(activeVersion(yield* cached.view(other.id)), "1.0.0")
    })))

  it.effect("a read under way when its game is forgotten answers its waiters but is not kept", () =>
    onMemoryRecords(Effect.gen(function*() {
      const game = yield* gameWithPendingRelease()
      const views = yield* GameViews
      const before = yield* views.view(game.id)
      const release = yield* Deferred.make<void>()
      let first = true
      // The first read answers the view from before the decision, but only after the decision was announced.
      const { counted, reads } = counting(views, (read) => first ? (first = false, Effect.as(Deferred.await(release), before)) : read)
      const { cached, cache } = yield* cachedOver(counted, { ttlMs: 60_000 })
      const stale = yield* Effect.forkChild(cached.view(game.id))
      yield* Effect.yieldNow
      yield* approvedElsewhere(game.id)
      yield* cache.forget([game.id])
      yield* Deferred.succeed(release, undefined)
      assert.isNull(activeVersion(yield* Fiber.join(stale)))
      assert.strictEqual(activeVersion(yield* cached.view(game.id)), "1.0.0")
      assert.strictEqual(reads.views, 2)
    })))

  for (const fastHits of [true, false]) {
    it.effect(`a read a forget overtook as it started is not kept: the next request reads again (fastHits ${fastHits})`, () =>
      onMemoryRecords(Effect.gen(function*() {
        const game = yield* gameWithPendingRelease()
        const views = yield* GameViews
        const before = yield* views.view(game.id)
        const started = yield* Deferred.make<void>()
        const gate = yield* Deferred.make<void>()
        let first = true
        // The first read answers the view from before the decision; it wakes the test as it starts, then waits.
        const { counted, reads } = counting(views, (read) =>
          first ? (first = false, Effect.andThen(Deferred.succeed(started, undefined), Effect.as(Deferred.await(gate), before))) : read)
        const { cached, cache } = yield* cachedOver(counted, { ttlMs: 60_000, fastHits })
        const stale = yield* Effect.forkChild(cached.view(game.id))
        // Woken by the read as it starts, before effect's Cache has recorded it: the forget cannot drop it from there.
        yield* Deferred.await(started)
        yield* approvedElsewhere(game.id)
        yield* cache.forget([game.id])
        yield* Deferred.succeed(gate, undefined)
        assert.isNull(activeVersion(yield* Fiber.join(stale)), "the request that began before the decision may answer what it read")
        assert.strictEqual(activeVersion(yield* cached.view(game.id)), "1.0.0", "but nothing after it")
        assert.strictEqual(activeVersion(yield* cached.view(game.id)), "1.0.0")
        assert.strictEqual(reads.views, 2)
      })))
  }

  it.effect("misses that come together share one read of the store; a request that goes away does not cancel it", () =>
    onMemoryRecords(Effect.gen(function*() {
      const game = yield* gameWithPendingRelease()
      const release = yield* Deferred.make<void>()
      const { counted, reads } = counting(yield* GameViews, (read) => Effect.andThen(Deferred.await(release), read))
      const { cached } = yield* cachedOver(counted, { ttlMs: 60_000 })
      const starter = yield* Effect.forkChild(cached.view(game.id))
      yield* Effect.yieldNow
      const waiters = yield* Effect.forEach([1, 2, 3, 4], () => Effect.forkChild(cached.view(game.id)))
      yield* Effect.yieldNow
      yield* Fiber.interrupt(starter)
      yield* Deferred.succeed(release, undefined)
      for (const answer of yield* Effect.forEach(waiters, Fiber.join)) {
        assert.deepStrictEqual(Option.getOrThrow(answer), { gameId: game.id, ownerId: game.ownerId, slug: game.slug, active: null })
      }
      yield* cached.view(game.id)
      assert.strictEqual(reads.views, 1)
    })))

  it.effect("a failed read fails the requests waiting on it and is not kept; unknown games are not kept either", () =>
    onMemoryRecords(Effect.gen(function*() {
      const game = yield* gameWithPendingRelease()
      const release = yield* Deferred.make<void>()
      let failing = true
      const down = Effect.andThen(Deferred.await(release), Effect.fail(new Unavailable({ dependency: "database", reason: "down" })))
      const { counted, reads } = counting(yield* GameViews, (read) => (failing ? down : read))
      const { cached } = yield* cachedOver(counted, { ttlMs: 60_000 })
      const waiters = yield* Effect.forEach([1, 2, 3], () => Effect.forkChild(Effect.flip(cached.view(game.id))))
      yield* Effect.yieldNow
      yield* Deferred.succeed(release, undefined)
      for (const error of yield* Effect.forEach(waiters, Fiber.join)) assert.strictEqual(error._tag, "Unavailable")
      assert.strictEqual(reads.views, 1)
      failing = false
      assert.strictEqual(Option.getOrThrow(yield* cached.view(game.id)).gameId, game.id)
      assert.strictEqual(reads.views, 2)

      const created = aGame()
      assert.isTrue(Option.isNone(yield* cached.view(created.id)))
      yield* GameStore.use((games) => games.insert(created, "system")) // created on another instance
      assert.deepStrictEqual(Option.getOrThrow(yield* cached.view(created.id)), { gameId: created.id, ownerId: created.ownerId, slug: created.slug, active: null })
    })))

  it.effect("keeps at most `capacity` views, dropping the least recently used; ttlMs 0 reads the store every time", () =>
    onMemoryRecords(Effect.gen(function*() {
      const games = [yield* gameWithPendingRelease(), yield* gameWithPendingRelease(), yield* gameWithPendingRelease()]
      const bounded = counting(yield* GameViews)
      const { cached } = yield* cachedOver(bounded.counted, { ttlMs: 60_000, capacity: 2 })
      for (const game of games) yield* cached.view(game.id)
      yield* cached.view(games[2]!.id)
      yield* cached.view(games[1]!.id)
      assert.strictEqual(bounded.reads.views, 3)
      yield* cached.view(games[0]!.id)
      assert.strictEqual(bounded.reads.views, 4)

      const off = counting(yield* GameViews)
      const { cached: uncached } = yield* cachedOver(off.counted, { ttlMs: 0 })
      yield* uncached.view(games[0]!.id)
      yield* uncached.view(games[0]!.id)
      assert.strictEqual(off.reads.views, 2)
    })))

  it.effect("with maxLagMs, an entry older than it is served only while the follower confirmed within it; otherwise read again", () =>
    onMemoryRecords(Effect.gen(function*() {
      const [game, later] = [yield* gameWithPendingRelease(), yield* gameWithPendingRelease()]
      const { counted, reads } = counting(yield* GameViews)
      const { cached, cache } = yield* cachedOver(counted, { ttlMs: 60_000, maxLagMs: 1000 })
      assert.isNull(activeVersion(yield* cached.view(game.id)))
      yield* approvedElsewhere(game.id)
      yield* TestClock.adjust(999)
      assert.isNull(activeVersion(yield* cached.view(game.id)), "read 999 ms ago: served, follower or not")
      assert.strictEqual(reads.views, 1)
      yield* TestClock.adjust(1)
      assert.strictEqual(activeVersion(yield* cached.view(game.id)), "1.0.0", "read 1 s ago and no follower: read again")
      assert.strictEqual(reads.views, 2)

      yield* cache.confirmCurrent(1000)
      assert.isNull(activeVersion(yield* cached.view(later.id)))
      assert.strictEqual(reads.views, 3)
      yield* approvedElsewhere(later.id)
      yield* TestClock.adjust(1500)
      yield* cache.confirmCurrent(2000)
      assert.isNull(activeVersion(yield* cached.view(later.id)), "read 1.5 s ago, but the follower confirmed 0.5 s ago: served")
      assert.strictEqual(reads.views, 3)
      yield* TestClock.adjust(500)
      const again = yield* Effect.forEach([1, 2, 3], () => Effect.forkChild(cached.view(later.id)))
      for (const answer of yield* Effect.forEach(again, Fiber.join)) assert.strictEqual(activeVersion(answer), "1.0.0")
      assert.strictEqual(reads.views, 4, "one read again, shared by the requests that found the entry too old")
    })))

  it.effect("a decision through the decorated ReleaseStore shows at once on this instance", () =>
    Effect.gen(function*() {
      const context = yield* Layer.build(
        layerForgetOnDecision.pipe(Layer.provideMerge(layerCachedGameViews({ ttlMs: 60_000 })), Layer.provideMerge(layerMemoryRecords)),
      )
      const game = yield* gameWithPendingRelease().pipe(Effect.provide(context))
      const cached = Context.get(context, GameViews)
      assert.isNull(activeVersion(yield* cached.view(game.id)))
      yield* Context.get(context, ReleaseStore).review(game.id, "1.0.0", APPROVE)
      assert.strictEqual(activeVersion(yield* cached.view(game.id)), "1.0.0")
    }).pipe(Effect.scoped))
})

/** Wraps the records' change feed (to make it fail). */
type FeedWrapper = (feed: ChangeFeed["Service"]) => ChangeFeed["Service"]

/** One instance: records (which other instances write to as well), the cache over them, and a follower of their feed. */
const followingInstance = (wrapFeed: FeedWrapper = (feed) => feed) =>
  Effect.gen(function*() {
    const records = yield* Layer.build(layerMemoryRecords)
    const feed = Layer.succeed(ChangeFeed, wrapFeed(Context.get(records, ChangeFeed)))
    const context = yield* Layer.build(
      layerChangeFollower({ intervalMs: 250, batch: 2 }).pipe(
        Layer.provideMerge(layerCachedGameViews({ ttlMs: 60_000, maxLagMs: 1000 })),
        Layer.provide(feed),
        Layer.provideMerge(Layer.succeedContext(records)),
      ),
    )
    return {
      cached: Context.get(context, GameViews),
      follower: Context.get(context, ChangeFollower),
      /** Runs `effect` on the records, as another instance would. */
      on: <A, E>(effect: Effect.Effect<A, E, GameStore | ReleaseStore | ChangeFeed>) => Effect.provide(effect, records),
    }
  })

describe("ChangeFollower", () => {
  it.effect("applies another instance's decision from the feed: the game is forgotten, and its position passes the change", () =>
    Effect.gen(function*() {
      const { cached, follower, on } = yield* followingInstance()
      const game = yield* on(gameWithPendingRelease())
      yield* follower.reached(0)
      assert.strictEqual(yield* follower.position, 0)
      assert.isNull(activeVersion(yield* cached.view(game.id)))
      yield* on(approvedElsewhere(game.id))
      const seq = yield* on(ChangeFeed.use((feed) => feed.latest))
      assert.isNull(activeVersion(yield* cached.view(game.id)), "until the follower's next round")
      yield* TestClock.adjust(250)
      yield* follower.reached(seq)
      assert.strictEqual(activeVersion(yield* cached.view(game.id)), "1.0.0")
    }).pipe(Effect.scoped))

  it.effect("starts at the newest change, dropping what the cache read before it started", () =>
    Effect.gen(function*() {
      const records = yield* Layer.build(layerMemoryRecords)
      const cacheContext = yield* Layer.build(layerCachedGameViews({ ttlMs: 60_000, maxLagMs: 1000 }).pipe(Layer.provide(Layer.succeedContext(records))))
      const cached = Context.get(cacheContext, GameViews)
      const game = yield* gameWithPendingRelease().pipe(Effect.provide(records))
      assert.isNull(activeVersion(yield* cached.view(game.id)))
      yield* approvedElsewhere(game.id).pipe(Effect.provide(records))
      const follower = Context.get(
        yield* Layer.build(layerChangeFollower().pipe(Layer.provide(Layer.merge(Layer.succeedContext(records), Layer.succeedContext(cacheContext))))),
        ChangeFollower,
      )
      yield* follower.reached(1)
      assert.strictEqual(yield* follower.position, 1)
      assert.strictEqual(activeVersion(yield* cached.view(game.id)), "1.0.0")
    }).pipe(Effect.scoped))

  it.effect("a backlog longer than one batch is applied in one round; a gap (pruned changes) forgets everything", () =>
    Effect.gen(function*() {
      const { cached, follower, on } = yield* followingInstance()
      const games = yield* on(Effect.forEach([1, 2, 3, 4, 5], () => gameWithPendingRelease()))
      const bystander = yield* on(gameWithPendingRelease())
      yield* follower.reached(0)
      for (const game of [...games, bystander]) yield* cached.view(game.id)
      for (const game of games) yield* on(approvedElsewhere(game.id))
      yield* TestClock.adjust(250)
      yield* follower.reached(5)
      for (const game of games) assert.strictEqual(activeVersion(yield* cached.view(game.id)), "1.0.0")

      // Two changes while this follower looks away, then pruned: it sees 8 after 5, and cannot tell which games changed.
      const [late, later] = [yield* on(gameWithPendingRelease()), yield* on(gameWithPendingRelease())]
      yield* cached.view(bystander.id)
      yield* on(approvedElsewhere(late.id))
      yield* on(approvedElsewhere(bystander.id))
      yield* on(approvedElsewhere(later.id))
      yield* on(ChangeFeed.use((feed) => feed.prune(new Date("2100-01-01T00:00:00.000Z"))))
      assert.isNull(activeVersion(yield* cached.view(bystander.id)))
      yield* TestClock.adjust(250)
      yield* follower.reached(8)
      assert.strictEqual(activeVersion(yield* cached.view(bystander.id)), "1.0.0")
    }).pipe(Effect.scoped))

  it.effect("while the feed cannot be read the cache answers from the store after maxLagMs; the follower resumes where it stopped", () =>
    Effect.gen(function*() {
      let feedDown = false
      const down = Effect.fail(new Unavailable({ dependency: "database", reason: "feed unreachable" }))
      const { cached, follower, on } = yield* followingInstance((feed) =>
        ChangeFeed.of({
          since: (seq, limit) => Effect.suspend(() => (feedDown ? down : feed.since(seq, limit))),
          latest: Effect.suspend(() => (feedDown ? down : feed.latest)),
          prune: feed.prune,
        })
      )
      const game = yield* on(gameWithPendingRelease())
      yield* follower.reached(0)
      assert.isNull(activeVersion(yield* cached.view(game.id)))
      feedDown = true
      yield* on(approvedElsewhere(game.id))
      yield* TestClock.adjust(250)
      assert.isNull(activeVersion(yield* cached.view(game.id)), "confirmed 250 ms ago: still served")
      yield* TestClock.adjust(750)
      assert.strictEqual(activeVersion(yield* cached.view(game.id)), "1.0.0", "no confirmation for 1 s: the store answers")
      assert.strictEqual(yield* follower.position, 0)
      feedDown = false
      yield* TestClock.adjust(250)
      yield* follower.reached(1)
      assert.strictEqual(activeVersion(yield* cached.view(game.id)), "1.0.0")
    }).pipe(Effect.scoped))

  it.effect("every instance prunes what is older than keepMs from the feed, every pruneEveryMs", () =>
    Effect.gen(function*() {
      const records = yield* Layer.build(layerMemoryRecords)
      yield* Layer.build(
        layerChangeFollower({ intervalMs: 60_000, pruneEveryMs: 600_000, keepMs: 3_600_000 }).pipe(
          Layer.provide(layerCachedGameViews({ ttlMs: 60_000 })),
          Layer.provide(Layer.succeedContext(records)),
        ),
      )
      const on = <A, E>(effect: Effect.Effect<A, E, GameStore | ReleaseStore | ChangeFeed>) => Effect.provide(effect, records)
      // TestClock starts at the epoch: decisions dated then, 15 minutes later and a little after.
      const decidedAt = (ms: number) => ({ ...APPROVE, at: new Date(ms) })
      const games = yield* on(Effect.forEach([1, 2, 3], () => gameWithPendingRelease()))
      yield* on(ReleaseStore.use((store) => store.review(games[0]!.id, "1.0.0", decidedAt(0))))
      yield* on(ReleaseStore.use((store) => store.review(games[1]!.id, "1.0.0", decidedAt(900_000))))
      yield* on(ReleaseStore.use((store) => store.review(games[2]!.id, "1.0.0", decidedAt(1_000_000))))
      const kept = on(ChangeFeed.use((feed) => Effect.map(feed.since(0, 10), (changes) => changes.map((change) => change.seq))))
      yield* TestClock.adjust(3_600_000)
      assert.deepStrictEqual(yield* kept, [1, 2, 3], "nothing was an hour old at any prune yet")
      yield* TestClock.adjust(600_000)
      assert.deepStrictEqual(yield* kept, [2, 3])
      yield* TestClock.adjust(600_000)
      assert.deepStrictEqual(yield* kept, [3], "older than an hour but the newest: kept")
    }).pipe(Effect.scoped))
})

const memoryStorage = layerMemoryObjectStorage.pipe(
  Layer.provide(SignedUrls.layer(new Uint8Array(32).fill(7), () => "http://localhost")),
  Layer.provide(layerManualClock()),
)

describe("MemoizedDownloadUrls", () => {
  it.effect("hands out exactly the URL the store signs at the start of the second, signing once per key, name, lifetime and second", () =>
    Effect.gen(function*() {
      const storage = yield* ObjectStorage
      let signed = 0
      const counted = ObjectStorage.of({ ...storage, presignGet: (key, options) => Effect.suspend(() => (signed++, storage.presignGet(key, options))) })
      const context = yield* Layer.build(layerMemoizedDownloadUrls.pipe(Layer.provide(Layer.succeed(ObjectStorage, counted))))
      const memoized = Context.get(context, ObjectStorage)
      const second = new Date("2026-05-01T10:00:00.000Z")
      const options = { now: new Date(second.getTime() + 250), expiresInSeconds: 300, downloadName: "game-1.0.0.pck" }
      const first = yield* memoized.presignGet("games/a/1.pck", options)
      const again = yield* memoized.presignGet("games/a/1.pck", { ...options, now: new Date(second.getTime() + 999) })
      assert.deepStrictEqual(again, first)
      assert.deepStrictEqual(first, yield* storage.presignGet("games/a/1.pck", { ...options, now: second }))
      assert.strictEqual(first.expiresAt.getTime(), second.getTime() + 300_000, "exactly when the URL stops working")
      assert.strictEqual(signed, 1)
      yield* memoized.presignGet("games/a/1.pck", { ...options, downloadName: "other.pck" })
      yield* memoized.presignGet("games/b/1.pck", options)
      yield* memoized.presignGet("games/a/1.pck", { ...options, expiresInSeconds: 60 })
      assert.strictEqual(signed, 4)
      const next = yield* memoized.presignGet("games/a/1.pck", { ...options, now: new Date(second.getTime() + 1000) })
      assert.strictEqual(signed, 5)
      assert.notStrictEqual(next.url, first.url)
      assert.strictEqual(next.expiresAt.getTime(), first.expiresAt.getTime() + 1000)
    }).pipe(Effect.scoped, Effect.provide(memoryStorage)))
})
