// Creators' webhook subscriptions (table from migration 0008).
import { Effect, Layer } from "effect"
import { WebhookSubscriptions } from "../../ports/WebhookSubscriptions.ts"
import { SqlDatabase } from "./SqlDatabase.ts"
import { orUnavailable } from "./SqlFailure.ts"

export const layerSqlWebhookSubscriptions = Layer.effect(
  WebhookSubscriptions,
  Effect.gen(function*() {
    const database = yield* SqlDatabase
    const { time, dialect } = database
    return WebhookSubscriptions.of({
      // The owner's rows are locked (MySQL; SQLite transactions hold the write lock) while they are counted, so
      // concurrent adds cannot pass the limit together.
      add: (s, limit) =>
        database.transaction("add webhook subscription", (tx) =>
          tx.run(async (trx) => {
            const existing = await trx.selectFrom("webhook_subscriptions").select("id").where("owner_id", "=", s.ownerId)
              .$if(dialect.name === "mysql", (q) => q.forUpdate()).execute()
            if (existing.length >= limit) return false
            await trx.insertInto("webhook_subscriptions").values({ id: s.id, owner_id: s.ownerId, url: s.url, secret: s.secret, created_at: time.write(s.createdAt) }).execute()
            return true
          })).pipe(orUnavailable),
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
