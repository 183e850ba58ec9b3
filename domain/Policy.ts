import { Context } from "effect"
import { type BudgetLimit, DEFAULT_BUDGET } from "./budget/BudgetPolicy.ts"

/** Policy values of spec §8 that operators may widen; defaults are the spec's. */
export interface ServicePolicy {
  readonly budget: BudgetLimit
  readonly uploadUrlTtlSeconds: number
  readonly downloadUrlTtlSeconds: number
  /** An upload intent stays valid for finalize this long, although its URL expires after an hour. */
  readonly intentTtlSeconds: number
}

export const DEFAULT_POLICY: ServicePolicy = {
  budget: DEFAULT_BUDGET,
  uploadUrlTtlSeconds: 3600,
  downloadUrlTtlSeconds: 300,
  intentTtlSeconds: 24 * 3600,
}

export const Policy = Context.Reference<ServicePolicy>("pckgate/domain/Policy", {
  defaultValue: () => DEFAULT_POLICY,
})
