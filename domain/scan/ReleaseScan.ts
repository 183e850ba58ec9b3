import { Effect, Option } from "effect"
import { ReviewGateStore } from "../../ports/ReviewGateStore.ts"
import { ScanStore } from "../../ports/ScanStore.ts"
import { type Principal, seesAllReleases } from "../auth/Principal.ts"
import { NotFound } from "../errors.ts"
import { visibleRelease } from "../release/DownloadUrl.ts"

/**
 * GET /api/games/{gameId}/releases/{version}/scan: the scanner's report on a release, for its owner and reviewers
 * (others get 404, like any release they may not see). `pending` until the background scan has run.
 */
export const releaseScan = Effect.fn("releaseScan")(function*(principal: Principal, gameId: string, version: string) {
  const { game } = yield* visibleRelease(principal, gameId, version)
  if (!seesAllReleases(principal, game.ownerId)) return yield* new NotFound({ what: "release" })
  const record = Option.getOrNull(yield* ScanStore.use((s) => s.get(gameId, version)))
  if (record === null) return { gameId, version, status: "pending" as const }
  // Accepted findings stay listed, each with who accepted it and why (issue 15).
  const accepted = new Map((yield* ReviewGateStore.use((g) => g.acceptances(gameId))).map((a) => [a.fingerprint, a]))
  const findings = record.report.findings.map((finding) => {
    const acceptance = finding.fingerprint === undefined ? undefined : accepted.get(finding.fingerprint)
    return acceptance === undefined ? finding : { ...finding, accepted: { by: acceptance.by, at: acceptance.at, reason: acceptance.reason } }
  })
  return { gameId, version, status: "scanned" as const, scannedAt: record.scannedAt, report: { ...record.report, findings } }
})
