import { assert, layer } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import type { TrustedPublisher } from "../../domain/credentials/TrustedPublisher.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { TrustedPublisherStore } from "../../ports/TrustedPublisherStore.ts"
import { aGame, unique } from "../support/fixtures.ts"

const T0 = new Date("2026-06-01T08:00:00.123Z")
const plusSeconds = (at: Date, seconds: number) => new Date(at.getTime() + seconds * 1000)

const aPublisher = (gameId: string, overrides: Partial<TrustedPublisher> = {}): TrustedPublisher => ({
  id: unique("tp_"),
  gameId,
  provider: "github",
  repository: unique("octo/") + "-game",
  workflow: ".github/workflows/release.yml",
  environment: "production",
  ref: "refs/heads/main",
  createdBy: "owner ☃",
  createdAt: T0,
  ...overrides,
})

const newGame = Effect.fnUntraced(function*() {
  const game = aGame()
  yield* GameStore.use((store) => store.insert(game, "system"))
  return game.id
})

export const trustedPublisherStoreContract = (name: string, makeLayer: () => Layer.Layer<TrustedPublisherStore | GameStore, unknown>) =>
  layer(makeLayer(), { timeout: 120_000 })(`TrustedPublisherStore contract: ${name}`, (it) => {
    it.effect("add stores the publisher exactly (optional environment and ref as null); listByGame gives the game's, oldest first", () =>
      Effect.gen(function*() {
        const store = yield* TrustedPublisherStore
        const [gameId, otherGame] = [yield* newGame(), yield* newGame()]
        const later = aPublisher(gameId, { createdAt: plusSeconds(T0, 5), provider: "gitlab", workflow: ".gitlab-ci.yml", environment: null, ref: null })
        const first = aPublisher(gameId)
        const elsewhere = aPublisher(otherGame)
        for (const publisher of [later, first, elsewhere]) yield* store.add(publisher)
        assert.deepStrictEqual(yield* store.listByGame(gameId), [first, later])
        assert.deepStrictEqual(yield* store.listByGame(otherGame), [elsewhere])
        assert.deepStrictEqual(yield* store.listByGame(unique("gm_")), [])
      }))

    it.effect("findByRepository matches provider and repository exactly (case counts), across games", () =>
      Effect.gen(function*() {
        const store = yield* TrustedPublisherStore
        const repository = unique("Org/") + "Repo"
        const [a, b] = [yield* newGame(), yield* newGame()]
        const mine = [aPublisher(a, { repository }), aPublisher(b, { repository, createdAt: plusSeconds(T0, 1) })]
        const others = [aPublisher(a, { repository: repository.toLowerCase() }), aPublisher(a, { repository, provider: "gitlab" }), aPublisher(a, { repository: `${repository} ` })]
        for (const publisher of [...mine, ...others]) yield* store.add(publisher)
        assert.deepStrictEqual(yield* store.findByRepository("github", repository), mine)
        assert.deepStrictEqual((yield* store.findByRepository("gitlab", repository)).map((p) => p.id), [others[1]!.id])
      }))

    it.effect("remove deletes one publisher of that game: true once, false for another game or an unknown id", () =>
      Effect.gen(function*() {
        const store = yield* TrustedPublisherStore
        const [gameId, otherGame] = [yield* newGame(), yield* newGame()]
        const [gone, stays] = [aPublisher(gameId), aPublisher(gameId, { createdAt: plusSeconds(T0, 1) })]
        yield* store.add(gone)
        yield* store.add(stays)
        assert.isFalse(yield* store.remove(otherGame, gone.id))
        assert.isTrue(yield* store.remove(gameId, gone.id))
        assert.isFalse(yield* store.remove(gameId, gone.id))
        assert.deepStrictEqual(yield* store.listByGame(gameId), [stays])
        assert.deepStrictEqual(yield* store.findByRepository("github", gone.repository), [])
      }))
  })
