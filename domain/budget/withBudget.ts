import { Effect } from "effect"
import { BudgetLedger } from "../../ports/BudgetLedger.ts"
import { Clock } from "../../ports/Clock.ts"
import { Ids } from "../../ports/Ids.ts"
import { Policy } from "../Policy.ts"
import type { BudgetedEndpoint } from "./BudgetPolicy.ts"

/**
 * Runs `work` on the account's budget for `endpoint`: reserves one spend first (failing with RateLimited when the
 * budget is spent) and gives it back if the work fails or is interrupted, so only successful calls spend.
 */
export const withBudget = <A, E, R>(endpoint: BudgetedEndpoint, accountId: string, work: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const ledger = yield* BudgetLedger
    const now = yield* (yield* Clock).now
    const id = yield* (yield* Ids).next("bud")
    const { budget } = yield* Policy
    const reservation = yield* ledger.reserve({ id, accountId, endpoint, now, limit: budget })
    return yield* work.pipe(Effect.onError(() => ledger.refund(reservation).pipe(Effect.ignore)))
  })
