// The in-process caches the server puts in front of the stores (adapters/cache): what they serve, when they stop
// serving it, and that nothing they hand out differs from what the store itself would answer.
import { assert, describe, it } from "@effect/vitest"
import { Context, Deferred, Effect, Fiber, Layer, Option } from "effect"
import { layerCachedGameViews } from "../../adapters/cache/CachedGameViews.ts"
import { layerMemoizedDownloadUrls } from "../../adapters/cache/MemoizedDownloadUrls.ts"
import { layerManualClock } from "../../adapters/memory/MemoryClock.ts"
import { layerMemoryObjectStorage } from "../../adapters/memory/MemoryObjectStorage.ts"
import { layerMemoryRecords } from "../../adapters/memory/MemoryRecords.ts"
import { SignedUrls } from "../../adapters/signed-urls/SignedUrls.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { type GameReleaseView, ReleaseStore } from "../../ports/ReleaseStore.ts"
import { Unavailable } from "../../domain/errors.ts"
import { aGame, anIntent, aReleaseFor } from "../support/fixtures.ts"

const APPROVE = { status: "approved", by: "admin", at: new Date("2026-05-01T00:00:00.000Z"), reason: null } as const

/** A game with one pending release, written to the store underneath the cache. */
const gameWithPendingRelease = (store: ReleaseStore["Service"], version = "1.0.0") =>
  Effect.gen(function*() {
    const game = aGame()
    yield* GameStore.use((games) => games.insert(game))
    const intent = anIntent(game.id, { version })
    yield* store.recordIntent(intent)
    yield* store.finalize(intent.id, aReleaseFor(intent))
    return game
  })

/** The decorated store over the given one, with a clock the test moves by hand. */
const cachedOver = (store: ReleaseStore["Service"], options: { readonly ttlMs: number; readonly maxEntries?: number }) =>
  Effect.gen(function*() {
    let now = 0
    const context = yield* Layer.build(layerCachedGameViews({ ...options, now: () => now }).pipe(Layer.provide(Layer.succeed(ReleaseStore, store))))
    return { cached: Context.get(context, ReleaseStore), advance: (ms: number) => void (now += ms) }
  })

/** Counts the reads of game views that reach the store underneath (one game's, or the bulk refresh's), and notes the bulk refreshes' games. */
const counting = (store: ReleaseStore["Service"]) => {
  const reads = { count: 0, refreshed: [] as Array<ReadonlyArray<string>> }
  const counted = ReleaseStore.of({
    ...store,
    gameView: (gameId) => Effect.suspend(() => (reads.count++, store.gameView(gameId))),
    activeReleasesOf: (gameIds) => Effect.suspend(() => (reads.count++, reads.refreshed.push(gameIds), store.activeReleasesOf(gameIds))),
  })
  return { counted, reads }
}

const activeVersion = (view: Option.Option<GameReleaseView>) => Option.getOrThrow(view).active?.version ?? null

