// The release lifecycle on a store (ReleaseStore.lifecycle/review, GameViews, Timeline): every transition allowed and
// refused, the pointer rules and why the pointer is where it is, timeline events written with the change (and not
// without it), the lifecycle lease. The use cases on top, with object moves, concurrent requests and random sequences:
// LifecycleUseCases.contract.ts.
import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { LifecycleStep } from "../../domain/review/ReviewMachine.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { GameViews } from "../../ports/GameViews.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { Timeline } from "../../ports/Timeline.ts"
import { aGame, anIntent, aReleaseFor } from "../support/fixtures.ts"

type Stores = ReleaseStore | GameStore | GameViews | Timeline
const AT = new Date("2026-05-01T00:00:00.000Z")
const actor = "user:admin" as const

const gameWith = (versions: ReadonlyArray<string>, publish: Record<string, "manual"> = {}) =>
  Effect.gen(function*() {
    const game = aGame()
    yield* GameStore.use((g) => g.insert(game, "system"))
    for (const version of versions) {
      const intent = anIntent(game.id, { version, ...(publish[version] ? { publishMode: publish[version] } : {}) })
      yield* ReleaseStore.use((r) => r.recordIntent(intent))
      yield* ReleaseStore.use((r) => r.finalize(intent.id, aReleaseFor(intent, publish[version] ? { publishMode: publish[version] } : {})))
    }
    return game.id
  })

const step = (gameId: string, s: LifecycleStep) => ReleaseStore.use((r) => r.lifecycle(gameId, s))
const approve = (version: string): LifecycleStep => ({ type: "approve", version, by: "admin", at: AT, actor })
const statusOf = (gameId: string, version: string) =>
  Effect.map(ReleaseStore.use((r) => r.get(gameId, version)), (r) => Option.getOrThrow(r).status)
const viewActive = (gameId: string) =>
  Effect.map(GameViews.use((v) => v.view(gameId)), (view) => Option.getOrThrow(view).active?.version ?? null)
const events = (gameId: string) => Timeline.use((t) => t.list(gameId, 0, 1000))

