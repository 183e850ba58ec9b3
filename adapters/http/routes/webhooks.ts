import { Effect } from "effect"
import { addWebhook, listWebhooks, removeWebhook, WebhookBody, WebhookPath } from "../../../domain/webhooks/CreatorWebhooks.ts"
import * as Wire from "../openapi/schemas.ts"
import { json } from "../respond.ts"
import type { Route } from "../route.ts"
import { defineRoute } from "../routeInput.ts"

/** `whsec_` and 32 random bytes in base64 (the Standard Webhooks form). */
const newWebhookSecret = (): string => `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`

export const webhookRoutes: ReadonlyArray<Route> = [
  defineRoute({
    method: "POST",
    path: "/api/me/webhooks",
    doc: {
      summary: "Subscribe an https URL to events about your games (at most 5); the whsec_ secret is shown in this answer only",
      access: "signedIn",
      success: [201, Wire.CreatedWebhook],
      errors: ["WebhookLimitReached"],
    },
    body: WebhookBody,
    handle: (_ctx, { principal, body }) => Effect.map(addWebhook(principal, body, newWebhookSecret()), (created) => json(201, created)),
  }),
  defineRoute({
    method: "GET",
    path: "/api/me/webhooks",
    doc: { summary: "Your webhook subscriptions (without their secrets)", access: "signedIn", success: [200, Wire.WebhookList], errors: [] },
    handle: (_ctx, { principal }) => Effect.map(listWebhooks(principal), (webhooks) => json(200, { webhooks })),
  }),
  defineRoute({
    method: "DELETE",
    path: "/api/me/webhooks/:id",
    doc: { summary: "Remove one of your webhook subscriptions", access: "signedIn", success: [204, null], errors: ["NotFound"] },
    params: WebhookPath,
    paramsNotFound: "webhook",
    handle: (_ctx, { principal, params }) => Effect.as(removeWebhook(principal, params.id), new Response(null, { status: 204 })),
  }),
]
