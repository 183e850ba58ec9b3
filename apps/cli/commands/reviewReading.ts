// `review show` and `review diff`: what a reviewer reads in a terminal (issue 15) — the scan summary and every finding,
// the capabilities added and the files changed against the active release, and unified diffs.
import { Schema } from "effect"
import { ReleaseDiff } from "../../../adapters/http/openapi/reviewFileSchemas.ts"
import { ReleaseDetail, ReleaseScan } from "../../../adapters/http/openapi/schemas.ts"
import type { makeClient } from "../client.ts"
import type { CliIo } from "../io.ts"
import type { CommandResult } from "../run.ts"

type Client = ReturnType<typeof makeClient>

const releasePath = (gameId: string, version: string) => `/${encodeURIComponent(gameId)}/releases/${encodeURIComponent(version)}`

/** An acceptance as findings carry it once the gate's accepted findings exist (issue 15, the other half). */
const Accepted = Schema.Struct({ by: Schema.String, reason: Schema.String })
const acceptedOf = (finding: unknown): typeof Accepted.Type | null => {
  const value = typeof finding === "object" && finding !== null && "accepted" in finding ? finding.accepted : undefined
  const decoded = Schema.decodeUnknownOption(Accepted)(value)
  return decoded._tag === "Some" ? decoded.value : null
}

const diffPath = (gameId: string, version: string, against: string | undefined) =>
  `/api/admin/games${releasePath(gameId, version)}/diff${against === undefined ? "" : `?against=${encodeURIComponent(against)}`}`

export const showRelease = async (client: Client, io: CliIo, gameId: string, version: string, json: boolean): Promise<CommandResult> => {
  const release = await client.call("GET", `/api/games${releasePath(gameId, version)}`, ReleaseDetail)
  const scan = await client.call("GET", `/api/games${releasePath(gameId, version)}/scan`, ReleaseScan)
  const diff = await client.call("GET", diffPath(gameId, version, undefined), ReleaseDiff)
  const changes = diff.files.map((f) => ({ path: f.path, change: f.change, kind: f.kind }))
  if (json) return { ...release, scan, capabilitiesAdded: diff.capabilities.added, against: diff.against, changes }
  const status = "status" in release ? `${release.status}, ` : ""
  io.stdout(`${gameId} ${release.version}: ${status}${release.sizeBytes} bytes, sha256 ${release.sha256}\n`)
  if (scan.status === "pending") io.stdout("scan: pending (the background scan has not run yet)\n")
  else {
    const { summary, findings } = scan.report
    io.stdout(`scan: ${summary.errors} errors, ${summary.warnings} warnings, ${summary.entryCount} files (scanner ${scan.report.scannerVersion})\n`)
    for (const f of findings) {
      const accepted = acceptedOf(f)
      const where = f.line === null ? f.file : `${f.file}:${f.line}`
      io.stdout(`  ${where} ${f.rule} ${f.message}${accepted === null ? "" : ` [accepted by ${accepted.by}: ${accepted.reason}]`}\n`)
    }
  }
  const since = diff.against === null ? "(no active release)" : `since ${diff.against}`
  io.stdout(`capabilities added ${since}: ${diff.capabilities.added.length === 0 ? "none" : diff.capabilities.added.join(", ")}\n`)
  io.stdout(`files changed ${since}: ${changes.length}\n`)
  for (const c of changes) io.stdout(`  ${c.change.padEnd(8)} ${c.path}\n`)
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
    if (f.unified === undefined) io.stdout(`${f.kind} file ${f.path} ${f.change}\n`)
    else io.stdout(`${f.unified}${f.unified.endsWith("\n") ? "" : "\n"}${f.truncated === true ? `(diff of ${f.path} cut at 256 KiB)\n` : ""}`)
  }
  return null
}
