// Trusted publishers on the records' database (migration 0009).
import { Effect, Layer } from "effect"
import type { Kysely, Selectable } from "kysely"
import type { PublisherProvider, TrustedPublisher } from "../../domain/credentials/TrustedPublisher.ts"
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
  workflow: string
  environment: string | null
  ref: string | null
  created_by: string
  created_at: Timestamp
}

const withPublishers = (db: Kysely<Tables>): Kysely<Tables & { trusted_publishers: TrustedPublishersTable }> =>
  db.$extendTables<{ trusted_publishers: TrustedPublishersTable }>()

const toPublisher = (row: Selectable<TrustedPublishersTable>, time: TimeCodec): TrustedPublisher => ({
  id: row.id,
  gameId: row.game_id,
  provider: row.provider as PublisherProvider,
  repository: row.repository,
  workflow: row.workflow,
  environment: row.environment,
  ref: row.ref,
  createdBy: row.created_by,
  createdAt: time.read(row.created_at),
})

export const layerSqlTrustedPublisherStore = Layer.effect(
  TrustedPublisherStore,
  Effect.gen(function*() {
    const database = yield* SqlDatabase
    const { dialect, time } = database
    const db = withPublishers(database.db)
    const rows = (rows: ReadonlyArray<Selectable<TrustedPublishersTable>>) => rows.map((row) => toPublisher(row, time))

    return TrustedPublisherStore.of({
      add: (publisher, record) =>
        database.transaction("add trusted publisher", (tx) =>
          tx.run(async (raw) => {
            await withPublishers(raw).insertInto("trusted_publishers").values({
            id: publisher.id,
            game_id: publisher.gameId,
            provider: publisher.provider,
            repository: publisher.repository,
            workflow: publisher.workflow,
            environment: publisher.environment,
            ref: publisher.ref,
            created_by: publisher.createdBy,
            created_at: time.write(publisher.createdAt),
            }).execute()
            await writeCredentialRecord(raw, time, record)
          })).pipe(orUnavailable),
      listByGame: (gameId) =>
        database.query("list trusted publishers", () =>
          db.selectFrom("trusted_publishers").selectAll().where("game_id", "=", gameId).orderBy("created_at", "asc").orderBy("id", "asc").execute()).pipe(
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
      findByRepository: (provider, repository) =>
        database.query("find trusted publishers", () =>
          db.selectFrom("trusted_publishers").selectAll().where("provider", "=", provider).where(dialect.sameText("repository", repository))
            .orderBy("created_at", "asc").orderBy("id", "asc").execute()).pipe(Effect.map(rows), orUnavailable),
    })
  }),
)
