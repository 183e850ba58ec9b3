// The sweeper's periodic run inside the server (`npm run -s cli -- gc` runs it once). Every instance may run it:
// deleting an object twice is harmless, and nothing referenced is ever deleted.
import { Cause, Effect, Fiber } from "effect"
import type { LogEntry } from "../../adapters/http/App.ts"
import { sweep } from "../../domain/maintenance/Sweep.ts"
import type { Clock } from "../../ports/Clock.ts"
import type { ObjectStorage } from "../../ports/ObjectStorage.ts"
import type { ReleaseStore } from "../../ports/ReleaseStore.ts"

/** First run soon after start-up (not during it), then at this interval. */
const FIRST_RUN_AFTER_MS = 60_000
const INTERVAL_MS = 15 * 60_000

interface Forker {
  runFork<A, E>(effect: Effect.Effect<A, E, ReleaseStore | ObjectStorage | Clock>): Fiber.Fiber<A, E>
}

/** Starts the periodic sweep; the returned function stops it (call it before disposing the runtime). */
export const startSweeper = (runtime: Forker, log: (entry: LogEntry) => void): (() => Promise<void>) => {
  const once = sweep().pipe(
    Effect.tap((report) =>
      Effect.sync(() => log({ level: "info", msg: "sweep", expiredIntents: report.expiredIntents, deletedObjects: report.deletedObjects.length, keptObjects: report.keptObjects, abandonedWrites: report.abandonedWrites, abandonedBytes: report.abandonedBytes }))
    ),
    // A failed sweep (database or storage down) is logged and tried again at the next interval.
    Effect.catchCause((cause) => Effect.sync(() => log({ level: "warn", msg: "sweep failed", cause: Cause.pretty(cause) }))),
  )
  const fiber = runtime.runFork(
    Effect.sleep(FIRST_RUN_AFTER_MS).pipe(Effect.andThen(Effect.forever(Effect.andThen(once, Effect.sleep(INTERVAL_MS))))),
  )
  return async () => {
    await Effect.runPromise(Fiber.interrupt(fiber))
  }
}
