import { Effect } from "effect"
import { NotFound } from "../../../domain/errors.ts"
import { createGame, CreateGameBody, RegisterGameBody, registerGame } from "../../../domain/game/CreateGame.ts"
import type { Game } from "../../../domain/game/Game.ts"
import { gameDetail, myGames } from "../../../domain/game/Views.ts"
import { authenticate } from "../auth.ts"
import { readJsonBody } from "../body.ts"
import { pageParamsOf } from "../pageParams.ts"
import { DEPENDENCY_FAILURE } from "../errorTable.ts"
import * as Wire from "../openapi/schemas.ts"
import { json } from "../respond.ts"
import { gameIdParam, principalFor, type Route, type RouteContext } from "../route.ts"

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
  {
    method: "POST",
    path: "/api/games/engine",
    dependencyFailure: DEPENDENCY_FAILURE.createGame,
    doc: {
      summary: "Create the game record (once per game, not per version)",
      access: "signedIn",
      request: CreateGameBody,
      success: [201, Wire.CreatedGame],
      errors: ["SlugTaken", "RateLimited"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      const game = yield* createGame(principal, yield* readJsonBody(ctx.request, ctx.bodyTimeouts))
      return createdGame(ctx, game)
    }),
  },
  {
    method: "POST",
    path: "/api/admin/games",
    doc: {
      summary: "Register a game of any kind for an owner (administrators)",
      access: "admin",
      request: RegisterGameBody,
      success: [201, Wire.CreatedGame],
      errors: ["SlugTaken", "NotFound"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      const game = yield* registerGame(principal, yield* readJsonBody(ctx.request, ctx.bodyTimeouts))
      return createdGame(ctx, game)
    }),
  },
  {
    method: "GET",
    path: "/api/me/games",
    doc: {
      summary: "A page of the caller's games, oldest first, with every release, status and rejection reason (?limit=1-100&cursor=nextCursor)",
      access: "signedIn",
      success: [200, Wire.MyGames],
      errors: ["InvalidRequest"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      return json(200, yield* myGames(principal, pageParamsOf(ctx.request)))
    }),
  },
  {
    method: "GET",
    path: "/api/games/:gameId",
    doc: {
      summary: "A game: everything for its owner and administrators, the public record of a published game for others",
      access: "public",
      success: [200, Wire.GameDetail],
      errors: ["SignInRequired", "NotFound"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* authenticate(ctx.request, ctx.auth)
      if (principal !== null) ctx.setUser(principal.userId)
      const gameId = yield* gameIdParam(ctx, () => new NotFound({ what: "game" }))
      return json(200, yield* gameDetail(principal, gameId))
    }),
  },
]
