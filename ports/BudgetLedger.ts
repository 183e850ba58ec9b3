import { Context, type Effect } from "effect"
import type { BudgetedEndpoint, BudgetLimit } from "../domain/budget/BudgetPolicy.ts"
import type { RateLimited, Unavailable } from "../domain/errors.ts"

export interface BudgetReservation {
  readonly id: string
  readonly accountId: string
  readonly endpoint: BudgetedEndpoint
  readonly at: Date
}

/** Per-account spend records. Reserve is atomic: concurrent calls can never overspend a budget. */
export class BudgetLedger extends Context.Service<BudgetLedger, {
  reserve(request: {
    readonly id: string
    readonly accountId: string
    readonly endpoint: BudgetedEndpoint
    readonly now: Date
    readonly limit: BudgetLimit
  }): Effect.Effect<BudgetReservation, RateLimited | Unavailable>
  /** Gives a reservation back when the call it paid for failed. Refunding twice is harmless. */
  refund(reservation: BudgetReservation): Effect.Effect<void, Unavailable>
}>()("pckgate/ports/BudgetLedger") {}
