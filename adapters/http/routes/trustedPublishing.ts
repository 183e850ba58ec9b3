import { Effect } from "effect"
import type { TrustedPublisher } from "../../../domain/credentials/TrustedPublisher.ts"
import { AddTrustedPublisherBody, ExchangeBody } from "../../../domain/credentials/TrustedPublisher.ts"
import { addTrustedPublisher, exchangePublishingToken, listTrustedPublishers, removeTrustedPublisher } from "../../../domain/credentials/TrustedPublishers.ts"
import { readJsonBody } from "../body.ts"
import * as Wire from "../openapi/schemas.ts"
import { json } from "../respond.ts"
import { principalFor, rawParam, type Route, type RouteContext } from "../route.ts"

// Trusted publishers are managed by the game's owner or an administrator with their own token or session (no
// credential scopes: keys and publishing tokens get 404); the exchange itself needs no sign-in, only the CI's ID token.

const view = (publisher: TrustedPublisher) => ({ ...publisher, createdAt: publisher.createdAt.toISOString() })

export const trustedPublishingRoutes: ReadonlyArray<Route> = [
  {
    method: "POST",
    path: "/api/games/:gameId/trusted-publishers",
    doc: {
      summary: "Trust a GitHub Actions or GitLab CI workflow to publish this game without a stored secret (owner or administrator)",
      access: "signedIn",
      request: AddTrustedPublisherBody,
      success: [201, Wire.TrustedPublisherView],
      errors: ["GameNotFoundOrForbidden"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      const body = yield* readJsonBody(ctx.request, ctx.bodyTimeouts)
      return json(201, view(yield* addTrustedPublisher(principal, rawParam(ctx, "gameId"), body)))
    }),
  },
  {
    method: "GET",
    path: "/api/games/:gameId/trusted-publishers",
    doc: {
      summary: "The game's trusted publishers, oldest first (owner or administrator)",
      access: "signedIn",
      success: [200, Wire.TrustedPublisherList],
      errors: ["GameNotFoundOrForbidden"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      return json(200, { publishers: (yield* listTrustedPublishers(principal, rawParam(ctx, "gameId"))).map(view) })
    }),
  },
  {
    method: "DELETE",
    path: "/api/games/:gameId/trusted-publishers/:publisherId",
    doc: {
      summary: "Stop trusting a publisher: its next exchange is refused (tokens already minted last their 15 minutes)",
      access: "signedIn",
      success: [204, null],
      errors: ["GameNotFoundOrForbidden", "NotFound"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      yield* removeTrustedPublisher(principal, rawParam(ctx, "gameId"), rawParam(ctx, "publisherId"))
      return new Response(null, { status: 204 })
    }),
  },
  {
    method: "POST",
    path: "/api/auth/trusted-publishing/token",
    doc: {
      summary: "Exchange a CI provider's OIDC ID token for a 15-minute token that releases the one game whose publisher it matches",
      access: "public",
      request: ExchangeBody,
      success: [200, Wire.PublishingToken],
      errors: ["SignInRequired", "AmbiguousPublisher"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const minted = yield* exchangePublishingToken(yield* readJsonBody(ctx.request, ctx.bodyTimeouts))
      ctx.setUser(`publisher-of:${minted.gameId}`)
      return json(200, { ...minted, expiresAt: minted.expiresAt.toISOString() }, { "cache-control": "no-store" })
    }),
  },
]
