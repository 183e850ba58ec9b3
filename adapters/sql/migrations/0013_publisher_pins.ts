// Trusted publishers hardened (issue 18, after its audit):
//   repository_key                     the repository with its ASCII letters lowercased (domain repositoryKey):
//                                      GitHub and GitLab names are case-insensitive, the ID token carries the
//                                      canonical case, so the exchange finds publishers by this key
//   repository_id, repository_owner_id the provider's numeric ids of the repository and its owner (GitHub
//                                      repository_id/repository_owner_id, GitLab project_id/namespace_id), pinned at
//                                      registration or by the first exchange; null until then
//   trusted_publishers_by_repository_key (provider, repository_key)
// Existing rows get their key here. The index on (provider, repository) stays: an instance that predates this
// migration writes rows with an empty key, which the lookup still finds by their exact repository (SqlTrustedPublisherStore).
// MySQL commits each DDL statement on its own, so every step looks before it acts; SQLite runs every pending migration
// in one transaction.
import { type Kysely, sql } from "kysely"
import { repositoryKey } from "../../../domain/credentials/TrustedPublisher.ts"
import type { Flavor } from "../flavor.ts"
import { mysqlHas } from "./0010_catalog.ts"

const columns = [
  { name: "repository_key", mysql: "VARCHAR(255) NOT NULL DEFAULT ''", sqlite: "TEXT NOT NULL DEFAULT ''" },
  { name: "repository_id", mysql: "VARCHAR(32) NULL", sqlite: "TEXT NULL" },
  { name: "repository_owner_id", mysql: "VARCHAR(32) NULL", sqlite: "TEXT NULL" },
] as const

const KEY_INDEX = { name: "trusted_publishers_by_repository_key", columns: "provider, repository_key" }

const fillRepositoryKeys = async (db: Kysely<any>) => {
  const { rows } = await sql<{ id: string; repository: string }>`SELECT id, repository FROM trusted_publishers WHERE repository_key = ''`.execute(db)
  for (const row of rows) await sql`UPDATE trusted_publishers SET repository_key = ${repositoryKey(row.repository)} WHERE id = ${row.id}`.execute(db)
}

const upMysql = async (db: Kysely<any>) => {
  for (const column of columns) {
    if (!(await mysqlHas(db, "columns", "trusted_publishers", column.name))) {
      await sql.raw(`ALTER TABLE trusted_publishers ADD COLUMN ${column.name} ${column.mysql}`).execute(db)
    }
  }
  await fillRepositoryKeys(db)
  if (!(await mysqlHas(db, "statistics", "trusted_publishers", KEY_INDEX.name))) {
    await sql.raw(`CREATE INDEX ${KEY_INDEX.name} ON trusted_publishers (${KEY_INDEX.columns})`).execute(db)
  }
}

const upSqlite = async (db: Kysely<any>) => {
  for (const column of columns) await sql.raw(`ALTER TABLE trusted_publishers ADD COLUMN ${column.name} ${column.sqlite}`).execute(db)
  await fillRepositoryKeys(db)
  await sql.raw(`CREATE INDEX IF NOT EXISTS ${KEY_INDEX.name} ON trusted_publishers (${KEY_INDEX.columns})`).execute(db)
}

export const publisherPins = (db: Kysely<any>, flavor: Flavor): Promise<void> => (flavor === "mysql" ? upMysql(db) : upSqlite(db))
