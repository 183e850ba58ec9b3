import { Effect, Layer } from "effect"
import { type ReviewRequested, ReviewNotifier } from "../../ports/ReviewNotifier.ts"
import type { LogEntry } from "../http/App.ts"

/** The line every review request logs, with or without a webhook. */
export const reviewRequestedEntry = (event: ReviewRequested): LogEntry => ({ level: "info", msg: "review requested", ...event })

/** Pings the review queue with a structured log line (always on; WebhookReviewNotifier adds the signed webhook). */
export const layerLogReviewNotifier = (log: (entry: LogEntry) => void) =>
  Layer.succeed(ReviewNotifier, ReviewNotifier.of({
    notify: (event) => Effect.sync(() => log(reviewRequestedEntry(event))),
  }))
