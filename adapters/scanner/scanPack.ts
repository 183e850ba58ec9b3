import type { Manifest } from "../../domain/manifest/Manifest.ts"
import type { Finding } from "../../domain/scan/Finding.ts"
import { RULE } from "../../domain/scan/RuleId.ts"
import { makeScanReport } from "../../domain/scan/buildReport.ts"
import { LISTED_FILES_LIMIT } from "../../domain/scan/limits.ts"
import type { ScanReport } from "../../domain/scan/ScanReport.ts"
import type { ByteSource, ScanExpectations } from "../../ports/PackScanner.ts"
import { scanContents } from "./checks/contentScan.ts"
import { checkEntryScene } from "./checks/entrySceneCheck.ts"
import { checkManifest } from "./checks/manifestCheck.ts"
import { nameFindings } from "./checks/nameChecks.ts"
import { ScanState } from "./checks/ScanState.ts"
import { checkSize } from "./checks/sizeCheck.ts"
import type { Decompressors } from "./Decompressors.ts"
import { finding, PACK_ITSELF } from "./findings.ts"
import { withFingerprints } from "./fingerprint.ts"
import { capabilitySummary } from "./checks/capabilities.ts"
import type { CapabilityRecord } from "./checks/ScanState.ts"
import { CountingSource } from "./io/CountingSource.ts"
import { describeError, MalformedData, SourceFailure } from "./io/errors.ts"
import { PackContents } from "./PackContents.ts"
import { openPack } from "./pack/openPack.ts"
import type { Policy } from "./policy/Policy.ts"

/** Bumped whenever a change can alter findings for the same pack. */
export const SCANNER_VERSION = "pckgate-scanner/59"

export interface ScannerConfig {
  readonly policy: Policy
  readonly decompressors: Decompressors
  /** Opt-in: read every entry and compare with the MD5 the directory records (reads the whole pack). */
  readonly verifyChecksums?: boolean
}

/**
 * Scans one pack. Never throws for anything the pack contains; a failing byte source rejects
 * with SourceFailure (the layer turns it into `Unavailable`).
 */
export const scanPack = async (source: ByteSource, expectations: ScanExpectations, config: ScannerConfig): Promise<ScanReport> => {
  const counting = new CountingSource(source)
  const findings: Array<Finding> = [...checkSize(counting.size, expectations)]
  let manifest: Manifest | null = null
  let facts = { packFormat: null as number | null, engineVersion: null as string | null, entryCount: 0 }
  let files: Array<{ path: string; sizeBytes: number }> = []
  const capabilities: Array<CapabilityRecord> = []
  try {
    const opened = await openPack(counting)
    if (opened._tag === "NotAPack") {
      findings.push(
        finding({
          rule: RULE.notAPack,
          file: PACK_ITSELF,
          pattern: "GDPC",
          message: "This is not a Godot pack: there is no GDPC header at its start, in an executable section or in a trailer. Upload the .pck written by --export-pack.",
        }),
      )
    } else if (opened._tag === "Unreadable") {
      findings.push(...opened.findings)
      facts = { packFormat: opened.format, engineVersion: opened.engineVersion, entryCount: opened.entryCount }
    } else {
      findings.push(...opened.findings)
      facts = { packFormat: opened.header.format, engineVersion: opened.header.engineVersion, entryCount: opened.entries.length }
      files = opened.entries.slice(0, LISTED_FILES_LIMIT).map((e) => ({ path: e.path, sizeBytes: e.size }))
      const contents = await PackContents.load(counting, opened.entries, opened.header.format <= 1 ? 3 : 4)
      findings.push(...nameFindings(contents, config.policy))
      const state = new ScanState()
      // The pack format says which engine reads it: Godot 3 reads format 1 only, Godot 4 formats 2 and up.
      await scanContents(contents, config.policy, config.decompressors, state, opened.header.format <= 1 ? 3 : 4)
      findings.push(...state.findings)
      capabilities.push(...state.capabilities)
      // With a directory cut short, "manifest.json is missing" would be a guess; the truncation finding says it all.
      if (opened.complete) {
        const manifestCheck = await checkManifest(contents, expectations)
        findings.push(...manifestCheck.findings)
        manifest = manifestCheck.manifest
        if (manifest !== null) findings.push(...(await checkEntryScene(contents, state, manifest)))
      }
      if (config.verifyChecksums === true) {
        // Loaded on demand: normal scans never need MD5 (and the check process stays smaller).
        const { verifyChecksums } = await import("./checks/checksums.ts")
        findings.push(...(await verifyChecksums(contents)))
      }
    }
  } catch (error) {
    // Anything that escaped a narrower handler still ends as a finding (fail closed), never as a failure;
    // only the byte source failing is the caller's problem.
    if (error instanceof SourceFailure) throw error
    const why = error instanceof MalformedData ? error.message : `internal error: ${describeError(error)}`
    findings.push(finding({ rule: RULE.truncated, file: PACK_ITSELF, pattern: "damaged pack", message: `The pack could not be read to the end (${why}). Export it again.` }))
  }
  const unique = withoutDuplicates(findings)
  const report = makeScanReport(unique, { ...facts, packBytes: counting.size, bytesRead: counting.bytesRead }, manifest, SCANNER_VERSION, files)
  return { ...report, findings: withFingerprints(report.findings), capabilities: capabilitySummary(unique, capabilities) }
}

/** The same finding reached twice (a file seen under two names, a chain visited twice) is reported once. */
const withoutDuplicates = (findings: ReadonlyArray<Finding>): ReadonlyArray<Finding> => {
  const seen = new Set<string>()
  return findings.filter((f) => {
    const key = JSON.stringify([f.rule, f.file, f.line, f.column, f.pattern, f.message, f.embeddedIn?.subResource])
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
