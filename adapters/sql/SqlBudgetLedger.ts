import { Effect, Layer } from "effect"
import { decideBudget } from "../../domain/budget/BudgetPolicy.ts"
import { RateLimited } from "../../domain/errors.ts"
import { BudgetLedger } from "../../ports/BudgetLedger.ts"
import { SqlDatabase } from "./SqlDatabase.ts"
import { orUnavailable } from "./SqlFailure.ts"

/**
 * Spends live in the database, so every instance behind the load balancer shares one budget. A reservation decides
 * and records inside one transaction that holds the account's lock (the dialect's `lockBudget`: a row lock on MySQL,
 * the write lock of `begin immediate` on SQLite).
 */
export const layerSqlBudgetLedger = Layer.effect(
  BudgetLedger,
  Effect.gen(function*() {
    const database = yield* SqlDatabase
    const { dialect, time } = database

    return BudgetLedger.of({
      reserve: ({ id, accountId, endpoint, now, limit }) => {
        const account = { accountId, endpoint }
        const decideAndSpend = database.transaction("reserve budget", (tx) =>
          Effect.gen(function*() {
            yield* tx.run((trx) => dialect.lockBudget(trx, account))
            // Spends that left the window can never matter again.
            const windowStart = time.write(new Date(now.getTime() - limit.windowSeconds * 1000))
            yield* tx.run((trx) =>
              trx.deleteFrom("budget_spends")
                .where("account_id", "=", accountId).where("endpoint", "=", endpoint).where("spent_at", "<=", windowStart)
                .execute()
            )
            const spent = yield* tx.run((trx) =>
              trx.selectFrom("budget_spends").select("spent_at").where("account_id", "=", accountId).where("endpoint", "=", endpoint).execute()
            )
            const decision = decideBudget(spent.map((s) => time.read(s.spent_at).getTime()), now.getTime(), limit)
            if (!decision.allowed) return yield* new RateLimited({ endpoint, retryAfterSeconds: decision.retryAfterSeconds })
            yield* tx.run((trx) => trx.insertInto("budget_spends").values({ id, account_id: accountId, endpoint, spent_at: time.write(now) }).execute())
            return { id, accountId, endpoint, at: now }
          }))
        return database.within(
          "reserve budget",
          database.query("prepare the budget lock", (db) => dialect.prepareBudgetLock(db, account)).pipe(Effect.andThen(decideAndSpend)),
        ).pipe(orUnavailable)
      },
      refund: (reservation) =>
        database.query("refund budget", (db) => db.deleteFrom("budget_spends").where("id", "=", reservation.id).execute()).pipe(
          Effect.asVoid,
          orUnavailable,
        ),
    })
  }),
)
