// What the release lifecycle records beyond 0008 (issue 16, after its audit):
//   games.active_cause/active_by/active_since   why the active release is active, who made it so and when, and
//   games.active_reason_version                 which version that reason is about (a pointer moved by an instance
//                                               that predates this migration keeps the old reason: not shown then)
//   games.lifecycle_holder/lifecycle_until      the game's lifecycle lease: one takedown, reinstate or activation at a
//                                               time across instances (ports/ReleaseStore.ts takeLifecycleLease)
//   releases.takedown_scope                     taken down alone or with the whole game (the game-wide reinstate
//                                               reverses exactly the game-wide takedown)
//   releases_by_decision (reviewed_at)          the queue estimate's last 50 decisions, read from the index's end
//
// Existing active pointers get their reason from the timeline when one was recorded (0008 onwards: the latest
// `activated` event of the active version), else from the release's approval (what 0008 initialised them with).
// Releases taken down before this migration keep a null scope and count as taken down alone. MySQL commits each DDL
// statement on its own, so every step looks before it acts; SQLite runs every pending migration in one transaction.
import { type Kysely, sql } from "kysely"
import type { Flavor } from "../flavor.ts"
import { mysqlHas } from "./0010_catalog.ts"

const columns = [
  { table: "games", name: "active_cause", mysql: "VARCHAR(32) NULL", sqlite: "TEXT NULL" },
  { table: "games", name: "active_by", mysql: "VARCHAR(300) NULL", sqlite: "TEXT NULL" },
  { table: "games", name: "active_since", mysql: "DATETIME(3) NULL", sqlite: "TEXT NULL" },
  { table: "games", name: "active_reason_version", mysql: "VARCHAR(32) NULL", sqlite: "TEXT NULL" },
  { table: "games", name: "lifecycle_holder", mysql: "VARCHAR(64) NULL", sqlite: "TEXT NULL" },
  { table: "games", name: "lifecycle_until", mysql: "DATETIME(3) NULL", sqlite: "TEXT NULL" },
  { table: "releases", name: "takedown_scope", mysql: "VARCHAR(16) NULL", sqlite: "TEXT NULL" },
] as const

const DECISION_INDEX = "CREATE INDEX releases_by_decision ON releases (reviewed_at)"

/** The latest `activated` event of the game's active version: `column` of it. */
const lastActivation = (column: string) =>
  `(SELECT t.${column} FROM release_timeline t WHERE t.game_id = games.id AND t.kind = 'activated'
    AND t.version = games.active_version ORDER BY t.seq DESC LIMIT 1)`

/** The active release's `column`. */
const activeRelease = (column: string) =>
  `(SELECT r.${column} FROM releases r WHERE r.game_id = games.id AND r.version = games.active_version)`

const initialReasons = (flavor: Flavor) => {
  const approver = flavor === "mysql" ? `CONCAT('user:', ${activeRelease("reviewed_by")})` : `'user:' || ${activeRelease("reviewed_by")}`
  return [
    // The approval first; an activation recorded later than it (a rollback, a fallback) replaces it.
    `UPDATE games SET active_cause = 'approval', active_by = ${approver}, active_since = ${activeRelease("reviewed_at")},
        active_reason_version = active_version
      WHERE active_version IS NOT NULL AND active_cause IS NULL`,
    `UPDATE games SET
        active_cause = CASE WHEN ${lastActivation("reason")} = 'the active release was taken down' THEN 'takedown_fallback' ELSE 'activation' END,
        active_by = ${lastActivation("actor")},
        active_since = ${lastActivation("at")}
      WHERE active_version IS NOT NULL AND active_cause = 'approval' AND ${lastActivation("at")} > active_since`,
  ]
}

const upMysql = async (db: Kysely<any>) => {
  for (const column of columns) {
    if (!(await mysqlHas(db, "columns", column.table, column.name))) {
      await sql.raw(`ALTER TABLE ${column.table} ADD COLUMN ${column.name} ${column.mysql}`).execute(db)
    }
  }
  if (!(await mysqlHas(db, "statistics", "releases", "releases_by_decision"))) await sql.raw(DECISION_INDEX).execute(db)
  for (const statement of initialReasons("mysql")) await sql.raw(statement).execute(db)
}

const upSqlite = async (db: Kysely<any>) => {
  for (const column of columns) await sql.raw(`ALTER TABLE ${column.table} ADD COLUMN ${column.name} ${column.sqlite}`).execute(db)
  await sql.raw(DECISION_INDEX.replace("CREATE INDEX", "CREATE INDEX IF NOT EXISTS")).execute(db)
  for (const statement of initialReasons("sqlite")) await sql.raw(statement).execute(db)
}

export const lifecycleRecords = (db: Kysely<any>, flavor: Flavor): Promise<void> => (flavor === "mysql" ? upMysql(db) : upSqlite(db))
