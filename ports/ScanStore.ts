import { Context, type Effect, type Option } from "effect"
import type { Unavailable } from "../domain/errors.ts"
import type { Release } from "../domain/release/Release.ts"
import type { ScanCounts } from "../domain/review/ReviewGate.ts"
import type { ScanReport } from "../domain/scan/ScanReport.ts"

/** The scanner's report for one release, attached for reviewers and shown to the creator. */
export interface ScanRecord {
  readonly gameId: string
  readonly version: string
  readonly report: ScanReport
  readonly scannedAt: Date
}

/** One release's scan counts as stored. */
export interface ScanCountsRow extends ScanCounts {
  readonly gameId: string
  readonly version: string
}

/**
 * Scan results. Releases without a record are the scan queue: it lives in the store, so a scan interrupted by a
 * restart simply runs again.
 */
export class ScanStore extends Context.Service<ScanStore, {
  /** Stores the record, replacing an earlier one for the same release (a rescan). */
  save(record: ScanRecord): Effect.Effect<void, Unavailable>
  get(gameId: string, version: string): Effect.Effect<Option.Option<ScanRecord>, Unavailable>
  listByGame(gameId: string): Effect.Effect<ReadonlyArray<ScanRecord>, Unavailable>
  /**
   * The gate's counts of these releases' scans (domain/review/ReviewGate.ts scanCounts), kept beside each report when it
   * is saved so listings never read reports; releases without a scan are absent.
   */
  countsOf(releases: ReadonlyArray<{ readonly gameId: string; readonly version: string }>): Effect.Effect<ReadonlyArray<ScanCountsRow>, Unavailable>
  /** Releases that have no scan record yet, oldest first. */
  unscanned(limit: number): Effect.Effect<ReadonlyArray<Release>, Unavailable>
  /** Drops the release's record, which puts the release back in the queue (a rescan); false when it had none. */
  remove(gameId: string, version: string): Effect.Effect<boolean, Unavailable>
}>()("pckgate/ports/ScanStore") {}
