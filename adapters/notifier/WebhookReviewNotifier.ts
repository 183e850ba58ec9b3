// The review queue's notifier when a webhook is configured: the log line, then the event into the durable outbox,
// then a nudge so this instance's dispatcher sends it at once. The request that caused the event never waits for
// the receiver and never fails because of it.
import { Cause, Effect, Layer } from "effect"
import { NotificationOutbox } from "../../ports/NotificationOutbox.ts"
import { ReviewNotifier } from "../../ports/ReviewNotifier.ts"
import { logged } from "../observability/logged.ts"
import { reviewRequestedLogged } from "./LogReviewNotifier.ts"
import { newEventId, reviewEvent } from "./reviewEvents.ts"
import { describeCause } from "./WebhookDispatcher.ts"

export interface WebhookNotifierOptions {
  /** Called after an event was queued (wakes the dispatcher). */
  readonly onEnqueued: () => void
}

export const layerWebhookReviewNotifier = (options: WebhookNotifierOptions) =>
  Layer.effect(
    ReviewNotifier,
    Effect.gen(function*() {
      const outbox = yield* NotificationOutbox
      return ReviewNotifier.of({
        notify: (event) =>
          reviewRequestedLogged(event).pipe(
            Effect.andThen(Effect.suspend(() => outbox.enqueue([reviewEvent(newEventId(), event)]))),
            Effect.tap((added) => Effect.sync(() => added.length > 0 && options.onEnqueued())),
            Effect.asVoid,
            // The release is committed: the dispatcher's recovery pass queues its event from the release row later.
            Effect.catchCause((cause) =>
              Cause.hasInterruptsOnly(cause)
                ? Effect.failCause(cause as Cause.Cause<never>)
                : logged("warn", "webhook event not queued now; the recovery pass will queue it from the release", {
                  gameId: event.gameId,
                  version: event.version,
                  reason: describeCause(cause),
                })
            ),
          ),
      })
    }),
  )
