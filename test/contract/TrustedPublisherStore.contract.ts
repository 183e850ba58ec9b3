import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { TrustedPublisher } from "../../domain/credentials/TrustedPublisher.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { TrustedPublisherStore } from "../../ports/TrustedPublisherStore.ts"
import { aGame, unique } from "../support/fixtures.ts"

const T0 = new Date("2026-06-01T08:00:00.123Z")
const plusSeconds = (at: Date, seconds: number) => new Date(at.getTime() + seconds * 1000)
/** What the suites pass as the limit where they do not test it. */
const LIMIT = 20

const aPublisher = (gameId: string, overrides: Partial<TrustedPublisher> = {}): TrustedPublisher => ({
  id: unique("tp_"),
  gameId,
  provider: "github",
  repository: unique("octo/") + "-game",
  workflow: ".github/workflows/release.yml",
  environment: "production",
  ref: "refs/heads/main",
  repositoryId: null,
  repositoryOwnerId: null,
  createdBy: "owner ☃",
  createdAt: T0,
  ...overrides,
})

const newGame = Effect.fnUntraced(function*() {
  const game = aGame()
  yield* GameStore.use((store) => store.insert(game, "system"))
  return game.id
})

const addAll = Effect.fnUntraced(function*(publishers: ReadonlyArray<TrustedPublisher>) {
  const store = yield* TrustedPublisherStore
  for (const publisher of publishers) assert.isTrue(yield* store.add(publisher, LIMIT), publisher.id)
})

