// Where one outbox delivery goes: the review queue's webhook, or the creator subscription its dedupe key names, looked
// up at delivery time (a removed subscription gets nothing more) and checked against deliveryAddress.ts.
import { Effect } from "effect"
import type { ClaimedDelivery } from "../../ports/NotificationOutbox.ts"
import { WebhookSubscriptions } from "../../ports/WebhookSubscriptions.ts"
import { subscriptionOfDelivery } from "./creatorEvents.ts"
import { refusedDestination } from "./deliveryAddress.ts"
import type { DeliveryPolicy, WebhookTarget } from "./WebhookDispatcher.ts"

/** `target`: send; `refused`: a failed attempt, retried like any other (DNS may change); `gone`: give it up now. */
export type Destination = { readonly target: WebhookTarget } | { readonly refused: string } | { readonly gone: string }

const errorCode = (error: unknown): string => {
  const code = (error as { readonly code?: unknown } | null)?.code
  return typeof code === "string" && /^[A-Z0-9_]{2,40}$/.test(code) ? code : "lookup failed"
}

export const destinationOf = (reviewTarget: WebhookTarget | null, policy: Pick<DeliveryPolicy, "allowPrivateAddresses">, delivery: ClaimedDelivery) =>
  Effect.gen(function*() {
    const subscriptionId = subscriptionOfDelivery(delivery.dedupeKey)
    if (subscriptionId === null) return reviewTarget === null ? { gone: "no review webhook configured" } : { target: reviewTarget }
    const subscription = yield* (yield* WebhookSubscriptions).get(subscriptionId)
    if (subscription === null) return { gone: "the subscription was removed" }
    const allowPrivate = policy.allowPrivateAddresses === true
    const url = new URL(subscription.url)
    if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) return { gone: "the subscription's URL is not https" }
    const refused = yield* Effect.tryPromise({
      try: () => refusedDestination(url.hostname, allowPrivate),
      catch: (error) => `network error ${errorCode(error)}`,
    }).pipe(Effect.catch((error) => Effect.succeed(error)))
    return refused === null ? { target: { url: subscription.url, secret: subscription.secret, standardOnly: true } } : { refused }
  }) as Effect.Effect<Destination, import("../../domain/errors.ts").Unavailable, WebhookSubscriptions>
