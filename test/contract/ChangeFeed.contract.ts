import { assert, layer } from "@effect/vitest"
import { Effect, Fiber, type Layer } from "effect"
import { type Change, ChangeFeed } from "../../ports/ChangeFeed.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { aGame, anIntent, aReleaseFor } from "../support/fixtures.ts"

/** A game with one pending release (version 1.0.0), ready for a decision. */
const pendingGame = Effect.gen(function*() {
  const game = aGame()
  yield* (yield* GameStore).insert(game, "system")
  const intent = anIntent(game.id)
  const store = yield* ReleaseStore
  yield* store.recordIntent(intent)
  yield* store.finalize(intent.id, aReleaseFor(intent))
  return game.id
})

/** The decisions are what appends to the feed today (in the store's review transaction). */
const decide = (gameId: string, status: "approved" | "rejected", at: Date) =>
  ReleaseStore.use((store) => store.review(gameId, "1.0.0", { status, by: "admin", at, reason: status === "rejected" ? "no" : null }))

const withoutSeq = (changes: ReadonlyArray<Change>) => changes.map(({ seq: _, ...change }) => change)

/**
 * The change feed read by followers, appended by the stores' own writes. Cases share the records (and, on MariaDB,
 * the file's database with other suites), so each looks only at what it appended after reading `latest`.
 */
export const changeFeedContract = (name: string, makeLayer: () => Layer.Layer<ChangeFeed | ReleaseStore | GameStore, unknown>) =>
  layer(makeLayer(), { timeout: 120_000 })(`ChangeFeed contract: ${name}`, (it) => {
    it.effect("a decision appends one change naming its game, with the next sequence; a refused one appends nothing", () =>
      Effect.gen(function*() {
        const feed = yield* ChangeFeed
        const [first, second] = [yield* pendingGame, yield* pendingGame]
        const start = yield* feed.latest
        assert.deepStrictEqual(yield* feed.since(start, 10), [])
        const t1 = new Date("2026-08-01T10:00:00.123Z")
        const t2 = new Date("2026-08-01T10:00:01.456Z")
        yield* decide(first, "approved", t1)
        yield* decide(second, "rejected", t2)
        assert.strictEqual(yield* feed.latest, start + 2)
        assert.deepStrictEqual(yield* feed.since(start, 10), [
          { seq: start + 1, gameId: first, kind: "approved", at: t1 },
          { seq: start + 2, gameId: second, kind: "rejected", at: t2 },
        ])
        assert.deepStrictEqual(yield* feed.since(start, 1), [{ seq: start + 1, gameId: first, kind: "approved", at: t1 }])
        assert.deepStrictEqual(yield* feed.since(start + 1, 10), [{ seq: start + 2, gameId: second, kind: "rejected", at: t2 }])
        assert.deepStrictEqual(yield* feed.since(start + 2, 10), [])

        const refused = yield* Effect.flip(decide(first, "rejected", t2))
        assert.strictEqual(refused._tag, "ReleaseNotPending")
        assert.strictEqual(yield* feed.latest, start + 2, "the refused decision rolled back its append")
        assert.deepStrictEqual(yield* feed.since(start + 2, 10), [])
      }))

    it.effect("a follower reading while 20 decisions commit concurrently sees every one, once, in sequence, without a gap", () =>
      Effect.gen(function*() {
        const feed = yield* ChangeFeed
        const games = yield* Effect.forEach(Array.from({ length: 20 }), () => pendingGame)
        const start = yield* feed.latest
        const seen: Array<Change> = []
        let writersDone = false
        const follow = Effect.gen(function*() {
          let position = start
          // Until it has read everything, or the writers are done and a read finds nothing more.
          while (position < start + games.length) {
            const changes = yield* feed.since(position, 3)
            for (const change of changes) {
              assert.strictEqual(change.seq, position + 1, `after ${position} the follower read ${change.seq}`)
              seen.push(change)
              position = change.seq
            }
            if (changes.length === 0 && writersDone) break
            yield* Effect.yieldNow
          }
        })
        const follower = yield* Effect.forkChild(follow)
        yield* Effect.forEach(games, (gameId) => decide(gameId, "approved", new Date("2026-08-02T00:00:00.000Z")), { concurrency: "unbounded" })
        writersDone = true
        yield* Fiber.join(follower)
        assert.deepStrictEqual(seen.map((change) => change.seq), games.map((_, i) => start + 1 + i))
        assert.sameMembers(seen.map((change) => change.gameId), games)
        assert.strictEqual(yield* feed.latest, start + games.length)
      }))

    it.effect("a reader that remembers a sequence resumes right after it, however many changes came meanwhile", () =>
      Effect.gen(function*() {
        const feed = yield* ChangeFeed
        const games = yield* Effect.forEach(Array.from({ length: 7 }), () => pendingGame)
        const remembered = yield* feed.latest
        const at = new Date("2026-08-03T00:00:00.000Z")
        for (const gameId of games) yield* decide(gameId, "approved", at)
        // Read back in pages of 3, as a follower with a small batch would.
        const read: Array<Change> = []
        let position = remembered
        for (let page = yield* feed.since(position, 3); page.length > 0; page = yield* feed.since(position, 3)) {
          read.push(...page)
          position = page.at(-1)!.seq
        }
        assert.deepStrictEqual(read.map((change) => change.seq), games.map((_, i) => remembered + 1 + i))
        assert.deepStrictEqual(withoutSeq(read), games.map((gameId) => ({ gameId, kind: "approved", at })))
      }))

    it.effect("prune removes the changes made before the bound and never the newest; a reader behind it sees the gap", () =>
      Effect.gen(function*() {
        const feed = yield* ChangeFeed
        const games = yield* Effect.forEach(Array.from({ length: 3 }), () => pendingGame)
        const start = yield* feed.latest
        const days = ["2001-01-01T00:00:00.000Z", "2001-01-02T00:00:00.000Z", "2001-01-03T00:00:00.000Z"].map((iso) => new Date(iso))
        for (const [i, gameId] of games.entries()) yield* decide(gameId, "approved", days[i]!)
        assert.strictEqual(yield* feed.prune(new Date("2001-01-02T12:00:00.000Z")), 2)
        assert.deepStrictEqual(yield* feed.since(start, 10), [{ seq: start + 3, gameId: games[2]!, kind: "approved", at: days[2]! }])
        assert.strictEqual(yield* feed.prune(new Date("2001-01-02T12:00:00.000Z")), 0)

        // Everything is older than this bound; the newest change stays, so a reader behind knows it missed some.
        yield* feed.prune(new Date("2100-01-01T00:00:00.000Z"))
        assert.deepStrictEqual(yield* feed.since(0, 10), [{ seq: start + 3, gameId: games[2]!, kind: "approved", at: days[2]! }])
        assert.strictEqual(yield* feed.latest, start + 3)
        const next = yield* pendingGame
        yield* decide(next, "rejected", days[0]!)
        assert.deepStrictEqual(withoutSeq(yield* feed.since(start + 3, 10)), [{ gameId: next, kind: "rejected", at: days[0]! }])
        assert.strictEqual(yield* feed.latest, start + 4, "pruning never gives a sequence out again")
      }))
  })
