// A takedown or a reinstate moves its objects first (so that URLs issued for a release taken down fail at once), then
// has the store record the step. When that fails, what happened to the record decides where the objects go: a step
// the store did not write has its moves undone, one it wrote keeps them. A failure of the store step does not always
// say which: the database may have committed before the answer was lost (a timeout that fires while COMMIT is in
// flight, a connection that drops after COMMIT was sent). Then the record is read again.
import { Effect, Exit, Option } from "effect"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import type { StoredBytesCheck } from "../errors.ts"
import type { ReleaseStatus } from "./Release.ts"
import { type ReleaseMove, undoMoves } from "./StoredBytes.ts"

/** What a step that moves objects changes, so that its moves can be settled when it fails. */
export interface MovingStep {
  readonly operation: Extract<StoredBytesCheck, "take_down" | "reinstate">
  /** The status the step moves its releases out of: a release still in it was not changed by the step. */
  readonly statusBefore: ReleaseStatus
}

/**
 * The store wrote nothing, and said so: a refusal (its compare-and-set found another status, or a claim) is definite.
 * A lost lease (LifecycleLeaseLost) wrote nothing either, but another request may hold the lease and have changed the
 * records since: it is settled as an unknown outcome, by what the records say now.
 */
const definitelyNotWritten = (exit: Exit.Exit<unknown, unknown>) =>
  Option.match(Exit.findErrorOption(exit), {
    onNone: () => false,
    onSome: (error) => (error as { readonly _tag?: unknown })._tag === "LifecycleRefused" || (error as { readonly _tag?: unknown })._tag === "Claimed",
  })

/**
 * After a store step whose outcome is unknown: each release is read again, and its move is undone only while the record
 * still shows `statusBefore` (the step was not written). A record that cannot be read leaves the object on the side
 * where nothing is served that the record may not allow: a takedown's stays in quarantine (a later takedown of the
 * release finds it there and finishes), a reinstate's goes back to quarantine.
 */
const settleUnknownOutcome = (moved: ReadonlyArray<ReleaseMove>, step: MovingStep) =>
  Effect.forEach(moved, (move) =>
    Effect.exit(ReleaseStore.use((r) => r.get(move.release.gameId, move.release.version))).pipe(
      Effect.flatMap((read) => {
        const status = Exit.isSuccess(read) ? Option.getOrNull(read.value)?.status ?? null : null
        if (status !== null) return status === step.statusBefore ? undoMoves([move], step.operation) : Effect.void
        return Effect.logWarning("lifecycle step outcome unknown and its record unreadable: the object is left in quarantine").pipe(
          Effect.annotateLogs({ gameId: move.release.gameId, version: move.release.version, operation: step.operation }),
          Effect.andThen(step.operation === "reinstate" ? undoMoves([move], step.operation) : Effect.void),
        )
      }),
    ), { discard: true })

/**
 * Runs `move`, which appends each move it made to the array it is given, then `record`, the store step. When either
 * fails (or is interrupted), the moves are settled: undone at once when the failure came before `record` or was the
 * store's refusal; otherwise as the record reads now (settleUnknownOutcome). Callers hold the game's lifecycle lease.
 */
export const movesThenRecord = <A, E1, R1, E2, R2>(
  step: MovingStep,
  move: (moved: Array<ReleaseMove>) => Effect.Effect<void, E1, R1>,
  record: Effect.Effect<A, E2, R2>,
) =>
  Effect.suspend(() => {
    const moved: Array<ReleaseMove> = []
    let recording = false
    return Effect.gen(function*() {
      yield* move(moved)
      recording = true
      return yield* record
    }).pipe(
      Effect.onExit((exit) => {
        if (Exit.isSuccess(exit)) return Effect.void
        return !recording || definitelyNotWritten(exit) ? undoMoves(moved, step.operation) : settleUnknownOutcome(moved, step)
      }),
    )
  })
