import { Effect } from "effect"
import type { TrustedPublisher } from "../../../domain/credentials/TrustedPublisher.ts"
import { AddTrustedPublisherBody, ExchangeBody, PublisherPath } from "../../../domain/credentials/TrustedPublisher.ts"
import { addTrustedPublisher, exchangePublishingToken, listTrustedPublishers, removeTrustedPublisher } from "../../../domain/credentials/TrustedPublishers.ts"
import { GamePath } from "../../../domain/game/GamePath.ts"
import * as Wire from "../openapi/schemas.ts"
import { json } from "../respond.ts"
import type { Route } from "../route.ts"
import { notYourGame } from "../pathRefusals.ts"
import { defineRoute } from "../routeInput.ts"

// Trusted publishers are managed by the game's owner or an administrator with their own token or session (no
// credential scopes: keys and publishing tokens get 404); the exchange itself needs no sign-in, only the CI's ID token.

const view = (publisher: TrustedPublisher) => ({ ...publisher, createdAt: publisher.createdAt.toISOString() })

export const trustedPublishingRoutes: ReadonlyArray<Route> = [
  defineRoute({
    method: "POST",
    path: "/api/games/:gameId/trusted-publishers",
    doc: {
      summary: "Trust a GitHub Actions or GitLab CI workflow to publish this game without a stored secret (owner or administrator)",
      access: "signedIn",
      success: [201, Wire.TrustedPublisherView],
      errors: ["GameNotFoundOrForbidden", "InvalidRequest", "TrustedPublisherLimitReached"],
    },
    body: AddTrustedPublisherBody,
    params: GamePath,
    paramsNotFound: notYourGame,
    handle: (_ctx, { principal, params, body }) => Effect.map(addTrustedPublisher(principal, params.gameId, body), (added) => json(201, view(added))),
  }),
  defineRoute({
    method: "GET",
    path: "/api/games/:gameId/trusted-publishers",
    doc: {
      summary: "The game's trusted publishers, oldest first (owner or administrator)",
      access: "signedIn",
      success: [200, Wire.TrustedPublisherList],
      errors: ["GameNotFoundOrForbidden"],
    },
    params: GamePath,
    paramsNotFound: notYourGame,
    handle: (_ctx, { principal, params }) =>
      Effect.map(listTrustedPublishers(principal, params.gameId), (publishers) => json(200, { publishers: publishers.map(view) })),
  }),
  defineRoute({
    method: "DELETE",
    path: "/api/games/:gameId/trusted-publishers/:publisherId",
    doc: {
      summary: "Stop trusting a publisher: its next exchange is refused (tokens already minted last their 15 minutes)",
      access: "signedIn",
      success: [204, null],
      errors: ["GameNotFoundOrForbidden", "NotFound"],
    },
    params: PublisherPath,
    paramsNotFound: notYourGame,
    handle: (_ctx, { principal, params }) =>
      Effect.as(removeTrustedPublisher(principal, params.gameId, params.publisherId), new Response(null, { status: 204 })),
  }),
  defineRoute({
    method: "POST",
    path: "/api/auth/trusted-publishing/token",
    doc: {
      summary: "Exchange a CI provider's OIDC ID token for a 15-minute token that releases the one game whose publisher it matches",
      access: "public",
      success: [200, Wire.PublishingToken],
      errors: ["SignInRequired", "AmbiguousPublisher"],
    },
    body: ExchangeBody,
    handle: (ctx, { body }) =>
      Effect.map(exchangePublishingToken(body), (minted) => {
        ctx.setUser(`publisher-of:${minted.gameId}`)
        return json(200, { ...minted, expiresAt: minted.expiresAt.toISOString() }, { "cache-control": "no-store" })
      }),
  }),
]
