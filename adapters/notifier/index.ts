// The review queue's notifiers (`pckgate/notifier`): a log line always; with a webhook, a signed POST from a durable
// outbox (docs/webhooks.md). The SQL outbox is `layerSqlNotificationOutbox` in `pckgate/sql`.
export { layerLogReviewNotifier, reviewRequestedLogged } from "./LogReviewNotifier.ts"
export { layerMemoryNotificationOutbox, makeMemoryNotificationOutbox } from "./MemoryNotificationOutbox.ts"
export { newEventId, releaseDedupeKey, REVIEW_EVENT_TYPES, reviewEvent, reviewEventForRelease } from "./reviewEvents.ts"
export { DEFAULT_RETRY_BASE_MS, MIN_SECRET_LENGTH, readReviewWebhook, type ReviewWebhookConfig } from "./webhookConfig.ts"
export {
  DEFAULT_DELIVERY_POLICY,
  deliverDue,
  type DeliveryPolicy,
  describeCause,
  type DispatcherOptions,
  enqueueMissingReviewEvents,
  leaseDurationMs,
  type PassReport,
  retryDelayMs,
  runDispatcher,
  USER_AGENT,
  type WebhookTarget,
} from "./WebhookDispatcher.ts"
export { layerWebhookReviewNotifier, type WebhookNotifierOptions } from "./WebhookReviewNotifier.ts"
export { REPLAY_TOLERANCE_SECONDS, signWebhook, type VerifyInput, verifyWebhook, WEBHOOK_HEADERS, type WebhookVerification } from "./webhookSignature.ts"
