import { SYSTEM_ACTOR } from "../../domain/auth/Actor.ts"
import { appendTimelineEvent } from "./SqlTimeline.ts"
import { Effect, Layer, Option, Schema } from "effect"
import type { Selectable } from "kysely"
import { ScanReport } from "../../domain/scan/ScanReport.ts"
import { type ScanRecord, ScanStore } from "../../ports/ScanStore.ts"
import { releaseFromRow } from "./rows.ts"
import type { ScansTable } from "./schema.ts"
import { SqlDatabase } from "./SqlDatabase.ts"
import { orUnavailable } from "./SqlFailure.ts"

const decodeReport = Schema.decodeUnknownSync(ScanReport)

export const layerSqlScanStore = Layer.effect(
  ScanStore,
  Effect.gen(function*() {
    const database = yield* SqlDatabase
    const { dialect, time } = database
    const toRecord = (row: Selectable<ScansTable>): ScanRecord => ({
      gameId: row.game_id,
      version: row.version,
      report: decodeReport(JSON.parse(row.report)),
      scannedAt: time.read(row.scanned_at),
    })
    return ScanStore.of({
      // A rescan replaces the earlier record.
      save: (record) => {
        const values = { game_id: record.gameId, version: record.version, report: JSON.stringify(record.report), scanned_at: time.write(record.scannedAt) }
        return database.transaction("save scan", (tx) =>
          tx.run(async (trx) => {
            await dialect.upsert(trx.insertInto("scans").values(values), ["game_id", "version"], { report: values.report, scanned_at: values.scanned_at }).execute()
            await appendTimelineEvent(trx, time, { gameId: record.gameId, version: record.version, kind: "scanned", actor: SYSTEM_ACTOR, reason: null, at: record.scannedAt })
          })).pipe(Effect.asVoid, orUnavailable)
      },
      get: (gameId, version) =>
        database.query("get scan", (db) => db.selectFrom("scans").selectAll().where("game_id", "=", gameId).where("version", "=", version).executeTakeFirst())
          .pipe(
            Effect.map((row) => (row === undefined ? Option.none() : Option.some(toRecord(row)))),
            orUnavailable,
          ),
      listByGame: (gameId) =>
        database.query("list scans of game", (db) => db.selectFrom("scans").selectAll().where("game_id", "=", gameId).orderBy("version").execute()).pipe(
          Effect.map((rows) => rows.map(toRecord)),
          orUnavailable,
        ),
      unscanned: (limit) =>
        database.query("list unscanned releases", (db) =>
          db.selectFrom("releases").selectAll("releases")
            .leftJoin("scans", (join) => join.onRef("scans.game_id", "=", "releases.game_id").onRef("scans.version", "=", "releases.version"))
            .where("scans.game_id", "is", null)
            .orderBy("releases.created_at").orderBy("releases.game_id").orderBy("releases.version")
            .limit(limit)
            .execute()).pipe(Effect.map((rows) => rows.map((row) => releaseFromRow(row, time))), orUnavailable),
    })
  }),
)
