import { Effect, Layer, Option, Schema } from "effect"
import { PackFileEntry } from "../../domain/review/PackFile.ts"
import { ReleaseEntryStore } from "../../ports/ReleaseEntryStore.ts"
import { SqlDatabase } from "./SqlDatabase.ts"
import { orUnavailable } from "./SqlFailure.ts"

const decodeEntries = Schema.decodeUnknownSync(Schema.Array(PackFileEntry))

export const layerSqlReleaseEntryStore = Layer.effect(
  ReleaseEntryStore,
  Effect.gen(function*() {
    const database = yield* SqlDatabase
    const { dialect, time } = database
    return ReleaseEntryStore.of({
      save: (record) => {
        const values = {
          game_id: record.gameId,
          version: record.version,
          entries: JSON.stringify(record.entries),
          computed_at: time.write(record.computedAt),
        }
        return database.transaction("save release entries", (tx) =>
          tx.run((trx) =>
            dialect.upsert(trx.insertInto("release_entries").values(values), ["game_id", "version"], {
              entries: values.entries,
              computed_at: values.computed_at,
            }).execute()
          )).pipe(Effect.asVoid, orUnavailable)
      },
      get: (gameId, version) =>
        database.query("get release entries", (db) =>
          db.selectFrom("release_entries").selectAll().where("game_id", "=", gameId).where("version", "=", version).executeTakeFirst()).pipe(
            Effect.map((row) =>
              row === undefined
                ? Option.none()
                : Option.some({ gameId: row.game_id, version: row.version, entries: decodeEntries(JSON.parse(row.entries)), computedAt: time.read(row.computed_at) })
            ),
            orUnavailable,
          ),
    })
  }),
)
