// The events creators' own webhooks receive (POST /api/me/webhooks): one per timeline event of a kind below, for every
// subscription of the game's owner, written to the outbox by the store that appends the timeline event, in the same
// transaction. The dedupe key names the subscription, so the dispatcher knows where (and with which secret) to send it.
import type { TimelineEvent } from "../../domain/timeline/TimelineEvent.ts"
import type { OutboxEvent } from "../../ports/NotificationOutbox.ts"
import { randomId } from "../system/RandomIds.ts"

/** Timeline kinds creators are told about, and the event type their receiver sees. */
export const CREATOR_EVENT_TYPES: Readonly<Record<string, string>> = {
  scanned: "release.scanned",
  approved: "release.approved",
  rejected: "release.rejected",
  activated: "release.activated",
  taken_down: "release.taken_down",
  withdrawn: "release.withdrawn",
}

const PREFIX = "creator:"

/** `creator:<subscriptionId>:<eventId>`: one delivery per (subscription, event). Ids never contain ':'. */
export const creatorDedupeKey = (subscriptionId: string, eventId: string): string => `${PREFIX}${subscriptionId}:${eventId}`

/** The subscription a delivery goes to; null for the review queue's own deliveries. */
export const subscriptionOfDelivery = (dedupeKey: string): string | null =>
  dedupeKey.startsWith(PREFIX) ? dedupeKey.slice(PREFIX.length).split(":")[0] ?? null : null

/** One delivery per subscription of one event `{id, type, createdAt, data}`. */
export const webhookDeliveries = (
  event: { readonly type: string; readonly at: Date; readonly data: Readonly<Record<string, unknown>> },
  subscriptionIds: ReadonlyArray<string>,
): ReadonlyArray<OutboxEvent> => {
  const eventId = randomId("evt")
  const body = JSON.stringify({ id: eventId, type: event.type, createdAt: event.at.toISOString(), data: event.data })
  return subscriptionIds.map((subscriptionId) => ({
    id: randomId("dlv"),
    dedupeKey: creatorDedupeKey(subscriptionId, eventId),
    type: event.type,
    createdAt: event.at,
    body,
  }))
}

/** The deliveries of one timeline event to the owner's subscriptions (none when the kind is not a creator event). */
export const creatorDeliveries = (event: TimelineEvent, subscriptionIds: ReadonlyArray<string>): ReadonlyArray<OutboxEvent> => {
  const type = CREATOR_EVENT_TYPES[event.kind]
  if (type === undefined || subscriptionIds.length === 0) return []
  return webhookDeliveries(
    { type, at: event.at, data: { gameId: event.gameId, version: event.version, reason: event.reason, actor: event.actor } },
    subscriptionIds,
  )
}
