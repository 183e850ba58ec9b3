import { Effect, Layer } from "effect"
import { type ReviewRequested, ReviewNotifier } from "../../ports/ReviewNotifier.ts"
import { logged } from "../observability/logged.ts"

/** The line every review request logs, with or without a webhook. */
export const reviewRequestedLogged = (event: ReviewRequested): Effect.Effect<void> => logged("info", "review requested", { ...event })

/** Pings the review queue with a structured log line (always on; WebhookReviewNotifier adds the signed webhook). */
export const layerLogReviewNotifier = Layer.succeed(ReviewNotifier, ReviewNotifier.of({ notify: reviewRequestedLogged }))
