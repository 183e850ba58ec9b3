// Services and helpers for the lifecycle use-case contracts (LifecycleUseCases.contract.ts, LifecycleLease.contract.ts):
// a memory object store whose moves take a while (so concurrent requests interleave on every store) and whose calls a
// test can hold (to run a request while another is inside one, in a chosen order), a ReleaseStore whose faults a test
// arms and whose lease calls it can watch, games with real bytes, and assertions on where each release's object is.
import { assert } from "@effect/vitest"
import { Clock as EffectClock, Context, Deferred, Effect, Exit, Fiber, Layer, Option, Queue } from "effect"
import { createHash } from "node:crypto"
import { layerManualClock } from "../../adapters/memory/MemoryClock.ts"
import { layerSequentialIds } from "../../adapters/memory/MemoryIds.ts"
import { makeMemoryObjectStorage } from "../../adapters/memory/MemoryObjectStorage.ts"
import { SignedUrls } from "../../adapters/signed-urls/SignedUrls.ts"
import type { Principal } from "../../domain/auth/Principal.ts"
import { Unavailable } from "../../domain/errors.ts"
import { quarantineObjectKey, releaseObjectKey } from "../../domain/release/ObjectKey.ts"
import type { Release } from "../../domain/release/Release.ts"
import type { ScanReport } from "../../domain/scan/ScanReport.ts"
import { Clock } from "../../ports/Clock.ts"
import { GameStore } from "../../ports/GameStore.ts"
import type { GameViews } from "../../ports/GameViews.ts"
import type { Ids } from "../../ports/Ids.ts"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import type { ReviewGateStore } from "../../ports/ReviewGateStore.ts"
import { ScanStore } from "../../ports/ScanStore.ts"
import type { Timeline } from "../../ports/Timeline.ts"
import { aGame, anIntent, aReleaseFor } from "./fixtures.ts"

export type Stores = ReleaseStore | GameStore | GameViews | Timeline | ScanStore | ReviewGateStore
export const admin: Principal = { userId: "admin", isAdmin: true }
export const AT = new Date("2026-05-01T00:00:00.000Z")

export type HeldCall = "move" | "digest"

/** The next storage call of a kind, when armed, waits until released: a test runs a request while another is inside it. */
export class StorageHolds extends Context.Service<StorageHolds, {
  readonly armed: Map<HeldCall, { readonly started: Deferred.Deferred<void>; readonly release: Deferred.Deferred<void> }>
}>()("test/StorageHolds") {}

/**
 * A memory object store whose calls can be held; with `slowMoves`, its moves take 20 ms after they happened, as a
 * remote store's would (not under TestClock, where nothing sleeps unless the test moves the clock).
 */
const storageWithHolds = (slowMoves: boolean) => Layer.effect(
  ObjectStorage,
  Effect.gen(function*() {
    const storage = yield* makeMemoryObjectStorage
    const { armed } = yield* StorageHolds
    const held = <A, E>(kind: HeldCall, call: Effect.Effect<A, E>) =>
      Effect.suspend(() => {
        const hold = armed.get(kind)
        if (hold === undefined) return call
        armed.delete(kind)
        return Deferred.succeed(hold.started, undefined).pipe(Effect.andThen(Deferred.await(hold.release)), Effect.andThen(call))
      })
    return {
      ...storage,
      digest: (key: string) => held("digest", storage.digest(key)),
      move: (from: string, to: string) => held("move", slowMoves ? Effect.tap(storage.move(from, to), () => Effect.sleep("20 millis")) : storage.move(from, to)),
    }
  }),
).pipe(Layer.provide(SignedUrls.layer(new Uint8Array(32), () => "http://pckgate.test")))

/**
 * Store faults a test arms for the next lifecycle step: "commit-then-fail" records it and then fails as a timeout that
 * fires while COMMIT is in flight would (the step is written, the caller sees Unavailable); "fail-before-commit" fails
 * without writing it; "fail-unreadable" too, and every read of a release fails afterwards until the test disarms
 * "reads-fail".
 */
export type StoreFault = "commit-then-fail" | "fail-before-commit" | "fail-unreadable" | "reads-fail"
export class StoreFaults extends Context.Service<StoreFaults, {
  readonly armed: Set<StoreFault>
  /** Every attempt at taking a lease, by holder, as the store answered it. */
  readonly leaseTakes: Array<{ readonly holder: string; readonly taken: boolean }>
  /** Each renewal of a lease once the store has answered it. */
  readonly renewals: Queue.Queue<boolean>
}>()("test/StoreFaults") {}

