// The serialized catalog page cache (adapters/cache/CatalogPages.ts) on the memory records: a kept page is the store's
// page byte for byte, each (limit, cursor, q) has its own, forgetting drops them all, and a page older than the bound
// is read again unless the follower confirmed it is current; `peek` (fastHits) answers the same pages within the same
// bounds without effects. Time is effect's TestClock, moved by hand.
import { assert, describe, it } from "@effect/vitest"
import { Context, Deferred, Effect, Fiber, Layer, Metric } from "effect"
import { TestClock } from "effect/testing"
import { CatalogPageCache, type CatalogPageCacheOptions, CatalogPages, layerCachedCatalogPages } from "../../adapters/cache/CatalogPages.ts"
import { layerMemoryRecords } from "../../adapters/memory/MemoryRecords.ts"
import { readCatalogRequest } from "../../domain/catalog/CatalogPage.ts"
import { Catalog } from "../../ports/Catalog.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { aGame, anIntent, aReleaseFor } from "../support/fixtures.ts"

const publish = (name: string, at: string) =>
  Effect.gen(function*() {
    const game = aGame({ name })
    yield* GameStore.use((games) => games.insert(game, "system"))
    const intent = anIntent(game.id)
    const store = yield* ReleaseStore
    yield* store.recordIntent(intent)
    yield* store.finalize(intent.id, aReleaseFor(intent))
    yield* store.review(game.id, "1.0.0", { status: "approved", by: "admin", at: new Date(at), reason: null })
  })

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

const withCache = <A, E>(
  maxLagMs: number | undefined,
  body: (pages: CatalogPages["Service"], cache: CatalogPageCache["Service"]) => Effect.Effect<A, E, GameStore | ReleaseStore | Catalog>,
  options: Omit<CatalogPageCacheOptions, "maxLagMs" | "ttlMs"> = {},
) =>
  Effect.gen(function*() {
    const context = yield* Layer.build(layerCachedCatalogPages({ ttlMs: 60_000, ...options, ...(maxLagMs === undefined ? {} : { maxLagMs }) }))
    return yield* body(Context.get(context, CatalogPages), Context.get(context, CatalogPageCache))
  }).pipe(Effect.scoped, Effect.provide(layerMemoryRecords), Effect.provideService(Metric.MetricRegistry, new Map()))

/** The catalog cache's hits and misses as GET /metrics reports them. */
const lookups = Effect.map(Metric.snapshot, (series) =>
  Object.fromEntries(
    series.filter((s) => s.id === "pckgate_cache_lookups_total" && s.type === "Counter" && s.attributes?.["cache"] === "catalog")
      .map((s) => [String(s.attributes?.["result"]), Number((s.state as { count: number }).count)]),
  ))

/** `peek`, which the cache provides by default. */
const peekOf = (pages: CatalogPages["Service"]) => {
  assert.isDefined(pages.peek)
  return pages.peek!
}

const request = (q: string | null, limit: string | null = null) => readCatalogRequest({ limit, cursor: null, q })

