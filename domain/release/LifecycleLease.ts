// One lifecycle decision at a time per game, across every instance: takedown, reinstate, activate, approve and reject
// hold the game's lease (ports/ReleaseStore.ts takeLifecycleLease) from reading the releases until the store has
// recorded the step and any object moved back. A second request waits for the first to finish and then decides on
// what it left, so two takedowns of one release never both move its object, a request never undoes a move it did not
// make, and a game-wide takedown never misses a release approved while it ran.
import { Duration, Effect } from "effect"
import { Clock } from "../../ports/Clock.ts"
import { Ids } from "../../ports/Ids.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { Unavailable } from "../errors.ts"

/** A holder that stopped (a crashed instance) frees the game after this long. */
export const LEASE_SECONDS = 60
/** How long a request waits for another one's lease, polling every POLL; then 503, nothing changed. */
const WAIT_MILLIS = 10_000
const POLL = Duration.millis(20)

const take = Effect.fnUntraced(function*(gameId: string, holder: string) {
  const store = yield* ReleaseStore
  for (let waited = 0; waited <= WAIT_MILLIS; waited += Duration.toMillis(POLL)) {
    const now = yield* (yield* Clock).now
    if (yield* store.takeLifecycleLease(gameId, holder, now, new Date(now.getTime() + LEASE_SECONDS * 1000))) return
    yield* Effect.sleep(POLL)
  }
  return yield* new Unavailable({ dependency: "database", reason: `game ${gameId}: another lifecycle change holds its lease` })
})

/** Runs `use` while holding `gameId`'s lifecycle lease; gives it back however `use` ends. */
export const withLifecycleLease = <A, E, R>(gameId: string, use: Effect.Effect<A, E, R>) =>
  Effect.flatMap(Ids.use((ids) => ids.next("lease")), (holder) =>
    Effect.acquireUseRelease(
      take(gameId, holder),
      () => use,
      () => ReleaseStore.use((store) => store.dropLifecycleLease(gameId, holder)).pipe(Effect.ignore),
    ))
