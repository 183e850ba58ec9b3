// Where one outbox delivery goes: the review queue's webhook, or the creator subscription its dedupe key names, looked
// up at delivery time (a removed subscription gets nothing more). A creator's target connects only to public addresses
// (deliveryAddress.ts, checked as the socket resolves the host, so a refusal is a failed attempt, retried like any other).
import { Effect } from "effect"
import type { Unavailable } from "../../domain/errors.ts"
import type { ClaimedDelivery } from "../../ports/NotificationOutbox.ts"
import { WebhookSubscriptions } from "../../ports/WebhookSubscriptions.ts"
import { subscriptionOfDelivery } from "./creatorEvents.ts"
import type { DeliveryPolicy, WebhookTarget } from "./WebhookDispatcher.ts"

/** `target`: send; `gone`: give it up now. */
export type Destination = { readonly target: WebhookTarget } | { readonly gone: string }

export const destinationOf = (
  reviewTarget: WebhookTarget | null,
  policy: Pick<DeliveryPolicy, "allowPrivateAddresses">,
  delivery: ClaimedDelivery,
): Effect.Effect<Destination, Unavailable, WebhookSubscriptions> =>
  Effect.gen(function*() {
    const subscriptionId = subscriptionOfDelivery(delivery.dedupeKey)
    if (subscriptionId === null) return reviewTarget === null ? { gone: "no review webhook configured" } : { target: reviewTarget }
    const subscription = yield* (yield* WebhookSubscriptions).get(subscriptionId)
    if (subscription === null) return { gone: "the subscription was removed" }
    const allowPrivate = policy.allowPrivateAddresses === true
    const url = new URL(subscription.url)
    if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) return { gone: "the subscription's URL is not https" }
    return { target: { url: subscription.url, secret: subscription.secret, standardOnly: true, publicOnly: !allowPrivate } }
  })
