// The timeline on the records database: append-only rows written inside the transaction of the change they record
// (`appendTimelineEvent`), and the port's read side. Other stores append with the same function.
import { Effect, Layer } from "effect"
import type { Transaction } from "kysely"
import type { Actor } from "../../domain/auth/Actor.ts"
import type { StoredTimelineEvent, TimelineEvent } from "../../domain/timeline/TimelineEvent.ts"
import { Timeline } from "../../ports/Timeline.ts"
import type { TimeCodec } from "./dialects/Dialect.ts"
import type { Tables } from "./schema.ts"
import { SqlDatabase } from "./SqlDatabase.ts"
import { orUnavailable } from "./SqlFailure.ts"

/** Appends one event inside the caller's transaction. */
export const appendTimelineEvent = async (trx: Transaction<Tables>, time: TimeCodec, event: TimelineEvent): Promise<void> => {
  await trx.insertInto("release_timeline").values({
    game_id: event.gameId,
    version: event.version,
    kind: event.kind,
    actor: event.actor,
    reason: event.reason,
    at: time.write(event.at),
  }).execute()
}

export const layerSqlTimeline = Layer.effect(
  Timeline,
  Effect.gen(function*() {
    const database = yield* SqlDatabase
    const { time } = database
    return Timeline.of({
      list: (gameId, afterSeq, limit) =>
        database.query("read a game's timeline", (db) =>
          db.selectFrom("release_timeline").selectAll().where("game_id", "=", gameId).where("seq", ">", afterSeq).orderBy("seq").limit(limit)
            .execute()).pipe(
            Effect.map((rows) =>
              rows.map((row): StoredTimelineEvent => ({
                seq: Number(row.seq),
                gameId: row.game_id,
                version: row.version,
                kind: row.kind,
                actor: row.actor as Actor,
                reason: row.reason,
                at: time.read(row.at),
              }))
            ),
            orUnavailable,
          ),
    })
  }),
)