describe("CachedGameViews", () => {
  it.effect("serves a view for ttlMs; an approval made elsewhere (the store underneath) shows once it expires", () =>
    Effect.gen(function*() {
      const store = yield* ReleaseStore
      const game = yield* gameWithPendingRelease(store)
      const { counted, reads } = counting(store)
      const { cached, advance } = yield* cachedOver(counted, { ttlMs: 1000 })
      assert.isNull(activeVersion(yield* cached.gameView(game.id)))
      yield* store.review(game.id, "1.0.0", APPROVE) // another instance approves
      advance(799)
      assert.isNull(activeVersion(yield* cached.gameView(game.id)))
      assert.strictEqual(reads.count, 1)
      advance(201)
      assert.strictEqual(activeVersion(yield* cached.gameView(game.id)), "1.0.0")
      assert.strictEqual(reads.count, 2)
    }).pipe(Effect.scoped, Effect.provide(layerMemoryRecords)))

  it.effect("a view read after 80% of its life is answered from the cache and refreshed in the background, once", () =>
    Effect.gen(function*() {
      const store = yield* ReleaseStore
      const game = yield* gameWithPendingRelease(store)
      const { counted, reads } = counting(store)
      const { cached, advance } = yield* cachedOver(counted, { ttlMs: 1000 })
      yield* cached.gameView(game.id)
      yield* store.review(game.id, "1.0.0", APPROVE) // another instance approves
      advance(800)
      assert.isNull(activeVersion(yield* cached.gameView(game.id)))
      assert.isNull(activeVersion(yield* cached.gameView(game.id)))
      for (let i = 0; i < 100 && reads.count < 2; i++) yield* Effect.yieldNow
      assert.strictEqual(reads.count, 2)
      assert.strictEqual(activeVersion(yield* cached.gameView(game.id)), "1.0.0")
      assert.strictEqual(reads.count, 2)
    }).pipe(Effect.scoped, Effect.provide(layerMemoryRecords)))

  it.effect("one background read refreshes every entry in demand past half its life; entries not read since are left to expire", () =>
    Effect.gen(function*() {
      const store = yield* ReleaseStore
      const [early, later, young, idle] = [yield* gameWithPendingRelease(store), yield* gameWithPendingRelease(store), yield* gameWithPendingRelease(store), yield* gameWithPendingRelease(store)]
      const { counted, reads } = counting(store)
      const { cached, advance } = yield* cachedOver(counted, { ttlMs: 1000 })
      yield* cached.gameView(early.id)
      yield* cached.gameView(idle.id)
      advance(300)
      yield* cached.gameView(later.id)
      advance(200)
      yield* cached.gameView(young.id)
      for (const game of [early, later, young, idle]) yield* store.review(game.id, "1.0.0", APPROVE) // another instance approves
      yield* cached.gameView(later.id) // in demand, age 200
      yield* cached.gameView(young.id) // in demand, age 0
      advance(300)
      assert.isNull(activeVersion(yield* cached.gameView(early.id))) // age 800: answered from the cache, starts the refresh
      for (let i = 0; i < 100 && reads.refreshed.length === 0; i++) yield* Effect.yieldNow
      assert.deepStrictEqual(reads.refreshed, [[early.id, later.id]])
      assert.strictEqual(reads.count, 5)
      assert.strictEqual(activeVersion(yield* cached.gameView(early.id)), "1.0.0")
      assert.strictEqual(activeVersion(yield* cached.gameView(later.id)), "1.0.0")
      assert.isNull(activeVersion(yield* cached.gameView(young.id)))
      assert.strictEqual(reads.count, 5)
      advance(200)
      // Never read after it was stored, so not refreshed: at the end of its life it is read again.
      assert.strictEqual(activeVersion(yield* cached.gameView(idle.id)), "1.0.0")
      assert.strictEqual(reads.count, 6)
      assert.deepStrictEqual(reads.refreshed, [[early.id, later.id]])
    }).pipe(Effect.scoped, Effect.provide(layerMemoryRecords)))

  it.effect("an approval through the cached store shows at once", () =>
    Effect.gen(function*() {
      const store = yield* ReleaseStore
      const game = yield* gameWithPendingRelease(store)
      const { cached } = yield* cachedOver(store, { ttlMs: 60_000 })
      assert.isNull(activeVersion(yield* cached.gameView(game.id)))
      yield* cached.review(game.id, "1.0.0", APPROVE)
      assert.strictEqual(activeVersion(yield* cached.gameView(game.id)), "1.0.0")
    }).pipe(Effect.scoped, Effect.provide(layerMemoryRecords)))

  it.effect("a read that began before an approval on this instance does not keep what it saw", () =>
    Effect.gen(function*() {
      const store = yield* ReleaseStore
      const game = yield* gameWithPendingRelease(store)
      const before = yield* store.gameView(game.id)
      const release = yield* Deferred.make<void>()
      // The first read answers the pre-approval view, but only after the approval has completed.
      let first = true
      const slow = ReleaseStore.of({
        ...store,
        gameView: (gameId) =>
          first ? (first = false, Effect.as(Deferred.await(release), before)) : store.gameView(gameId),
      })
      const { cached } = yield* cachedOver(slow, { ttlMs: 60_000 })
      const stale = yield* Effect.forkChild(cached.gameView(game.id))
      yield* Effect.yieldNow
      yield* cached.review(game.id, "1.0.0", APPROVE)
      yield* Deferred.succeed(release, undefined)
      assert.isNull(activeVersion(yield* Fiber.join(stale)))
      assert.strictEqual(activeVersion(yield* cached.gameView(game.id)), "1.0.0")
    }).pipe(Effect.scoped, Effect.provide(layerMemoryRecords)))

  it.effect("misses that come together share one read of the store; a request that goes away does not cancel it", () =>
    Effect.gen(function*() {
      const store = yield* ReleaseStore
      const game = yield* gameWithPendingRelease(store)
      const release = yield* Deferred.make<void>()
      const { counted, reads } = counting(ReleaseStore.of({ ...store, gameView: (gameId) => Effect.andThen(Deferred.await(release), store.gameView(gameId)) }))
      const { cached } = yield* cachedOver(counted, { ttlMs: 60_000 })
      const starter = yield* Effect.forkChild(cached.gameView(game.id))
      yield* Effect.yieldNow
      const waiters = yield* Effect.forEach([1, 2, 3, 4], () => Effect.forkChild(cached.gameView(game.id)))
      yield* Effect.yieldNow
      yield* Fiber.interrupt(starter)
      yield* Deferred.succeed(release, undefined)
      const answers = yield* Effect.forEach(waiters, Fiber.join)
      assert.strictEqual(reads.count, 1)
      for (const answer of answers) assert.deepStrictEqual(Option.getOrThrow(answer), { gameId: game.id, ownerId: game.ownerId, slug: game.slug, active: null })
      yield* cached.gameView(game.id)
      assert.strictEqual(reads.count, 1)
    }).pipe(Effect.scoped, Effect.provide(layerMemoryRecords)))

  it.effect("a failed read fails the requests waiting on it, and the next request reads again", () =>
    Effect.gen(function*() {
      const store = yield* ReleaseStore
      const game = yield* gameWithPendingRelease(store)
      const release = yield* Deferred.make<void>()
      let failing = true
      const { counted, reads } = counting(ReleaseStore.of({
        ...store,
        gameView: (gameId) =>
          failing
            ? Effect.andThen(Deferred.await(release), Effect.fail(new Unavailable({ dependency: "database", reason: "down" })))
            : store.gameView(gameId),
      }))
      const { cached } = yield* cachedOver(counted, { ttlMs: 60_000 })
      const waiters = yield* Effect.forEach([1, 2, 3], () => Effect.forkChild(Effect.flip(cached.gameView(game.id))))
      yield* Effect.yieldNow
      yield* Deferred.succeed(release, undefined)
      for (const error of yield* Effect.forEach(waiters, Fiber.join)) assert.strictEqual(error._tag, "Unavailable")
      assert.strictEqual(reads.count, 1)
      failing = false
      assert.strictEqual(Option.getOrThrow(yield* cached.gameView(game.id)).gameId, game.id)
      assert.strictEqual(reads.count, 2)
    }).pipe(Effect.scoped, Effect.provide(layerMemoryRecords)))

  it.effect("unknown games are not cached: a game created elsewhere is visible at once", () =>
    Effect.gen(function*() {
      const store = yield* ReleaseStore
      const game = aGame()
      const { cached } = yield* cachedOver(store, { ttlMs: 60_000 })
      assert.isTrue(Option.isNone(yield* cached.gameView(game.id)))
      yield* GameStore.use((games) => games.insert(game))
      assert.deepStrictEqual(Option.getOrThrow(yield* cached.gameView(game.id)), { gameId: game.id, ownerId: game.ownerId, slug: game.slug, active: null })
    }).pipe(Effect.scoped, Effect.provide(layerMemoryRecords)))

  it.effect("the catalog's list of active releases: cached for ttlMs, dropped at once by an approval on this instance", () =>
    Effect.gen(function*() {
      const store = yield* ReleaseStore
      const first = yield* gameWithPendingRelease(store)
      const second = yield* gameWithPendingRelease(store)
      const { cached, advance } = yield* cachedOver(store, { ttlMs: 1000 })
      const activeGames = Effect.map(cached.listActive(), (releases) => releases.map((r) => r.gameId).filter((id) => id === first.id || id === second.id))
      assert.deepStrictEqual(yield* activeGames, [])
      yield* cached.review(first.id, "1.0.0", APPROVE)
      assert.deepStrictEqual(yield* activeGames, [first.id])
      yield* store.review(second.id, "1.0.0", APPROVE) // another instance approves
      advance(999)
      assert.deepStrictEqual(yield* activeGames, [first.id])
      advance(1)
      assert.sameMembers(yield* activeGames, [first.id, second.id])
    }).pipe(Effect.scoped, Effect.provide(layerMemoryRecords)))

  it.effect("keeps at most maxEntries views, dropping the oldest; ttlMs 0 reads the store every time", () =>
    Effect.gen(function*() {
      const store = yield* ReleaseStore
      const games = [yield* gameWithPendingRelease(store), yield* gameWithPendingRelease(store), yield* gameWithPendingRelease(store)]
      const bounded = counting(store)
      const { cached } = yield* cachedOver(bounded.counted, { ttlMs: 60_000, maxEntries: 2 })
      for (const game of games) yield* cached.gameView(game.id)
      yield* cached.gameView(games[2]!.id)
      yield* cached.gameView(games[1]!.id)
      assert.strictEqual(bounded.reads.count, 3)
      yield* cached.gameView(games[0]!.id)
      assert.strictEqual(bounded.reads.count, 4)

      const off = counting(store)
      const { cached: uncached } = yield* cachedOver(off.counted, { ttlMs: 0 })
      yield* uncached.gameView(games[0]!.id)
      yield* uncached.gameView(games[0]!.id)
      assert.strictEqual(off.reads.count, 2)
    }).pipe(Effect.scoped, Effect.provide(layerMemoryRecords)))
})