export const lifecycleContract = (name: string, makeLayer: () => Layer.Layer<Stores, unknown>) =>
  layer(makeLayer(), { timeout: 300_000 })(`Release lifecycle contract: ${name}`, (it) => {
    it.effect("approve activates newer on_approval releases only; activate rolls back; rejection never moves the pointer", () =>
      Effect.gen(function*() {
        const gameId = yield* gameWith(["1.0.0", "0.5.0", "2.0.0", "3.0.0", "4.0.0"], { "3.0.0": "manual" })
        assert.strictEqual((yield* step(gameId, approve("1.0.0"))).activeVersion, "1.0.0")
        const lower = yield* step(gameId, approve("0.5.0"))
        assert.deepStrictEqual([lower.activeVersion, lower.activationNote], ["1.0.0", "lower_than_active"])
        const staged = yield* step(gameId, approve("3.0.0"))
        assert.deepStrictEqual([staged.activeVersion, staged.activationNote], ["1.0.0", "staged"])
        yield* step(gameId, { type: "reject", version: "2.0.0", by: "admin", at: AT, actor, reason: "no" })
        assert.strictEqual(yield* viewActive(gameId), "1.0.0")
        assert.strictEqual((yield* step(gameId, { type: "activate", version: "3.0.0", at: AT, actor, reason: "go" })).activeVersion, "3.0.0")
        assert.strictEqual((yield* step(gameId, { type: "activate", version: "0.5.0", at: AT, actor, reason: null })).activeVersion, "0.5.0")
        assert.strictEqual(yield* viewActive(gameId), "0.5.0")
        for (const version of ["2.0.0", "4.0.0", "9.9.9"]) {
          const refused = yield* Effect.flip(step(gameId, { type: "activate", version, at: AT, actor, reason: null }))
          assert.strictEqual(refused._tag, "LifecycleRefused")
        }
        const game = Option.getOrThrow(yield* GameStore.use((g) => g.get(gameId)))
        assert.strictEqual(game.activeVersion, "0.5.0")
        assert.deepStrictEqual(game.firstPublishedAt, AT)
      }))

    it.effect("withdraw only from pending; takedown only from approved, falling back by version order; reinstate only from taken_down", () =>
      Effect.gen(function*() {
        const gameId = yield* gameWith(["1.0.0", "1.1.0", "1.2.0", "2.0.0"])
        for (const v of ["1.0.0", "1.2.0", "1.1.0"]) yield* step(gameId, approve(v))
        assert.strictEqual(yield* viewActive(gameId), "1.2.0")
        yield* step(gameId, { type: "withdraw", version: "2.0.0", at: AT, actor })
        assert.strictEqual(yield* statusOf(gameId, "2.0.0"), "withdrawn")
        for (const s of [
          { type: "withdraw", version: "2.0.0", at: AT, actor },
          { type: "withdraw", version: "1.0.0", at: AT, actor },
          { type: "take_down", versions: ["2.0.0"], at: AT, actor, reason: "r", quarantineKeys: {} },
          { type: "reinstate", versions: ["1.0.0"], at: AT, actor, reason: "r", scope: "release" },
          approve("2.0.0"),
        ] satisfies ReadonlyArray<LifecycleStep>) {
          assert.strictEqual((yield* Effect.flip(step(gameId, s)))._tag, "LifecycleRefused", s.type)
        }
        const down = yield* step(gameId, { type: "take_down", versions: ["1.2.0"], at: AT, actor, reason: "malware", quarantineKeys: { "1.2.0": "quarantine/x" } })
        assert.strictEqual(down.activeVersion, "1.1.0", "the newest approved by version order, not the latest approval")
        const taken = Option.getOrThrow(yield* ReleaseStore.use((r) => r.get(gameId, "1.2.0")))
        assert.deepStrictEqual([taken.status, taken.quarantineKey, taken.takedownReason], ["taken_down", "quarantine/x", "malware"])
        assert.isTrue((yield* ReleaseStore.use((r) => r.keysInUse(["quarantine/x"], AT))).has("quarantine/x"), "the sweeper keeps the quarantined object")
        assert.strictEqual(yield* viewActive(gameId), "1.1.0")
        const all = yield* step(gameId, { type: "take_down", versions: ["1.0.0", "1.1.0"], at: AT, actor, reason: "all", quarantineKeys: {}, scope: "game" })
        assert.deepStrictEqual(all.updated.map((r) => r.takedownScope), ["game", "game_active"], "1.1.0 was active")
        assert.isNull(all.activeVersion)
        assert.isNull(yield* viewActive(gameId))
        assert.notInclude((yield* GameViews.use((v) => v.listActive())).map((r) => r.gameId), gameId)
        const back = yield* step(gameId, { type: "reinstate", versions: ["1.2.0"], at: AT, actor, reason: "ok", scope: "release" })
        assert.isNull(back.activeVersion, "a reinstated release is not active until activated")
        const again = yield* step(gameId, { type: "reinstate", versions: ["1.0.0", "1.1.0"], at: AT, actor, reason: "ok", scope: "game" })
        assert.strictEqual(again.activeVersion, "1.1.0", "the release active when the game was taken down")
        const reinstated = Option.getOrThrow(yield* ReleaseStore.use((r) => r.get(gameId, "1.2.0")))
        assert.deepStrictEqual([reinstated.status, reinstated.quarantineKey, reinstated.takedownReason], ["approved", null, null])
      }))

    it.effect("the timeline records each change with its actor and reason, oldest first, and nothing for a refused step", () =>
      Effect.gen(function*() {
        const gameId = yield* gameWith(["1.0.0", "2.0.0"])
        const other = yield* gameWith(["1.0.0"])
        yield* step(gameId, approve("1.0.0"))
        yield* step(gameId, { type: "reject", version: "2.0.0", by: "admin", at: AT, actor: "api_key:k1", reason: "Crashes" })
        const before = (yield* events(gameId)).length
        yield* Effect.flip(step(gameId, approve("2.0.0")))
        assert.strictEqual((yield* events(gameId)).length, before)
        const list = yield* events(gameId)
        assert.deepStrictEqual(list.map((e) => [e.kind, e.version]), [
          ["game_created", null],
          ["upload_url_issued", "1.0.0"],
          ["finalized", "1.0.0"],
          ["upload_url_issued", "2.0.0"],
          ["finalized", "2.0.0"],
          ["approved", "1.0.0"],
          ["activated", "1.0.0"],
          ["rejected", "2.0.0"],
        ])
        assert.deepStrictEqual([list.at(-1)!.actor, list.at(-1)!.reason], ["api_key:k1", "Crashes"])
        assert.isTrue(list.every((e) => e.gameId === gameId))
        const page = yield* Timeline.use((t) => t.list(gameId, list[2]!.seq, 2))
        assert.deepStrictEqual(page.map((e) => e.seq), [list[3]!.seq, list[4]!.seq])
        assert.isTrue((yield* events(other)).every((e) => e.gameId === other))
      }))

    it.effect("each pointer move records why: approval, activation, fallback after a takedown; none without an active release", () =>
      Effect.gen(function*() {
        const gameId = yield* gameWith(["1.0.0", "2.0.0"])
        const reasonOf = Effect.map(GameStore.use((g) => g.get(gameId)), (game) => Option.getOrThrow(game).activeReason ?? null)
        assert.isNull(yield* reasonOf)
        const later = new Date(AT.getTime() + 60_000)
        yield* step(gameId, approve("1.0.0"))
        assert.deepStrictEqual(yield* reasonOf, { cause: "approval", actor: "user:admin", at: AT })
        yield* step(gameId, { ...approve("2.0.0"), at: later, actor: "api_key:k1" })
        assert.deepStrictEqual(yield* reasonOf, { cause: "approval", actor: "api_key:k1", at: later })
        yield* step(gameId, { type: "activate", version: "1.0.0", at: AT, actor: "user:owner", reason: "rollback" })
        assert.deepStrictEqual(yield* reasonOf, { cause: "activation", actor: "user:owner", at: AT })
        yield* step(gameId, { type: "activate", version: "2.0.0", at: AT, actor: "user:owner", reason: null })
        yield* step(gameId, { type: "take_down", versions: ["2.0.0"], at: later, actor, reason: "malware", quarantineKeys: {} })
        assert.deepStrictEqual(yield* reasonOf, { cause: "takedown_fallback", actor, at: later })
        yield* step(gameId, { type: "take_down", versions: ["1.0.0"], at: later, actor, reason: "malware", quarantineKeys: {} })
        assert.isNull(yield* reasonOf)
        const down = Option.getOrThrow(yield* ReleaseStore.use((r) => r.get(gameId, "1.0.0")))
        assert.strictEqual(down.takedownScope, "release")
      }))

    it.effect("the lifecycle lease: one holder at a time, taken over once it ran out, given back only by its holder", () =>
      Effect.gen(function*() {
        const gameId = yield* gameWith([])
        const store = yield* ReleaseStore
        const until = new Date(AT.getTime() + 60_000)
        assert.isTrue(yield* store.takeLifecycleLease(gameId, "a", AT, until))
        assert.isFalse(yield* store.takeLifecycleLease(gameId, "b", AT, until))
        yield* store.dropLifecycleLease(gameId, "b")
        assert.isFalse(yield* store.takeLifecycleLease(gameId, "b", new Date(until.getTime() - 1), until), "not run out yet")
        yield* store.dropLifecycleLease(gameId, "a")
        assert.isTrue(yield* store.takeLifecycleLease(gameId, "b", AT, until))
        assert.isTrue(yield* store.takeLifecycleLease(gameId, "c", until, new Date(until.getTime() + 60_000)), "b's lease ran out")
        assert.isFalse(yield* store.takeLifecycleLease(gameId, "b", until, new Date(until.getTime() + 60_000)))
        const other = yield* gameWith([])
        assert.isTrue(yield* store.takeLifecycleLease(other, "b", AT, until), "one lease per game")
        assert.isFalse(yield* store.takeLifecycleLease("gm_unknown", "z", AT, until), "no game, no lease")
      }))

    it.effect("the lease fences the steps: one under a lease is recorded only while its holder holds it unexpired; renewing extends only a lease still held", () =>
      Effect.gen(function*() {
        const gameId = yield* gameWith(["1.0.0"])
        const store = yield* ReleaseStore
        const at = (seconds: number) => new Date(AT.getTime() + seconds * 1000)
        const fenced = (holder: string, now: Date) => store.lifecycle(gameId, approve("1.0.0"), { holder, now })
        const refusedWith = (holder: string, now: Date) => Effect.map(Effect.flip(fenced(holder, now)), (e) => e._tag)
        const before = (yield* events(gameId)).length
        assert.strictEqual(yield* refusedWith("a", AT), "LifecycleLeaseLost", "nobody holds it")
        assert.isTrue(yield* store.takeLifecycleLease(gameId, "a", AT, at(60)))
        assert.strictEqual(yield* refusedWith("b", AT), "LifecycleLeaseLost", "another holder's")
        assert.strictEqual(yield* refusedWith("a", at(60)), "LifecycleLeaseLost", "ran out")
        assert.strictEqual(yield* statusOf(gameId, "1.0.0"), "pending_review")
        assert.strictEqual((yield* events(gameId)).length, before, "a fenced-off step writes no event")
        // Renewing: only the holder, only before it ran out; a renewed lease is not taken over at its old end.
        assert.isFalse(yield* store.renewLifecycleLease(gameId, "b", at(30), at(90)))
        assert.isTrue(yield* store.renewLifecycleLease(gameId, "a", at(30), at(90)))
        assert.isFalse(yield* store.takeLifecycleLease(gameId, "b", at(60), at(120)), "renewed until 90 s")
        assert.strictEqual((yield* fenced("a", at(89))).activeVersion, "1.0.0", "recorded under the renewed lease")
        assert.strictEqual(yield* statusOf(gameId, "1.0.0"), "approved")
        // A lease that ran out stays lost to its holder, even with nobody else holding it.
        assert.isFalse(yield* store.renewLifecycleLease(gameId, "a", at(90), at(150)))
        assert.isTrue(yield* store.takeLifecycleLease(gameId, "c", at(90), at(150)))
        assert.isFalse(yield* store.renewLifecycleLease(gameId, "a", at(91), at(151)))
      }))
  })
