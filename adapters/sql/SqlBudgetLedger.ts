import { Effect, Layer } from "effect"
import { decideBudget } from "../../domain/budget/BudgetPolicy.ts"
import { RateLimited } from "../../domain/errors.ts"
import { BudgetLedger } from "../../ports/BudgetLedger.ts"
import { SqlDatabase } from "./SqlDatabase.ts"

/**
 * Spends live in the database, so every instance behind the load balancer shares one budget. A reservation decides
 * and records inside one transaction that holds the account's lock: on MySQL `SELECT … FOR UPDATE` on the
 * (account, endpoint) row; on SQLite the transaction's `begin immediate` write lock.
 */
export const layerSqlBudgetLedger = Layer.effect(
  BudgetLedger,
  Effect.gen(function*() {
    const database = yield* SqlDatabase
    const { db, time, flavor } = database

    return BudgetLedger.of({
      reserve: ({ id, accountId, endpoint, now, limit }) =>
        database.run(
          "reserve budget",
          async (signal) => {
            if (flavor === "mysql") {
              // Created outside the transaction: concurrent first reservations then all wait on one existing row lock.
              await db.insertInto("budget_accounts").ignore().values({ account_id: accountId, endpoint }).execute()
            }
            return database.transaction(signal, async (trx) => {
              if (flavor === "mysql") {
                await trx.selectFrom("budget_accounts").select("account_id")
                  .where("account_id", "=", accountId).where("endpoint", "=", endpoint).forUpdate().execute()
              }
              const mine = trx.selectFrom("budget_spends").where("account_id", "=", accountId).where("endpoint", "=", endpoint)
              // Spends that left the window can never matter again.
              const windowStart = time.write(new Date(now.getTime() - limit.windowSeconds * 1000))
              await trx.deleteFrom("budget_spends")
                .where("account_id", "=", accountId).where("endpoint", "=", endpoint).where("spent_at", "<=", windowStart)
                .execute()
              const spent = await mine.select("spent_at").execute()
              const decision = decideBudget(spent.map((s) => time.read(s.spent_at).getTime()), now.getTime(), limit)
              if (!decision.allowed) throw new RateLimited({ endpoint, retryAfterSeconds: decision.retryAfterSeconds })
              await trx.insertInto("budget_spends").values({ id, account_id: accountId, endpoint, spent_at: time.write(now) }).execute()
              return { id, accountId, endpoint, at: now }
            })
          },
          (error) => (error instanceof RateLimited ? error : undefined),
        ),
      refund: (reservation) =>
        database.run("refund budget", () => db.deleteFrom("budget_spends").where("id", "=", reservation.id).execute()).pipe(Effect.asVoid),
    })
  }),
)