const memoryStorage = layerMemoryObjectStorage.pipe(
  Layer.provide(SignedUrls.layer(new Uint8Array(32).fill(7), () => "http://localhost")),
  Layer.provide(layerManualClock()),
)

describe("MemoizedDownloadUrls", () => {
  it.effect("hands out exactly the URL the store signs, signing once per key, name, lifetime and instant", () =>
    Effect.gen(function*() {
      const storage = yield* ObjectStorage
      let signed = 0
      const counted = ObjectStorage.of({ ...storage, presignGet: (key, options) => Effect.suspend(() => (signed++, storage.presignGet(key, options))) })
      const context = yield* Layer.build(layerMemoizedDownloadUrls.pipe(Layer.provide(Layer.succeed(ObjectStorage, counted))))
      const memoized = Context.get(context, ObjectStorage)
      const at = new Date("2026-05-01T10:00:00.000Z")
      const options = { now: at, expiresInSeconds: 300, downloadName: "game-1.0.0.pck" }
      const first = yield* memoized.presignGet("games/a/1.pck", options)
      const again = yield* memoized.presignGet("games/a/1.pck", options)
      assert.deepStrictEqual(again, first)
      assert.deepStrictEqual(first, yield* storage.presignGet("games/a/1.pck", options))
      assert.strictEqual(signed, 1)
      yield* memoized.presignGet("games/a/1.pck", { ...options, downloadName: "other.pck" })
      yield* memoized.presignGet("games/b/1.pck", options)
      yield* memoized.presignGet("games/a/1.pck", { ...options, expiresInSeconds: 60 })
      assert.strictEqual(signed, 4)
      const later = { ...options, now: new Date(at.getTime() + 1000) }
      const next = yield* memoized.presignGet("games/a/1.pck", later)
      assert.strictEqual(signed, 5)
      assert.notStrictEqual(next.url, first.url)
      assert.strictEqual(next.expiresAt.getTime(), first.expiresAt.getTime() + 1000)
    }).pipe(Effect.scoped, Effect.provide(memoryStorage)))
})
