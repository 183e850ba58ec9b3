// A notifier + dispatcher "instance" for tests: the server's wiring (apps/server/notifications.ts) on any store layer,
// with a fast retry policy and its log lines kept for assertions.
import { Effect, Fiber, Latch, Layer, ManagedRuntime, Option } from "effect"
import { layerCapturedLogs, type LogLine } from "../../adapters/observability/jsonLogger.ts"
import { DEFAULT_DELIVERY_POLICY, type DeliveryPolicy, runDispatcher } from "../../adapters/notifier/WebhookDispatcher.ts"
import { layerWebhookReviewNotifier } from "../../adapters/notifier/WebhookReviewNotifier.ts"
import { layerSystemClock } from "../../adapters/system/SystemClock.ts"
import { type Delivery, NotificationOutbox } from "../../ports/NotificationOutbox.ts"
import type { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { type ReviewRequested, ReviewNotifier } from "../../ports/ReviewNotifier.ts"
import type { WebhookSubscriptions } from "../../ports/WebhookSubscriptions.ts"

export const SECRET = "test-webhook-secret-0123456789abcdef-xyz"

/** Retries within milliseconds: tests wait for outcomes, never for a duration. */
export const fastPolicy = (overrides: Partial<DeliveryPolicy> = {}): DeliveryPolicy => ({
  ...DEFAULT_DELIVERY_POLICY,
  retryBaseMs: 10,
  retryCapMs: 100,
  requestTimeoutMs: 5_000,
  ...overrides,
})

export interface Instance {
  readonly logs: Array<LogLine>
  readonly notify: (event: ReviewRequested) => Promise<void>
  readonly delivery: (id: string) => Promise<Delivery | undefined>
  readonly run: <A, E>(effect: Effect.Effect<A, E, NotificationOutbox | ReleaseStore>) => Promise<A>
  /** Interrupts the dispatcher, then closes the stores (a graceful shutdown). */
  readonly stop: () => Promise<void>
}

export const startInstance = async (
  stores: Layer.Layer<NotificationOutbox | ReleaseStore | WebhookSubscriptions, unknown>,
  url: string,
  policy: DeliveryPolicy = fastPolicy(),
  logs: Array<LogLine> = [],
): Promise<Instance> => {
  const wake = Latch.makeUnsafe(false)
  const layer = layerWebhookReviewNotifier({ onEnqueued: () => wake.openUnsafe() }).pipe(
    Layer.provideMerge(stores),
    Layer.provideMerge(layerSystemClock),
    Layer.provideMerge(layerCapturedLogs(logs)),
  )
  const runtime = ManagedRuntime.make(Layer.orDie(layer))
  await runtime.runPromise(Effect.void)
  const fiber = runtime.runFork(runDispatcher({ target: { url, secret: SECRET }, policy, wake, pollIntervalMs: 20, recoverIntervalMs: 60_000 }))
  return {
    logs,
    notify: (event) => runtime.runPromise(ReviewNotifier.use((notifier) => notifier.notify(event))),
    delivery: (id) => runtime.runPromise(NotificationOutbox.use((outbox) => outbox.get(id)).pipe(Effect.map(Option.getOrUndefined))),
    run: (effect) => runtime.runPromise(effect),
    stop: async () => {
      await Effect.runPromise(Fiber.interrupt(fiber))
      await runtime.dispose()
    },
  }
}

export const eventually = async (check: () => Promise<boolean>, what: string, timeoutMs = 20_000) => {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

let counter = 0
export const anEvent = (overrides: Partial<ReviewRequested> = {}): ReviewRequested => ({
  kind: "release_finalized",
  gameId: `gm_${process.pid.toString(36)}${(++counter).toString(36)}${Math.random().toString(36).slice(2, 6)}`,
  version: "1.0.0",
  sha256: "c".repeat(64),
  sizeBytes: 4096,
  at: new Date(),
  ...overrides,
})

/** The delivery id the outbox holds for a release, read from the logs of the instance that queued it. */
export const idsIn = (calls: ReadonlyArray<{ readonly body: string }>) => calls.map((c) => (JSON.parse(c.body) as { id: string }).id)
