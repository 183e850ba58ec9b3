// The lifecycle use cases (domain/release/Lifecycle.ts) on a store, with real object moves in a memory object store
// whose moves take a while (so concurrent requests interleave on every store): concurrent takedowns, takedown against
// reinstate and against activate, the game-wide takedown and its reverse, re-verification, and random sequences that
// check the invariants, the quarantine and exactly one timeline event per change after every step.
import { assert, layer } from "@effect/vitest"
import { Effect, Exit, Layer, Option } from "effect"
import fc from "fast-check"
import { createHash } from "node:crypto"
import { layerManualClock } from "../../adapters/memory/MemoryClock.ts"
import { layerSequentialIds } from "../../adapters/memory/MemoryIds.ts"
import { makeMemoryObjectStorage } from "../../adapters/memory/MemoryObjectStorage.ts"
import { SignedUrls } from "../../adapters/signed-urls/SignedUrls.ts"
import type { Principal } from "../../domain/auth/Principal.ts"
import {
  ActivateBody,
  activateRelease,
  reinstateGame,
  reinstateRelease,
  takeDownGame,
  TakedownBody,
  takeDownRelease,
  withdrawRelease,
} from "../../domain/release/Lifecycle.ts"
import { quarantineObjectKey, releaseObjectKey } from "../../domain/release/ObjectKey.ts"
import type { Release } from "../../domain/release/Release.ts"
import type { Clock } from "../../ports/Clock.ts"
import { GameStore } from "../../ports/GameStore.ts"
import type { Ids } from "../../ports/Ids.ts"
import type { GameViews } from "../../ports/GameViews.ts"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { Timeline } from "../../ports/Timeline.ts"
import { aGame, anIntent, aReleaseFor } from "../support/fixtures.ts"

type Stores = ReleaseStore | GameStore | GameViews | Timeline
const admin: Principal = { userId: "admin", isAdmin: true }
const AT = new Date("2026-05-01T00:00:00.000Z")

/** A memory object store whose moves take 20 ms after they happened, as a remote store's would. */
const slowStorage = Layer.effect(
  ObjectStorage,
  Effect.map(makeMemoryObjectStorage, (storage) => ({
    ...storage,
    move: (from: string, to: string) => Effect.tap(storage.move(from, to), () => Effect.sleep("20 millis")),
  })),
).pipe(Layer.provide(SignedUrls.layer(new Uint8Array(32), () => "http://pckgate.test")))

const withUseCaseServices = <E>(records: Layer.Layer<Stores, E>) =>
  Layer.mergeAll(slowStorage, layerSequentialIds).pipe(Layer.provideMerge(layerManualClock(AT)), Layer.provideMerge(records))

const bytesOf = (gameId: string, version: string) => new TextEncoder().encode(`${gameId} ${version} `.repeat(64))
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")

/** A game whose releases are finalized with real bytes in the object store; returns its id and owner. */
const gameWith = (versions: ReadonlyArray<string>, publish: Record<string, "manual"> = {}) =>
  Effect.gen(function*() {
    const game = aGame()
    yield* GameStore.use((g) => g.insert(game, "system"))
    for (const version of versions) yield* submit(game.id, version, publish[version] ?? "on_approval")
    return { gameId: game.id, owner: { userId: game.ownerId, isAdmin: false } satisfies Principal }
  })

const submit = Effect.fnUntraced(function*(gameId: string, version: string, publishMode: "manual" | "on_approval") {
  const bytes = bytesOf(gameId, version)
  const digest = sha256(bytes)
  const intent = anIntent(gameId, { version, sha256: digest, sizeBytes: bytes.length, objectKey: releaseObjectKey(gameId, version, digest), publishMode })
  yield* ReleaseStore.use((r) => r.recordIntent(intent))
  yield* ObjectStorage.use((s) => s.put(intent.objectKey, new Blob([bytes]).stream(), { maxBytes: bytes.length }))
  return yield* ReleaseStore.use((r) => r.finalize(intent.id, aReleaseFor(intent, { publishMode })))
})

const approve = (gameId: string, version: string) =>
  ReleaseStore.use((r) => r.lifecycle(gameId, { type: "approve", version, by: "admin", at: AT, actor: "user:admin" }))

const releaseOf = (gameId: string, version: string) => Effect.map(ReleaseStore.use((r) => r.get(gameId, version)), Option.getOrThrow)
const activeOf = (gameId: string) => ReleaseStore.use((r) => r.activeVersion(gameId))
const has = (key: string) => Effect.map(ObjectStorage.use((s) => s.head(key)), Option.isSome)

