import { assert, layer } from "@effect/vitest"
import { Effect, Exit, Layer, Option } from "effect"
import { GameStore } from "../../ports/GameStore.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { aGame, anIntent, aReleaseFor, SHA_B, unique } from "../support/fixtures.ts"

const NOW = new Date("2026-03-04T12:00:00.000Z")

/** Stores with foreign keys need the game row first; every case creates its own game. */
const newGame = Effect.gen(function*() {
  const game = aGame()
  yield* (yield* GameStore).insert(game, "system")
  return game
})

export const releaseStoreContract = (name: string, makeLayer: () => Layer.Layer<ReleaseStore | GameStore, unknown>) =>
  layer(makeLayer(), { timeout: 120_000 })(`ReleaseStore contract: ${name}`, (it) => {
    it.effect("records an intent and finds it only by the exact declaration while it is live", () =>
      Effect.gen(function*() {
        const store = yield* ReleaseStore
        const game = yield* newGame
        const intent = anIntent(game.id)
        yield* store.recordIntent(intent)
        const found = Option.getOrThrow(yield* store.findIntent(intent, NOW))
        assert.deepStrictEqual(found, intent)
        for (const other of [{ ...intent, sha256: SHA_B }, { ...intent, sizeBytes: 4097 }, { ...intent, version: "1.0.1" }, { ...intent, contentType: "text/plain" }]) {
          assert.isTrue(Option.isNone(yield* store.findIntent(other, NOW)))
        }
        assert.isTrue(Option.isNone(yield* store.findIntent(intent, intent.expiresAt)), "expired at its expiry instant")
      }))

    it.effect("the same declaration again refreshes the intent instead of adding one", () =>
      Effect.gen(function*() {
        const store = yield* ReleaseStore
        const game = yield* newGame
        const first = anIntent(game.id)
        yield* store.recordIntent(first)
        const later = new Date(first.expiresAt.getTime() + 3600_000)
        const refreshed = yield* store.recordIntent({ ...first, id: unique("ui_"), expiresAt: later })
        assert.strictEqual(refreshed.id, first.id)
        assert.deepStrictEqual(Option.getOrThrow(yield* store.findIntent(first, first.expiresAt)).expiresAt, later)
      }))

    it.effect("finalize consumes the intent and stores the release with every field intact", () =>
      Effect.gen(function*() {
        const store = yield* ReleaseStore
        const game = yield* newGame
        const intent = anIntent(game.id, { version: "2.0.0-RC.1" })
        yield* store.recordIntent(intent)
        const release = aReleaseFor(intent, { createdAt: new Date("2026-03-04T06:00:00.123Z") })
        assert.deepStrictEqual(yield* store.finalize(intent.id, release), release)
        assert.deepStrictEqual(Option.getOrThrow(yield* store.get(game.id, intent.version)), release)
        assert.isTrue(Option.isNone(yield* store.findIntent(intent, NOW)), "intent consumed")
        assert.isTrue(Option.isNone(yield* store.get(game.id, "2.0.0-rc.1")), "versions compare exactly")
      }))

    it.effect("round-trips a multipart release above 2 GiB with non-Latin fields, before and after review", () =>
      Effect.gen(function*() {
        const store = yield* ReleaseStore
        const game = yield* newGame
        const sizeBytes = 2 ** 31 + 5 // past a 32-bit INT: sizes are 64-bit everywhere
        const intent = anIntent(game.id, { version: "3.0.0_β", sizeBytes, createdBy: "créateur-名前-😀", createdAt: new Date("2026-03-04T05:06:07.001Z") })
        const found = yield* store.recordIntent(intent)
        assert.deepStrictEqual(found, intent)
        const release = aReleaseFor(intent, { source: "multipart", createdAt: new Date("2026-03-04T06:00:00.999Z") })
        assert.deepStrictEqual(yield* store.finalize(intent.id, release), release)
        assert.deepStrictEqual(Option.getOrThrow(yield* store.get(game.id, intent.version)), release)
        const approved = yield* store.review(game.id, intent.version, { status: "approved", by: "admin-ü", at: new Date("2026-03-06T00:00:00.007Z"), reason: null })
        assert.deepStrictEqual(Option.getOrThrow(yield* store.get(game.id, intent.version)), approved)
        assert.deepStrictEqual(approved, { ...release, status: "approved", reviewedBy: "admin-ü", reviewedAt: new Date("2026-03-06T00:00:00.007Z"), rejectionReason: null })
      }))

    it.effect("20 concurrent finalizes of one (game, version): exactly one release, the others version_exists or no_upload_intent", () =>
      Effect.gen(function*() {
        const store = yield* ReleaseStore
        const game = yield* newGame
        const intents = Array.from({ length: 20 }, (_, i) => anIntent(game.id, { sha256: i.toString(16).padStart(64, "0") }))
        for (const intent of intents) yield* store.recordIntent(intent)
        const exits = yield* Effect.all(intents.map((i) => Effect.exit(store.finalize(i.id, aReleaseFor(i)))), { concurrency: "unbounded" })
        assert.strictEqual(exits.filter(Exit.isSuccess).length, 1)
        for (const exit of exits.filter(Exit.isFailure)) {
          const error = yield* Effect.flip(Effect.suspend(() => exit))
          assert.include(["VersionExists", "NoUploadIntent"], error._tag)
        }
        assert.strictEqual((yield* store.listByGame(game.id)).length, 1)
      }))

    it.effect("an intent is consumed exactly once", () =>
      Effect.gen(function*() {
        const store = yield* ReleaseStore
        const game = yield* newGame
        const intent = anIntent(game.id)
        yield* store.recordIntent(intent)
        const exits = yield* Effect.all(
          ["1.0.0", "1.0.0"].map(() => Effect.exit(store.finalize(intent.id, aReleaseFor(intent)))),
          { concurrency: "unbounded" },
        )
        assert.strictEqual(exits.filter(Exit.isSuccess).length, 1)
        const error = yield* Effect.flip(store.finalize(intent.id, aReleaseFor(intent, { version: "9.9.9" })))
        assert.strictEqual(error._tag, "NoUploadIntent")
        assert.isTrue(Option.isNone(yield* store.get(game.id, "9.9.9")), "no release written without an intent")
      }))

    it.effect("a finalize that fails midway leaves no partial rows: the intent survives a version clash", () =>
      Effect.gen(function*() {
        const store = yield* ReleaseStore
        const game = yield* newGame
        const winner = anIntent(game.id)
        const loser = anIntent(game.id, { sha256: SHA_B })
        yield* store.recordIntent(winner)
        yield* store.recordIntent(loser)
        yield* store.finalize(winner.id, aReleaseFor(winner))
        const error = yield* Effect.flip(store.finalize(loser.id, aReleaseFor(loser)))
        assert.strictEqual(error._tag, "VersionExists")
        assert.isTrue(Option.isSome(yield* store.findIntent(loser, NOW)), "the losing intent was not consumed")
        assert.strictEqual(Option.getOrThrow(yield* store.get(game.id, "1.0.0")).sha256, winner.sha256)
      }))

    it.effect("review is a compare-and-set on pending releases, keeping the reason and the time to the millisecond", () =>
      Effect.gen(function*() {
        const store = yield* ReleaseStore
        const game = yield* newGame
        const intent = anIntent(game.id)
        yield* store.recordIntent(intent)
        yield* store.finalize(intent.id, aReleaseFor(intent))
        const at = new Date("2026-03-05T01:02:03.456Z")
        const reason = "Uses OS.execute — remove it 🙏 (línea 3)"
        const rejected = yield* store.review(game.id, intent.version, { status: "rejected", by: "admin-1", at, reason })
        assert.deepStrictEqual([rejected.status, rejected.reviewedBy, rejected.reviewedAt, rejected.rejectionReason], ["rejected", "admin-1", at, reason])
        assert.deepStrictEqual(Option.getOrThrow(yield* store.get(game.id, intent.version)), rejected)
        const again = yield* Effect.flip(store.review(game.id, intent.version, { status: "approved", by: "admin-2", at, reason: null }))
        assert.strictEqual(again._tag, "ReleaseNotPending")
        const missing = yield* Effect.flip(store.review(game.id, "7.7.7", { status: "approved", by: "admin-2", at, reason: null }))
        assert.strictEqual(missing._tag, "ReleaseNotPending")
      }))

    it.effect("concurrent reviews of one release: exactly one wins", () =>
      Effect.gen(function*() {
        const store = yield* ReleaseStore
        const game = yield* newGame
        const intent = anIntent(game.id)
        yield* store.recordIntent(intent)
        yield* store.finalize(intent.id, aReleaseFor(intent))
        const exits = yield* Effect.all(
          Array.from({ length: 10 }, (_, i) => Effect.exit(store.review(game.id, intent.version, { status: i % 2 ? "approved" : "rejected", by: `a${i}`, at: NOW, reason: i % 2 ? null : "no" }))),
          { concurrency: "unbounded" },
        )
        assert.strictEqual(exits.filter(Exit.isSuccess).length, 1)
      }))

    it.effect("the review queue lists pending releases oldest first, in a stable order, and approved ones separately", () =>
      Effect.gen(function*() {
        const store = yield* ReleaseStore
        const game = yield* newGame
        const created = ["2026-04-01T00:00:00.003Z", "2026-04-01T00:00:00.001Z", "2026-04-01T00:00:00.001Z", "2026-04-01T00:00:00.002Z"]
        const versions = created.map((_, i) => `0.${i}.0`)
        for (const [i, version] of versions.entries()) {
          const intent = anIntent(game.id, { version })
          yield* store.recordIntent(intent)
          yield* store.finalize(intent.id, aReleaseFor(intent, { createdAt: new Date(created[i]!) }))
        }
        yield* store.review(game.id, "0.3.0", { status: "approved", by: "admin", at: NOW, reason: null })
        const pendingHere = (yield* store.listPending()).filter((r) => r.gameId === game.id).map((r) => r.version)
        assert.deepStrictEqual(pendingHere, ["0.1.0", "0.2.0", "0.0.0"])
        assert.deepStrictEqual((yield* store.listPending()).filter((r) => r.gameId === game.id).map((r) => r.version), pendingHere)
        assert.deepStrictEqual((yield* store.listApproved()).filter((r) => r.gameId === game.id).map((r) => r.version), ["0.3.0"])
        assert.deepStrictEqual((yield* store.listByGame(game.id)).map((r) => r.version), ["0.1.0", "0.2.0", "0.3.0", "0.0.0"])
      }))

    it.effect("for the sweeper: expired intents are removed, live ones stay; keysInUse names exactly the keys of releases and live intents", () =>
      Effect.gen(function*() {
        const store = yield* ReleaseStore
        const game = yield* newGame
        const live = anIntent(game.id, { version: "5.0.0", expiresAt: new Date(NOW.getTime() + 1) })
        const expired = anIntent(game.id, { version: "5.0.1", expiresAt: NOW })
        const released = anIntent(game.id, { version: "5.0.2" })
        for (const intent of [live, expired, released]) yield* store.recordIntent(intent)
        yield* store.finalize(released.id, aReleaseFor(released))
        const unknown = `releases/${game.id}/9.0.0/${SHA_B}.pck`
        const candidates = [live.objectKey, expired.objectKey, released.objectKey, unknown]
        assert.deepStrictEqual([...(yield* store.keysInUse(candidates, NOW))].sort(), [live.objectKey, released.objectKey].sort())
        assert.isAtLeast(yield* store.deleteExpiredIntents(NOW), 1)
        assert.isTrue(Option.isNone(yield* store.findIntent(expired, new Date(NOW.getTime() - 1000))), "the expired intent is gone")
        assert.isTrue(Option.isSome(yield* store.findIntent(live, NOW)), "the live intent stays")
        assert.isTrue(Option.isSome(yield* store.get(game.id, "5.0.2")), "releases are never swept")
        assert.strictEqual((yield* store.keysInUse([], NOW)).size, 0)
      }))

    it.effect("a key in the middle of a finalize is always seen in use (intent or release, never neither)", () =>
      Effect.gen(function*() {
        const store = yield* ReleaseStore
        const game = yield* newGame
        for (let i = 0; i < 10; i++) {
          const intent = anIntent(game.id, { version: `6.0.${i}` })
          yield* store.recordIntent(intent)
          const [, inUse] = yield* Effect.all([store.finalize(intent.id, aReleaseFor(intent)), store.keysInUse([intent.objectKey], NOW)], { concurrency: "unbounded" })
          assert.isTrue(inUse.has(intent.objectKey), `6.0.${i}`)
        }
      }))
})
