// The serialized catalog page cache (adapters/cache/CatalogPages.ts) on the memory records: a kept page is the store's
// page byte for byte, each (limit, cursor, q) has its own, forgetting drops them all, and a page older than the bound
// is read again unless the follower confirmed it is current. Time is effect's TestClock, moved by hand.
import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { CatalogPageCache, CatalogPages, layerCachedCatalogPages } from "../../adapters/cache/CatalogPages.ts"
import { layerMemoryRecords } from "../../adapters/memory/MemoryRecords.ts"
import { readCatalogRequest } from "../../domain/catalog/CatalogPage.ts"
import { Catalog } from "../../ports/Catalog.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { aGame, anIntent, aReleaseFor } from "../support/fixtures.ts"

const publish = (name: string, at: string) =>
  Effect.gen(function*() {
    const game = aGame({ name })
    yield* GameStore.use((games) => games.insert(game))
    const intent = anIntent(game.id)
    const store = yield* ReleaseStore
    yield* store.recordIntent(intent)
    yield* store.finalize(intent.id, aReleaseFor(intent))
    yield* store.review(game.id, "1.0.0", { status: "approved", by: "admin", at: new Date(at), reason: null })
  })

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

const withCache = <A, E>(maxLagMs: number | undefined, body: (pages: CatalogPages["Service"], cache: CatalogPageCache["Service"]) => Effect.Effect<A, E, GameStore | ReleaseStore | Catalog>) =>
  Effect.gen(function*() {
    const context = yield* Layer.build(layerCachedCatalogPages({ ttlMs: 60_000, ...(maxLagMs === undefined ? {} : { maxLagMs }) }))
    return yield* body(Context.get(context, CatalogPages), Context.get(context, CatalogPageCache))
  }).pipe(Effect.scoped, Effect.provide(layerMemoryRecords))

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
})