/** Where the release's bytes are: at its own key while not taken down, only in quarantine while taken down. */
const assertStoredWhereItsStatusSays = Effect.fnUntraced(function*(release: Release) {
  const quarantine = quarantineObjectKey(release.gameId, release.version, release.sha256)
  const [atKey, inQuarantine] = [yield* has(release.objectKey), yield* has(quarantine)]
  const where = `${release.version} (${release.status}): at its key ${atKey}, in quarantine ${inQuarantine}`
  if (release.status === "taken_down") {
    assert.isFalse(atKey, where)
    assert.isTrue(inQuarantine, where)
    assert.strictEqual(release.quarantineKey, quarantine)
  } else {
    assert.isTrue(atKey, where)
    assert.isFalse(inQuarantine, where)
  }
})

const assertAllStoredRight = (gameId: string) =>
  Effect.flatMap(ReleaseStore.use((r) => r.listByGame(gameId)), (releases) => Effect.forEach(releases, assertStoredWhereItsStatusSays, { discard: true }))

/** The HTTP error code an exit failed with (the error table's tags), or "ok". */
const outcomeOf = (exit: Exit.Exit<unknown, { readonly _tag: string }>) =>
  Exit.isSuccess(exit) ? "ok" : Exit.findErrorOption(exit).pipe(Option.map((e) => e._tag), Option.getOrElse(() => "defect"))

const both = <A, B, E1, E2, R1, R2>(a: Effect.Effect<A, E1, R1>, b: Effect.Effect<B, E2, R2>) =>
  Effect.all([Effect.exit(a), Effect.exit(b)], { concurrency: 2 })

