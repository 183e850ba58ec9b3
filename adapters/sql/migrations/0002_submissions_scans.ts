// Multipart submissions and scan results; `manifest.id` becomes unique across games (spec §4.6 finds a game by it).
// Idempotent like 0001: MySQL commits each DDL statement on its own, so a start-up killed midway can run this again.
import { type Kysely, sql } from "kysely"
import type { Flavor } from "../flavor.ts"

const MYSQL_TABLE = "ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"

const mysqlTables = [
  `CREATE TABLE IF NOT EXISTS scans (
    game_id VARCHAR(64) NOT NULL,
    version VARCHAR(32) NOT NULL,
    report LONGTEXT NOT NULL,
    scanned_at DATETIME(3) NOT NULL,
    PRIMARY KEY (game_id, version),
    CONSTRAINT scans_release FOREIGN KEY (game_id, version) REFERENCES releases (game_id, version)
  ) ${MYSQL_TABLE}`,
  `CREATE TABLE IF NOT EXISTS submissions (
    id VARCHAR(64) NOT NULL,
    game_id VARCHAR(64) NOT NULL,
    version VARCHAR(32) NOT NULL,
    created_by VARCHAR(255) NOT NULL,
    created_at DATETIME(3) NOT NULL,
    PRIMARY KEY (id),
    CONSTRAINT submissions_one_per_release UNIQUE (game_id, version),
    CONSTRAINT submissions_release FOREIGN KEY (game_id, version) REFERENCES releases (game_id, version)
  ) ${MYSQL_TABLE}`,
]

const sqliteStatements = [
  `CREATE TABLE IF NOT EXISTS scans (
    game_id TEXT NOT NULL,
    version TEXT NOT NULL,
    report TEXT NOT NULL,
    scanned_at TEXT NOT NULL,
    PRIMARY KEY (game_id, version),
    FOREIGN KEY (game_id, version) REFERENCES releases (game_id, version)
  )`,
  `CREATE TABLE IF NOT EXISTS submissions (
    id TEXT NOT NULL PRIMARY KEY,
    game_id TEXT NOT NULL,
    version TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created_at TEXT NOT NULL,
    CONSTRAINT submissions_one_per_release UNIQUE (game_id, version),
    FOREIGN KEY (game_id, version) REFERENCES releases (game_id, version)
  )`,
  "CREATE UNIQUE INDEX IF NOT EXISTS games_manifest_id_unique ON games (manifest_id)",
]

/** MySQL 8 has no CREATE INDEX IF NOT EXISTS (MariaDB has): look first. */
const mysqlIndexExists = async (db: Kysely<any>, table: string, index: string) => {
  const { rows } = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM information_schema.statistics
    WHERE table_schema = DATABASE() AND table_name = ${table} AND index_name = ${index}`.execute(db)
  return Number(rows[0]?.n ?? 0) > 0
}

export const submissionsAndScans = async (db: Kysely<any>, flavor: Flavor): Promise<void> => {
  if (flavor === "sqlite") {
    for (const statement of sqliteStatements) await sql.raw(statement).execute(db)
    return
  }
  for (const statement of mysqlTables) await sql.raw(statement).execute(db)
  // NULLs may repeat in a unique index on both MySQL and SQLite: games from the release API have no manifest id.
  if (!(await mysqlIndexExists(db, "games", "games_manifest_id_unique"))) {
    await sql.raw("CREATE UNIQUE INDEX games_manifest_id_unique ON games (manifest_id)").execute(db)
  }
}
