import { Effect } from "effect"
import { Clock } from "../../ports/Clock.ts"
import { PackScanner } from "../../ports/PackScanner.ts"
import { ScanStore } from "../../ports/ScanStore.ts"
import type { Release } from "../release/Release.ts"
import { storageByteSource } from "./storageByteSource.ts"

export interface ScanPass {
  readonly scanned: ReadonlyArray<{ readonly gameId: string; readonly version: string; readonly ok: boolean }>
  readonly failed: ReadonlyArray<{ readonly gameId: string; readonly version: string; readonly reason: string }>
}

const scanOne = Effect.fnUntraced(function*(release: Release) {
  const source = yield* storageByteSource(release.objectKey, release.sizeBytes)
  const report = yield* PackScanner.use((s) => s.scan(source, { path: "release_api", declaredVersion: release.version }))
  const scannedAt = yield* Clock.use((c) => c.now)
  yield* ScanStore.use((s) => s.save({ gameId: release.gameId, version: release.version, report, scannedAt }))
  return report.ok
})

/**
 * Scans releases that have no scan yet (those finalized through the release API). Findings never fail a release: they
 * are attached for reviewers and the creator. The queue is the store itself, so an interrupted pass is picked up by the
 * next one; a release whose bytes cannot be read now stays queued.
 */
export const scanUnscannedReleases = Effect.fnUntraced(function*(limit = 20) {
  const pending = yield* ScanStore.use((s) => s.unscanned(limit))
  const scanned: Array<ScanPass["scanned"][number]> = []
  const failed: Array<ScanPass["failed"][number]> = []
  for (const release of pending) {
    const outcome = yield* Effect.result(scanOne(release))
    if (outcome._tag === "Success") scanned.push({ gameId: release.gameId, version: release.version, ok: outcome.success })
    else failed.push({ gameId: release.gameId, version: release.version, reason: outcome.failure.reason })
  }
  return { scanned, failed } satisfies ScanPass
})
