// The game's lifecycle lease through the use cases (domain/release/LifecycleLease.ts) on a store: a step whose lease
// was taken over is refused by the store (fencing) and its moves settled; a request waits for another's lease by the
// Clock, not by counting its own sleeps, and stops waiting when interrupted; a step that runs long keeps its lease
// (the heartbeat), shown on effect's TestClock, which moves the lease's time and the heartbeat's sleeps together.
import { assert, layer } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, type Layer, Queue } from "effect"
import { TestClock } from "effect/testing"
import { ManualClock } from "../../adapters/memory/MemoryClock.ts"
import { reinstateRelease, TakedownBody, takeDownRelease } from "../../domain/release/Lifecycle.ts"
import { LEASE_WAIT_MILLIS } from "../../domain/release/LifecycleLease.ts"
import { approveRelease } from "../../domain/review/Review.ts"
import { Clock } from "../../ports/Clock.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { Timeline } from "../../ports/Timeline.ts"
import {
  admin,
  approve,
  assertAllStoredRight,
  AT,
  gameWith,
  outcomeOf,
  releaseOf,
  scanned,
  secondWhileFirstIsInside,
  StorageHolds,
  type Stores,
  StoreFaults,
  until,
  withUseCaseServices,
  withUseCaseServicesOnTestClock,
} from "../support/lifecycleUseCases.ts"

const reason = TakedownBody.make({ reason: "malware" })
const later = (from: Date, seconds: number) => new Date(from.getTime() + seconds * 1000)

/** A game with 1.0.0 and 2.0.0 approved (2.0.0 active). */
const twoApproved = Effect.gen(function*() {
  const { gameId } = yield* gameWith(["1.0.0", "2.0.0"])
  for (const v of ["1.0.0", "2.0.0"]) yield* approve(gameId, v)
  return gameId
})

const takenDownEvents = (gameId: string) =>
  Effect.map(Timeline.use((t) => t.list(gameId, 0, 100)), (events) => events.filter((e) => e.kind === "taken_down" || e.kind === "reinstated").length)

/** A takedown of 2.0.0, forked while "other" holds the game's lease (for an hour by the Clock), once it has asked for it. */
const takedownWaitingForLease = (gameId: string) =>
  Effect.gen(function*() {
    const clock = yield* ManualClock
    const { leaseTakes } = yield* StoreFaults
    assert.isTrue(yield* ReleaseStore.use((store) => store.takeLifecycleLease(gameId, "other", clock.current(), later(clock.current(), 3600))))
    const attempts = () => leaseTakes.filter((t) => t.holder !== "other").length
    const before = attempts()
    const waiting = yield* Effect.forkChild(takeDownRelease(admin, gameId, "2.0.0", reason))
    yield* until(() => attempts() > before)
    return { waiting, attempts, clock }
  })

/** 2.0.0 is still approved, at its key; the lease goes back to nobody. */
const nothingChanged = (gameId: string) =>
  Effect.gen(function*() {
    assert.strictEqual((yield* releaseOf(gameId, "2.0.0")).status, "approved")
    yield* assertAllStoredRight(gameId)
    yield* ReleaseStore.use((store) => store.dropLifecycleLease(gameId, "other"))
  })