export const lifecycleUseCasesContract = <E>(name: string, makeLayer: () => Layer.Layer<Stores, E>) =>
  // Live services: the lease's waits and the slow moves sleep for real.
  layer(withUseCaseServices(makeLayer()), { timeout: 300_000, excludeTestServices: true })(`Lifecycle use cases: ${name}`, (it) => {
    it.effect("two takedowns of one release at once: one is done, the other refused, and the object stays in quarantine", () =>
      Effect.gen(function*() {
        for (let round = 0; round < 3; round++) {
          const { gameId } = yield* gameWith(["1.0.0", "2.0.0"])
          yield* approve(gameId, "1.0.0")
          yield* approve(gameId, "2.0.0")
          const takedown = takeDownRelease(admin, gameId, "2.0.0", TakedownBody.make({ reason: "malware" }))
          const exits = yield* both(takedown, takedown)
          assert.deepStrictEqual(exits.map(outcomeOf).sort(), ["ReleaseNotApproved", "ok"])
          assert.strictEqual((yield* releaseOf(gameId, "2.0.0")).status, "taken_down")
          assert.strictEqual(yield* activeOf(gameId), "1.0.0")
          yield* assertAllStoredRight(gameId)
          const events = (yield* Timeline.use((t) => t.list(gameId, 0, 100))).filter((e) => e.kind === "taken_down")
          assert.strictEqual(events.length, 1, "one takedown recorded")
        }
      }))

    it.effect("a game-wide takedown and a takedown of one of its releases at once leave every release quarantined", () =>
      Effect.gen(function*() {
        const { gameId } = yield* gameWith(["1.0.0", "2.0.0", "3.0.0"])
        for (const v of ["1.0.0", "2.0.0", "3.0.0"]) yield* approve(gameId, v)
        const exits = yield* both(takeDownGame(admin, gameId, TakedownBody.make({ reason: "all" })), takeDownRelease(admin, gameId, "3.0.0", TakedownBody.make({ reason: "one" })))
        assert.include(exits.map(outcomeOf), "ok")
        for (const v of ["1.0.0", "2.0.0", "3.0.0"]) assert.strictEqual((yield* releaseOf(gameId, v)).status, "taken_down", v)
        assert.isNull(yield* activeOf(gameId))
        yield* assertAllStoredRight(gameId)
      }))

    it.effect("takedown and reinstate of one release at once: whichever order, the object is where the status says", () =>
      Effect.gen(function*() {
        for (const start of ["approved", "taken_down"] as const) {
          const { gameId } = yield* gameWith(["1.0.0", "2.0.0"])
          yield* approve(gameId, "1.0.0")
          yield* approve(gameId, "2.0.0")
          if (start === "taken_down") yield* takeDownRelease(admin, gameId, "2.0.0", TakedownBody.make({ reason: "first" }))
          const [down, back] = yield* both(
            takeDownRelease(admin, gameId, "2.0.0", TakedownBody.make({ reason: "again" })),
            reinstateRelease(admin, gameId, "2.0.0", TakedownBody.make({ reason: "cleared" })),
          )
          const status = (yield* releaseOf(gameId, "2.0.0")).status
          // Each answer agrees with the order they ran in.
          if (start === "approved") {
            assert.strictEqual(outcomeOf(down), "ok")
            assert.strictEqual(status, outcomeOf(back) === "ok" ? "approved" : "taken_down")
          } else {
            assert.strictEqual(outcomeOf(back), "ok")
            assert.strictEqual(status, outcomeOf(down) === "ok" ? "taken_down" : "approved")
          }
          yield* assertAllStoredRight(gameId)
        }
      }))

    it.effect("takedown and activate of one release at once: never artifact_missing; the taken-down release is never left active", () =>
      Effect.gen(function*() {
        for (let round = 0; round < 3; round++) {
          const { gameId, owner } = yield* gameWith(["1.0.0", "2.0.0"])
          yield* approve(gameId, "1.0.0")
          yield* approve(gameId, "2.0.0")
          const [down, live] = yield* both(
            takeDownRelease(admin, gameId, "1.0.0", TakedownBody.make({ reason: "malware" })),
            activateRelease(owner, gameId, "1.0.0", ActivateBody.make({ reason: "rollback" })),
          )
          assert.strictEqual(outcomeOf(down), "ok")
          assert.oneOf(outcomeOf(live), ["ok", "ReleaseNotActivatable"])
          assert.strictEqual((yield* releaseOf(gameId, "1.0.0")).status, "taken_down")
          assert.strictEqual(yield* activeOf(gameId), "2.0.0")
          yield* assertAllStoredRight(gameId)
        }
      }))

    it.effect("the game-wide reinstate brings back only what the game-wide takedown took, and the release active then", () =>
      Effect.gen(function*() {
        const { gameId } = yield* gameWith(["0.5.0", "1.0.0", "2.0.0"], { "0.5.0": "manual" })
        for (const v of ["0.5.0", "1.0.0", "2.0.0"]) yield* approve(gameId, v)
        assert.strictEqual(yield* activeOf(gameId), "2.0.0")
        yield* takeDownRelease(admin, gameId, "2.0.0", TakedownBody.make({ reason: "malware" }))
        assert.strictEqual(yield* activeOf(gameId), "1.0.0")
        const all = yield* takeDownGame(admin, gameId, TakedownBody.make({ reason: "publisher compromised" }))
        assert.deepStrictEqual(all.releases.map((r) => [r.version, r.takedownScope]), [["0.5.0", "game"], ["1.0.0", "game_active"]])
        assert.isNull(yield* activeOf(gameId))
        const back = yield* reinstateGame(admin, gameId, TakedownBody.make({ reason: "cleared" }))
        assert.deepStrictEqual(back.releases.map((r) => [r.version, r.status]), [["0.5.0", "approved"], ["1.0.0", "approved"]])
        assert.strictEqual(back.activeVersion, "1.0.0", "the release active before the game-wide takedown")
        assert.strictEqual((yield* releaseOf(gameId, "2.0.0")).status, "taken_down", "taken down alone: stays down")
        assert.strictEqual((yield* releaseOf(gameId, "0.5.0")).takedownScope ?? null, null)
        const game = Option.getOrThrow(yield* GameStore.use((g) => g.get(gameId)))
        assert.deepStrictEqual(game.activeReason, { cause: "game_reinstate", actor: "user:admin", at: AT })
        yield* assertAllStoredRight(gameId)
        const again = yield* Effect.flip(reinstateGame(admin, gameId, TakedownBody.make({ reason: "again" })))
        assert.strictEqual(again._tag, "ReleaseNotTakenDown", "nothing left that the game-wide takedown took")
      }))

    it.effect("a game-wide reinstate leaves the pointer alone when a release was made active since", () =>
      Effect.gen(function*() {
        const { gameId } = yield* gameWith(["1.0.0", "2.0.0"])
        yield* approve(gameId, "1.0.0")
        yield* takeDownGame(admin, gameId, TakedownBody.make({ reason: "all" }))
        yield* approve(gameId, "2.0.0")
        assert.strictEqual(yield* activeOf(gameId), "2.0.0")
        const back = yield* reinstateGame(admin, gameId, TakedownBody.make({ reason: "cleared" }))
        assert.strictEqual(back.activeVersion, "2.0.0")
        assert.strictEqual((yield* releaseOf(gameId, "1.0.0")).status, "approved")
        yield* assertAllStoredRight(gameId)
      }))

    it.effect("activate and reinstate verify the stored bytes again: tampered is checksum_mismatch, deleted is artifact_missing; nothing changes", () =>
      Effect.gen(function*() {
        const { gameId, owner } = yield* gameWith(["1.0.0", "2.0.0", "3.0.0"])
        for (const v of ["1.0.0", "2.0.0", "3.0.0"]) yield* approve(gameId, v)
        const storage = yield* ObjectStorage
        const one = yield* releaseOf(gameId, "1.0.0")
        yield* storage.delete(one.objectKey)
        yield* storage.put(one.objectKey, new Blob([bytesOf(gameId, "tampered")]).stream(), { maxBytes: 10_000 })
        assert.strictEqual((yield* Effect.flip(activateRelease(owner, gameId, "1.0.0", ActivateBody.make({}))))._tag, "StoredChecksumMismatch")
        const two = yield* releaseOf(gameId, "2.0.0")
        yield* storage.delete(two.objectKey)
        assert.strictEqual((yield* Effect.flip(activateRelease(owner, gameId, "2.0.0", ActivateBody.make({}))))._tag, "StoredArtifactMissing")
        assert.strictEqual(yield* activeOf(gameId), "3.0.0")
        // Reinstate: tampered in quarantine → refused, and the object goes back to quarantine.
        yield* takeDownRelease(admin, gameId, "3.0.0", TakedownBody.make({ reason: "check" }))
        const three = yield* releaseOf(gameId, "3.0.0")
        yield* storage.delete(three.quarantineKey!)
        yield* storage.put(three.quarantineKey!, new Blob([bytesOf(gameId, "tampered")]).stream(), { maxBytes: 10_000 })
        assert.strictEqual((yield* Effect.flip(reinstateRelease(admin, gameId, "3.0.0", TakedownBody.make({ reason: "ok" }))))._tag, "StoredChecksumMismatch")
        assert.strictEqual((yield* releaseOf(gameId, "3.0.0")).status, "taken_down")
        assert.isTrue(yield* has(three.quarantineKey!))
        assert.isFalse(yield* has(three.objectKey))
        yield* storage.delete(three.quarantineKey!)
        assert.strictEqual((yield* Effect.flip(reinstateRelease(admin, gameId, "3.0.0", TakedownBody.make({ reason: "ok" }))))._tag, "StoredArtifactMissing")
        assert.strictEqual((yield* releaseOf(gameId, "3.0.0")).status, "taken_down")
      }))

    it.effect("random sequences through the use cases keep the invariants, the quarantine and exactly one event per change", () =>
      Effect.gen(function*() {
        const run = Effect.runPromiseWith(yield* Effect.context<UseCaseServices>())
        const versions = ["1.0.0", "2.0.0", "0.9.0"]
        const op = fc.record({
          // Weighted so that sequences reach approvals, takedowns and their reversal often.
          type: fc.oneof(
            ...Object.entries({ submit: 4, approve: 5, take_down: 2, take_down_game: 2, reinstate: 2, reinstate_game: 2, activate: 2, reject: 1, withdraw: 1 })
              .map(([type, weight]) => ({ arbitrary: fc.constant(type), weight })),
          ),
          version: fc.constantFrom(...versions),
          manual: fc.boolean(),
        })
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(fc.array(op, { minLength: 10, maxLength: 30, size: "max" }), async (ops) => {
              const { gameId, owner } = await run(gameWith([]))
              const takenDownAlone = new Set<string>()
              const submitted = new Set<string>()
              for (const o of ops) {
                // A version is submitted once (upload-url refuses a used one before anything is recorded).
                if (o.type === "submit" && submitted.has(o.version)) continue
                if (o.type === "submit") submitted.add(o.version)
                const before = await run(snapshot(gameId))
                const exit: Exit.Exit<unknown, { readonly _tag: string }> = await run(Effect.exit(perform(gameId, owner, o)))
                const after = await run(snapshot(gameId))
                const label = `${o.type} ${o.version}: ${outcomeOf(exit)}`
                if (after.active !== null) {
                  const active = after.releases.get(after.active)
                  if (active?.status !== "approved") throw new Error(`${label}: active ${after.active} is ${active?.status}`)
                }
                if (o.type === "reject" && after.active !== before.active) throw new Error(`${label}: a rejection moved the pointer`)
                if (o.type === "reinstate" && after.active !== before.active) throw new Error(`${label}: a reinstate moved the pointer`)
                const appended = after.events.slice(before.events.length)
                if (Exit.isFailure(exit)) {
                  if (appended.length > 0 || after.active !== before.active) throw new Error(`${label}: a refused step changed something`)
                } else {
                  const expected = expectedEvents(o, before, after)
                  if (JSON.stringify(appended) !== JSON.stringify(expected)) {
                    throw new Error(`${label}: events ${JSON.stringify(appended)}, expected exactly ${JSON.stringify(expected)}`)
                  }
                }
                if (o.type === "take_down" && Exit.isSuccess(exit)) takenDownAlone.add(o.version)
                if (o.type === "reinstate" && Exit.isSuccess(exit)) takenDownAlone.delete(o.version)
                for (const version of takenDownAlone) {
                  if (after.releases.get(version)?.status !== "taken_down") throw new Error(`${label}: ${version}, taken down alone, came back`)
                }
                await run(assertAllStoredRight(gameId))
              }
            }),
            { numRuns: 30 },
          )
        )
      }))
  })

