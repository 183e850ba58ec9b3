import { scanCounts } from "../../domain/review/ReviewGate.ts"
import type { ScanReport } from "../../domain/scan/ScanReport.ts"

/**
 * The columns stored beside a scan's report, from the report: the gate's counts and the capability ids (the review
 * queue reads these, never the reports). Every writer of a scan row uses this: the scan store, the multipart
 * submission store and the migrations that backfill older rows.
 */
export const scanCountColumns = (report: ScanReport) => {
  const counts = scanCounts(report)
  return { error_count: counts.errors, warning_count: counts.warnings, capability_ids: JSON.stringify(counts.capabilities) }
}
