import { Effect, Layer } from "effect"
import { type WebhookSubscription, WebhookSubscriptions } from "../../ports/WebhookSubscriptions.ts"

export const layerMemoryWebhookSubscriptions = Layer.sync(WebhookSubscriptions, () => {
  const all = new Map<string, WebhookSubscription>()
  const ownedBy = (ownerId: string) =>
    [...all.values()].filter((s) => s.ownerId === ownerId).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
  return WebhookSubscriptions.of({
    // The count and the insert in one synchronous step: concurrent adds cannot pass the limit together.
    add: (subscription, limit) =>
      Effect.sync(() => {
        if (ownedBy(subscription.ownerId).length >= limit) return false
        all.set(subscription.id, subscription)
        return true
      }),
    listByOwner: (ownerId) => Effect.sync(() => ownedBy(ownerId)),
    remove: (ownerId, id) => Effect.sync(() => all.get(id)?.ownerId === ownerId && all.delete(id)),
  })
})