export const lifecycleLeaseContract = <E>(name: string, makeLayer: () => Layer.Layer<Stores, E>) => {
  // Live services with a manual Clock port: polls and moves sleep for real, the lease's time moves only when told.
  layer(withUseCaseServices(makeLayer()), { timeout: 120_000, excludeTestServices: true })(`Lifecycle lease: ${name}`, (it) => {
    it.effect("a step whose lease was taken over (it ran out) is refused by the store: 503, nothing recorded, its object back where its record says", () =>
      Effect.gen(function*() {
        const gameId = yield* twoApproved
        const store = yield* ReleaseStore
        const farLater = later(AT, 3600)
        // Another request takes the game's lease over while the takedown is inside its move, as it may once the lease ran out.
        const takeOver = store.takeLifecycleLease(gameId, "other", farLater, later(farLater, 60))
        const [down, tookOver] = yield* secondWhileFirstIsInside("move", takeDownRelease(admin, gameId, "2.0.0", reason), takeOver)
        assert.deepStrictEqual([outcomeOf(down), Exit.isSuccess(tookOver) && tookOver.value], ["Unavailable", true])
        assert.strictEqual((yield* releaseOf(gameId, "2.0.0")).status, "approved")
        assert.strictEqual(yield* takenDownEvents(gameId), 0)
        yield* assertAllStoredRight(gameId)
        yield* store.dropLifecycleLease(gameId, "other")
        // A reinstate the same way: refused, its object back in quarantine.
        yield* takeDownRelease(admin, gameId, "2.0.0", reason)
        const [back] = yield* secondWhileFirstIsInside("move", reinstateRelease(admin, gameId, "2.0.0", reason), takeOver)
        assert.strictEqual(outcomeOf(back), "Unavailable")
        assert.strictEqual((yield* releaseOf(gameId, "2.0.0")).status, "taken_down")
        assert.strictEqual(yield* takenDownEvents(gameId), 1)
        yield* assertAllStoredRight(gameId)
        yield* store.dropLifecycleLease(gameId, "other")
        // An approval the same way: inside its re-verification of the bytes, the lease changes hands; not recorded.
        const { gameId: pendingGame } = yield* gameWith(["1.0.0"])
        yield* scanned(pendingGame, "1.0.0")
        const takeOverPending = store.takeLifecycleLease(pendingGame, "other", farLater, later(farLater, 60))
        const [approval] = yield* secondWhileFirstIsInside("digest", approveRelease(admin, pendingGame, "1.0.0"), takeOverPending)
        assert.strictEqual(outcomeOf(approval), "Unavailable")
        assert.strictEqual((yield* releaseOf(pendingGame, "1.0.0")).status, "pending_review")
        yield* store.dropLifecycleLease(pendingGame, "other")
      }))

    it.effect("a request waits for another's lease by the Clock: once it reads that the wait is over, it gives up at its next poll with 503, nothing changed", () =>
      Effect.gen(function*() {
        const gameId = yield* twoApproved
        const { waiting, attempts, clock } = yield* takedownWaitingForLease(gameId)
        const polledBefore = attempts()
        clock.advance(LEASE_WAIT_MILLIS / 1000)
        assert.strictEqual(outcomeOf(yield* Fiber.await(waiting)), "Unavailable")
        // At most the poll in flight when the Clock moved, then the one that read it; not hundreds of sleeps more.
        assert.isAtMost(attempts() - polledBefore, 2)
        yield* nothingChanged(gameId)
      }))

    it.effect("a request waiting for the lease stops when interrupted (its client went away); the lease stays its holder's", () =>
      Effect.gen(function*() {
        const gameId = yield* twoApproved
        const { waiting, clock } = yield* takedownWaitingForLease(gameId)
        // Bounded only so that a wait that cannot be interrupted fails this test instead of hanging it.
        yield* Fiber.interrupt(waiting).pipe(Effect.timeout("20 seconds"))
        const exit = yield* Fiber.await(waiting)
        assert.isTrue(Exit.isFailure(exit) && Exit.hasInterrupts(exit) && !Exit.hasFails(exit), `interrupted, not failed: ${String(exit)}`)
        const store = yield* ReleaseStore
        assert.isFalse(yield* store.takeLifecycleLease(gameId, "third", clock.current(), later(clock.current(), 60)), "still the holder's")
        yield* nothingChanged(gameId)
      }))
  })

  // TestClock: the Clock port follows effect's clock, so adjusting it moves the lease's time and wakes the heartbeat.
  layer(withUseCaseServicesOnTestClock(makeLayer()), { timeout: 120_000 })(`Lifecycle lease heartbeat: ${name}`, (it) => {
    it.effect("a step that runs long keeps its lease: renewed every 20 s, nobody takes it over, and the step is recorded", () =>
      Effect.gen(function*() {
        yield* TestClock.setTime(AT.getTime())
        const gameId = yield* twoApproved
        const store = yield* ReleaseStore
        const { renewals } = yield* StoreFaults
        const hold = { started: yield* Deferred.make<void>(), release: yield* Deferred.make<void>() }
        ;(yield* StorageHolds).armed.set("move", hold)
        const down = yield* Effect.forkChild(Effect.exit(takeDownRelease(admin, gameId, "2.0.0", reason)))
        yield* Deferred.await(hold.started)
        // Five minutes inside its move: five times the lease's 60 s.
        for (let step = 0; step < 15; step++) {
          yield* TestClock.adjust("20 seconds")
          // Bounded in real time only so that a missing renewal fails this test instead of hanging it.
          assert.isTrue(yield* Queue.take(renewals).pipe(Effect.timeout("20 seconds"), TestClock.withLive), `renewal ${step + 1}`)
        }
        const now = yield* Clock.use((c) => c.now)
        assert.strictEqual(now.getTime(), later(AT, 300).getTime())
        assert.isFalse(yield* store.takeLifecycleLease(gameId, "other", now, later(now, 60)), "still held")
        yield* Deferred.succeed(hold.release, undefined)
        assert.strictEqual(outcomeOf(yield* Fiber.join(down)), "ok")
        assert.strictEqual((yield* releaseOf(gameId, "2.0.0")).status, "taken_down")
        yield* assertAllStoredRight(gameId)
      }))
  })
}
