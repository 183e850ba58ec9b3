// Forward-only migrations with Kysely's Migrator, applied at start-up and by `npm run -s cli -- migrate`.
// Concurrent starts: on MySQL the Migrator holds GET_LOCK on one connection; on SQLite all pending migrations run in
// one `begin immediate` transaction (see sqlite.ts), so a second instance waits and then finds nothing to apply.
import { type Kysely, sql } from "kysely"
import { type Migration, Migrator } from "kysely/migration"
import type { Flavor } from "./flavor.ts"
import { initialSchema } from "./migrations/0001_initial.ts"
import { submissionsAndScans } from "./migrations/0002_submissions_scans.ts"
import { notificationOutboxSchema } from "./migrations/0003_notification_outbox.ts"
import { sessionsSchema } from "./migrations/0004_sessions.ts"
import { changeFeedSchema } from "./migrations/0005_change_feed.ts"
import { reviewGateSchema } from "./migrations/0006_review_gate.ts"
import { releaseEntriesSchema } from "./migrations/0007_release_entries.ts"
import { releaseLifecycle } from "./migrations/0008_release_lifecycle.ts"
import { credentialsSchema } from "./migrations/0009_credentials.ts"
import { catalogIndexes } from "./migrations/0010_catalog.ts"
import { lifecycleRecords } from "./migrations/0011_lifecycle_records.ts"
import { multipartScanCounts } from "./migrations/0012_multipart_scan_counts.ts"
import { publisherPins } from "./migrations/0013_publisher_pins.ts"

/** Every migration, by name; names sort in the order they apply. Never edit one that has shipped: add the next. */
const migrations = (flavor: Flavor): Record<string, Migration> => ({
  "0001_initial": {
    up: async (db) => {
      for (const statement of initialSchema(flavor)) await sql.raw(statement).execute(db)
    },
  },
  "0002_submissions_scans": { up: (db) => submissionsAndScans(db, flavor) },
  "0003_notification_outbox": {
    up: async (db) => {
      for (const statement of notificationOutboxSchema(flavor)) await sql.raw(statement).execute(db)
    },
  },
  "0004_sessions": {
    up: async (db) => {
      for (const statement of sessionsSchema(flavor)) await sql.raw(statement).execute(db)
    },
  },
  "0005_change_feed": {
    up: async (db) => {
      for (const statement of changeFeedSchema(flavor)) await sql.raw(statement).execute(db)
    },
  },
  "0006_review_gate": { up: (db) => reviewGateSchema(db, flavor) },
  "0007_release_entries": {
    up: async (db) => {
      for (const statement of releaseEntriesSchema(flavor)) await sql.raw(statement).execute(db)
    },
  },
  "0008_release_lifecycle": { up: (db) => releaseLifecycle(db, flavor) },
  "0009_credentials": {
    up: async (db) => {
      for (const statement of credentialsSchema(flavor)) await sql.raw(statement).execute(db)
    },
  },
  "0010_catalog": { up: (db) => catalogIndexes(db, flavor) },
  "0011_lifecycle_records": { up: (db) => lifecycleRecords(db, flavor) },
  "0012_multipart_scan_counts": { up: (db) => multipartScanCounts(db) },
  "0013_publisher_pins": { up: (db) => publisherPins(db, flavor) },
})

/** Every migration's name, in the order they apply. */
export const MIGRATION_NAMES: ReadonlyArray<string> = Object.keys(migrations("sqlite")).sort()

export class MigrationFailed extends Error {
  readonly migration: string | null
  constructor(migration: string | null, cause: unknown) {
    super(`migration ${migration ?? "setup"} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause })
    this.migration = migration
  }
}

/** Applies the pending migrations up to and including `name` (upgrade tests start from an older schema). */
export const migrateUpTo = async (db: Kysely<any>, flavor: Flavor, name: string): Promise<void> => {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations(flavor) }, allowUnorderedMigrations: true })
  const { error } = await migrator.migrateTo(name)
  if (error !== undefined) throw new MigrationFailed(name, error)
}

/** Applies every pending migration; returns the names applied now (empty when the schema was already current). */
export const migrateToLatest = async (db: Kysely<any>, flavor: Flavor): Promise<ReadonlyArray<string>> => {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations(flavor) }, allowUnorderedMigrations: true })
  const { error, results = [] } = await migrator.migrateToLatest()
  if (error !== undefined) throw new MigrationFailed(results.find((r) => r.status === "Error")?.migrationName ?? null, error)
  return results.filter((r) => r.status === "Success").map((r) => r.migrationName)
}
