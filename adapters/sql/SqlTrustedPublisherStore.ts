// Trusted publishers on the records' database (migrations 0009 and 0013).
import { Effect, Layer, Option } from "effect"
import { type Kysely, type Selectable, sql } from "kysely"
import { type PublisherProvider, repositoryKey, type TrustedPublisher } from "../../domain/credentials/TrustedPublisher.ts"
import { TrustedPublisherStore } from "../../ports/TrustedPublisherStore.ts"
import type { TimeCodec } from "./dialects/Dialect.ts"
import type { Tables, Timestamp } from "./schema.ts"
import { writeCredentialRecord } from "./sqlCredentialRecord.ts"
import { SqlDatabase } from "./SqlDatabase.ts"
import { orUnavailable } from "./SqlFailure.ts"

export interface TrustedPublishersTable {
  id: string
  game_id: string
  provider: string
  repository: string
  /** repositoryKey(repository): what the exchange looks publishers up by (migration 0013; '' on rows older instances wrote). */
  repository_key: string
  workflow: string
  environment: string | null
  ref: string | null
  repository_id: string | null
  repository_owner_id: string | null
  created_by: string
  created_at: Timestamp
}

const withPublishers = (db: Kysely<Tables>): Kysely<Tables & { trusted_publishers: TrustedPublishersTable }> =>
  db.$extendTables<{ trusted_publishers: TrustedPublishersTable }>()

/** A row as the store reads it (the lookup key stays in the database). */
type PublisherRow = Omit<Selectable<TrustedPublishersTable>, "repository_key">

const toPublisher = (row: PublisherRow, time: TimeCodec): TrustedPublisher => ({
  id: row.id,
  gameId: row.game_id,
  provider: row.provider as PublisherProvider,
  repository: row.repository,
  workflow: row.workflow,
  environment: row.environment,
  ref: row.ref,
  repositoryId: row.repository_id,
  repositoryOwnerId: row.repository_owner_id,
  createdBy: row.created_by,
  createdAt: time.read(row.created_at),
})

/** Every column but the lookup key. */
const COLUMNS = ["id", "game_id", "provider", "repository", "workflow", "environment", "ref", "repository_id", "repository_owner_id", "created_by", "created_at"] as const

export const layerSqlTrustedPublisherStore = Layer.effect(
  TrustedPublisherStore,
  Effect.gen(function*() {
    const database = yield* SqlDatabase
    const { dialect, time } = database
    const db = withPublishers(database.db)
    const rows = (rows: ReadonlyArray<PublisherRow>) => rows.map((row) => toPublisher(row, time))

    return TrustedPublisherStore.of({
      // Concurrent adds to one game serialise on the game's row (MySQL: FOR UPDATE; SQLite transactions hold the write
      // lock), so they cannot pass the limit together: the game row always exists, unlike a first publisher to lock.
      add: (publisher, limit, record) =>
        database.transaction("add trusted publisher", (tx) =>
          tx.run(async (raw) => {
            const trx = withPublishers(raw)
            await trx.selectFrom("games").select("id").where("id", "=", publisher.gameId).$if(dialect.locksRowsForUpdate, (q) => q.forUpdate()).execute()
            const existing = await trx.selectFrom("trusted_publishers").select("id").where("game_id", "=", publisher.gameId).execute()
            if (existing.length >= limit) return false
            await trx.insertInto("trusted_publishers").values({
              id: publisher.id,
              game_id: publisher.gameId,
              provider: publisher.provider,
              repository: publisher.repository,
              repository_key: repositoryKey(publisher.repository),
              workflow: publisher.workflow,
              environment: publisher.environment,
              ref: publisher.ref,
              repository_id: publisher.repositoryId,
              repository_owner_id: publisher.repositoryOwnerId,
              created_by: publisher.createdBy,
              created_at: time.write(publisher.createdAt),
            }).execute()
            await writeCredentialRecord(raw, time, record)
            return true
          })).pipe(orUnavailable),
      listByGame: (gameId) =>
        database.query("list trusted publishers", () =>
          db.selectFrom("trusted_publishers").select(COLUMNS).where("game_id", "=", gameId).orderBy("created_at", "asc").orderBy("id", "asc").execute()).pipe(
            Effect.map(rows),
            orUnavailable,
          ),
      remove: (gameId, id, record) =>
        database.transaction("remove trusted publisher", (tx) =>
          tx.run(async (raw) => {
            const result = await withPublishers(raw).deleteFrom("trusted_publishers").where("game_id", "=", gameId).where("id", "=", id).executeTakeFirst()
            if (result.numDeletedRows === 0n) return false
            await writeCredentialRecord(raw, time, record)
            return true
          })).pipe(orUnavailable),
      // By the key; a row an instance older than 0013 wrote has an empty key and is found by its exact repository.
      findByRepository: (provider, repository) =>
        database.query("find trusted publishers", () =>
          db.selectFrom("trusted_publishers").select(COLUMNS).where("provider", "=", provider)
            .where((eb) => eb.or([dialect.sameText("repository_key", repositoryKey(repository)), eb.and([eb("repository_key", "=", ""), dialect.sameText("repository", repository)])]))
            .orderBy("created_at", "asc").orderBy("id", "asc").execute()).pipe(Effect.map(rows), orUnavailable),
      // One UPDATE that sets only what is unset: it is atomic on its own, and a concurrent pin waits for this one's
      // row lock (MySQL) or the write lock (SQLite), then finds the ids set. The read after it sees whichever won.
      pinIds: (id, ids) =>
        database.query("pin trusted publisher ids", async () => {
          await db.updateTable("trusted_publishers").set({
            repository_id: sql<string>`coalesce(repository_id, ${ids.repositoryId})`,
            repository_owner_id: sql<string>`coalesce(repository_owner_id, ${ids.repositoryOwnerId})`,
          }).where("id", "=", id).where((eb) => eb.or([eb("repository_id", "is", null), eb("repository_owner_id", "is", null)])).execute()
          return db.selectFrom("trusted_publishers").select(COLUMNS).where("id", "=", id).executeTakeFirst()
        }).pipe(Effect.map((row) => (row === undefined ? Option.none() : Option.some(toPublisher(row, time)))), orUnavailable),
    })
  }),
)
