import { Context, type Effect, type Option } from "effect"
import type { Unavailable } from "../domain/errors.ts"

/** One notification to deliver, exactly as it will be sent. */
export interface OutboxEvent {
  /** The delivery id: unique, and the same on every attempt, so receivers can drop duplicates. */
  readonly id: string
  /** What the event is about (e.g. `release:<gameId>:<version>`): at most one delivery exists per key. */
  readonly dedupeKey: string
  readonly type: string
  /** When the event happened; the delivery is due from then on, and its maximum age counts from it. */
  readonly createdAt: Date
  /** The exact request body, identical on every attempt. */
  readonly body: string
}

export type DeliveryStatus = "pending" | "delivered" | "abandoned"

export interface Delivery extends OutboxEvent {
  readonly status: DeliveryStatus
  /** Attempts started so far (a claim counts as an attempt, so a crash mid-send still counts). */
  readonly attempts: number
  readonly nextAttemptAt: Date
  readonly lastError: string | null
  /** When it was delivered or given up. */
  readonly finishedAt: Date | null
}

/** A delivery leased to one sender: nobody else claims it until `leasedUntil`, and only the lease holder records its outcome. */
export interface ClaimedDelivery extends Delivery {
  readonly lease: string
  readonly leasedUntil: Date
}

export interface ClaimRequest {
  readonly now: Date
  readonly limit: number
  /** A token unique to this claim (never reused). */
  readonly lease: string
  readonly leasedUntil: Date
}

export interface AttemptFailure {
  readonly at: Date
  /** A short description without secrets (a status code, a network error code). */
  readonly error: string
  /** When to try again; null gives the delivery up. */
  readonly retryAt: Date | null
}

export type LeaseRef = Pick<ClaimedDelivery, "id" | "lease">

/**
 * A durable queue of outgoing notifications (the transactional-outbox pattern's table). Several instances may drain it
 * at once: claiming is atomic, so a delivery is never leased to two senders at the same time.
 */
export class NotificationOutbox extends Context.Service<NotificationOutbox, {
  /**
   * Adds the events whose dedupe key has no delivery yet, due at their `createdAt`; returns those added. An event whose
   * key exists (even delivered or given up) is ignored, so enqueueing the same fact twice is harmless.
   */
  enqueue(events: ReadonlyArray<OutboxEvent>): Effect.Effect<ReadonlyArray<OutboxEvent>, Unavailable>
  /**
   * Leases up to `limit` pending deliveries that are due at `now` and not leased (or whose lease expired), oldest due
   * first, and counts an attempt on each.
   */
  claimDue(request: ClaimRequest): Effect.Effect<ReadonlyArray<ClaimedDelivery>, Unavailable>
  /** Marks the delivery delivered; false when the lease was lost (another sender claimed it since). */
  markDelivered(claim: LeaseRef, at: Date): Effect.Effect<boolean, Unavailable>
  /** Records a failed attempt and releases the lease: pending again from `retryAt`, or given up when it is null. */
  markFailed(claim: LeaseRef, failure: AttemptFailure): Effect.Effect<boolean, Unavailable>
  get(id: string): Effect.Effect<Option.Option<Delivery>, Unavailable>
  /**
   * Deletes deliveries that are finished (delivered or given up) and whose event happened before `createdBefore`;
   * returns how many. Their dedupe keys become free again, so only prune events older than anything still enqueued.
   */
  pruneFinished(createdBefore: Date): Effect.Effect<number, Unavailable>
  /** Deliveries still pending (due or not, leased or not): the backlog operators watch on GET /metrics. */
  countPending(): Effect.Effect<number, Unavailable>
}>()("pckgate/ports/NotificationOutbox") {}
