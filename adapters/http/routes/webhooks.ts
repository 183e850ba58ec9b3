import { Effect } from "effect"
import { addWebhook, listWebhooks, removeWebhook, WebhookBody } from "../../../domain/webhooks/CreatorWebhooks.ts"
import { readJsonBody } from "../body.ts"
import * as Wire from "../openapi/schemas.ts"
import { json } from "../respond.ts"
import { principalFor, rawParam, type Route, type RouteContext } from "../route.ts"

/** `whsec_` and 32 random bytes in base64 (the Standard Webhooks form). */
const newWebhookSecret = (): string => `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`

export const webhookRoutes: ReadonlyArray<Route> = [
  {
    method: "POST",
    path: "/api/me/webhooks",
    doc: {
      summary: "Subscribe an https URL to events about your games (at most 5); the whsec_ secret is shown in this answer only",
      access: "signedIn",
      request: WebhookBody,
      success: [201, Wire.CreatedWebhook],
      errors: ["WebhookLimitReached"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      const body = yield* readJsonBody(ctx.request, ctx.bodyTimeouts)
      return json(201, yield* addWebhook(principal, body, newWebhookSecret()))
    }),
  },
  {
    method: "GET",
    path: "/api/me/webhooks",
    doc: { summary: "Your webhook subscriptions (without their secrets)", access: "signedIn", success: [200, Wire.WebhookList], errors: [] },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      return json(200, { webhooks: yield* listWebhooks(principal) })
    }),
  },
  {
    method: "DELETE",
    path: "/api/me/webhooks/:id",
    doc: { summary: "Remove one of your webhook subscriptions", access: "signedIn", success: [204, null], errors: ["NotFound"] },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      yield* removeWebhook(principal, rawParam(ctx, "id"))
      return new Response(null, { status: 204 })
    }),
  },
]
