// Spec §8: each budgeted endpoint has its own sliding-window budget per account.

export type BudgetedEndpoint = "create_game" | "upload_url" | "finalize" | "submit"

export interface BudgetLimit {
  readonly count: number
  readonly windowSeconds: number
}

export const DEFAULT_BUDGET: BudgetLimit = { count: 1, windowSeconds: 3600 }

export type BudgetDecision = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number }

/** Decides from the times of earlier spends whether one more spend fits in the window ending at `now`. */
export const decideBudget = (spentAtMs: ReadonlyArray<number>, nowMs: number, limit: BudgetLimit): BudgetDecision => {
  const windowMs = limit.windowSeconds * 1000
  const inWindow = spentAtMs.filter((t) => t > nowMs - windowMs).sort((a, b) => a - b)
  if (inWindow.length < limit.count) return { allowed: true }
  // The spend that must leave the window before another fits.
  const blocking = inWindow[inWindow.length - limit.count] ?? nowMs
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((blocking + windowMs - nowMs) / 1000)) }
}
