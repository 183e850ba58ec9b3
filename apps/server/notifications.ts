// The review queue's notifications in the server: a log line always; with REVIEW_WEBHOOK_URL, also a signed webhook
// from the durable outbox, sent by a dispatcher that runs in every instance (started and stopped like the sweeper).
import { Effect, Latch, Layer } from "effect"
import { layerLogReviewNotifier } from "../../adapters/notifier/LogReviewNotifier.ts"
import type { ReviewWebhookConfig } from "../../adapters/notifier/webhookConfig.ts"
import { DEFAULT_DELIVERY_POLICY, type DeliveryPolicy, runDispatcher } from "../../adapters/notifier/WebhookDispatcher.ts"
import { layerWebhookReviewNotifier } from "../../adapters/notifier/WebhookReviewNotifier.ts"
import type { Clock } from "../../ports/Clock.ts"
import type { NotificationOutbox } from "../../ports/NotificationOutbox.ts"
import type { ReviewNotifier } from "../../ports/ReviewNotifier.ts"
import type { Records } from "./records.ts"

/** Due retries are picked up within this long (or the retry base, when shorter: tests). */
const MAX_POLL_INTERVAL_MS = 5_000
/** Pending releases are checked for a missing event this often, and once at start. */
const RECOVER_INTERVAL_MS = 60_000

type RecordsServices = Layer.Success<Records["layer"]>

export interface Notifications {
  /**
   * ReviewNotifier and NotificationOutbox on top of the records (their layer is shared, not built twice), and with a
   * webhook the dispatcher, a scoped background fiber of this layer.
   */
  readonly layer: Layer.Layer<ReviewNotifier | NotificationOutbox | RecordsServices, unknown, Clock>
  readonly describe: string
}

export const deliveryPolicy = (webhook: ReviewWebhookConfig): DeliveryPolicy => ({ ...DEFAULT_DELIVERY_POLICY, retryBaseMs: webhook.retryBaseMs })

/** Without a review webhook, creators' webhook deliveries (enqueued by the stores, no nudge) are polled this often. */
const CREATOR_ONLY_POLL_MS = 1_000

export const selectNotifications = (webhook: ReviewWebhookConfig | null, records: Records, allowPrivateAddresses = false): Notifications => {
  // The outbox lives on the records' own database (one SQLite connection or MySQL pool for everything).
  const base = records.layer
  if (webhook === null) {
    // Creators' webhooks still need a dispatcher; it has no review target and no recovery pass.
    const creatorsOnly = Layer.effectDiscard(Effect.forkScoped(runDispatcher({
      target: null,
      policy: { ...DEFAULT_DELIVERY_POLICY, allowPrivateAddresses },
      wake: Latch.makeUnsafe(false),
      pollIntervalMs: CREATOR_ONLY_POLL_MS,
      recoverIntervalMs: RECOVER_INTERVAL_MS,
    })))
    return {
      layer: Layer.merge(layerLogReviewNotifier, creatorsOnly).pipe(Layer.provideMerge(base)),
      describe: "notifications: log lines (set REVIEW_WEBHOOK_URL and REVIEW_WEBHOOK_SECRET for a signed webhook)",
    }
  }
  const wake = Latch.makeUnsafe(false)
  const policy = { ...deliveryPolicy(webhook), allowPrivateAddresses }
  const hours = Math.round(policy.maxAgeMs / 3_600_000)
  const dispatcher = Layer.effectDiscard(Effect.forkScoped(runDispatcher({
    target: { url: webhook.url, secret: webhook.secret },
    policy,
    wake,
    pollIntervalMs: Math.min(MAX_POLL_INTERVAL_MS, webhook.retryBaseMs),
    recoverIntervalMs: RECOVER_INTERVAL_MS,
  })))
  return {
    layer: Layer.merge(layerWebhookReviewNotifier({ onEnqueued: () => wake.openUnsafe() }), dispatcher).pipe(Layer.provideMerge(base)),
    // The origin only: webhook URLs often carry a token in their path.
    describe: `notifications: log lines + webhook to ${new URL(webhook.url).origin} (HMAC-SHA256 signed, durable outbox, retries for up to ${hours} h)`,
  }
}
