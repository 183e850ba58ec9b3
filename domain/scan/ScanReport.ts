import { Schema } from "effect"
import { MANIFEST_FIELD_SCHEMAS } from "../manifest/Manifest.ts"
import { EmbeddedIn, Finding, Severity } from "./Finding.ts"

export const ScanSummary = Schema.Struct({
  /** Number of findings per rule id; rules without findings are absent. */
  countsByRule: Schema.Record(Schema.String, Schema.Int),
  errors: Schema.Int,
  warnings: Schema.Int,
  /** `pack_format_version` from the header (0-4 known), null when no header was found. */
  packFormat: Schema.NullOr(Schema.Int),
  /** Engine version written in the header, `major.minor.patch`; informative only (never trusted for parsing). */
  engineVersion: Schema.NullOr(Schema.String),
  entryCount: Schema.Int,
  packBytes: Schema.Int,
  /** Bytes the scanner asked the byte source for: the cost of the scan, to compare with `packBytes`. */
  bytesRead: Schema.Int,
})
export type ScanSummary = typeof ScanSummary.Type

export { LISTED_FILES_LIMIT } from "./limits.ts"

export const PackFile = Schema.Struct({ path: Schema.String, sizeBytes: Schema.Int })
export type PackFile = typeof PackFile.Type

/**
 * The pack's manifest as it was when scanned. Reports are records read back from the database, so the text fields that
 * newer rules made stricter (the characters of names and scene paths, domain/text) are not checked again on the way
 * out: a report stored before would otherwise fail to load.
 */
export const RecordedManifest = Schema.Struct({ ...MANIFEST_FIELD_SCHEMAS, name: Schema.String, entry_scene: Schema.String })

/** Where a capability is used: an error or warning finding's place, or an allowed use of a sensitive API. */
export const CapabilityUse = Schema.Struct({
  file: Schema.String,
  line: Schema.NullOr(Schema.Int),
  column: Schema.NullOr(Schema.Int),
  /** The API or construct, as code: `OS.execute`, `call("execute")`, `FileAccess.open`, `.gdnlib`. */
  api: Schema.String,
  /** `error`/`warning`: the use is also a finding of that severity; `allowed`: listed for review only. */
  verdict: Schema.Union([Severity, Schema.Literal("allowed")]),
  embeddedIn: Schema.optionalKey(EmbeddedIn),
})
export type CapabilityUse = typeof CapabilityUse.Type

/**
 * The fixed vocabulary of the capability summary (docs/scanner.md#capabilities). Reports compare
 * between versions by these keys; a key is present only when the pack uses the capability.
 */
export const CAPABILITIES = [
  "process",
  "shell",
  "environment",
  "filesystem-outside-sandbox",
  "file-writes",
  "network",
  "javascript",
  "native-code",
  "runtime-code-loading",
  "dynamic-dispatch",
  "object-decoding",
  "project-settings",
  "clipboard",
  "escaped-engine-object",
] as const

export const ScanReport = Schema.Struct({
  /** True when no finding has severity `error`. */
  ok: Schema.Boolean,
  findings: Schema.Array(Finding),
  summary: ScanSummary,
  /** The pack's directory in stored order (at most LISTED_FILES_LIMIT entries, see limits.ts), for reviewers. */
  files: Schema.Array(PackFile),
  /** The pack's own `manifest.json` when it decoded; null otherwise. */
  manifest: Schema.NullOr(RecordedManifest),
  scannerVersion: Schema.String,
  /**
   * Capability → where the pack uses it (at most 500 places each, adapters/scanner/checks/capabilities.ts). Absent in
   * reports of scanner versions before pckgate-scanner/2, which still decode.
   */
  capabilities: Schema.optionalKey(Schema.Record(Schema.String, Schema.Array(CapabilityUse))),
})
export type ScanReport = typeof ScanReport.Type
