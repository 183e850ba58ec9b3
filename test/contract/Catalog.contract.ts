import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { Game } from "../../domain/game/Game.ts"
import { searchKey } from "../../domain/game/searchKey.ts"
import type { CatalogKey } from "../../domain/paging/orders.ts"
import { Catalog, type CatalogEntry } from "../../ports/Catalog.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { aGame, anIntent, aReleaseFor, at, SHA_B, unique } from "../support/fixtures.ts"

const keyOf = (e: CatalogEntry): CatalogKey => ({ firstPublishedAt: e.firstPublishedAt, gameId: e.gameId })
const newestFirst = (a: CatalogEntry, b: CatalogEntry) =>
  b.firstPublishedAt.getTime() - a.firstPublishedAt.getTime() || (a.gameId < b.gameId ? 1 : -1)

/** A game with `name`, and release `version` submitted; approved at `approvedAt` unless null. */
const gameWith = (name: string, approvedAt: string | null, overrides: { slug?: string; version?: string } = {}) =>
  Effect.gen(function*() {
    const game = aGame({ id: unique("gm_c"), name, ...(overrides.slug === undefined ? {} : { slug: overrides.slug }) })
    yield* (yield* GameStore).insert(game, "system")
    const release = yield* submit(game.id, overrides.version ?? "1.0.0")
    if (approvedAt !== null) yield* approve(game.id, release.version, approvedAt)
    return game
  })

const submit = (gameId: string, version: string, sha256?: string) =>
  Effect.gen(function*() {
    const store = yield* ReleaseStore
    const intent = anIntent(gameId, { version, ...(sha256 === undefined ? {} : { sha256 }) })
    yield* store.recordIntent(intent)
    return yield* store.finalize(intent.id, aReleaseFor(intent))
  })

const approve = (gameId: string, version: string, when: string) =>
  ReleaseStore.use((store) => store.review(gameId, version, { status: "approved", by: "admin", at: at(when), reason: null }))

/** Every entry of the catalog (or of a search), page by page, running `between` after each page. */
const everyPage = <R = never>(size: number, prefix: string | null, between: Effect.Effect<void, unknown, R> = Effect.void as Effect.Effect<void, unknown, R>) =>
  Effect.gen(function*() {
    const catalog = yield* Catalog
    const all: Array<CatalogEntry> = []
    let after: CatalogKey | null = null
    for (;;) {
      const page: ReadonlyArray<CatalogEntry> = yield* catalog.page({ after, limit: size, prefix })
      all.push(...page)
      if (page.length < size) return all
      after = keyOf(page[page.length - 1]!)
      yield* between
    }
  })

