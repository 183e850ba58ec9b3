import { Effect, Schema } from "effect"
import { Clock } from "../../ports/Clock.ts"
import { Ids } from "../../ports/Ids.ts"
import { WebhookSubscriptions } from "../../ports/WebhookSubscriptions.ts"
import type { Principal } from "../auth/Principal.ts"
import { NotFound, WebhookLimitReached } from "../errors.ts"
import { withoutForbiddenCharacters } from "../text/UserText.ts"

export const MAX_WEBHOOKS_PER_ACCOUNT = 5

const isHttpsUrl = (text: string): boolean => {
  if (text.length > 2048) return false
  try {
    const url = new URL(text)
    return url.protocol === "https:" && url.username === "" && url.password === "" && url.hostname !== ""
  } catch {
    return false
  }
}

/** POST /api/me/webhooks's body; branded, so only a decoded one reaches addWebhook. */
export const WebhookBody = Schema.Struct({
  // The text rules first: a URL is shown back to its owner, so a bidirectional control is refused, never stored.
  url: Schema.String.pipe(
    Schema.check(
      withoutForbiddenCharacters("single"),
      Schema.makeFilter(isHttpsUrl, { expected: "an absolute https:// URL without user:password@, at most 2048 characters" }),
    ),
  ),
}).pipe(Schema.brand("WebhookBody"))
export type WebhookBody = typeof WebhookBody.Type

/** The path of DELETE /api/me/webhooks/{id}: any id the service may have issued (an unknown one is 404). */
export const WebhookPath = Schema.Struct({ id: Schema.NonEmptyString }).pipe(Schema.brand("WebhookPath"))
export type WebhookPath = typeof WebhookPath.Type

/** POST /api/me/webhooks: the secret is in this answer only (`secret` comes from the adapter's random source). */
export const addWebhook = Effect.fn("addWebhook")(function*(principal: Principal, body: WebhookBody, secret: string) {
  const { url } = body
  const subscription = {
    id: yield* (yield* Ids).next("wh"),
    ownerId: principal.userId,
    url,
    secret,
    createdAt: yield* (yield* Clock).now,
  }
  const added = yield* WebhookSubscriptions.use((s) => s.add(subscription, MAX_WEBHOOKS_PER_ACCOUNT))
  if (!added) return yield* new WebhookLimitReached({ limit: MAX_WEBHOOKS_PER_ACCOUNT })
  return { id: subscription.id, url, secret, createdAt: subscription.createdAt }
})

/** GET /api/me/webhooks: never the secrets. */
export const listWebhooks = Effect.fn("listWebhooks")(function*(principal: Principal) {
  const all = yield* WebhookSubscriptions.use((s) => s.listByOwner(principal.userId))
  return all.map((s) => ({ id: s.id, url: s.url, createdAt: s.createdAt }))
})

/** DELETE /api/me/webhooks/{id}: someone else's id is answered like an unknown one. */
export const removeWebhook = Effect.fn("removeWebhook")(function*(principal: Principal, id: string) {
  if (!(yield* WebhookSubscriptions.use((s) => s.remove(principal.userId, id)))) return yield* new NotFound({ what: "webhook" })
})
