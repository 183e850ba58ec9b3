import { Context, type Effect } from "effect"
import type { Unavailable } from "../domain/errors.ts"

/** A creator's webhook: events about their games are signed with `secret` (Standard Webhooks) and POSTed to `url`. */
export interface WebhookSubscription {
  readonly id: string
  readonly ownerId: string
  readonly url: string
  readonly secret: string
  readonly createdAt: Date
}

/** Creators' webhook subscriptions (POST/GET/DELETE /api/me/webhooks). */
export class WebhookSubscriptions extends Context.Service<WebhookSubscriptions, {
  /** Adds the subscription unless its owner already has `limit`; false (and nothing added) when they do. */
  add(subscription: WebhookSubscription, limit: number): Effect.Effect<boolean, Unavailable>
  /** The owner's subscriptions, oldest first. */
  listByOwner(ownerId: string): Effect.Effect<ReadonlyArray<WebhookSubscription>, Unavailable>
  /** The subscription `id` whoever owns it (the dispatcher's lookup at delivery time); null when removed. */
  get(id: string): Effect.Effect<WebhookSubscription | null, Unavailable>
  /** Removes the owner's subscription `id`; false when they have none with that id. */
  remove(ownerId: string, id: string): Effect.Effect<boolean, Unavailable>
}>()("pckgate/ports/WebhookSubscriptions") {}
