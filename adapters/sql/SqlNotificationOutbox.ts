// The webhook outbox on the records' database (migration 0003). Claiming is a compare-and-set inside one write
// transaction: candidates are read, then leased by an UPDATE that re-checks "pending, due, not leased" on each row.
// InnoDB evaluates an UPDATE's WHERE on the latest committed row under its lock, and SQLite runs one writer at a
// time, so two instances racing for a row never both lease it; the loser's UPDATE simply matches nothing.
import { Effect, Layer, Option } from "effect"
import type { Kysely, Selectable } from "kysely"
import { type ClaimedDelivery, type Delivery, NotificationOutbox, type OutboxEvent } from "../../ports/NotificationOutbox.ts"
import type { TimeCodec } from "./dialects/Dialect.ts"
import type { Count, Tables, Timestamp } from "./schema.ts"
import { SqlDatabase } from "./SqlDatabase.ts"
import { orUnavailable } from "./SqlFailure.ts"

export interface NotificationOutboxTable {
  id: string
  dedupe_key: string
  type: string
  body: string
  created_at: Timestamp
  status: string
  attempts: Count
  next_attempt_at: Timestamp
  lease: string | null
  leased_until: Timestamp | null
  last_error: string | null
  finished_at: Timestamp | null
}

type OutboxTables = Tables & { notification_outbox: NotificationOutboxTable }

/** Tables (schema.ts) belongs to the other stores; this store adds its own table to the type. */
const withOutbox = (db: Kysely<Tables>): Kysely<OutboxTables> => db.$extendTables<{ notification_outbox: NotificationOutboxTable }>()

const KEYS_PER_QUERY = 500
/** How often one claim reads new candidates after losing some to a concurrent claimer. */
const CLAIM_ROUNDS = 4
/** The column is VARCHAR(500) on MySQL. */
const MAX_ERROR_LENGTH = 500

const chunks = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size))

const toDelivery = (row: Selectable<NotificationOutboxTable>, time: TimeCodec): Delivery => ({
  id: row.id,
  dedupeKey: row.dedupe_key,
  type: row.type,
  createdAt: time.read(row.created_at),
  body: row.body,
  status: row.status as Delivery["status"],
  attempts: Number(row.attempts),
  nextAttemptAt: time.read(row.next_attempt_at),
  lastError: row.last_error,
  finishedAt: row.finished_at === null ? null : time.read(row.finished_at),
})

