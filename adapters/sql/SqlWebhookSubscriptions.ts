// Creators' webhook subscriptions (table from migration 0008).
import { Effect, Layer } from "effect"
import { WebhookSubscriptions } from "../../ports/WebhookSubscriptions.ts"
import { SqlDatabase } from "./SqlDatabase.ts"
import { orUnavailable } from "./SqlFailure.ts"

/** The name of the per-owner lock row that adds take (budget_accounts holds one row per account and lock name). */
const WEBHOOK_LIMIT_LOCK = "webhook_subscriptions"

export const layerSqlWebhookSubscriptions = Layer.effect(
  WebhookSubscriptions,
  Effect.gen(function*() {
    const database = yield* SqlDatabase
    const { time, dialect } = database
    return WebhookSubscriptions.of({
      // Concurrent adds of one owner serialise on the owner's account lock (the budgets' lock row, under a name of its
      // own; SQLite transactions hold the write lock), so they cannot pass the limit together. Locking the owner's
      // subscription rows would not do: at READ COMMITTED a first add finds no row to lock.
      add: (s, limit) => {
        const lock = { accountId: s.ownerId, endpoint: WEBHOOK_LIMIT_LOCK }
        const countThenAdd = database.transaction("add webhook subscription", (tx) =>
          tx.run(async (trx) => {
            await dialect.lockBudget(trx, lock)
            const existing = await trx.selectFrom("webhook_subscriptions").select("id").where(dialect.sameText("owner_id", s.ownerId)).execute()
            if (existing.length >= limit) return false
            await trx.insertInto("webhook_subscriptions").values({ id: s.id, owner_id: s.ownerId, url: s.url, secret: s.secret, created_at: time.write(s.createdAt) }).execute()
            return true
          }))
        return database.query("prepare the webhook limit lock", (db) => dialect.prepareBudgetLock(db, lock)).pipe(Effect.andThen(countThenAdd), orUnavailable)
      },
      listByOwner: (ownerId) =>
        database.query("list webhook subscriptions", (db) =>
          db.selectFrom("webhook_subscriptions").selectAll().where("owner_id", "=", ownerId).orderBy("created_at").orderBy("id").execute()).pipe(
          Effect.map((rows) => rows.map((r) => ({ id: r.id, ownerId: r.owner_id, url: r.url, secret: r.secret, createdAt: time.read(r.created_at) }))),
          orUnavailable,
        ),
      get: (id) =>
        database.query("read a webhook subscription", (db) => db.selectFrom("webhook_subscriptions").selectAll().where("id", "=", id).executeTakeFirst()).pipe(
          Effect.map((r) => r === undefined ? null : { id: r.id, ownerId: r.owner_id, url: r.url, secret: r.secret, createdAt: time.read(r.created_at) }),
          orUnavailable,
        ),
      remove: (ownerId, id) =>
        database.query("remove webhook subscription", (db) =>
          db.deleteFrom("webhook_subscriptions").where("owner_id", "=", ownerId).where("id", "=", id).executeTakeFirst()).pipe(
          Effect.map((result) => result.numDeletedRows > 0n),
          orUnavailable,
        ),
    })
  }),
)
