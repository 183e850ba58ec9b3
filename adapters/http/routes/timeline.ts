import { Effect } from "effect"
import { GameNotFoundOrForbidden } from "../../../domain/errors.ts"
import { GamePath } from "../../../domain/game/GamePath.ts"
import { gameTimeline } from "../../../domain/timeline/GameTimeline.ts"
import { READ_SCOPES } from "../credentialAccess.ts"
import * as Wire from "../openapi/schemas.ts"
import { json } from "../respond.ts"
import type { Route } from "../route.ts"
import { defineRoute } from "../routeInput.ts"

export const timelineRoutes: ReadonlyArray<Route> = [
  defineRoute({
    method: "GET",
    path: "/api/games/:gameId/timeline",
    doc: {
      summary: "Every state change of the game and its releases, oldest first, with who acted and why (owner and administrators); ?limit=&cursor=",
      access: "signedIn",
      credentialScopes: READ_SCOPES,
      success: [200, Wire.GameTimeline],
      errors: ["GameNotFoundOrForbidden", "InvalidRequest"],
    },
    params: GamePath,
    // A game id that cannot be one of ours is not echoed back.
    paramsNotFound: () => new GameNotFoundOrForbidden({ gameId: "" }),
    handle: (ctx, { principal, params }) => {
      const query = new URL(ctx.request.url).searchParams
      return Effect.map(gameTimeline(principal, params.gameId, { cursor: query.get("cursor"), limit: query.get("limit") }), (page) => json(200, page))
    },
  }),
]
