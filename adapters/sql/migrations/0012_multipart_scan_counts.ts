// Scans recorded by multipart submissions before the submission store wrote their counts (it left error_count,
// warning_count and capability_ids NULL, so the queue showed 0 warnings and no capabilities for those releases, and
// every capability of the next release as added): the columns are filled from each stored report, as 0006 did for
// the rows before it. Only rows still without counts are touched, so running it again changes nothing.
import type { Kysely } from "kysely"
import { backfillScanCounts } from "./0006_review_gate.ts"

export const multipartScanCounts = (db: Kysely<any>): Promise<void> => backfillScanCounts(db)