export const layerSqlNotificationOutbox = Layer.effect(
  NotificationOutbox,
  Effect.gen(function*() {
    const database = yield* SqlDatabase
    const { dialect, time } = database
    const db = withOutbox(database.db)

    /** Pending, due at `now`, and not leased (or the lease ran out). */
    const claimable = (from: Kysely<OutboxTables>, now: Date) => {
      const at = time.write(now)
      return from.selectFrom("notification_outbox")
        .where("status", "=", "pending")
        .where("next_attempt_at", "<=", at)
        .where((eb) => eb.or([eb("leased_until", "is", null), eb("leased_until", "<=", at)]))
    }
    /** The ids stored under `keys`, by key. */
    const storedIds = async (from: Kysely<OutboxTables>, keys: ReadonlyArray<string>) => {
      const found = new Map<string, string>()
      for (const batch of chunks(keys, KEYS_PER_QUERY)) {
        const rows = await from.selectFrom("notification_outbox").select(["dedupe_key", "id"]).where("dedupe_key", "in", batch).execute()
        for (const row of rows) found.set(row.dedupe_key, row.id)
      }
      return found
    }

    return NotificationOutbox.of({
      // Existing keys are read first, without a write transaction: a recovery pass over events that are all known
      // (the usual case) writes nothing. The insert still tolerates a key added meanwhile by another instance; reading
      // the keys back tells which rows this call wrote (affected-row counts of a no-op upsert differ between servers
      // and client flags).
      enqueue: (events) =>
        events.length === 0 ? Effect.succeed([]) : database.within(
          "enqueue notifications",
          Effect.gen(function*() {
            const known = yield* database.query("enqueue notifications", () => storedIds(db, events.map((e) => e.dedupeKey)))
            const fresh: Array<OutboxEvent> = []
            for (const event of events) {
              if (known.has(event.dedupeKey)) continue
              known.set(event.dedupeKey, event.id)
              fresh.push(event)
            }
            if (fresh.length === 0) return []
            return yield* database.transaction("enqueue notifications", (tx) =>
              tx.run(async (raw) => {
                const trx = withOutbox(raw)
                for (const event of fresh) {
                  const insert = trx.insertInto("notification_outbox").values({
                    id: event.id,
                    dedupe_key: event.dedupeKey,
                    type: event.type,
                    body: event.body,
                    created_at: time.write(event.createdAt),
                    status: "pending",
                    attempts: 0,
                    next_attempt_at: time.write(event.createdAt),
                    lease: null,
                    leased_until: null,
                    last_error: null,
                    finished_at: null,
                  })
                  await dialect.insertUnlessExists(insert, ["dedupe_key"]).execute()
                }
                const after = await storedIds(trx, fresh.map((e) => e.dedupeKey))
                return fresh.filter((event) => after.get(event.dedupeKey) === event.id)
              }))
          }),
        ).pipe(orUnavailable),
      // Polling finds nothing most of the time: that is one indexed read, without a write transaction. Otherwise the
      // candidates are read again inside the transaction and leased; a claimer that lost some of them to a concurrent
      // one (MySQL: its UPDATE waited for the other's commit, then matched nothing) reads the next ones, a few times.
      claimDue: ({ now, limit, lease, leasedUntil }) =>
        limit <= 0 ? Effect.succeed([]) : database.within(
          "claim due notifications",
          Effect.gen(function*() {
            const due = yield* database.query("claim due notifications", () => claimable(db, now).select("id").limit(1).execute())
            if (due.length === 0) return []
            const claimed = yield* database.transaction("claim due notifications", (tx) =>
              tx.run(async (raw) => {
                const trx = withOutbox(raw)
                const claimed: Array<Selectable<NotificationOutboxTable>> = []
                for (let round = 0; round < CLAIM_ROUNDS && claimed.length < limit; round++) {
                  const wanted = limit - claimed.length
                  const ids = (await claimable(trx, now).select("id").orderBy("next_attempt_at").orderBy("id").limit(wanted).execute()).map((row) => row.id)
                  if (ids.length === 0) break
                  await trx.updateTable("notification_outbox")
                    .set((eb) => ({ lease, leased_until: time.write(leasedUntil), attempts: eb("attempts", "+", 1) }))
                    .where("id", "in", ids)
                    .where("status", "=", "pending")
                    .where("next_attempt_at", "<=", time.write(now))
                    .where((eb) => eb.or([eb("leased_until", "is", null), eb("leased_until", "<=", time.write(now))]))
                    .execute()
                  const won = await trx.selectFrom("notification_outbox").selectAll().where("id", "in", ids).where("lease", "=", lease).execute()
                  claimed.push(...won)
                  if (won.length === ids.length) break // nothing was lost to another claimer: nothing more is due
                }
                return claimed
              }))
            return claimed
              .map((row): ClaimedDelivery => ({ ...toDelivery(row, time), lease, leasedUntil }))
              .sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
          }),
        ).pipe(orUnavailable),
      markDelivered: (claim, at) =>
        database.query("mark notification delivered", () =>
          db.updateTable("notification_outbox")
            .set({ status: "delivered", finished_at: time.write(at), lease: null, leased_until: null })
            .where("id", "=", claim.id).where("lease", "=", claim.lease).where("status", "=", "pending")
            .executeTakeFirst()).pipe(Effect.map((result) => result.numUpdatedRows > 0n), orUnavailable),
      markFailed: (claim, failure) =>
        database.query("record notification failure", () =>
          db.updateTable("notification_outbox")
            .set(
              failure.retryAt === null
                ? { status: "abandoned", finished_at: time.write(failure.at), last_error: failure.error.slice(0, MAX_ERROR_LENGTH), lease: null, leased_until: null }
                : { next_attempt_at: time.write(failure.retryAt), last_error: failure.error.slice(0, MAX_ERROR_LENGTH), lease: null, leased_until: null },
            )
            .where("id", "=", claim.id).where("lease", "=", claim.lease).where("status", "=", "pending")
            .executeTakeFirst()).pipe(Effect.map((result) => result.numUpdatedRows > 0n), orUnavailable),
      get: (id) =>
        database.query("get notification", () => db.selectFrom("notification_outbox").selectAll().where("id", "=", id).executeTakeFirst()).pipe(
          Effect.map((row) => (row === undefined ? Option.none() : Option.some(toDelivery(row, time)))),
          orUnavailable,
        ),
      countPending: () =>
        database.query("count pending notifications", () =>
          db.selectFrom("notification_outbox").select((eb) => eb.fn.countAll().as("pending")).where("status", "=", "pending")
            .executeTakeFirstOrThrow()).pipe(Effect.map((row) => Number(row.pending)), orUnavailable),
      pruneFinished: (createdBefore) =>
        database.query("prune finished notifications", () =>
          db.deleteFrom("notification_outbox")
            .where("status", "in", ["delivered", "abandoned"])
            .where("created_at", "<", time.write(createdBefore))
            .executeTakeFirst()).pipe(Effect.map((result) => Number(result.numDeletedRows)), orUnavailable),
    })
  }),
)
