import { Schema } from "effect"
import { GameIdParam } from "../game/GamePath.ts"
import type { Finding } from "../scan/Finding.ts"
import { RULE } from "../scan/RuleId.ts"
import type { ScanReport } from "../scan/ScanReport.ts"
import { ReasonText } from "../text/UserText.ts"

// The review gate's rules as data (issue 15): what counts as an error, what an override looks like, how long a claim
// lasts. Pure: the use cases in Review.ts and Claims.ts apply them.

/** How long a claim holds a release for one reviewer; the holder may renew it. */
export const CLAIM_MINUTES = 30

/** A scan that could not read the pack never passes as clean: these findings count as errors whatever their severity. */
export const UNREADABLE_PACK_RULES: ReadonlySet<string> = new Set([RULE.notAPack, RULE.truncated, RULE.unreadableResource])

export const countsAsError = (finding: Finding): boolean => finding.severity === "error" || UNREADABLE_PACK_RULES.has(finding.rule)

/** A scan's counts as the gate and the queue see them, and the capabilities it found. */
export interface ScanCounts {
  readonly errors: number
  readonly warnings: number
  readonly capabilities: ReadonlyArray<string>
}

export const scanCounts = (report: ScanReport): ScanCounts => {
  const errors = report.findings.filter(countsAsError).length
  return {
    errors,
    warnings: report.findings.length - errors,
    capabilities: Object.keys(report.capabilities ?? {}).sort(),
  }
}

/** Error findings nobody accepted. A finding without a fingerprint (an older report) cannot be accepted. */
export const unresolvedErrors = (report: ScanReport, accepted: ReadonlySet<string>): number =>
  report.findings.filter((f) => countsAsError(f) && (f.fingerprint === undefined || !accepted.has(f.fingerprint))).length

/** `scan` in approval responses and release details (owners and administrators only). */
export type ScanState =
  | { readonly status: "pending"; readonly errors: null; readonly warnings: null }
  | { readonly status: "scanned"; readonly errors: number; readonly warnings: number }

export const pendingScan: ScanState = { status: "pending", errors: null, warnings: null }

export const scannedState = (counts: { readonly errors: number; readonly warnings: number }): ScanState => ({
  status: "scanned",
  errors: counts.errors,
  warnings: counts.warnings,
})

/**
 * The optional body of approve: `{"override": {"reason": "…"}}` lets unresolved error findings pass (never a pending
 * scan). Branded: approveRelease takes only a decoded one (`decodeInput(ApproveBody, json)`, or `ApproveBody.make`).
 */
export const ApproveBody = Schema.Struct({
  override: Schema.optionalKey(Schema.Struct({ reason: ReasonText })),
}).pipe(Schema.brand("ApproveBody"))
export type ApproveBody = typeof ApproveBody.Type

/** Approval without an override. */
export const NO_OVERRIDE: ApproveBody = ApproveBody.make({})

/** The body of accepting a finding; branded, so only a decoded one reaches acceptFinding. */
export const AcceptFindingBody = Schema.Struct({ reason: ReasonText }).pipe(Schema.brand("AcceptFindingBody"))
export type AcceptFindingBody = typeof AcceptFindingBody.Type

/**
 * The path of /api/admin/games/{gameId}/findings/{fingerprint}/accept. The fingerprint is any text here: the use cases
 * answer the game first (404 game_not_found_or_forbidden), then a fingerprint that names no finding (404 not_found).
 */
export const FindingPath = Schema.Struct({ gameId: GameIdParam, fingerprint: Schema.String }).pipe(Schema.brand("FindingPath"))
export type FindingPath = typeof FindingPath.Type

/** Fingerprints as the scanner writes them (adapters/scanner/fingerprint.ts): what a path segment may hold. */
export const FINGERPRINT_PATTERN = /^[A-Za-z0-9_-]{1,128}$/
