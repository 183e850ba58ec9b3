import { Effect } from "effect"
import { Clock } from "../../ports/Clock.ts"
import { PackScanner } from "../../ports/PackScanner.ts"
import { ScanStore } from "../../ports/ScanStore.ts"
import type { Release } from "../release/Release.ts"
import { releaseByteSource } from "./storageByteSource.ts"

export interface ScanPass {
  readonly scanned: ReadonlyArray<{ readonly gameId: string; readonly version: string; readonly ok: boolean }>
  readonly failed: ReadonlyArray<{ readonly gameId: string; readonly version: string; readonly reason: string }>
}

const scanOne = Effect.fnUntraced(function*(release: Release) {
  // A taken-down release (a rescan an administrator asked for) is read at its quarantine key.
  const source = yield* releaseByteSource(release)
  const report = yield* PackScanner.use((s) => s.scan(source, { path: "release_api", declaredVersion: release.version }))
  const scannedAt = yield* Clock.use((c) => c.now)
  yield* ScanStore.use((s) => s.save({ gameId: release.gameId, version: release.version, report, scannedAt }))
  return report.ok
})

/** How a pass names a release among those it leaves for later. */
export const scanKey = (release: { readonly gameId: string; readonly version: string }) => `${release.gameId}\n${release.version}`

export interface ScanPassOptions {
  /** Releases scanned per pass, at most. */
  readonly limit?: number
  /** Releases not to try in this pass (their last attempts failed; see makeScanRetries), by scanKey. */
  readonly deferred?: ReadonlySet<string>
}

/**
 * Scans releases that have no scan yet (those finalized through the release API). Findings never fail a release: they
 * are attached for reviewers and the creator. The queue is the store itself, so an interrupted pass is picked up by the
 * next one; a release whose bytes cannot be read now stays queued, and the caller defers it so it never holds up the
 * releases behind it.
 */
export const scanUnscannedReleases = Effect.fn("scanUnscannedReleases")(function*(options: ScanPassOptions = {}) {
  const limit = options.limit ?? 20
  const deferred = options.deferred ?? new Set<string>()
  const queued = yield* ScanStore.use((s) => s.unscanned(limit + deferred.size))
  const pending = queued.filter((release) => !deferred.has(scanKey(release))).slice(0, limit)
  const scanned: Array<ScanPass["scanned"][number]> = []
  const failed: Array<ScanPass["failed"][number]> = []
  for (const release of pending) {
    const outcome = yield* Effect.result(scanOne(release))
    if (outcome._tag === "Success") scanned.push({ gameId: release.gameId, version: release.version, ok: outcome.success })
    else failed.push({ gameId: release.gameId, version: release.version, reason: outcome.failure.reason })
  }
  return { scanned, failed } satisfies ScanPass
})

/**
 * When to try again a release whose scan failed: after `firstDelayMs`, doubling with each failure up to `maxDelayMs`.
 * The caller keeps one per scan worker and passes the clock's milliseconds in.
 */
export const makeScanRetries = (firstDelayMs: number, maxDelayMs: number) => {
  const failures = new Map<string, { readonly attempts: number; readonly retryAt: number }>()
  return {
    /** The releases a pass at `nowMs` should leave alone. */
    deferred: (nowMs: number): ReadonlySet<string> =>
      new Set([...failures].filter(([, failure]) => failure.retryAt > nowMs).map(([key]) => key)),
    /** Records a pass's outcome; returns, for each failed release, how long until it is tried again. */
    record: (pass: ScanPass, nowMs: number): ReadonlyMap<string, number> => {
      for (const release of pass.scanned) failures.delete(scanKey(release))
      const delays = new Map<string, number>()
      for (const release of pass.failed) {
        const key = scanKey(release)
        const attempts = (failures.get(key)?.attempts ?? 0) + 1
        const delay = Math.min(maxDelayMs, firstDelayMs * 2 ** (attempts - 1))
        failures.set(key, { attempts, retryAt: nowMs + delay })
        delays.set(key, delay)
      }
      return delays
    },
  }
}
