import { Effect, Option } from "effect"
import { ScanStore } from "../../ports/ScanStore.ts"
import { type Principal, seesAllReleases } from "../auth/Principal.ts"
import { NotFound } from "../errors.ts"
import { visibleRelease } from "../release/DownloadUrl.ts"
import { attachAcceptances, gameAcceptances } from "../review/Acceptances.ts"

/**
 * GET /api/games/{gameId}/releases/{version}/scan: the scanner's report on a release, for its owner and reviewers
 * (others get 404, like any release they may not see). `pending` until the background scan has run.
 */
export const releaseScan = Effect.fn("releaseScan")(function*(principal: Principal, gameId: string, version: string) {
  const { game } = yield* visibleRelease(principal, gameId, version)
  if (!seesAllReleases(principal, game.ownerId)) return yield* new NotFound({ what: "release" })
  const record = Option.getOrNull(yield* ScanStore.use((s) => s.get(gameId, version)))
  if (record === null) return { gameId, version, status: "pending" as const }
  // Accepted findings stay listed, each with who accepted it and why (issue 15); null on the others, as /file and /diff.
  const findings = attachAcceptances(record.report.findings, yield* gameAcceptances(gameId))
  return { gameId, version, status: "scanned" as const, scannedAt: record.scannedAt, report: { ...record.report, findings } }
})
