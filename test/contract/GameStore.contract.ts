import { assert, layer } from "@effect/vitest"
import { Effect, Exit, Layer, Option, Schema } from "effect"
import { CreateGameBody, createGame } from "../../domain/game/CreateGame.ts"
import { DEFAULT_POLICY, Policy } from "../../domain/Policy.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { Timeline } from "../../ports/Timeline.ts"
import { layerMemoryBudgetLedger } from "../../adapters/memory/MemoryBudgetLedger.ts"
import { layerManualClock } from "../../adapters/memory/MemoryClock.ts"
import { layerRandomIds } from "../../adapters/system/RandomIds.ts"
import { aGame, unique } from "../support/fixtures.ts"

/** Behaviour every GameStore must have; `makeLayer` provides the adapter under test. */
export const gameStoreContract = (name: string, makeLayer: () => Layer.Layer<GameStore | Timeline, unknown>) => {
  const helpers = Layer.mergeAll(layerMemoryBudgetLedger, layerRandomIds, layerManualClock(), Layer.succeed(Policy, {
    ...DEFAULT_POLICY,
    budget: { count: 1000, windowSeconds: 3600 },
  }))
  layer(Layer.merge(makeLayer(), helpers), { timeout: 120_000 })(`GameStore contract: ${name}`, (it) => {
    it.effect("round-trips every field, with 80-character names in emoji and non-Latin scripts", () =>
      Effect.gen(function*() {
        const store = yield* GameStore
        for (const gameName of ["😀".repeat(80), "名前".repeat(40), "Ωμέγα Ελληνικά — ünïcödé ǅ 🇺🇦🏳️‍🌈".slice(0, 40)]) {
          const game = aGame({ name: gameName, ownerId: "owner-ü-😀", createdAt: new Date("2026-01-02T03:04:05.678Z"), updatedAt: new Date("2026-02-03T04:05:06.789Z") })
          yield* store.insert(game, "system")
          const loaded = yield* store.get(game.id)
          assert.deepStrictEqual(Option.getOrThrow(loaded), game)
        }
      }))

    it.effect("the game_created event names the acting credential, which need not be the owner", () =>
      Effect.gen(function*() {
        const store = yield* GameStore
        const byAdmin = aGame({ ownerId: "bob" })
        const byKey = aGame({ ownerId: "alice" })
        yield* store.insert(byAdmin, "user:admin")
        yield* store.insert(byKey, "api_key:key_123")
        const created = (gameId: string) =>
          Effect.map(Timeline.use((t) => t.list(gameId, 0, 10)), (events) => events.map((e) => [e.kind, e.version, e.actor]))
        assert.deepStrictEqual(yield* created(byAdmin.id), [["game_created", null, "user:admin"]])
        assert.deepStrictEqual(yield* created(byKey.id), [["game_created", null, "api_key:key_123"]])
      }))

    it.effect("get of an unknown id is None", () =>
      Effect.gen(function*() {
        assert.isTrue(Option.isNone(yield* (yield* GameStore).get(unique("gm_"))))
      }))

    it.effect("a taken slug fails with SlugTaken and writes nothing", () =>
      Effect.gen(function*() {
        const store = yield* GameStore
        const first = aGame()
        yield* store.insert(first, "system")
        const second = aGame({ slug: first.slug })
        const error = yield* Effect.flip(store.insert(second, "system"))
        assert.strictEqual(error._tag, "SlugTaken")
        assert.isTrue(Option.isNone(yield* store.get(second.id)))
      }))

    it.effect("slugs compare exactly: case and emoji-lookalikes are different slugs", () =>
      Effect.gen(function*() {
        const store = yield* GameStore
        const base = unique("case-").toLowerCase()
        yield* store.insert(aGame({ slug: base }), "system")
        // Slugs are lowercase by rule; a store must still not fold anything else onto an existing one.
        yield* store.insert(aGame({ slug: `${base}-2` }), "system")
        const slugs = yield* store.slugsStartingWith(base)
        assert.deepStrictEqual([...slugs].sort(), [base, `${base}-2`])
      }))

    it.effect("20 concurrent inserts of one slug: exactly one succeeds", () =>
      Effect.gen(function*() {
        const store = yield* GameStore
        const slug = unique("race-").toLowerCase()
        const exits = yield* Effect.all(Array.from({ length: 20 }, () => Effect.exit(store.insert(aGame({ slug }), "system"))), { concurrency: "unbounded" })
        assert.strictEqual(exits.filter(Exit.isSuccess).length, 1)
      }))

    it.effect("derived slugs for the same name created concurrently are all distinct", () =>
      Effect.gen(function*() {
        const name = `Same Name ${unique("n")}`
        const games = yield* Effect.all(
          Array.from({ length: 20 }, (_, i) => createGame({ userId: `creator-${i}`, isAdmin: false }, Schema.decodeSync(CreateGameBody)({ name }))),
          { concurrency: "unbounded" },
        )
        assert.strictEqual(new Set(games.map((g) => g.slug)).size, 20)
      }))

    it.effect("lists an owner's games oldest first, and getMany returns the known ones", () =>
      Effect.gen(function*() {
        const store = yield* GameStore
        const ownerId = unique("owner-")
        const later = aGame({ ownerId, createdAt: new Date("2026-05-01T00:00:00.002Z") })
        const earlier = aGame({ ownerId, createdAt: new Date("2026-05-01T00:00:00.001Z") })
        yield* store.insert(later, "system")
        yield* store.insert(earlier, "system")
        yield* store.insert(aGame(), "system")
        assert.deepStrictEqual((yield* store.listByOwner(ownerId)).map((g) => g.id), [earlier.id, later.id])
        const many = yield* store.getMany([later.id, unique("gm_"), earlier.id])
        assert.deepStrictEqual(many.map((g) => g.id).sort(), [earlier.id, later.id].sort())
        assert.deepStrictEqual(yield* store.getMany([]), [])
      }))
  })
}

