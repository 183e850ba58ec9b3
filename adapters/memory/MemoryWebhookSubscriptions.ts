import { Effect, Layer } from "effect"
import { WebhookSubscriptions } from "../../ports/WebhookSubscriptions.ts"
import { MemoryTables } from "./MemoryTables.ts"

export const layerMemoryWebhookSubscriptions = Layer.effect(
  WebhookSubscriptions,
  Effect.gen(function*() {
    // On the shared tables: timeline appends read them to enqueue creator webhook deliveries.
    const all = (yield* MemoryTables).webhooks
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
      get: (id) => Effect.sync(() => all.get(id) ?? null),
      remove: (ownerId, id) => Effect.sync(() => all.get(id)?.ownerId === ownerId && all.delete(id)),
    })
  }),
)
