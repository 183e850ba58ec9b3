// `review show` and `review diff`: what a reviewer reads in a terminal (issue 15) — the scan summary and every finding,
// the capabilities added and the files changed against the active release, and unified diffs.
import { ReleaseDiff } from "../../../adapters/http/openapi/reviewFileSchemas.ts"
import { ReleaseDetail, ReleaseScan } from "../../../adapters/http/openapi/schemas.ts"
import { scanCounts, unresolvedErrors } from "../../../domain/review/ReviewGate.ts"
import type { makeClient } from "../client.ts"
import { findingLine } from "../findingLine.ts"
import { terminalText } from "../terminalText.ts"
import type { CliIo } from "../io.ts"
import type { CommandResult } from "../run.ts"

type Client = ReturnType<typeof makeClient>

const releasePath = (gameId: string, version: string) => `/${encodeURIComponent(gameId)}/releases/${encodeURIComponent(version)}`

const counted = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`

type ScannedReport = Extract<typeof ReleaseScan.Type, { status: "scanned" }>["report"]

/** The scan as the gate counts it: error findings (an unreadable pack counts as errors), those still unresolved after acceptances, warnings. */
const gateCounts = (report: ScannedReport) => {
  const { errors, warnings } = scanCounts(report)
  const accepted = new Set(report.findings.flatMap((f) => (f.accepted != null && f.fingerprint !== undefined ? [f.fingerprint] : [])))
  return { errors, unresolvedErrors: unresolvedErrors(report, accepted), warnings }
}

/** The gate's counts, and the scanner's own summary when it counts otherwise. */
const scanLine = (report: ScannedReport) => {
  const gate = gateCounts(report)
  const { errors, warnings, entryCount } = report.summary
  const scanner = errors === gate.errors && warnings === gate.warnings ? "" : `; the scanner's summary: ${counted(errors, "error")}, ${counted(warnings, "warning")}`
  return `scan: ${counted(gate.errors, "error")} (${gate.unresolvedErrors} unresolved, ${gate.errors - gate.unresolvedErrors} accepted), ${
    counted(gate.warnings, "warning")
  }, ${counted(entryCount, "file")} (scanner ${report.scannerVersion}${scanner})`
}

const diffPath = (gameId: string, version: string, against: string | undefined) =>
  `/api/admin/games${releasePath(gameId, version)}/diff${against === undefined ? "" : `?against=${encodeURIComponent(against)}`}`

export const showRelease = async (client: Client, io: CliIo, gameId: string, version: string, json: boolean): Promise<CommandResult> => {
  const release = await client.call("GET", `/api/games${releasePath(gameId, version)}`, ReleaseDetail)
  const scan = await client.call("GET", `/api/games${releasePath(gameId, version)}/scan`, ReleaseScan)
  const diff = await client.call("GET", diffPath(gameId, version, undefined), ReleaseDiff)
  const changes = diff.files.map((f) => ({ path: f.path, change: f.change, kind: f.kind }))
  const gate = scan.status === "scanned" ? gateCounts(scan.report) : null
  if (json) return { ...release, scan, gate, capabilitiesAdded: diff.capabilities.added, against: diff.against, changes }
  const status = "status" in release ? `${release.status}, ` : ""
  io.stdout(`${gameId} ${release.version}: ${status}${release.sizeBytes} bytes, sha256 ${release.sha256}\n`)
  if (scan.status === "pending") io.stdout("scan: pending (the background scan has not run yet)\n")
  else {
    io.stdout(`${scanLine(scan.report)}\n`)
    for (const f of scan.report.findings) {
      io.stdout(`  ${findingLine(f)}${f.accepted == null ? "" : ` [accepted by ${f.accepted.by}: ${f.accepted.reason}]`}\n`)
    }
  }
  const since = diff.against === null ? "(no active release)" : `since ${diff.against}`
  io.stdout(`capabilities added ${since}: ${diff.capabilities.added.length === 0 ? "none" : diff.capabilities.added.join(", ")}\n`)
  io.stdout(`files changed ${since}: ${changes.length}\n`)
  for (const c of changes) io.stdout(`  ${c.change.padEnd(8)} ${terminalText(c.path)}\n`)
  return null
}

export const diffReleaseCommand = async (
  client: Client,
  io: CliIo,
  gameId: string,
  version: string,
  against: string | undefined,
  json: boolean,
): Promise<CommandResult> => {
  const diff = await client.call("GET", diffPath(gameId, version, against), ReleaseDiff)
  if (json) return diff
  if (diff.files.length === 0) io.stdout(`no files differ from ${diff.against ?? "an empty pack"}\n`)
  for (const f of diff.files) {
    if (f.unified === undefined) io.stdout(`${f.kind} file ${terminalText(f.path)} ${f.change}\n`)
    else io.stdout(`${terminalText(f.unified)}${f.unified.endsWith("\n") ? "" : "\n"}${f.truncated === true ? `(diff of ${terminalText(f.path)} cut at 256 KiB)\n` : ""}`)
  }
  return null
}
