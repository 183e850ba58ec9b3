// Drains the notification outbox into signed webhook POSTs. Every instance may run it: a delivery is leased to one
// sender at a time (NotificationOutbox.claimDue), and its outcome is recorded only by the lease holder.
//
// Semantics: at least once. A process that dies after the receiver answered 2xx but before recording it sends the
// delivery again once the lease runs out; receivers drop duplicates by the delivery id.
import { Cause, Effect, type Latch } from "effect"
import { Unavailable } from "../../domain/errors.ts"
import { Clock } from "../../ports/Clock.ts"
import { type ClaimedDelivery, NotificationOutbox } from "../../ports/NotificationOutbox.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { logged } from "../observability/logged.ts"
import { newEventId, reviewEventForRelease } from "./reviewEvents.ts"
import { DEFAULT_RETRY_BASE_MS } from "./webhookConfig.ts"
import { signWebhook, WEBHOOK_HEADERS } from "./webhookSignature.ts"
import { standardWebhookHeaders, webhookKey } from "./standardWebhooks.ts"
import { destinationOf } from "./deliveryDestination.ts"
import { RefusedAddress } from "./deliveryAddress.ts"
import { type DeliveryNetwork, postWebhook } from "./webhookRequest.ts"

export interface WebhookTarget {
  readonly url: string
  readonly secret: string
  /** Creators' webhooks get only the Standard Webhooks headers; the review webhook keeps the old ones for a while. */
  readonly standardOnly?: boolean
  /** Connect only to public addresses (creators' webhooks); the operator's review webhook may be on a private network. */
  readonly publicOnly?: boolean
}

export interface DeliveryPolicy {
  /** The first retry waits about this long; each later one twice as long as the one before. */
  readonly retryBaseMs: number
  /** No retry waits longer than this. */
  readonly retryCapMs: number
  /** After a failure, a delivery whose next attempt would be later than this after the event is given up. */
  readonly maxAgeMs: number
  /** Connection, headers and status must arrive within this; the response body is not read. */
  readonly requestTimeoutMs: number
  /** Deliveries leased per pass (sent concurrently). */
  readonly batchSize: number
  /** Uniform in [0, 1): the jitter's source. */
  readonly random: () => number
  /**
   * Creators' webhooks may be delivered to http and to loopback/private/link-local addresses
   * (WEBHOOK_ALLOW_PRIVATE_ADDRESSES=1, tests only). Off: https only, and such addresses are refused.
   */
  readonly allowPrivateAddresses?: boolean
  /** Name resolution and trusted certificates; tests only (production uses the system's). */
  readonly network?: DeliveryNetwork
}

export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = {
  retryBaseMs: DEFAULT_RETRY_BASE_MS,
  retryCapMs: 3_600_000,
  maxAgeMs: 72 * 3_600_000,
  requestTimeoutMs: 10_000,
  batchSize: 10,
  random: Math.random,
}

/**
 * Exponential backoff with "equal jitter": after the n-th failed attempt the delivery waits between half and all of
 * min(cap, base · 2^(n-1)), so instances that failed together do not retry in lockstep, yet never retry at once.
 */
export const retryDelayMs = (attempt: number, policy: Pick<DeliveryPolicy, "retryBaseMs" | "retryCapMs">, random: number): number => {
  const ceiling = Math.min(policy.retryCapMs, policy.retryBaseMs * 2 ** Math.min(Math.max(attempt, 1) - 1, 40))
  return Math.round(ceiling / 2 + (ceiling / 2) * random)
}

/** A lease outlives the slowest attempt by a wide margin: it runs out only when its holder died. */
export const leaseDurationMs = (policy: Pick<DeliveryPolicy, "requestTimeoutMs">): number => 2 * policy.requestTimeoutMs + 30_000

export const USER_AGENT = "pckgate-webhooks/1"

type Outcome = { readonly delivered: true; readonly status: number } | { readonly delivered: false; readonly error: string }

/** A failure's description for logs and the outbox: a status or an error code, never a URL, header or body. */
const describeFailure = (error: unknown, timedOut: boolean, timeoutMs: number): string => {
  if (timedOut) return `no response within ${timeoutMs} ms`
  if (error instanceof RefusedAddress) return error.message
  const codeOf = (value: unknown) => {
    const code = (value as { readonly code?: unknown } | null)?.code
    return typeof code === "string" && /^[A-Z0-9_]{2,40}$/.test(code) ? code : null
  }
  const code = codeOf((error as { readonly cause?: unknown } | null)?.cause) ?? codeOf(error)
  return code !== null ? `network error ${code}` : `network error (${error instanceof Error ? error.name : typeof error})`
}

