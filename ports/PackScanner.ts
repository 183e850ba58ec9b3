import { Context, type Effect } from "effect"
import type { Unavailable } from "../domain/errors.ts"
import type { ScanReport } from "../domain/scan/ScanReport.ts"

/**
 * Random access to the bytes of one uploaded file: a local file, the local store or a ranged GCS read.
 * `read` may return fewer bytes than asked only at the end of the file; it rejects when the
 * underlying storage fails.
 */
export interface ByteSource {
  readonly size: number
  read(offset: number, length: number): Promise<Uint8Array>
}

/**
 * What the caller already knows about the upload, so the scanner can check that the pack's
 * manifest is current and apply the right size limit.
 * - `release_api`: `declaredVersion` is the version sent to upload-url/finalize.
 * - `multipart`: `submittedManifest` is the manifest part, already parsed as JSON.
 */
export interface ScanExpectations {
  readonly path: "release_api" | "multipart"
  readonly submittedManifest?: unknown
  readonly declaredVersion?: string
}

/**
 * Static scan of a Godot pack. A damaged or hostile pack never fails the Effect: it yields findings.
 * Only a failing `ByteSource.read` yields `Unavailable` (dependency "storage").
 */
export class PackScanner extends Context.Service<
  PackScanner,
  { scan(source: ByteSource, expectations: ScanExpectations): Effect.Effect<ScanReport, Unavailable> }
>()("pckgate/ports/PackScanner") {}
