import type { Finding } from "../../../domain/scan/Finding.ts"
import { RULE } from "../../../domain/scan/RuleId.ts"
import type { CapabilityUse } from "../../../domain/scan/ScanReport.ts"
import { FILESYSTEM_SETTINGS } from "./projectSettingsCheck.ts"
import type { CapabilityRecord } from "./ScanState.ts"

// The report's capability summary: for each capability of the fixed vocabulary
// (domain/scan/ScanReport.ts CAPABILITIES, docs/scanner.md#capabilities), every place the pack uses
// it: the findings of the code analysis, file-level findings that imply one, and allowed uses of
// sensitive APIs. Sorted like findings, so reports of two versions compare line by line.

/** Places listed per capability; the count beyond is not kept (the findings still are). */
export const CAPABILITY_USES_LIMIT = 500

/** File-level findings (no policy pattern behind them) and the capability they stand for. */
const fromFinding = (f: Finding): CapabilityRecord | null => {
  const capability =
    f.rule === RULE.nativeCode || f.rule === RULE.embeddedInExecutable
      ? "native-code"
      : f.rule === RULE.hostilePath && FILESYSTEM_SETTINGS.has(f.pattern.replace(/^project setting /, ""))
        ? "filesystem-outside-sandbox"
      : f.rule === RULE.hostilePath && (f.pattern.endsWith(" target") || f.pattern.startsWith("project setting "))
        ? "runtime-code-loading"
        : f.rule === RULE.bannedApi && f.line === null && f.message.startsWith("Node ")
          ? "network"
          : null
  return capability === null ? null : { capability, file: f.file, line: f.line, column: f.column, api: f.pattern, verdict: f.severity }
}

export const capabilitySummary = (findings: ReadonlyArray<Finding>, records: ReadonlyArray<CapabilityRecord>): Record<string, ReadonlyArray<CapabilityUse>> => {
  const all = [...records, ...findings.map(fromFinding).filter((r): r is CapabilityRecord => r !== null)]
  const byCapability = new Map<string, Map<string, CapabilityUse>>()
  for (const r of all) {
    const uses = byCapability.get(r.capability) ?? new Map<string, CapabilityUse>()
    byCapability.set(r.capability, uses)
    const use: CapabilityUse = { file: r.file, line: r.line, column: r.column, api: r.api, verdict: r.verdict, ...(r.embeddedIn === undefined ? {} : { embeddedIn: r.embeddedIn }) }
    const key = JSON.stringify([use.file, use.embeddedIn?.subResource ?? "", use.line, use.column, use.api])
    const known = uses.get(key)
    // The same place seen as an allowed use and as a finding is the finding.
    if (known === undefined || (known.verdict === "allowed" && use.verdict !== "allowed") || (known.verdict === "warning" && use.verdict === "error")) uses.set(key, use)
  }
  const summary: Record<string, ReadonlyArray<CapabilityUse>> = {}
  for (const capability of [...byCapability.keys()].sort()) {
    const uses = [...(byCapability.get(capability)?.values() ?? [])].sort(compareUses)
    summary[capability] = uses.slice(0, CAPABILITY_USES_LIMIT)
  }
  return summary
}

const text = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)
const compareUses = (a: CapabilityUse, b: CapabilityUse): number =>
  text(a.file, b.file) || text(a.embeddedIn?.subResource ?? "", b.embeddedIn?.subResource ?? "") || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0) || text(a.api, b.api)
