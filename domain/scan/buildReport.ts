import type { Manifest } from "../manifest/Manifest.ts"
import type { Finding, Severity } from "./Finding.ts"
import { LISTED_FILES_LIMIT } from "./limits.ts"
import type { PackFile, ScanReport } from "./ScanReport.ts"

// Building a report is pure and effect-free (types only): the reader and the standalone `check`
// process use it without loading effect.

const severityRank = (s: Severity): number => (s === "error" ? 0 : 1)

// Code-unit order, not locale order: the same on every runtime and machine.
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** The one order findings are reported in: by file, sub-resource, position (file-level first), severity, rule, pattern. */
export const compareFindings = (a: Finding, b: Finding): number =>
  compareText(a.file, b.file) ||
  compareText(a.embeddedIn?.subResource ?? "", b.embeddedIn?.subResource ?? "") ||
  (a.line ?? 0) - (b.line ?? 0) ||
  (a.column ?? 0) - (b.column ?? 0) ||
  severityRank(a.severity) - severityRank(b.severity) ||
  compareText(a.rule, b.rule) ||
  compareText(a.pattern, b.pattern) ||
  compareText(a.message, b.message)

export interface ScanFacts {
  readonly packFormat: number | null
  readonly engineVersion: string | null
  readonly entryCount: number
  readonly packBytes: number
  readonly bytesRead: number
}

/** Builds the report: one deterministic order, counts derived from the findings, `ok` from severities. */
export const makeScanReport = (
  findings: ReadonlyArray<Finding>,
  facts: ScanFacts,
  manifest: Manifest | null,
  scannerVersion: string,
  files: ReadonlyArray<PackFile> = [],
): ScanReport => {
  const sorted = [...findings].sort(compareFindings)
  const countsByRule: Record<string, number> = {}
  for (const f of sorted) countsByRule[f.rule] = (countsByRule[f.rule] ?? 0) + 1
  const errors = sorted.filter((f) => f.severity === "error").length
  return {
    ok: errors === 0,
    findings: sorted,
    summary: { countsByRule, errors, warnings: sorted.length - errors, ...facts },
    files: files.slice(0, LISTED_FILES_LIMIT),
    manifest,
    scannerVersion,
  }
}
