import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { activeRelease } from "../../domain/review/ReviewMachine.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { GameViews } from "../../ports/GameViews.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { aGame, anIntent, aReleaseFor, unique } from "../support/fixtures.ts"

const newGame = Effect.gen(function*() {
  const game = aGame()
  yield* (yield* GameStore).insert(game, "system")
  return game
})

/** GameViews reads what ReleaseStore and GameStore wrote, on the same records. */
export const gameViewsContract = (name: string, makeLayer: () => Layer.Layer<GameViews | ReleaseStore | GameStore, unknown>) =>
  layer(makeLayer(), { timeout: 120_000 })(`GameViews contract: ${name}`, (it) => {
    it.effect("view and listActive: the owner, the slug and the active release by the domain's rule (newest approval, then creation time, then version)", () =>
      Effect.gen(function*() {
        const store = yield* ReleaseStore
        const views = yield* GameViews
        const game = yield* newGame
        const idle = yield* newGame
        const created = ["2026-07-01T00:00:00.001Z", "2026-07-01T00:00:00.002Z", "2026-07-01T00:00:00.002Z", "2026-07-01T00:00:00.003Z"]
        for (const [i, version] of ["1.0.0", "1.1.0", "1.1.1", "2.0.0"].entries()) {
          const intent = anIntent(game.id, { version })
          yield* store.recordIntent(intent)
          yield* store.finalize(intent.id, aReleaseFor(intent, { createdAt: new Date(created[i]!) }))
        }
        const pendingOnly = anIntent(idle.id)
        yield* store.recordIntent(pendingOnly)
        yield* store.finalize(pendingOnly.id, aReleaseFor(pendingOnly))
        const activeOf = (gameId: string) => Effect.map(views.view(gameId), (view) => Option.getOrThrow(view).active)
        const listedOf = (...gameIds: Array<string>) => Effect.map(views.listActive(), (releases) => releases.filter((r) => gameIds.includes(r.gameId)))
        assert.deepStrictEqual(Option.getOrThrow(yield* views.view(game.id)), { gameId: game.id, ownerId: game.ownerId, slug: game.slug, active: null })
        assert.isTrue(Option.isNone(yield* views.view(unique("gm_missing"))))
        assert.deepStrictEqual(yield* listedOf(game.id, idle.id), [])

        const sameInstant = new Date("2026-07-02T00:00:00.000Z")
        for (const version of ["1.0.0", "1.1.0", "1.1.1"]) yield* store.review(game.id, version, { status: "approved", by: "a", at: sameInstant, reason: null })
        yield* store.review(game.id, "2.0.0", { status: "rejected", by: "a", at: new Date("2026-07-03T00:00:00.000Z"), reason: "no" })
        const expected = activeRelease(yield* store.listByGame(game.id))
        assert.strictEqual(expected?.version, "1.1.1")
        assert.deepStrictEqual(yield* activeOf(game.id), expected)
        assert.deepStrictEqual(yield* listedOf(game.id, idle.id), [expected!])
        assert.isNull(yield* activeOf(idle.id))

        const idleApproved = yield* store.review(idle.id, pendingOnly.version, { status: "approved", by: "a", at: sameInstant, reason: null })
        assert.deepStrictEqual(yield* activeOf(idle.id), idleApproved)
        assert.sameDeepMembers([...yield* listedOf(game.id, idle.id)], [expected!, idleApproved])
      }))
  })
