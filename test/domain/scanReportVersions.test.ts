import { Schema } from "effect"
import { describe, expect, test } from "vitest"
import { ScanReport } from "../../domain/scan/ScanReport.ts"

// Reports outlive scanner versions: one stored by pckgate-scanner/1, before the capability summary and fingerprints
// existed, still decodes as it was stored (the review page shows it with its version: test/http/pages.test.ts).

/** A report as pckgate-scanner/1 stored it (JSON text). */
const SCANNER_1_REPORT = JSON.stringify({
  ok: false,
  findings: [{ file: "res://game/main.gd", line: 5, column: 2, rule: "banned-api", pattern: "OS.execute", message: "OS.execute: starts programs.", severity: "error" }],
  summary: { countsByRule: { "banned-api": 1 }, errors: 1, warnings: 0, packFormat: 1, engineVersion: "3.2.3", entryCount: 4, packBytes: 4096, bytesRead: 900 },
  files: [{ path: "res://game/main.gd", sizeBytes: 120 }],
  manifest: null,
  scannerVersion: "pckgate-scanner/1",
})

describe("reports of older scanners", () => {
  test("a pckgate-scanner/1 report without capabilities or fingerprints decodes as it was stored", () => {
    const decoded = Schema.decodeUnknownSync(ScanReport)(JSON.parse(SCANNER_1_REPORT))
    expect(decoded.capabilities).toBeUndefined()
    expect(decoded.findings.map((f) => [f.file, f.line, f.fingerprint])).toEqual([["res://game/main.gd", 5, undefined]])
    expect(decoded.scannerVersion).toBe("pckgate-scanner/1")
    expect(Schema.decodeUnknownSync(ScanReport)({ ...JSON.parse(SCANNER_1_REPORT), capabilities: { shell: [] } }).capabilities).toEqual({ shell: [] })
  })
})
