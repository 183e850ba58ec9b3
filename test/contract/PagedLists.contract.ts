import { assert, layer } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import type { Game } from "../../domain/game/Game.ts"
import type { OwnerGamesKey, QueueKey } from "../../domain/paging/orders.ts"
import type { Release } from "../../domain/release/Release.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { PagedLists } from "../../ports/PagedLists.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { aGame, anIntent, aReleaseFor, at, unique } from "../support/fixtures.ts"

const queueKey = (r: Release): QueueKey => ({ createdAt: r.createdAt, gameId: r.gameId, version: r.version })
const ownerKey = (g: Game): OwnerGamesKey => ({ createdAt: g.createdAt, gameId: g.id })

/** Every row of a keyset list, page by page of `size`, with `between` run after each page (rows added meanwhile). */
const everyPage = <A, K>(read: (after: K | null, limit: number) => Effect.Effect<ReadonlyArray<A>, unknown>, keyOf: (a: A) => K, size: number, between: Effect.Effect<void, unknown> = Effect.void) =>
  Effect.gen(function*() {
    const all: Array<A> = []
    let after: K | null = null
    for (let pages = 0; pages < 10_000; pages++) {
      const page: ReadonlyArray<A> = yield* read(after, size)
      all.push(...page)
      if (page.length < size) return all
      after = keyOf(page[page.length - 1]!)
      yield* between
    }
    throw new Error("the list never ended")
  })

/** PagedLists reads what GameStore and ReleaseStore wrote, on the same records; other suites may share the records. */
export const pagedListsContract = (name: string, makeLayer: () => Layer.Layer<PagedLists | ReleaseStore | GameStore, unknown>) =>
  layer(makeLayer(), { timeout: 120_000 })(`PagedLists contract: ${name}`, (it) => {
    it.effect("gamesOfOwner: the owner's games oldest first, ties by id, every game once across pages while games are added", () =>
      Effect.gen(function*() {
        const games = yield* GameStore
        const lists = yield* PagedLists
        const ownerId = unique("owner-")
        const times = ["2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z", "2026-01-02T00:00:00.000Z", "2026-01-01T00:00:00.000Z", "2026-01-03T00:00:00.000Z"]
        const made = times.map((t, i) => aGame({ id: unique(`gm_${i}`), ownerId, createdAt: at(t), updatedAt: at(t) }))
        for (const game of made) yield* games.insert(game, "system")
        yield* games.insert(aGame(), "system") // someone else's
        const expected = [...made].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1)).map((g) => g.id)
        for (const size of [1, 2, 5, 50]) {
          const listed = yield* everyPage((after: OwnerGamesKey | null, limit) => lists.gamesOfOwner(ownerId, after, limit), ownerKey, size)
          assert.deepStrictEqual(listed.map((g) => g.id), expected)
        }
        assert.deepStrictEqual((yield* lists.gamesOfOwner(ownerId, null, 1))[0], made.find((g) => g.id === expected[0]))

        // Games created while paging (later than every game read so far) appear once, at the end.
        let added = 0
        const addOne = Effect.suspend(() => games.insert(aGame({ id: unique(`gm_late${added++}`), ownerId, createdAt: at(`2026-02-0${added}T00:00:00.000Z`) }), "system"))
        const listed = yield* everyPage((after: OwnerGamesKey | null, limit) => lists.gamesOfOwner(ownerId, after, limit), ownerKey, 2, addOne)
        assert.strictEqual(listed.length, made.length + added)
        assert.strictEqual(new Set(listed.map((g) => g.id)).size, listed.length)
      }))

    it.effect("pendingReleases: pending only, oldest first, ties by game id then version; complete across pages while releases are submitted", () =>
      Effect.gen(function*() {
        const games = yield* GameStore
        const releases = yield* ReleaseStore
        const lists = yield* PagedLists
        const mine = [aGame({ id: unique("gm_qa") }), aGame({ id: unique("gm_qb") })]
        for (const game of mine) yield* games.insert(game, "system")
        const submit = (gameId: string, version: string, createdAt: string) =>
          Effect.gen(function*() {
            const intent = anIntent(gameId, { version })
            yield* releases.recordIntent(intent)
            return yield* releases.finalize(intent.id, aReleaseFor(intent, { createdAt: at(createdAt) }))
          })
        const same = "2020-01-01T00:00:00.000Z"
        for (const game of mine) for (const version of ["1.0.0", "1.0.1", "2.0.0"]) yield* submit(game.id, version, same)
        yield* submit(mine[0]!.id, "0.9.0", "2019-12-31T00:00:00.000Z")
        yield* submit(mine[1]!.id, "3.0.0", "2020-01-02T00:00:00.000Z")
        yield* releases.review(mine[0]!.id, "1.0.1", { status: "approved", by: "a", at: at(same), reason: null })
        const ids = new Set(mine.map((g) => g.id))
        const expected = (yield* releases.listPending()).filter((r) => ids.has(r.gameId)).map((r) => `${r.gameId} ${r.version}`)
        assert.strictEqual(expected.length, 7)
        for (const size of [1, 3, 100]) {
          const listed = yield* everyPage(lists.pendingReleases, queueKey, size)
          assert.deepStrictEqual(listed.filter((r) => ids.has(r.gameId)).map((r) => `${r.gameId} ${r.version}`), expected)
          assert.isTrue(listed.every((r) => r.status === "pending_review"))
        }
        let late = 0
        // Submitted after everything listed so far (each later than the last), so each belongs after the cursor.
        const addOne = Effect.suspend(() => submit(mine[1]!.id, `9.0.${late}`, new Date(Date.UTC(2099, 0, 1) + 1000 * late++).toISOString()).pipe(Effect.asVoid))
        const listed = (yield* everyPage(lists.pendingReleases, queueKey, 3, addOne)).filter((r) => ids.has(r.gameId))
        assert.strictEqual(listed.length, 7 + late)
        assert.strictEqual(new Set(listed.map((r) => `${r.gameId} ${r.version}`)).size, listed.length)
      }))
  })
