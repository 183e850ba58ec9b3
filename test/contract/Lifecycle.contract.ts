// The release lifecycle on a store (ReleaseStore.lifecycle/review, GameViews, Timeline): every transition allowed and
// refused, the pointer rules, timeline events written with the change (and not without it), and a property-based run
// of random sequences checking the invariants after each step.
import { assert, layer } from "@effect/vitest"
import { Effect, Exit, type Layer, Option } from "effect"
import fc from "fast-check"
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
    yield* GameStore.use((g) => g.insert(game))
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
          { type: "reinstate", versions: ["1.0.0"], at: AT, actor, reason: "r", restorePointer: false },
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
        const all = yield* step(gameId, { type: "take_down", versions: ["1.0.0", "1.1.0"], at: AT, actor, reason: "all", quarantineKeys: {} })
        assert.isNull(all.activeVersion)
        assert.isNull(yield* viewActive(gameId))
        assert.notInclude((yield* GameViews.use((v) => v.listActive())).map((r) => r.gameId), gameId)
        const back = yield* step(gameId, { type: "reinstate", versions: ["1.2.0"], at: AT, actor, reason: "ok", restorePointer: false })
        assert.isNull(back.activeVersion, "a reinstated release is not active until activated")
        const again = yield* step(gameId, { type: "reinstate", versions: ["1.0.0", "1.1.0"], at: AT, actor, reason: "ok", restorePointer: true })
        assert.strictEqual(again.activeVersion, "1.1.0")
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

    it.effect("random sequences keep the invariants: active is approved, rejection never moves it, one event per change", () =>
      Effect.gen(function*() {
        const services = yield* Effect.context<Stores>()
        const run = Effect.runPromiseWith(services)
        const versions = ["1.0.0", "1.1.0", "2.0.0", "0.9.0", "3.0.0"]
        const op = fc.record({
          type: fc.constantFrom("submit", "approve", "reject", "withdraw", "activate", "take_down", "reinstate"),
          version: fc.constantFrom(...versions),
          manual: fc.boolean(),
        })
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
              const gameId = await run(gameWith([]))
              const submitted = new Set<string>()
              for (const o of ops) {
                const activeBefore = await run(ReleaseStore.use((r) => r.activeVersion(gameId)))
                const eventsBefore = (await run(events(gameId))).length
                let exit: Exit.Exit<unknown, unknown>
                if (o.type === "submit") {
                  if (submitted.has(o.version)) continue
                  submitted.add(o.version)
                  const intent = anIntent(gameId, { version: o.version, publishMode: o.manual ? "manual" : "on_approval" })
                  exit = await run(Effect.exit(Effect.andThen(
                    ReleaseStore.use((r) => r.recordIntent(intent)),
                    ReleaseStore.use((r) => r.finalize(intent.id, aReleaseFor(intent, { publishMode: intent.publishMode! }))),
                  )))
                } else {
                  const s: LifecycleStep = o.type === "approve"
                    ? approve(o.version)
                    : o.type === "reject"
                    ? { type: "reject", version: o.version, by: "admin", at: AT, actor, reason: "no" }
                    : o.type === "withdraw"
                    ? { type: "withdraw", version: o.version, at: AT, actor }
                    : o.type === "activate"
                    ? { type: "activate", version: o.version, at: AT, actor, reason: null }
                    : o.type === "take_down"
                    ? { type: "take_down", versions: [o.version], at: AT, actor, reason: "r", quarantineKeys: {} }
                    : { type: "reinstate", versions: [o.version], at: AT, actor, reason: "r", restorePointer: false }
                  exit = await run(Effect.exit(step(gameId, s)))
                }
                const activeAfter = await run(ReleaseStore.use((r) => r.activeVersion(gameId)))
                const eventsAfter = (await run(events(gameId))).length
                if (activeAfter !== null) {
                  const active = Option.getOrThrow(await run(ReleaseStore.use((r) => r.get(gameId, activeAfter))))
                  if (active.status !== "approved") throw new Error(`active ${activeAfter} is ${active.status} after ${o.type}`)
                }
                if (o.type === "reject" && activeAfter !== activeBefore) throw new Error("a rejection moved the pointer")
                if (Exit.isFailure(exit) && (eventsAfter !== eventsBefore || activeAfter !== activeBefore)) {
                  throw new Error(`a refused ${o.type} changed something`)
                }
                if (Exit.isSuccess(exit) && eventsAfter <= eventsBefore) throw new Error(`a successful ${o.type} wrote no event`)
                if (await run(viewActive(gameId)) !== activeAfter) throw new Error("the game view disagrees with the pointer")
              }
            }),
            { numRuns: 25 },
          )
        )
      }))
  })
