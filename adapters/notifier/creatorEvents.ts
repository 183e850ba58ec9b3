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
  api_key_created: "api_key.created",
  api_key_revoked: "api_key.revoked",
  trusted_publisher_added: "trusted_publisher.added",
  trusted_publisher_removed: "trusted_publisher.removed",
}

const PREFIX = "creator:"

/** `creator:<subscriptionId>:<eventId>`: one delivery per (subscription, event). Ids never contain ':'. */
export const creatorDedupeKey = (subscriptionId: string, eventId: string): string => `${PREFIX}${subscriptionId}:${eventId}`

/** The subscription a delivery goes to; null for the review queue's own deliveries. */
export const subscriptionOfDelivery = (dedupeKey: string): string | null =>
  dedupeKey.startsWith(PREFIX) ? dedupeKey.slice(PREFIX.length).split(":")[0] ?? null : null

/** The deliveries of one timeline event to the owner's subscriptions (none when the kind is not a creator event). */
export const creatorDeliveries = (event: TimelineEvent, subscriptionIds: ReadonlyArray<string>): ReadonlyArray<OutboxEvent> => {
  const type = CREATOR_EVENT_TYPES[event.kind]
  if (type === undefined || subscriptionIds.length === 0) return []
  const eventId = randomId("evt")
  return subscriptionIds.map((subscriptionId) => {
    const id = randomId("dlv")
    const body = JSON.stringify({
      id: eventId,
      type,
      createdAt: event.at.toISOString(),
      data: { gameId: event.gameId, version: event.version, reason: event.reason, actor: event.actor },
    })
    return { id, dedupeKey: creatorDedupeKey(subscriptionId, eventId), type, createdAt: event.at, body }
  })
}
