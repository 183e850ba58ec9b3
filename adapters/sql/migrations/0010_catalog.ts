// The paginated lists (issue 17): a search column for the catalog's prefix search (the game's name, NFC and
// lowercased — computed in the application, since neither database lowercases all of Unicode the way JavaScript
// does), and indexes whose columns are each list's keyset order, so a page is a range read on one index:
//   catalog      games (first_published_at, id), read backwards; the active pointer joins releases by primary key
//   search       games (search_name) and the slug's unique key, each a prefix range
//   review queue releases (status, created_at, game_id, version)
//   my games     games (owner_id, created_at, id)
// (InnoDB appends the primary key to every secondary index, SQLite does not: the explicit trailing columns make the
// order total on both.) MySQL commits each DDL statement on its own, so every step looks before it acts.
import { type Kysely, sql } from "kysely"
import { searchKey } from "../../../domain/game/searchKey.ts"
import type { Flavor } from "../flavor.ts"

const indexes = [
  { table: "games", name: "games_catalog_order", columns: "first_published_at, id" },
  { table: "games", name: "games_search_name", columns: "search_name" },
  { table: "games", name: "games_owner_order", columns: "owner_id, created_at, id" },
  { table: "releases", name: "releases_queue_order", columns: "status, created_at, game_id, version" },
] as const

/** Whether MySQL has the column or index `name` on `table` (information_schema). */
export const mysqlHas = async (db: Kysely<any>, what: "columns" | "statistics", table: string, name: string) => {
  const column = what === "columns" ? "column_name" : "index_name"
  const { rows } = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM ${sql.raw(`information_schema.${what}`)}
    WHERE table_schema = DATABASE() AND table_name = ${table} AND ${sql.raw(column)} = ${name}`.execute(db)
  return Number(rows[0]?.n ?? 0) > 0
}

/** Existing games get their search key; the stores write it with every game from now on (adapters/sql/rows.ts). */
const fillSearchNames = async (db: Kysely<any>) => {
  const { rows } = await sql<{ id: string; name: string }>`SELECT id, name FROM games WHERE search_name = ''`.execute(db)
  for (const row of rows) await sql`UPDATE games SET search_name = ${searchKey(row.name)} WHERE id = ${row.id}`.execute(db)
}

const upMysql = async (db: Kysely<any>) => {
  if (!(await mysqlHas(db, "columns", "games", "search_name"))) {
    await sql.raw("ALTER TABLE games ADD COLUMN search_name VARCHAR(255) NOT NULL DEFAULT ''").execute(db)
  }
  await fillSearchNames(db)
  for (const index of indexes) {
    if (!(await mysqlHas(db, "statistics", index.table, index.name))) {
      await sql.raw(`CREATE INDEX ${index.name} ON ${index.table} (${index.columns})`).execute(db)
    }
  }
}

const upSqlite = async (db: Kysely<any>) => {
  await sql.raw("ALTER TABLE games ADD COLUMN search_name TEXT NOT NULL DEFAULT ''").execute(db)
  await fillSearchNames(db)
  for (const index of indexes) await sql.raw(`CREATE INDEX IF NOT EXISTS ${index.name} ON ${index.table} (${index.columns})`).execute(db)
  await sql.raw("ANALYZE").execute(db)
}

export const catalogIndexes = (db: Kysely<any>, flavor: Flavor): Promise<void> => (flavor === "mysql" ? upMysql(db) : upSqlite(db))
