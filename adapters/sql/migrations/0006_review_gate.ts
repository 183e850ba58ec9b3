// The review gate (issue 15): each scan's counts and capability ids beside its report (the review queue reads these,
// never the reports), review claims, approval overrides and accepted findings. Idempotent like the others: MySQL
// commits each DDL statement on its own, so a start-up killed midway can run this again (columns are looked up first,
// tables use IF NOT EXISTS, and the backfill only fills rows still without counts).
import { type Kysely, sql } from "kysely"
import { ScanReport } from "../../../domain/scan/ScanReport.ts"
import { Schema } from "effect"
import type { Flavor } from "../flavor.ts"
import { scanCountColumns } from "../scanColumns.ts"

const MYSQL_TABLE = "ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"

const mysqlTables = [
  `CREATE TABLE IF NOT EXISTS review_claims (
    game_id VARCHAR(64) NOT NULL,
    version VARCHAR(32) NOT NULL,
    claimed_by VARCHAR(255) NOT NULL,
    claimed_until DATETIME(3) NOT NULL,
    PRIMARY KEY (game_id, version),
    CONSTRAINT review_claims_release FOREIGN KEY (game_id, version) REFERENCES releases (game_id, version)
  ) ${MYSQL_TABLE}`,
  `CREATE TABLE IF NOT EXISTS approval_overrides (
    game_id VARCHAR(64) NOT NULL,
    version VARCHAR(32) NOT NULL,
    reason TEXT NOT NULL,
    approved_by VARCHAR(255) NOT NULL,
    approved_at DATETIME(3) NOT NULL,
    PRIMARY KEY (game_id, version),
    CONSTRAINT approval_overrides_release FOREIGN KEY (game_id, version) REFERENCES releases (game_id, version)
  ) ${MYSQL_TABLE}`,
  `CREATE TABLE IF NOT EXISTS finding_acceptances (
    game_id VARCHAR(64) NOT NULL,
    fingerprint VARCHAR(128) NOT NULL,
    accepted_by VARCHAR(255) NOT NULL,
    accepted_at DATETIME(3) NOT NULL,
    reason TEXT NOT NULL,
    PRIMARY KEY (game_id, fingerprint),
    CONSTRAINT finding_acceptances_game FOREIGN KEY (game_id) REFERENCES games (id)
  ) ${MYSQL_TABLE}`,
]

const sqliteTables = [
  `CREATE TABLE IF NOT EXISTS review_claims (
    game_id TEXT NOT NULL,
    version TEXT NOT NULL,
    claimed_by TEXT NOT NULL,
    claimed_until TEXT NOT NULL,
    PRIMARY KEY (game_id, version),
    FOREIGN KEY (game_id, version) REFERENCES releases (game_id, version)
  )`,
  `CREATE TABLE IF NOT EXISTS approval_overrides (
    game_id TEXT NOT NULL,
    version TEXT NOT NULL,
    reason TEXT NOT NULL,
    approved_by TEXT NOT NULL,
    approved_at TEXT NOT NULL,
    PRIMARY KEY (game_id, version),
    FOREIGN KEY (game_id, version) REFERENCES releases (game_id, version)
  )`,
  `CREATE TABLE IF NOT EXISTS finding_acceptances (
    game_id TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    accepted_by TEXT NOT NULL,
    accepted_at TEXT NOT NULL,
    reason TEXT NOT NULL,
    PRIMARY KEY (game_id, fingerprint),
    FOREIGN KEY (game_id) REFERENCES games (id)
  )`,
]

/** The scan columns, nullable so rows written before this migration can be filled in by the backfill below. */
const SCAN_COLUMNS = {
  mysql: [["error_count", "INT NULL"], ["warning_count", "INT NULL"], ["capability_ids", "TEXT NULL"]],
  sqlite: [["error_count", "INTEGER NULL"], ["warning_count", "INTEGER NULL"], ["capability_ids", "TEXT NULL"]],
} as const

const scanColumnsPresent = async (db: Kysely<any>, flavor: Flavor): Promise<ReadonlySet<string>> => {
  if (flavor === "sqlite") {
    const { rows } = await sql<{ name: string }>`SELECT name FROM pragma_table_info('scans')`.execute(db)
    return new Set(rows.map((r) => r.name))
  }
  const { rows } = await sql<{ name: string }>`SELECT column_name AS name FROM information_schema.columns
    WHERE table_schema = DATABASE() AND table_name = 'scans'`.execute(db)
  return new Set(rows.map((r) => r.name))
}

const decodeReport = Schema.decodeUnknownSync(ScanReport)

/** Counts of the scans recorded without them, from their reports (here, and again in 0012 for multipart rows). */
export const backfillScanCounts = async (db: Kysely<any>) => {
  for (;;) {
    const rows = await db.selectFrom("scans").select(["game_id", "version", "report"]).where("error_count", "is", null).limit(200).execute()
    if (rows.length === 0) return
    for (const row of rows) {
      await db.updateTable("scans")
        .set(scanCountColumns(decodeReport(JSON.parse(row.report as string))))
        .where("game_id", "=", row.game_id).where("version", "=", row.version)
        .execute()
    }
  }
}

export const reviewGateSchema = async (db: Kysely<any>, flavor: Flavor): Promise<void> => {
  const present = await scanColumnsPresent(db, flavor)
  for (const [name, type] of SCAN_COLUMNS[flavor]) {
    if (!present.has(name)) await sql.raw(`ALTER TABLE scans ADD COLUMN ${name} ${type}`).execute(db)
  }
  for (const statement of flavor === "mysql" ? mysqlTables : sqliteTables) await sql.raw(statement).execute(db)
  await backfillScanCounts(db)
}
