// One lifecycle decision at a time per game, across every instance: takedown, reinstate, activate, approve and reject
// hold the game's lease (ports/ReleaseStore.ts takeLifecycleLease) from reading the releases until the store has
// recorded the step and any object moved back. A second request waits for the first to finish and then decides on
// what it left, so two takedowns of one release never both move its object, a request never undoes a move it did not
// make, and a game-wide takedown never misses a release approved while it ran.
//
// The lease is kept while the work runs (a heartbeat renews it, so a game-wide takedown moving many objects on a slow
// store outlives LEASE_SECONDS), and it fences the store: a step is recorded only while its holder still holds the
// lease (recordUnderLease), so a holder that lost it (stalled past its lease, and another took over) changes nothing.
import { Duration, Effect } from "effect"
import { Clock } from "../../ports/Clock.ts"
import { Ids } from "../../ports/Ids.ts"
import { type LifecycleLeaseLost, ReleaseStore } from "../../ports/ReleaseStore.ts"
import type { LifecycleStep } from "../review/ReviewMachine.ts"
import { Unavailable } from "../errors.ts"

/** A holder that stopped (a crashed instance) frees the game after this long. */
export const LEASE_SECONDS = 60
/** A holder at work renews its lease this often, well before it runs out. */
const RENEW_EVERY = Duration.seconds(LEASE_SECONDS / 3)
/** How long a request waits for another one's lease, by the Clock, polling every POLL; then 503, nothing changed. */
export const LEASE_WAIT_MILLIS = 10_000
const POLL = Duration.millis(20)

/** The game's lease as its holder knows it: what the store's steps are fenced with. */
export interface HeldLease {
  readonly gameId: string
  readonly holder: string
}

const until = (now: Date) => new Date(now.getTime() + LEASE_SECONDS * 1000)

/** Takes the lease, polling while another request holds it; gives up after LEASE_WAIT_MILLIS on the Clock. */
const take = Effect.fnUntraced(function*({ gameId, holder }: HeldLease) {
  const store = yield* ReleaseStore
  const clock = yield* Clock
  const start = (yield* clock.now).getTime()
  for (;;) {
    const now = yield* clock.now
    if (yield* store.takeLifecycleLease(gameId, holder, now, until(now))) return
    if (now.getTime() - start >= LEASE_WAIT_MILLIS) {
      return yield* new Unavailable({ dependency: "database", reason: `game ${gameId}: another lifecycle change holds its lease` })
    }
    yield* Effect.sleep(POLL)
  }
})

/** Renews the lease every RENEW_EVERY until interrupted; a renewal that fails or finds the lease lost changes nothing here. */
const heartbeat = ({ gameId, holder }: HeldLease) =>
  Effect.gen(function*() {
    yield* Effect.sleep(RENEW_EVERY)
    const now = yield* Clock.use((clock) => clock.now)
    const renewed = yield* ReleaseStore.use((store) => store.renewLifecycleLease(gameId, holder, now, until(now))).pipe(
      Effect.orElseSucceed(() => true),
    )
    // Lost: the store step will be refused (fencing), and the caller settles what it moved.
    if (!renewed) yield* Effect.logWarning("lifecycle lease lost while its step ran").pipe(Effect.annotateLogs({ gameId }))
  }).pipe(Effect.forever)

/**
 * Runs `use` while holding `gameId`'s lifecycle lease, renewed while `use` runs; gives it back however `use` ends.
 * Waiting for the lease and `use` may be interrupted (a client that went away stops waiting); giving it back is not.
 */
export const withLifecycleLease = <A, E, R>(gameId: string, use: (lease: HeldLease) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(Ids.use((ids) => ids.next("lease")), (holder) => {
    const lease: HeldLease = { gameId, holder }
    return Effect.uninterruptibleMask((restore) =>
      restore(Effect.andThen(take(lease), Effect.scoped(Effect.andThen(Effect.forkScoped(heartbeat(lease)), use(lease))))).pipe(
        // Also after an interrupted wait: the holder is this request's own, so giving back a lease it never took is a no-op.
        Effect.ensuring(ReleaseStore.use((store) => store.dropLifecycleLease(gameId, holder)).pipe(Effect.ignore)),
      )
    )
  })

/**
 * Has the store record `step` only while `lease` is still held (fencing); a lease lost meanwhile is 503 Unavailable
 * with nothing recorded, after the caller (MovesThenRecord.ts) has settled what it moved.
 */
export const recordUnderLease = (lease: HeldLease, step: LifecycleStep) =>
  ReleaseStore.use((r) => r.lifecycle(lease.gameId, step, { holder: lease.holder, now: step.at }))

/** LifecycleLeaseLost as the answer (`Effect.catchTag("LifecycleLeaseLost", leaseLost)`): 503, retry; nothing was recorded. */
export const leaseLost = (lost: LifecycleLeaseLost) =>
  Effect.fail(new Unavailable({ dependency: "database", reason: `game ${lost.gameId}: its lifecycle lease ran out before the step was recorded` }))
