// The timeline on the records database: append-only rows written inside the transaction of the change they record
// (`appendTimelineEvent`), and the port's read side. Other stores append with the same function.
import { Effect, Layer } from "effect"
import type { Transaction } from "kysely"
import type { Actor } from "../../domain/auth/Actor.ts"
import type { StoredTimelineEvent, TimelineEvent } from "../../domain/timeline/TimelineEvent.ts"
import type { OutboxEvent } from "../../ports/NotificationOutbox.ts"
import { Timeline } from "../../ports/Timeline.ts"
import { creatorDeliveries, CREATOR_EVENT_TYPES } from "../notifier/creatorEvents.ts"
import type { TimeCodec } from "./dialects/Dialect.ts"
import type { Tables } from "./schema.ts"
import { SqlDatabase } from "./SqlDatabase.ts"
import { orUnavailable } from "./SqlFailure.ts"
import type { NotificationOutboxTable } from "./SqlNotificationOutbox.ts"

/**
 * Appends one event inside the caller's transaction, and, when it is one creators are told about, its deliveries to
 * the game owner's webhooks (adapters/notifier/creatorEvents.ts): both commit or neither does.
 */
export const appendTimelineEvent = async (trx: Transaction<Tables>, time: TimeCodec, event: TimelineEvent): Promise<void> => {
  await trx.insertInto("release_timeline").values({
    game_id: event.gameId,
    version: event.version,
    kind: event.kind,
    actor: event.actor,
    reason: event.reason,
    at: time.write(event.at),
  }).execute()
  if (CREATOR_EVENT_TYPES[event.kind] === undefined) return
  const subscriptions = await trx.selectFrom("webhook_subscriptions").innerJoin("games", "games.owner_id", "webhook_subscriptions.owner_id")
    .select("webhook_subscriptions.id").where("games.id", "=", event.gameId).execute()
  await enqueueCreatorDeliveries(trx, time, event, subscriptions.map((s) => s.id))
}

/** The deliveries of `event` to these subscriptions, inside the caller's transaction (each event id is new: no clash). */
export const enqueueCreatorDeliveries = (trx: Transaction<Tables>, time: TimeCodec, event: TimelineEvent, subscriptionIds: ReadonlyArray<string>) =>
  insertDeliveries(trx, time, creatorDeliveries(event, subscriptionIds))

/** Outbox rows inside the caller's transaction. */
export const insertDeliveries = async (trx: Transaction<Tables>, time: TimeCodec, deliveries: ReadonlyArray<OutboxEvent>): Promise<void> => {
  const outbox = trx.$extendTables<{ notification_outbox: NotificationOutboxTable }>()
  for (const delivery of deliveries) {
    await outbox.insertInto("notification_outbox").values({
      id: delivery.id,
      dedupe_key: delivery.dedupeKey,
      type: delivery.type,
      body: delivery.body,
      created_at: time.write(delivery.createdAt),
      status: "pending",
      attempts: 0,
      next_attempt_at: time.write(delivery.createdAt),
      lease: null,
      leased_until: null,
      last_error: null,
      finished_at: null,
    }).execute()
  }
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