interface Snapshot {
  readonly active: string | null
  readonly releases: ReadonlyMap<string, Release>
  /** `kind version` of every timeline event, oldest first. */
  readonly events: ReadonlyArray<string>
}

const snapshot = (gameId: string) =>
  Effect.gen(function*() {
    const releases = yield* ReleaseStore.use((r) => r.listByGame(gameId))
    const events = yield* Timeline.use((t) => t.list(gameId, 0, 10_000))
    return {
      active: yield* activeOf(gameId),
      releases: new Map(releases.map((r) => [r.version, r])),
      events: events.map((e) => `${e.kind} ${e.version}`),
    } satisfies Snapshot
  })

type Op = { readonly type: string; readonly version: string; readonly manual: boolean }

type UseCaseServices = Stores | ObjectStorage | Clock | Ids

const perform = (gameId: string, owner: Principal, o: Op): Effect.Effect<unknown, { readonly _tag: string }, UseCaseServices> => {
  const reason = TakedownBody.make({ reason: `${o.type} ${o.version}` })
  switch (o.type) {
    case "submit":
      return submit(gameId, o.version, o.manual ? "manual" : "on_approval")
    case "approve":
      return approve(gameId, o.version)
    case "reject":
      return ReleaseStore.use((r) => r.lifecycle(gameId, { type: "reject", version: o.version, by: "admin", at: AT, actor: "user:admin", reason: "no" }))
    case "withdraw":
      return withdrawRelease(owner, gameId, o.version)
    case "activate":
      return activateRelease(owner, gameId, o.version, ActivateBody.make({}))
    case "take_down":
      return takeDownRelease(admin, gameId, o.version, reason)
    case "reinstate":
      return reinstateRelease(admin, gameId, o.version, reason)
    case "take_down_game":
      return takeDownGame(admin, gameId, reason)
    default:
      return reinstateGame(admin, gameId, reason)
  }
}

const KIND_OF_STATUS_CHANGE: Record<string, string> = {
  "pending_review>approved": "approved",
  "pending_review>rejected": "rejected",
  "pending_review>withdrawn": "withdrawn",
  "approved>taken_down": "taken_down",
  "taken_down>approved": "reinstated",
}

/**
 * The events a successful step must have appended, derived from what changed, not from the plan: one per release whose
 * status changed (in version order of the step), and one `activated` when the pointer moved to a release or an
 * activate ran; a submission is its upload intent and its finalize.
 */
const expectedEvents = (o: Op, before: Snapshot, after: Snapshot): ReadonlyArray<string> => {
  if (o.type === "submit") return [`upload_url_issued ${o.version}`, `finalized ${o.version}`]
  const changed = [...after.releases.values()].filter((r) => before.releases.get(r.version)?.status !== r.status)
  const statusEvents = changed.map((r) => `${KIND_OF_STATUS_CHANGE[`${before.releases.get(r.version)!.status}>${r.status}`]} ${r.version}`)
  const moved = o.type === "activate" || (after.active !== null && after.active !== before.active)
  return [...statusEvents, ...(moved ? [`activated ${after.active}`] : [])]
}
