// After a scanner upgrade, reports written by an older scanner are replaced: once per start, shortly after it, every
// pending or active release whose report is older goes back to the scan queue (domain/scan/Rescans.ts), which the scan
// worker drains as usual. The queue is the database, so a start-up interrupted midway, or an instance stopped before
// the rescans ran, leaves them queued for the next.
import { Cause, Effect, Layer, Schedule } from "effect"
import { logged } from "../../adapters/observability/logged.ts"
import { queueOutdatedScans } from "../../domain/scan/Rescans.ts"

export const layerRescanOnUpgrade = (delayMs: number) =>
  Layer.effectDiscard(Effect.forkScoped(
    Effect.gen(function*() {
      // The scanner's modules load on first use (adapters/scanner/lazyLayer.ts); its version comes with them.
      const { SCANNER_VERSION } = yield* Effect.promise(() => import("../../adapters/scanner/scanPack.ts"))
      const queued = yield* queueOutdatedScans(SCANNER_VERSION)
      if (queued.length > 0) {
        yield* logged("info", "releases scanned by an older scanner queued for a rescan", {
          count: queued.length,
          scanner: SCANNER_VERSION,
          from: [...new Set(queued.map((q) => q.scannerVersion))].join(", "),
        })
      }
    }).pipe(
      Effect.tapCause((cause) => logged("warn", "queueing outdated scans failed, will retry", { cause: Cause.pretty(cause) })),
      Effect.retry(Schedule.spaced(delayMs)),
      Effect.delay(delayMs),
      Effect.ignore,
    ),
  ))