/** Catalog reads what GameStore and ReleaseStore wrote, on the same records; other suites may share the records. */
export const catalogContract = (name: string, makeLayer: () => Layer.Layer<Catalog | ReleaseStore | GameStore, unknown>) =>
  layer(makeLayer(), { timeout: 120_000 })(`Catalog contract: ${name}`, (it) => {
    it.effect("page: published games only, newest first publication first, then id descending; every game once while others are published", () =>
      Effect.gen(function*() {
        const tag = unique("cat")
        const times = ["2030-01-01T00:00:00.000Z", "2030-01-02T00:00:00.000Z", "2030-01-02T00:00:00.000Z", "2030-01-03T00:00:00.000Z"]
        const published: Array<Game> = []
        for (let i = 0; i < 9; i++) published.push(yield* gameWith(`${tag} ${i}`, times[i % times.length]!))
        const unpublished = yield* gameWith(`${tag} pending`, null)
        const mine = (entries: ReadonlyArray<CatalogEntry>) => entries.filter((e) => e.name.startsWith(tag))
        const listed = mine(yield* everyPage(4, null))
        assert.strictEqual(listed.length, 9)
        assert.deepStrictEqual(listed.map((e) => e.gameId), [...listed].sort(newestFirst).map((e) => e.gameId))
        assert.isFalse(listed.some((e) => e.gameId === unpublished.id))
        const first = listed.find((e) => e.gameId === published[0]!.id)!
        assert.deepStrictEqual(first, {
          gameId: published[0]!.id,
          name: `${tag} 0`,
          slug: published[0]!.slug,
          kind: "engine",
          firstPublishedAt: at(times[0]!),
          activeVersion: "1.0.0",
          sha256: first.sha256,
          sizeBytes: 4096,
          activeSince: at(times[0]!),
        })

        // Between pages: new games are published (newer than everything, so before the cursor), one listed game gets
        // an update: nothing is skipped or repeated, and the updated game keeps its place.
        let step = 0
        const meanwhile = Effect.gen(function*() {
          step++
          yield* gameWith(`${tag} late ${step}`, `2031-01-0${step}T00:00:00.000Z`)
          if (step === 1) {
            yield* submit(published[3]!.id, "2.0.0", SHA_B)
            yield* approve(published[3]!.id, "2.0.0", "2031-06-01T00:00:00.000Z")
          }
        })
        const duringPublishing = mine(yield* everyPage(2, searchKey(tag), meanwhile)).filter((e) => !e.name.includes("late"))
        assert.deepStrictEqual(duringPublishing.map((e) => e.gameId), listed.map((e) => e.gameId))
        assert.isAbove(step, 2)
        const updated = mine(yield* everyPage(100, null)).find((e) => e.gameId === published[3]!.id)!
        assert.strictEqual(updated.activeVersion, "2.0.0")
        assert.deepStrictEqual(updated.firstPublishedAt, listed.find((e) => e.gameId === published[3]!.id)!.firstPublishedAt)
        assert.deepStrictEqual(mine(yield* everyPage(100, null)).filter((e) => !e.name.includes("late")).map((e) => e.gameId), listed.map((e) => e.gameId))
      }))

    it.effect("page: a search is a case-insensitive prefix of the name (NFC) or of the slug, paged in the same order", () =>
      Effect.gen(function*() {
        const tag = unique("srch")
        const accented = yield* gameWith(`Étoile ${tag}`, "2030-02-01T00:00:00.000Z")
        const decomposed = yield* gameWith(`E\u0301TOILE ${tag} deux`, "2030-02-02T00:00:00.000Z")
        const bySlug = yield* gameWith(`Unrelated ${tag}`, "2030-02-03T00:00:00.000Z", { slug: `slugonly-${tag}` })
        yield* gameWith(`Étoile ${tag} unpublished`, null)
        const search = (q: string) => Effect.map(everyPage(1, searchKey(q)), (entries) => entries.map((e) => e.gameId))
        // Names are stored NFC (UserText); the search key folds case, so any case and either normal form finds both.
        const both = [decomposed.id, accented.id]
        assert.deepStrictEqual((yield* search(`étoile ${tag}`)).filter((id) => both.includes(id)), both)
        assert.deepStrictEqual((yield* search(`ÉTOILE ${tag}`)).filter((id) => both.includes(id)), both)
        assert.deepStrictEqual(yield* search(`slugonly-${tag}`), [bySlug.id])
        assert.deepStrictEqual(yield* search(`SlugOnly-${tag}`), [bySlug.id])
        assert.deepStrictEqual(yield* search(`unrelated ${tag}`), [bySlug.id])
        assert.deepStrictEqual(yield* search(`${tag}`), [])
        assert.deepStrictEqual(yield* search(`étoile ${tag} unpublished`), [])
        assert.deepStrictEqual(yield* search(`étoile ${tag}x`), [])
      }))

    it.effect("bySlug: a published game's entry; none for unknown, unpublished and taken-down games", () =>
      Effect.gen(function*() {
        const catalog = yield* Catalog
        const tag = unique("slug")
        const live = yield* gameWith(`${tag} live`, "2030-03-01T00:00:00.000Z")
        const waiting = yield* gameWith(`${tag} waiting`, null)
        const gone = yield* gameWith(`${tag} gone`, "2030-03-02T00:00:00.000Z")
        const found = Option.getOrThrow(yield* catalog.bySlug(live.slug))
        assert.deepStrictEqual([found.gameId, found.activeVersion, found.firstPublishedAt], [live.id, "1.0.0", at("2030-03-01T00:00:00.000Z")])
        assert.isTrue(Option.isNone(yield* catalog.bySlug(waiting.slug)))
        assert.isTrue(Option.isNone(yield* catalog.bySlug(`${tag}-missing`)))
        assert.isTrue(Option.isSome(yield* catalog.bySlug(gone.slug)))
        yield* ReleaseStore.use((store) =>
          store.lifecycle(gone.id, { type: "take_down", versions: ["1.0.0"], reason: "illegal", quarantineKeys: {}, at: at("2030-03-03T00:00:00.000Z"), actor: "system" })
        )
        assert.isTrue(Option.isNone(yield* catalog.bySlug(gone.slug)))
        assert.isFalse((yield* everyPage(100, searchKey(tag))).some((e) => e.gameId === gone.id))
      }))
  })
