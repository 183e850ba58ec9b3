// Scans releases finalized through the release API, in the background: finalize answers at once and never fails on
// findings (spec §4.4); the report is attached for reviewers and the creator. The queue is "releases without a scan"
// in the database, so a scan interrupted by a restart runs again, and several instances can share the work (a release
// scanned twice just gets the same report). A scoped layer: started and interrupted with the server's layer graph.
import { Cause, Effect, Layer, Option } from "effect"
import { logged } from "../../adapters/observability/logged.ts"
import { ScanWake } from "../../ports/ScanWake.ts"
import { makeScanRetries, scanKey, scanUnscannedReleases } from "../../domain/scan/ScanReleases.ts"

const MAX_RETRY_DELAY_MS = 60 * 60 * 1000

export const layerScanWorker = (intervalMs: number) =>
  Layer.effectDiscard(Effect.suspend(() => {
    // A release whose bytes cannot be read is tried again later (doubling up to an hour), never ahead of the others.
    const retries = makeScanRetries(intervalMs, MAX_RETRY_DELAY_MS)
    const pass = Effect.suspend(() => scanUnscannedReleases({ deferred: retries.deferred(Date.now()) })).pipe(
      Effect.tap((outcome) =>
        Effect.gen(function*() {
          const delays = retries.record(outcome, Date.now())
          for (const s of outcome.scanned) yield* logged("info", "release scanned", { gameId: s.gameId, version: s.version, ok: s.ok })
          for (const f of outcome.failed) {
            const retryInSeconds = Math.round((delays.get(scanKey(f)) ?? intervalMs) / 1000)
            yield* logged("warn", "release scan failed, will retry", { gameId: f.gameId, version: f.version, reason: f.reason, retryInSeconds })
          }
        })
      ),
      Effect.catchCause((cause) => logged("warn", "scan pass failed", { cause: Cause.pretty(cause) })),
    )
    return Effect.gen(function*() {
      // A finalize on this instance wakes the worker at once; releases of other instances come with the timer.
      const wake = yield* Effect.serviceOption(ScanWake)
      const idle = Option.isSome(wake) ? Effect.race(Effect.sleep(intervalMs), wake.value.waitForWake) : Effect.sleep(intervalMs)
      return yield* Effect.forkScoped(Effect.forever(Effect.andThen(pass, idle)))
    })
  }))
