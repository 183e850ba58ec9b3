import { SYSTEM_ACTOR } from "../../domain/auth/Actor.ts"
import { appendTimelineEvent } from "./SqlTimeline.ts"
import { Effect, Layer, Option, Schema } from "effect"
import type { Selectable } from "kysely"
import { ScanReport } from "../../domain/scan/ScanReport.ts"
import { type ScanRecord, ScanStore } from "../../ports/ScanStore.ts"
import { releaseFromRow } from "./rows.ts"
import { scanCountColumns } from "./scanColumns.ts"
import type { ScansTable } from "./schema.ts"
import { SqlDatabase } from "./SqlDatabase.ts"
import { orUnavailable } from "./SqlFailure.ts"

const decodeReport = Schema.decodeUnknownSync(ScanReport)

const chunks = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size))

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
        const columns = { report: JSON.stringify(record.report), scanned_at: time.write(record.scannedAt), ...scanCountColumns(record.report) }
        const values = { game_id: record.gameId, version: record.version, ...columns }
        return database.transaction("save scan", (tx) =>
          tx.run(async (trx) => {
            await dialect.upsert(trx.insertInto("scans").values(values), ["game_id", "version"], columns).execute()
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
      // Only the count columns: the queue never reads reports.
      countsOf: (releases) =>
        Effect.forEach(chunks(releases, 200), (some) =>
          database.query("scan counts", (db) =>
            db.selectFrom("scans").select(["game_id", "version", "error_count", "warning_count", "capability_ids"])
              .where((eb) => eb.or(some.map((r) => eb.and([eb("game_id", "=", r.gameId), eb("version", "=", r.version)]))))
              .execute())).pipe(
            Effect.map((results) =>
              results.flat().map((row) => ({
                gameId: row.game_id,
                version: row.version,
                errors: Number(row.error_count ?? 0),
                warnings: Number(row.warning_count ?? 0),
                capabilities: JSON.parse(row.capability_ids ?? "[]") as ReadonlyArray<string>,
              }))
            ),
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
      remove: (gameId, version) =>
        database.query("remove scan", (db) => db.deleteFrom("scans").where("game_id", "=", gameId).where("version", "=", version).executeTakeFirst()).pipe(
          Effect.map((result) => result.numDeletedRows > 0n),
          orUnavailable,
        ),
    })
  }),
)
