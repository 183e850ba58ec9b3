import { Effect, Layer } from "effect"
import { decideBudget } from "../../domain/budget/BudgetPolicy.ts"
import { RateLimited } from "../../domain/errors.ts"
import { BudgetLedger, type BudgetReservation } from "../../ports/BudgetLedger.ts"

export const layerMemoryBudgetLedger = Layer.sync(BudgetLedger, () => {
  const spends = new Map<string, BudgetReservation>()
  return BudgetLedger.of({
    // Decide and record in one synchronous step: concurrent reservations cannot both see room for one.
    reserve: ({ id, accountId, endpoint, now, limit }) =>
      Effect.suspend(() => {
        const times = [...spends.values()]
          .filter((s) => s.accountId === accountId && s.endpoint === endpoint)
          .map((s) => s.at.getTime())
        const decision = decideBudget(times, now.getTime(), limit)
        if (!decision.allowed) {
          return Effect.fail(new RateLimited({ endpoint, retryAfterSeconds: decision.retryAfterSeconds }))
        }
        const reservation = { id, accountId, endpoint, at: now }
        spends.set(id, reservation)
        return Effect.succeed(reservation)
      }),
    refund: (reservation) => Effect.sync(() => void spends.delete(reservation.id)),
  })
})