const post = (target: WebhookTarget, delivery: ClaimedDelivery, timestamp: number, policy: DeliveryPolicy): Effect.Effect<Outcome> => {
  const timeoutMs = policy.requestTimeoutMs
  let timedOut = false
  return Effect.tryPromise({
    try: async (interrupted) => {
      const timeout = AbortSignal.timeout(timeoutMs)
      timeout.addEventListener("abort", () => (timedOut = true), { once: true })
      return await postWebhook({
        url: target.url,
        headers: {
          "content-type": "application/json",
          "user-agent": USER_AGENT,
          // Standard Webhooks first; the pckgate-webhook-* headers stay for one minor version (README).
          ...standardWebhookHeaders(webhookKey(target.secret) ?? new TextEncoder().encode(target.secret), delivery.id, timestamp, delivery.body),
          ...(target.standardOnly === true ? {} : {
            [WEBHOOK_HEADERS.id]: delivery.id,
            [WEBHOOK_HEADERS.timestamp]: String(timestamp),
            [WEBHOOK_HEADERS.signature]: signWebhook(target.secret, timestamp, delivery.body),
            [WEBHOOK_HEADERS.event]: delivery.type,
            [WEBHOOK_HEADERS.attempt]: String(delivery.attempts),
          }),
        },
        body: delivery.body,
        // A redirect is a failure (postWebhook never follows one): following it would send the signed payload
        // somewhere nobody configured.
        publicOnly: target.publicOnly === true,
        network: policy.network ?? {},
        signal: AbortSignal.any([interrupted, timeout]),
      })
    },
    catch: (error) => error,
  }).pipe(
    Effect.map((status): Outcome => (status >= 200 && status < 300 ? { delivered: true, status } : { delivered: false, error: `HTTP ${status}` })),
    Effect.catch((error) => Effect.succeed<Outcome>({ delivered: false, error: describeFailure(error, timedOut, timeoutMs) })),
  )
}

type Result = "delivered" | "retrying" | "abandoned" | "unrecorded"

export interface PassReport {
  readonly claimed: number
  readonly delivered: number
  readonly retrying: number
  readonly abandoned: number
}

/** A failure for a log line: the database's own reason when it is down (already free of passwords), else the cause. */
export const describeCause = (cause: Cause.Cause<unknown>): string => {
  const error = Cause.squash(cause)
  return error instanceof Unavailable ? `${error.dependency} unavailable: ${error.reason}` : Cause.pretty(cause)
}

/** Failures (not interruption) become a warning line. */
const logFailures = (msg: string) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A | void, never, R> =>
  effect.pipe(
    Effect.catchCause((cause) =>
      Cause.hasInterruptsOnly(cause) ? Effect.failCause(cause as Cause.Cause<never>) : logged("warn", msg, { reason: describeCause(cause) })
    ),
  )

const attemptDelivery = (reviewTarget: WebhookTarget | null, policy: DeliveryPolicy, delivery: ClaimedDelivery) =>
  Effect.gen(function*() {
    const outbox = yield* NotificationOutbox
    const clock = yield* Clock
    const started = yield* clock.now
    const base = { deliveryId: delivery.id, event: delivery.type, attempt: delivery.attempts }
    const destination = yield* destinationOf(reviewTarget, policy, delivery)
    if ("gone" in destination) {
      yield* outbox.markFailed(delivery, { at: started, error: destination.gone, retryAt: null })
      yield* logged("warn", "webhook delivery dropped", { ...base, error: destination.gone })
      return "abandoned"
    }
    const outcome = yield* post(destination.target, delivery, Math.floor(started.getTime() / 1000), policy).pipe(
      // Shutting down mid-request: give the lease back so the next start (or another instance) retries at once.
      Effect.onInterrupt(() =>
        outbox.markFailed(delivery, { at: started, error: "interrupted (shutting down)", retryAt: started }).pipe(Effect.ignore)
      ),
    )
    const at = yield* clock.now
    if (outcome.delivered) {
      const recorded = yield* outbox.markDelivered(delivery, at)
      yield* recorded
        ? logged("info", "webhook delivered", { ...base, status: outcome.status })
        : logged("warn", "webhook delivered after its lease ran out; the receiver may see it twice", { ...base, status: outcome.status })
      return "delivered"
    }
    const retryAt = new Date(at.getTime() + retryDelayMs(delivery.attempts, policy, policy.random()))
    const giveUp = retryAt.getTime() - delivery.createdAt.getTime() > policy.maxAgeMs
    yield* outbox.markFailed(delivery, { at, error: outcome.error, retryAt: giveUp ? null : retryAt })
    if (giveUp) {
      yield* logged("error", "webhook delivery given up", { ...base, error: outcome.error, createdAt: delivery.createdAt.toISOString(), maxAgeMs: policy.maxAgeMs })
      return "abandoned"
    }
    yield* logged("warn", "webhook attempt failed", { ...base, error: outcome.error, retryAt: retryAt.toISOString() })
    return "retrying"
  }).pipe(
    // The outcome could not be recorded (database down): the lease runs out and the delivery is attempted again.
    Effect.catchCause((cause) =>
      Cause.hasInterruptsOnly(cause)
        ? Effect.failCause(cause as Cause.Cause<never>)
        : logged("warn", "webhook attempt not recorded; it will be retried when its lease runs out", {
          deliveryId: delivery.id,
          reason: describeCause(cause),
        }).pipe(Effect.as<Result>("unrecorded"))
    ),
  )

