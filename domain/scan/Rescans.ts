import { Effect, Option } from "effect"
import { GameViews } from "../../ports/GameViews.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { ScanStore } from "../../ports/ScanStore.ts"
import { type Principal, requireAdmin } from "../auth/Principal.ts"
import { NotFound } from "../errors.ts"
import { ReleasePath } from "../release/ReleasePath.ts"

// Rescans reuse the scan queue, which is "releases without a scan record" in the store: dropping a release's record
// queues it again, durably (a restart, or another instance, picks it up), and the background scan worker writes the
// new report. Until it has, the scan endpoint answers `pending` for that release.

/** The path of POST /api/admin/games/{gameId}/releases/{version}/rescan, as of every release route. */
export { ReleasePath }

/** An administrator asks for a release to be scanned again; anyone else is answered like an unknown route. */
export const requestRescan = Effect.fn("requestRescan")(function*(principal: Principal, path: ReleasePath) {
  yield* requireAdmin(principal)
  const release = yield* ReleaseStore.use((store) => store.get(path.gameId, path.version))
  if (Option.isNone(release)) return yield* new NotFound({ what: "release" })
  yield* ScanStore.use((store) => store.remove(path.gameId, path.version))
  return release.value
})

/**
 * The number in a scanner version such as `pckgate-scanner/2`, or null for any other form. Versions are compared by it
 * only: during a rolling upgrade an instance still on the old scanner must never queue the new reports again.
 */
export const scannerGeneration = (version: string): number | null => {
  const match = /^pckgate-scanner\/(\d+)$/.exec(version)
  return match === null ? null : Number(match[1])
}

/** True when `reportVersion` comes from a scanner older than `current`. */
export const isOlderScanner = (reportVersion: string, current: string): boolean => {
  const [report, now] = [scannerGeneration(reportVersion), scannerGeneration(current)]
  return report !== null && now !== null && report < now
}

/**
 * After a scanner upgrade: queues a rescan of every pending or active release whose report an older scanner wrote.
 * Idempotent and safe on several instances at once; a start-up interrupted midway runs it again.
 */
export const queueOutdatedScans = Effect.fn("queueOutdatedScans")(function*(currentScanner: string) {
  const pending = yield* ReleaseStore.use((store) => store.listPending())
  const active = yield* GameViews.use((views) => views.listActive())
  const seen = new Set<string>()
  const queued: Array<{ readonly gameId: string; readonly version: string; readonly scannerVersion: string }> = []
  for (const release of [...pending, ...active]) {
    const key = `${release.gameId}\n${release.version}`
    if (seen.has(key)) continue
    seen.add(key)
    const record = yield* ScanStore.use((store) => store.get(release.gameId, release.version))
    if (Option.isNone(record) || !isOlderScanner(record.value.report.scannerVersion, currentScanner)) continue
    if (yield* ScanStore.use((store) => store.remove(release.gameId, release.version))) {
      queued.push({ gameId: release.gameId, version: release.version, scannerVersion: record.value.report.scannerVersion })
    }
  }
  return queued
})
