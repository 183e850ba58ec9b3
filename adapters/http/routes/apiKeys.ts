import { Effect } from "effect"
import type { ApiKey } from "../../../domain/credentials/ApiKey.ts"
import { ApiKeyPath, CreateApiKeyBody } from "../../../domain/credentials/ApiKey.ts"
import { createApiKey, listApiKeys, revokeApiKey } from "../../../domain/credentials/ManageApiKeys.ts"
import * as Wire from "../openapi/schemas.ts"
import { json } from "../respond.ts"
import type { Route } from "../route.ts"
import { defineRoute } from "../routeInput.ts"

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
  defineRoute({
    method: "POST",
    path: "/api/me/api-keys",
    doc: {
      summary: "Create an API key limited to some games and scopes; the key is in this answer only",
      access: "signedIn",
      success: [201, Wire.CreatedApiKey],
      errors: ["GameNotFoundOrForbidden", "NotFound", "InvalidRequest", "ApiKeyLimitReached"],
    },
    body: CreateApiKeyBody,
    handle: (_ctx, { principal, body }) =>
      Effect.map(createApiKey(principal, body), ({ apiKey, key }) => json(201, { ...view(apiKey), key }, { "cache-control": "no-store" })),
  }),
  defineRoute({
    method: "GET",
    path: "/api/me/api-keys",
    doc: { summary: "Your API keys that are not revoked, with when each was last used", access: "signedIn", success: [200, Wire.ApiKeyList], errors: ["NotFound"] },
    handle: (_ctx, { principal }) =>
      Effect.map(listApiKeys(principal), (keys) => json(200, { keys: keys.map((key) => ({ ...view(key), lastUsedAt: key.lastUsedAt?.toISOString() ?? null })) })),
  }),
  defineRoute({
    method: "DELETE",
    path: "/api/me/api-keys/:keyId",
    doc: { summary: "Revoke an API key: refused by every instance from this answer on", access: "signedIn", success: [204, null], errors: ["NotFound"] },
    params: ApiKeyPath,
    paramsNotFound: "API key",
    handle: (_ctx, { principal, params }) => Effect.as(revokeApiKey(principal, params.keyId), new Response(null, { status: 204 })),
  }),
]
