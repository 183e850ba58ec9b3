// The sweeper's periodic run inside the server (`npm run -s cli -- gc` runs it once), as a scoped layer: started with
// the server's layer graph, interrupted when it closes. Every instance may run it: deleting an object twice is
// harmless, and nothing referenced is ever deleted.
import { Cause, Effect, Layer } from "effect"
import { logged } from "../../adapters/observability/logged.ts"
import { sweep } from "../../domain/maintenance/Sweep.ts"

/** First run soon after start-up (not during it), then at this interval. */
const FIRST_RUN_AFTER_MS = 60_000
const INTERVAL_MS = 15 * 60_000

const sweepOnce = sweep().pipe(
  Effect.tap((report) =>
    logged("info", "sweep", {
      expiredIntents: report.expiredIntents,
      deletedObjects: report.deletedObjects.length,
      keptObjects: report.keptObjects,
      abandonedWrites: report.abandonedWrites,
      abandonedBytes: report.abandonedBytes,
    })
  ),
  // A failed sweep (database or storage down) is logged and tried again at the next interval.
  Effect.catchCause((cause) => logged("warn", "sweep failed", { cause: Cause.pretty(cause) })),
)

export const layerSweeper = Layer.effectDiscard(
  Effect.sleep(FIRST_RUN_AFTER_MS).pipe(
    Effect.andThen(Effect.forever(Effect.andThen(sweepOnce, Effect.sleep(INTERVAL_MS)))),
    Effect.forkScoped,
  ),
)
