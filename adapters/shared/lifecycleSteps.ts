// What the memory and SQL release stores share about the lifecycle step: a review decision is an approve or reject
// step (compare-and-set on a pending release), and which change-feed kind each step writes.
import type { LifecycleStep } from "../../domain/review/ReviewMachine.ts"
import type { ChangeKind } from "../../ports/ChangeFeed.ts"
import type { ReviewDecision } from "../../ports/ReleaseStore.ts"

export const CHANGE_OF_STEP: Record<LifecycleStep["type"], ChangeKind> = {
  approve: "approved",
  reject: "rejected",
  withdraw: "withdrawn",
  activate: "activated",
  take_down: "taken_down",
  reinstate: "reinstated",
}

/** ReleaseStore.review's decision as the lifecycle step that records it (applied only while the release is pending). */
export const reviewStep = (version: string, decision: ReviewDecision): LifecycleStep => ({
  ...(decision.status === "approved"
    ? { type: "approve" as const, version, by: decision.by, overrideReason: decision.overrideReason ?? null }
    : { type: "reject" as const, version, by: decision.by, reason: decision.reason ?? "" }),
  at: decision.at,
  actor: decision.actor ?? `user:${decision.by}`,
})