describe("CatalogPages cache", () => {
  it.effect("keeps each (limit, cursor, q) page as the store's bytes until forgotten; a q with a NUL is its own key", () =>
    withCache(undefined, (pages, cache) =>
      Effect.gen(function*() {
        yield* publish("Alpha", "2030-01-01T00:00:00.000Z")
        const all = yield* pages.page(yield* request(null))
        const alpha = yield* pages.page(yield* request("alp"))
        const odd = yield* pages.page(yield* request("\u0000"))
        assert.deepStrictEqual(JSON.parse(text(all.body)).games.map((g: { name: string }) => g.name), ["Alpha"])
        assert.strictEqual(text(alpha.body), text(all.body))
        assert.deepStrictEqual(JSON.parse(text(odd.body)).games, [])
        assert.notStrictEqual(odd.etag, all.etag)
        yield* publish("Beta", "2030-01-02T00:00:00.000Z")
        // Kept: the store changed, nothing said so.
        assert.strictEqual((yield* pages.page(yield* request(null))).etag, all.etag)
        yield* cache.forgetAll
        const after = yield* pages.page(yield* request(null))
        assert.deepStrictEqual(JSON.parse(text(after.body)).games.map((g: { name: string }) => g.name), ["Beta", "Alpha"])
        assert.notStrictEqual(after.etag, all.etag)
        assert.strictEqual((yield* pages.page(yield* request(null, "1"))).etag === after.etag, false)
      })))

  it.effect("a page older than maxLagMs is read again unless the follower confirmed it is current", () =>
    withCache(1000, (pages, cache) =>
      Effect.gen(function*() {
        yield* publish("Gamma", "2030-01-01T00:00:00.000Z")
        const first = yield* pages.page(yield* request(null))
        yield* publish("Delta", "2030-01-02T00:00:00.000Z")
        yield* TestClock.adjust("500 millis")
        assert.strictEqual((yield* pages.page(yield* request(null))).etag, first.etag)
        // The follower confirms at 500 ms: trusted until 1500 ms.
        yield* cache.confirmCurrent(500)
        yield* TestClock.adjust("700 millis")
        assert.strictEqual((yield* pages.page(yield* request(null))).etag, first.etag)
        yield* TestClock.adjust("400 millis")
        const reread = yield* pages.page(yield* request(null))
        assert.notStrictEqual(reread.etag, first.etag)
      })))

  it.effect("peek answers the page `page` answered for that raw query string, and nothing else, until forgotten; hits are counted", () =>
    withCache(undefined, (pages, cache) =>
      Effect.gen(function*() {
        const peek = peekOf(pages)
        yield* publish("Alpha", "2030-01-01T00:00:00.000Z")
        assert.isNull(peek("?limit=1"))
        const first = yield* pages.page(yield* request(null, "1"), "?limit=1")
        assert.deepStrictEqual(yield* lookups, { hit: 0, miss: 1 })
        assert.strictEqual(peek("?limit=1"), first)
        assert.strictEqual(peek("?limit=1"), first)
        assert.deepStrictEqual(yield* lookups, { hit: 2, miss: 1 })
        // Other query strings, even of the same page, are unknown until `page` answered them.
        assert.isNull(peek("?limit=1&x=1"))
        assert.isNull(peek(""))
        // A page asked for without its query string is not peekable.
        yield* pages.page(yield* request(null))
        assert.isNull(peek(""))
        yield* publish("Beta", "2030-01-02T00:00:00.000Z")
        yield* cache.forgetAll
        assert.isNull(peek("?limit=1"))
        const after = yield* pages.page(yield* request(null, "1"), "?limit=1")
        assert.notStrictEqual(after.etag, first.etag)
        assert.strictEqual(peek("?limit=1")?.etag, after.etag)
        assert.deepStrictEqual(JSON.parse(text(peek("?limit=1")!.body)).games.map((g: { name: string }) => g.name), ["Beta"])
      })))

  it.effect("peek keeps the bounds: older than maxLagMs only while the follower confirms, never past ttlMs", () =>
    withCache(1000, (pages, cache) =>
      Effect.gen(function*() {
        const peek = peekOf(pages)
        yield* publish("Gamma", "2030-01-01T00:00:00.000Z")
        const first = yield* pages.page(yield* request(null), "?")
        yield* TestClock.adjust("999 millis")
        assert.strictEqual(peek("?"), first)
        yield* TestClock.adjust("1 millis")
        assert.isNull(peek("?"), "older than the bound, unconfirmed")
        // Read again at 1,000 ms; the follower confirms at 1,900 ms: trusted until 2,900 ms.
        yield* pages.page(yield* request(null), "?")
        yield* TestClock.adjust("900 millis")
        yield* cache.confirmCurrent(1_900)
        yield* TestClock.adjust("999 millis")
        assert.isNotNull(peek("?"), "older than the bound, confirmed")
        yield* TestClock.adjust("1 millis")
        assert.isNull(peek("?"))
        // The time to live ends a page however current the follower is.
        yield* pages.page(yield* request(null), "?")
        yield* cache.confirmCurrent(200_000)
        yield* TestClock.adjust("59999 millis")
        assert.isNotNull(peek("?"))
        yield* TestClock.adjust("1 millis")
        assert.isNull(peek("?"))
      })))

  it.effect("a read that a forget overtook is never kept: its request reads again, and that read is what is kept", () =>
    Effect.gen(function*() {
      const gate = yield* Deferred.make<void>()
      const started = yield* Deferred.make<void>()
      // The memory catalog, its first page read held at the gate.
      const held = Layer.effect(Catalog, Catalog.useSync((catalog) =>
        Catalog.of({
          ...catalog,
          page: (query) => Effect.andThen(Effect.andThen(Deferred.succeed(started, undefined), Deferred.await(gate)), catalog.page(query)),
        })))
      const context = yield* Layer.build(layerCachedCatalogPages({ ttlMs: 60_000 }).pipe(Layer.provide(held)))
      const pages = Context.get(context, CatalogPages)
      const reading = yield* Effect.forkChild(pages.page(yield* request(null), "?"))
      // Woken by the read as it starts, before effect's Cache has recorded it: the forget cannot drop it from there.
      yield* Deferred.await(started)
      yield* Context.get(context, CatalogPageCache).forgetAll
      yield* Deferred.succeed(gate, undefined)
      const answered = yield* Fiber.join(reading)
      // The request read its page again, once it saw the read had begun before the forget; that read is the one kept.
      assert.deepStrictEqual(yield* lookups, { hit: 0, miss: 2 })
      assert.strictEqual(peekOf(pages)("?"), answered)
      assert.strictEqual(yield* pages.page(yield* request(null), "?"), answered)
      assert.deepStrictEqual(yield* lookups, { hit: 2, miss: 2 })
    }).pipe(Effect.scoped, Effect.provide(layerMemoryRecords), Effect.provideService(Metric.MetricRegistry, new Map())))

  it.effect("without fastHits there is no peek", () =>
    withCache(undefined, (pages) => Effect.sync(() => assert.isUndefined(pages.peek)), { fastHits: false }))
})
