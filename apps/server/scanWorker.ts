// Scans releases finalized through the release API, in the background: finalize answers at once and never fails on
// findings (spec §4.4); the report is attached for reviewers and the creator. The queue is "releases without a scan"
// in the database, so a scan interrupted by a restart runs again, and several instances can share the work (a release
// scanned twice just gets the same report).
import { Cause, Effect, Fiber } from "effect"
import type { LogEntry } from "../../adapters/http/App.ts"
import { makeScanRetries, scanKey, scanUnscannedReleases } from "../../domain/scan/ScanReleases.ts"
import type { Clock } from "../../ports/Clock.ts"
import type { ObjectStorage } from "../../ports/ObjectStorage.ts"
import type { PackScanner } from "../../ports/PackScanner.ts"
import type { ScanStore } from "../../ports/ScanStore.ts"

interface Forker {
  runFork<A, E>(effect: Effect.Effect<A, E, ScanStore | PackScanner | ObjectStorage | Clock>): Fiber.Fiber<A, E>
}

const MAX_RETRY_DELAY_MS = 60 * 60 * 1000

/** Starts the periodic scan; the returned function stops it (call it before disposing the runtime). */
export const startScanWorker = (runtime: Forker, log: (entry: LogEntry) => void, intervalMs: number): (() => Promise<void>) => {
  // A release whose bytes cannot be read is tried again later (doubling up to an hour), never ahead of the others.
  const retries = makeScanRetries(intervalMs, MAX_RETRY_DELAY_MS)
  const pass = Effect.suspend(() => scanUnscannedReleases({ deferred: retries.deferred(Date.now()) })).pipe(
    Effect.tap((outcome) =>
      Effect.sync(() => {
        const delays = retries.record(outcome, Date.now())
        for (const s of outcome.scanned) log({ level: "info", msg: "release scanned", gameId: s.gameId, version: s.version, ok: s.ok })
        for (const f of outcome.failed) {
          const retryInSeconds = Math.round((delays.get(scanKey(f)) ?? intervalMs) / 1000)
          log({ level: "warn", msg: "release scan failed, will retry", gameId: f.gameId, version: f.version, reason: f.reason, retryInSeconds })
        }
      })
    ),
    Effect.catchCause((cause) => Effect.sync(() => log({ level: "warn", msg: "scan pass failed", cause: Cause.pretty(cause) }))),
  )
  const fiber = runtime.runFork(Effect.forever(Effect.andThen(pass, Effect.sleep(intervalMs))))
  return async () => {
    await Effect.runPromise(Fiber.interrupt(fiber))
  }
}