export const faultyReleaseStore = Layer.effect(
  ReleaseStore,
  Effect.gen(function*() {
    const store = yield* ReleaseStore
    const { armed, leaseTakes, renewals } = yield* StoreFaults
    const lost = new Unavailable({ dependency: "database", reason: "test: no answer to COMMIT" })
    return ReleaseStore.of({
      ...store,
      lifecycle: (gameId, step, lease) =>
        Effect.suspend(() => {
          if (armed.delete("commit-then-fail")) return Effect.andThen(store.lifecycle(gameId, step, lease), Effect.fail(lost))
          if (armed.delete("fail-before-commit")) return Effect.fail(lost)
          if (armed.delete("fail-unreadable")) return Effect.sync(() => armed.add("reads-fail")).pipe(Effect.andThen(Effect.fail(lost)))
          return store.lifecycle(gameId, step, lease)
        }),
      get: (gameId, version) => Effect.suspend(() => (armed.has("reads-fail") ? Effect.fail(lost) : store.get(gameId, version))),
      takeLifecycleLease: (gameId, holder, now, until) =>
        Effect.tap(store.takeLifecycleLease(gameId, holder, now, until), (taken) => Effect.sync(() => leaseTakes.push({ holder, taken }))),
      renewLifecycleLease: (gameId, holder, now, until) =>
        Effect.tap(store.renewLifecycleLease(gameId, holder, now, until), (renewed) => Queue.offer(renewals, renewed)),
    })
  }),
)

export const storeFaults = Layer.effect(
  StoreFaults,
  Effect.map(Queue.unbounded<boolean>(), (renewals) => ({ armed: new Set<StoreFault>(), leaseTakes: [], renewals })),
)

/** The Clock port read from effect's Clock: under TestClock, the lease's times and its heartbeat's sleeps move together. */
const layerEffectClockPort = Layer.succeed(Clock, Clock.of({ now: Effect.map(EffectClock.currentTimeMillis, (ms) => new Date(ms)) }))

const useCaseServices = <E, C>(records: Layer.Layer<Stores, E>, clock: Layer.Layer<C>, slowMoves: boolean) =>
  Layer.mergeAll(storageWithHolds(slowMoves), layerSequentialIds).pipe(
    Layer.provideMerge(Layer.effect(StorageHolds, Effect.sync(() => ({ armed: new Map() })))),
    Layer.provideMerge(clock),
    Layer.provideMerge(faultyReleaseStore.pipe(
      Layer.provideMerge(records),
      Layer.provideMerge(storeFaults),
    )),
  )

/** Everything the use cases need over `records`, for live services: a manual Clock port starting at AT, slow moves. */
export const withUseCaseServices = <E>(records: Layer.Layer<Stores, E>) => useCaseServices(records, layerManualClock(AT), true)

/** The same for tests on TestClock: the Clock port follows effect's clock, and moves do not sleep. */
export const withUseCaseServicesOnTestClock = <E>(records: Layer.Layer<Stores, E>) => useCaseServices(records, layerEffectClockPort, false)

/**
 * Runs `first` until it is inside its next storage call of `kind` (holding the game's lease, if it takes one), then
 * `second`; `first` goes on once `second` has finished, or has had a while to (it may be waiting for the lease).
 * The exits in the order given.
 */
export const secondWhileFirstIsInside = <A, B, E1, E2, R1, R2>(kind: HeldCall, first: Effect.Effect<A, E1, R1>, second: Effect.Effect<B, E2, R2>) =>
  Effect.gen(function*() {
    const hold = { started: yield* Deferred.make<void>(), release: yield* Deferred.make<void>() }
    ;(yield* StorageHolds).armed.set(kind, hold)
    const one = yield* Effect.forkChild(Effect.exit(first))
    yield* Deferred.await(hold.started)
    const two = yield* Effect.forkChild(Effect.exit(second))
    yield* Effect.raceFirst(Effect.asVoid(Fiber.await(two)), Effect.sleep("300 millis"))
    yield* Deferred.succeed(hold.release, undefined)
    return [yield* Fiber.join(one), yield* Fiber.join(two)] as const
  })

