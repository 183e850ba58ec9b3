import { Context, type Effect } from "effect"

export interface ReviewRequested {
  readonly kind: "release_finalized" | "submission_received"
  readonly gameId: string
  readonly version: string
  readonly sha256: string
  readonly sizeBytes: number
  readonly at: Date
}

/** Pings the admin review queue (spec §3, §6). Delivery problems never fail the call that caused the event. */
export class ReviewNotifier extends Context.Service<ReviewNotifier, {
  notify(event: ReviewRequested): Effect.Effect<void>
}>()("pckgate/ports/ReviewNotifier") {}
