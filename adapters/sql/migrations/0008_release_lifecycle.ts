// The release lifecycle (issue 16): each game stores its active release and when it was first published; releases gain
// the statuses `withdrawn` and `taken_down`, a publish mode, a quarantine key and a takedown reason; upload intents
// carry the publish mode; an append-only timeline and creators' webhook subscriptions.
//
// The pointer starts at what players got before (the most recently approved release, the order the old read used), so
// no game switches release on upgrade. MySQL commits each DDL statement on its own: every step looks before it acts,
// so a start-up killed midway runs this again. SQLite runs every pending migration in one transaction.
import { type Kysely, sql } from "kysely"
import type { Flavor } from "../flavor.ts"

const MYSQL_TABLE = "ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
const OLD_STATUS_CHECK = "CHECK (status IN ('pending_review', 'approved', 'rejected'))"
const NEW_STATUS_LIST = "('pending_review', 'approved', 'rejected', 'withdrawn', 'taken_down')"

const columns = [
  { table: "games", name: "active_version", mysql: "VARCHAR(32) NULL", sqlite: "TEXT NULL" },
  { table: "games", name: "first_published_at", mysql: "DATETIME(3) NULL", sqlite: "TEXT NULL" },
  {
    table: "releases",
    name: "publish_mode",
    mysql: "VARCHAR(16) NOT NULL DEFAULT 'on_approval'",
    sqlite: "TEXT NOT NULL DEFAULT 'on_approval' CHECK (publish_mode IN ('on_approval', 'manual'))",
  },
  { table: "releases", name: "quarantine_key", mysql: "VARCHAR(512) NULL", sqlite: "TEXT NULL" },
  { table: "releases", name: "takedown_reason", mysql: "TEXT NULL", sqlite: "TEXT NULL" },
  {
    table: "upload_intents",
    name: "publish_mode",
    mysql: "VARCHAR(16) NOT NULL DEFAULT 'on_approval'",
    sqlite: "TEXT NOT NULL DEFAULT 'on_approval' CHECK (publish_mode IN ('on_approval', 'manual'))",
  },
] as const

const mysqlTables = [
  `CREATE TABLE IF NOT EXISTS release_timeline (
    seq BIGINT NOT NULL AUTO_INCREMENT,
    game_id VARCHAR(64) NOT NULL,
    version VARCHAR(32) NULL,
    kind VARCHAR(32) NOT NULL,
    actor VARCHAR(300) NOT NULL,
    reason TEXT NULL,
    at DATETIME(3) NOT NULL,
    PRIMARY KEY (seq),
    KEY release_timeline_by_game (game_id, seq),
    CONSTRAINT release_timeline_game FOREIGN KEY (game_id) REFERENCES games (id)
  ) ${MYSQL_TABLE}`,
  `CREATE TABLE IF NOT EXISTS webhook_subscriptions (
    id VARCHAR(64) NOT NULL,
    owner_id VARCHAR(255) NOT NULL,
    url VARCHAR(2048) NOT NULL,
    secret VARCHAR(255) NOT NULL,
    created_at DATETIME(3) NOT NULL,
    PRIMARY KEY (id),
    KEY webhook_subscriptions_by_owner (owner_id, created_at)
  ) ${MYSQL_TABLE}`,
]

const sqliteTables = [
  `CREATE TABLE IF NOT EXISTS release_timeline (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id TEXT NOT NULL REFERENCES games (id),
    version TEXT NULL,
    kind TEXT NOT NULL,
    actor TEXT NOT NULL,
    reason TEXT NULL,
    at TEXT NOT NULL
  )`,
  "CREATE INDEX IF NOT EXISTS release_timeline_by_game ON release_timeline (game_id, seq)",
  `CREATE TABLE IF NOT EXISTS webhook_subscriptions (
    id TEXT NOT NULL PRIMARY KEY,
    owner_id TEXT NOT NULL,
    url TEXT NOT NULL,
    secret TEXT NOT NULL,
    created_at TEXT NOT NULL
  ) STRICT`,
  "CREATE INDEX IF NOT EXISTS webhook_subscriptions_by_owner ON webhook_subscriptions (owner_id, created_at)",
  "CREATE INDEX IF NOT EXISTS releases_by_quarantine_key ON releases (quarantine_key)",
]

