import { Effect } from "effect"
import type { ApiKey } from "../../../domain/credentials/ApiKey.ts"
import { CreateApiKeyBody } from "../../../domain/credentials/ApiKey.ts"
import { createApiKey, listApiKeys, revokeApiKey } from "../../../domain/credentials/ManageApiKeys.ts"
import { readJsonBody } from "../body.ts"
import * as Wire from "../openapi/schemas.ts"
import { json } from "../respond.ts"
import { principalFor, rawParam, type Route, type RouteContext } from "../route.ts"

// Keys are managed with the person's own token or session only: these routes declare no credential scopes, so an API
// key or a publisher's token is answered 404 (adapters/http/credentialAccess.ts).

const view = (key: ApiKey) => ({
  id: key.id,
  name: key.name,
  prefix: key.prefix,
  games: key.games,
  scopes: key.scopes,
  createdAt: key.createdAt.toISOString(),
  expiresAt: key.expiresAt?.toISOString() ?? null,
})

export const apiKeyRoutes: ReadonlyArray<Route> = [
  {
    method: "POST",
    path: "/api/me/api-keys",
    doc: {
      summary: "Create an API key limited to some games and scopes; the key is in this answer only",
      access: "signedIn",
      request: CreateApiKeyBody,
      success: [201, Wire.CreatedApiKey],
      errors: ["GameNotFoundOrForbidden", "NotFound"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      const { apiKey, key } = yield* createApiKey(principal, yield* readJsonBody(ctx.request, ctx.bodyTimeouts))
      return json(201, { ...view(apiKey), key }, { "cache-control": "no-store" })
    }),
  },
  {
    method: "GET",
    path: "/api/me/api-keys",
    doc: { summary: "Your API keys that are not revoked, with when each was last used", access: "signedIn", success: [200, Wire.ApiKeyList], errors: ["NotFound"] },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      const keys = yield* listApiKeys(principal)
      return json(200, { keys: keys.map((key) => ({ ...view(key), lastUsedAt: key.lastUsedAt?.toISOString() ?? null })) })
    }),
  },
  {
    method: "DELETE",
    path: "/api/me/api-keys/:keyId",
    doc: { summary: "Revoke an API key: refused by every instance from this answer on", access: "signedIn", success: [204, null], errors: ["NotFound"] },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      yield* revokeApiKey(principal, rawParam(ctx, "keyId"))
      return new Response(null, { status: 204 })
    }),
  },
]