/** One pass: lease the due deliveries and attempt each of them once (review deliveries go to `target`, if any). */
export const deliverDue = Effect.fn("webhooks.deliverDue")(function*(target: WebhookTarget | null, policy: DeliveryPolicy) {
  const outbox = yield* NotificationOutbox
  const now = yield* (yield* Clock).now
  const claimed = yield* outbox.claimDue({
    now,
    limit: policy.batchSize,
    lease: crypto.randomUUID(),
    leasedUntil: new Date(now.getTime() + leaseDurationMs(policy)),
  })
  const results = yield* Effect.forEach(claimed, (delivery) => attemptDelivery(target, policy, delivery), { concurrency: "unbounded" })
  const count = (result: Result) => results.filter((r) => r === result).length
  return { claimed: claimed.length, delivered: count("delivered"), retrying: count("retrying"), abandoned: count("abandoned") } satisfies PassReport
})

/** Finished deliveries are kept this long past the maximum age, for operators looking into what was sent. */
const PRUNE_MARGIN_MS = 7 * 86_400_000

/**
 * Closes the gap between "release committed" and "event queued" (a crash in between, or the database failing just
 * then): queues the event of every pending release younger than the maximum age that has none. Idempotent — the
 * outbox keeps one delivery per release — so every instance may run it at any time. It also prunes finished
 * deliveries a week older than that age.
 */
export const enqueueMissingReviewEvents = Effect.fn("webhooks.enqueueMissing")(function*(policy: Pick<DeliveryPolicy, "maxAgeMs">) {
  const now = yield* (yield* Clock).now
  const pending = yield* (yield* ReleaseStore).listPending()
  const recent = pending.filter((release) => now.getTime() - release.createdAt.getTime() <= policy.maxAgeMs)
  const outbox = yield* NotificationOutbox
  const added = yield* outbox.enqueue(recent.map((release) => reviewEventForRelease(newEventId(), release)))
  for (const event of added) {
    yield* logged("info", "webhook event queued for a pending release that had none", { deliveryId: event.id, event: event.type, key: event.dedupeKey })
  }
  // Finished deliveries of events older than anything this pass would queue again can go: nothing re-sends them.
  const pruned = yield* outbox.pruneFinished(new Date(now.getTime() - policy.maxAgeMs - PRUNE_MARGIN_MS))
  if (pruned > 0) yield* logged("info", "finished webhook deliveries pruned", { count: pruned })
  return added.length
})

export interface DispatcherOptions {
  /** The review queue's webhook; null when only creators' webhooks are delivered (no recovery pass then). */
  readonly target: WebhookTarget | null
  readonly policy: DeliveryPolicy
  /** Opened after an enqueue: the loop runs a pass now instead of at the next poll. */
  readonly wake: Latch.Latch
  /** How often the outbox is polled for due deliveries (retries come due while nobody enqueues). */
  readonly pollIntervalMs: number
  /** How often pending releases are checked for a missing event (also once at start). */
  readonly recoverIntervalMs: number
}

/** Runs until interrupted: recovery when due, then passes until nothing full is left, then waits for a nudge or the poll. */
export const runDispatcher = (options: DispatcherOptions) =>
  Effect.gen(function*() {
    const { target, policy, wake } = options
    const clock = yield* Clock
    let lastRecovery: number | null = null
    for (;;) {
      yield* wake.close
      const now = (yield* clock.now).getTime()
      if (target !== null && (lastRecovery === null || now - lastRecovery >= options.recoverIntervalMs)) {
        lastRecovery = now
        yield* enqueueMissingReviewEvents(policy).pipe(logFailures("webhook recovery pass failed"))
      }
      // A full batch means more may be due: keep going without waiting.
      for (let full = true; full;) {
        const report = yield* deliverDue(target, policy).pipe(logFailures("webhook dispatch pass failed"))
        full = report !== undefined && report.claimed >= policy.batchSize
      }
      yield* Effect.raceFirst(wake.await, Effect.sleep(options.pollIntervalMs))
    }
  })
