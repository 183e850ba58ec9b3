import { Effect } from "effect"
import { createGame, CreateGameBody, RegisterGameBody, registerGame } from "../../../domain/game/CreateGame.ts"
import type { Game } from "../../../domain/game/Game.ts"
import { GamePath } from "../../../domain/game/GamePath.ts"
import { catalog, gameDetail, myGames } from "../../../domain/game/Views.ts"
import { DEPENDENCY_FAILURE } from "../errorTable.ts"
import * as Wire from "../openapi/schemas.ts"
import { json } from "../respond.ts"
import type { Route, RouteContext } from "../route.ts"
import { defineRoute } from "../routeInput.ts"

const createdGame = (ctx: RouteContext, game: Game) =>
  json(201, {
    gameId: game.id,
    slug: game.slug,
    name: game.name,
    kind: game.kind,
    ownerId: game.ownerId,
    status: "review",
    createdAt: game.createdAt,
    uploadUrlEndpoint: `${ctx.baseUrl()}/api/games/${encodeURIComponent(game.id)}/releases/upload-url`,
  })


export const gameRoutes: ReadonlyArray<Route> = [
  defineRoute({
    method: "POST",
    path: "/api/games/engine",
    dependencyFailure: DEPENDENCY_FAILURE.createGame,
    doc: {
      summary: "Create the game record (once per game, not per version)",
      access: "signedIn",
      success: [201, Wire.CreatedGame],
      errors: ["SlugTaken", "RateLimited"],
    },
    body: CreateGameBody,
    handle: (ctx, { principal, body }) => Effect.map(createGame(principal, body), (game) => createdGame(ctx, game)),
  }),
  defineRoute({
    method: "POST",
    path: "/api/admin/games",
    doc: {
      summary: "Register a game of any kind for an owner (administrators)",
      access: "admin",
      success: [201, Wire.CreatedGame],
      errors: ["SlugTaken", "NotFound"],
    },
    body: RegisterGameBody,
    handle: (ctx, { principal, body }) => Effect.map(registerGame(principal, body), (game) => createdGame(ctx, game)),
  }),
  defineRoute({
    method: "GET",
    path: "/api/me/games",
    doc: { summary: "The caller's games with every release, status and rejection reason", access: "signedIn", success: [200, Wire.MyGames], errors: [] },
    handle: (_ctx, { principal }) => Effect.map(myGames(principal), (games) => json(200, { games })),
  }),
  defineRoute({
    method: "GET",
    path: "/api/games/:gameId",
    doc: {
      summary: "A game: everything for its owner and administrators, the public record of a published game for others",
      access: "public",
      success: [200, Wire.GameDetail],
      errors: ["SignInRequired", "NotFound"],
    },
    identify: true,
    params: GamePath,
    paramsNotFound: "game",
    handle: (_ctx, { principal, params }) => Effect.map(gameDetail(principal, params.gameId), (game) => json(200, game)),
  }),
  defineRoute({
    method: "GET",
    path: "/api/catalog",
    doc: { summary: "Published games and their active release", access: "public", success: [200, Wire.Catalog], errors: [] },
    handle: () => Effect.map(catalog(), (games) => json(200, { games })),
  }),
]