/** `a` and `b` at once: `b` starts while `a` is inside its next `kind` storage call, or the other way round; exits as [a, b]. */
export const inOrder = <A, B, E1, E2, R1, R2>(aFirst: boolean, kind: HeldCall, a: Effect.Effect<A, E1, R1>, b: Effect.Effect<B, E2, R2>) =>
  aFirst ? secondWhileFirstIsInside(kind, a, b) : Effect.map(secondWhileFirstIsInside(kind, b, a), ([y, x]) => [x, y] as const)

/** A scan with no findings: the review gate lets an approval through. */
export const CLEAN_REPORT: ScanReport = {
  ok: true,
  findings: [],
  summary: { countsByRule: {}, errors: 0, warnings: 0, packFormat: 2, engineVersion: "4.2.1", entryCount: 1, packBytes: 1024, bytesRead: 1024 },
  files: [],
  manifest: null,
  scannerVersion: "contract-clean",
}
export const scanned = (gameId: string, version: string) => ScanStore.use((s) => s.save({ gameId, version, report: CLEAN_REPORT, scannedAt: AT }))

export const bytesOf = (gameId: string, version: string) => new TextEncoder().encode(`${gameId} ${version} `.repeat(64))
export const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")

/** A game whose releases are finalized with real bytes in the object store; returns its id and owner. */
export const gameWith = (versions: ReadonlyArray<string>, publish: Record<string, "manual"> = {}) =>
  Effect.gen(function*() {
    const game = aGame()
    yield* GameStore.use((g) => g.insert(game, "system"))
    for (const version of versions) yield* submit(game.id, version, publish[version] ?? "on_approval")
    return { gameId: game.id, owner: { userId: game.ownerId, isAdmin: false } satisfies Principal }
  })

export const submit = Effect.fnUntraced(function*(gameId: string, version: string, publishMode: "manual" | "on_approval") {
  const bytes = bytesOf(gameId, version)
  const digest = sha256(bytes)
  const intent = anIntent(gameId, { version, sha256: digest, sizeBytes: bytes.length, objectKey: releaseObjectKey(gameId, version, digest), publishMode })
  yield* ReleaseStore.use((r) => r.recordIntent(intent))
  yield* ObjectStorage.use((s) => s.put(intent.objectKey, new Blob([bytes]).stream(), { maxBytes: bytes.length }))
  return yield* ReleaseStore.use((r) => r.finalize(intent.id, aReleaseFor(intent, { publishMode })))
})

export const approve = (gameId: string, version: string) =>
  ReleaseStore.use((r) => r.lifecycle(gameId, { type: "approve", version, by: "admin", at: AT, actor: "user:admin" }))

export const releaseOf = (gameId: string, version: string) => Effect.map(ReleaseStore.use((r) => r.get(gameId, version)), Option.getOrThrow)
export const activeOf = (gameId: string) => ReleaseStore.use((r) => r.activeVersion(gameId))
export const has = (key: string) => Effect.map(ObjectStorage.use((s) => s.head(key)), Option.isSome)

/** Where the release's bytes are: at its own key while not taken down, only in quarantine while taken down. */
export const assertStoredWhereItsStatusSays = Effect.fnUntraced(function*(release: Release) {
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

export const assertAllStoredRight = (gameId: string) =>
  Effect.flatMap(ReleaseStore.use((r) => r.listByGame(gameId)), (releases) => Effect.forEach(releases, assertStoredWhereItsStatusSays, { discard: true }))

/** The HTTP error code an exit failed with (the error table's tags), or "ok". */
export const outcomeOf = (exit: Exit.Exit<unknown, { readonly _tag: string }>) =>
  Exit.isSuccess(exit) ? "ok" : Exit.findErrorOption(exit).pipe(Option.map((e) => e._tag), Option.getOrElse(() => "defect"))

export const both = <A, B, E1, E2, R1, R2>(a: Effect.Effect<A, E1, R1>, b: Effect.Effect<B, E2, R2>) =>
  Effect.all([Effect.exit(a), Effect.exit(b)], { concurrency: 2 })


export type UseCaseServices = Stores | ObjectStorage | Clock | Ids | StorageHolds | StoreFaults

/** Waits, polling every few milliseconds, until `done` says so (a state another fiber reaches; never a guessed time). */
export const until = (done: () => boolean) =>
  Effect.gen(function*() {
    while (!done()) yield* Effect.sleep("5 millis")
  })