export const trustedPublisherStoreContract = (name: string, makeLayer: () => Layer.Layer<TrustedPublisherStore | GameStore, unknown>) =>
  layer(makeLayer(), { timeout: 120_000 })(`TrustedPublisherStore contract: ${name}`, (it) => {
    it.effect("add stores the publisher exactly (optional fields as null, ids when given); listByGame gives the game's, oldest first", () =>
      Effect.gen(function*() {
        const store = yield* TrustedPublisherStore
        const [gameId, otherGame] = [yield* newGame(), yield* newGame()]
        const later = aPublisher(gameId, { createdAt: plusSeconds(T0, 5), provider: "gitlab", workflow: ".gitlab-ci.yml", environment: null, ref: null })
        const first = aPublisher(gameId, { repositoryId: "123456789", repositoryOwnerId: "98765" })
        const elsewhere = aPublisher(otherGame)
        yield* addAll([later, first, elsewhere])
        assert.deepStrictEqual(yield* store.listByGame(gameId), [first, later])
        assert.deepStrictEqual(yield* store.listByGame(otherGame), [elsewhere])
        assert.deepStrictEqual(yield* store.listByGame(unique("gm_")), [])
      }))

    it.effect("findByRepository: the provider exactly, the repository in any case of its ASCII letters, across games", () =>
      Effect.gen(function*() {
        const store = yield* TrustedPublisherStore
        const repository = unique("Org/") + "Repo"
        const [a, b] = [yield* newGame(), yield* newGame()]
        const mine = [
          aPublisher(a, { repository }),
          aPublisher(b, { repository: repository.toLowerCase(), createdAt: plusSeconds(T0, 1) }),
          aPublisher(a, { repository: repository.toUpperCase(), createdAt: plusSeconds(T0, 2) }),
        ]
        const others = [aPublisher(a, { repository, provider: "gitlab" }), aPublisher(a, { repository: `${repository} ` }), aPublisher(a, { repository: `${repository}x` })]
        yield* addAll([...mine, ...others])
        for (const asked of [repository, repository.toLowerCase(), repository.toUpperCase()]) {
          assert.deepStrictEqual(yield* store.findByRepository("github", asked), mine, asked)
        }
        assert.deepStrictEqual((yield* store.findByRepository("gitlab", repository.toLowerCase())).map((p) => p.id), [others[0]!.id])
        // Unicode case mappings do not reach ASCII names: the Kelvin sign is no 'k'.
        const kelvin = aPublisher(a, { repository: unique("kelvin/") + "k" })
        yield* addAll([kelvin])
        assert.deepStrictEqual(yield* store.findByRepository("github", kelvin.repository.replace(/k$/u, "\u212A")), [])
      }))

    it.effect("remove deletes one publisher of that game: true once, false for another game or an unknown id", () =>
      Effect.gen(function*() {
        const store = yield* TrustedPublisherStore
        const [gameId, otherGame] = [yield* newGame(), yield* newGame()]
        const [gone, stays] = [aPublisher(gameId), aPublisher(gameId, { createdAt: plusSeconds(T0, 1) })]
        yield* addAll([gone, stays])
        assert.isFalse(yield* store.remove(otherGame, gone.id))
        assert.isTrue(yield* store.remove(gameId, gone.id))
        assert.isFalse(yield* store.remove(gameId, gone.id))
        assert.deepStrictEqual(yield* store.listByGame(gameId), [stays])
        assert.deepStrictEqual(yield* store.findByRepository("github", gone.repository), [])
      }))

    it.effect("add stops at the game's limit even when adds race from zero (several games, so a lost race shows)", () =>
      Effect.gen(function*() {
        const store = yield* TrustedPublisherStore
        for (const gameId of [yield* newGame(), yield* newGame(), yield* newGame()]) {
          const raced = yield* Effect.all(Array.from({ length: 8 }, () => store.add(aPublisher(gameId), 5)), { concurrency: "unbounded" })
          assert.strictEqual(raced.filter(Boolean).length, 5, gameId)
          assert.strictEqual((yield* store.listByGame(gameId)).length, 5, gameId)
        }
        const gameId = yield* newGame()
        yield* addAll([aPublisher(gameId)])
        const refused = aPublisher(gameId)
        assert.isFalse(yield* store.add(refused, 1))
        assert.deepStrictEqual(yield* store.findByRepository("github", refused.repository), [], "nothing written")
      }))

    it.effect("pinIds sets only the ids still unset and answers the publisher as stored; none for an unknown id", () =>
      Effect.gen(function*() {
        const store = yield* TrustedPublisherStore
        const gameId = yield* newGame()
        const [fresh, half, full] = [
          aPublisher(gameId),
          aPublisher(gameId, { repositoryId: "111" }),
          aPublisher(gameId, { repositoryId: "222", repositoryOwnerId: "333" }),
        ]
        yield* addAll([fresh, half, full])
        const ids = { repositoryId: "900", repositoryOwnerId: "901" }
        assert.deepStrictEqual(yield* store.pinIds(fresh.id, ids), Option.some({ ...fresh, ...ids }))
        assert.deepStrictEqual(yield* store.pinIds(fresh.id, { repositoryId: "1", repositoryOwnerId: "2" }), Option.some({ ...fresh, ...ids }), "already pinned")
        assert.deepStrictEqual(yield* store.pinIds(half.id, ids), Option.some({ ...half, repositoryOwnerId: "901" }))
        assert.deepStrictEqual(yield* store.pinIds(full.id, ids), Option.some(full))
        assert.deepStrictEqual(yield* store.pinIds(unique("tp_"), ids), Option.none())
        assert.deepStrictEqual(yield* store.listByGame(gameId), [{ ...fresh, ...ids }, { ...half, repositoryOwnerId: "901" }, full])
      }))

    it.effect("pinIds racing with different ids: one set of ids wins, and every racer is answered that one", () =>
      Effect.gen(function*() {
        const store = yield* TrustedPublisherStore
        const gameId = yield* newGame()
        for (let round = 0; round < 3; round++) {
          const publisher = aPublisher(gameId, { createdAt: plusSeconds(T0, round) })
          yield* addAll([publisher])
          const offered = Array.from({ length: 8 }, (_, i) => ({ repositoryId: `${round + 1}00${i}`, repositoryOwnerId: `${round + 1}50${i}` }))
          const answers = yield* Effect.all(offered.map((ids) => store.pinIds(publisher.id, ids)), { concurrency: "unbounded" })
          const stored = (yield* store.listByGame(gameId)).find((p) => p.id === publisher.id)!
          const winner = offered.find((ids) => ids.repositoryId === stored.repositoryId)
          assert.deepStrictEqual(winner === undefined ? null : { ...publisher, ...winner }, stored, "the stored ids are one racer's, both of them")
          for (const answer of answers) assert.deepStrictEqual(answer, Option.some(stored))
        }
      }))
  })
