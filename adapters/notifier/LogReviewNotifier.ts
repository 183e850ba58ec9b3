import { Effect, Layer } from "effect"
import { ReviewNotifier } from "../../ports/ReviewNotifier.ts"
import type { LogEntry } from "../http/App.ts"

/** Pings the review queue with a structured log line (always on; a webhook adapter can be added alongside). */
export const layerLogReviewNotifier = (log: (entry: LogEntry) => void) =>
  Layer.succeed(ReviewNotifier, ReviewNotifier.of({
    notify: (event) => Effect.sync(() => log({ level: "info", msg: "review requested", ...event })),
  }))