// The most recently approved release: exactly the order the read before this migration used.
const initialPointer = `UPDATE games SET
    active_version = (SELECT r.version FROM releases r WHERE r.game_id = games.id AND r.status = 'approved'
      ORDER BY r.reviewed_at DESC, r.created_at DESC, r.version DESC LIMIT 1),
    first_published_at = (SELECT MIN(r.reviewed_at) FROM releases r WHERE r.game_id = games.id AND r.status = 'approved')
  WHERE active_version IS NULL`

const mysqlColumnExists = async (db: Kysely<any>, table: string, column: string) => {
  const { rows } = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM information_schema.columns
    WHERE table_schema = DATABASE() AND table_name = ${table} AND column_name = ${column}`.execute(db)
  return Number(rows[0]?.n ?? 0) > 0
}

const mysqlStatusCheck = async (db: Kysely<any>) => {
  const { rows } = await sql<{ clause: string }>`SELECT check_clause AS clause FROM information_schema.check_constraints
    WHERE constraint_schema = DATABASE() AND constraint_name = 'releases_status'`.execute(db)
  return rows[0]?.clause ?? null
}

const mysqlIndexExists = async (db: Kysely<any>, table: string, index: string) => {
  const { rows } = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM information_schema.statistics
    WHERE table_schema = DATABASE() AND table_name = ${table} AND index_name = ${index}`.execute(db)
  return Number(rows[0]?.n ?? 0) > 0
}

const upMysql = async (db: Kysely<any>) => {
  for (const column of columns) {
    if (!(await mysqlColumnExists(db, column.table, column.name))) {
      await sql.raw(`ALTER TABLE ${column.table} ADD COLUMN ${column.name} ${column.mysql}`).execute(db)
    }
  }
  const check = await mysqlStatusCheck(db)
  if (check === null || !check.includes("taken_down")) {
    if (check !== null) await sql.raw("ALTER TABLE releases DROP CONSTRAINT releases_status").execute(db)
    await sql.raw(`ALTER TABLE releases ADD CONSTRAINT releases_status CHECK (status IN ${NEW_STATUS_LIST})`).execute(db)
  }
  if (!(await mysqlIndexExists(db, "releases", "releases_by_quarantine_key"))) {
    await sql.raw("CREATE INDEX releases_by_quarantine_key ON releases (quarantine_key)").execute(db)
  }
  for (const statement of mysqlTables) await sql.raw(statement).execute(db)
  await sql.raw(initialPointer).execute(db)
}

/**
 * SQLite cannot alter a CHECK constraint, and rebuilding `releases` would break the foreign keys other tables hold on
 * it (they cannot be switched off inside the migration's transaction). The documented alternative for a change that
 * leaves the stored rows valid: edit the table's definition in the schema table and bump the schema version. The
 * connection is defensive; `pckgate_schema_edits` (registered by sqlite.ts) lifts that for this step only.
 */
const widenSqliteStatusCheck = async (db: Kysely<any>) => {
  const { rows } = await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'releases'`.execute(db)
  const definition = rows[0]?.sql ?? ""
  if (definition.includes("'taken_down'")) return
  if (!definition.includes(OLD_STATUS_CHECK)) throw new Error("releases' status check is not the one 0001 created; widen it by hand")
  const version = Number((await sql<{ schema_version: number }>`PRAGMA schema_version`.execute(db)).rows[0]?.schema_version)
  await sql`SELECT pckgate_schema_edits(1)`.execute(db)
  try {
    await sql.raw("PRAGMA writable_schema = ON").execute(db)
    await sql`UPDATE sqlite_master SET sql = replace(sql, ${OLD_STATUS_CHECK}, ${`CHECK (status IN ${NEW_STATUS_LIST})`})
      WHERE type = 'table' AND name = 'releases'`.execute(db)
    await sql.raw(`PRAGMA schema_version = ${version + 1}`).execute(db)
  } finally {
    await sql.raw("PRAGMA writable_schema = OFF").execute(db)
    await sql`SELECT pckgate_schema_edits(0)`.execute(db)
  }
}

const upSqlite = async (db: Kysely<any>) => {
  for (const column of columns) await sql.raw(`ALTER TABLE ${column.table} ADD COLUMN ${column.name} ${column.sqlite}`).execute(db)
  await widenSqliteStatusCheck(db)
  for (const statement of sqliteTables) await sql.raw(statement).execute(db)
  await sql.raw(initialPointer).execute(db)
}

export const releaseLifecycle = (db: Kysely<any>, flavor: Flavor): Promise<void> => (flavor === "mysql" ? upMysql(db) : upSqlite(db))
