// Test helpers: scan bytes or files with the default configuration.
import type { ScanReport } from "../../../domain/scan/ScanReport.ts"
import type { ScanExpectations } from "../../../ports/PackScanner.ts"
import { withFileByteSource } from "../../../adapters/scanner/fileByteSource.ts"
import { bytesSource } from "../../../adapters/scanner/io/RandomAccess.ts"
import { nodeDecompressors } from "../../../adapters/scanner/nodeDecompressors.ts"
import { defaultPolicy } from "../../../adapters/scanner/policy/defaultPolicy.ts"
import type { Policy } from "../../../adapters/scanner/policy/Policy.ts"
import { scanPack } from "../../../adapters/scanner/scanPack.ts"

export const MULTIPART: ScanExpectations = { path: "multipart" }

export const scanBytes = (bytes: Uint8Array, expectations: ScanExpectations = MULTIPART, policy: Policy = defaultPolicy): Promise<ScanReport> =>
  scanPack(bytesSource(bytes), expectations, { policy, decompressors: nodeDecompressors })

export const scanFile = (path: string, expectations: ScanExpectations = MULTIPART, verifyChecksums = false): Promise<ScanReport> =>
  withFileByteSource(path, (source) => scanPack(source, expectations, { policy: defaultPolicy, decompressors: nodeDecompressors, verifyChecksums }))

/** `file:line rule` triples, the shape most assertions compare. */
export const located = (report: ScanReport): ReadonlyArray<string> =>
  report.findings.map((f) => `${f.file}${f.line === null ? "" : `:${f.line}`} ${f.rule}`)
