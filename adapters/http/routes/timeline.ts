import { Effect } from "effect"
import { GameNotFoundOrForbidden } from "../../../domain/errors.ts"
import { gameTimeline } from "../../../domain/timeline/GameTimeline.ts"
import { READ_SCOPES } from "../credentialAccess.ts"
import * as Wire from "../openapi/schemas.ts"
import { json } from "../respond.ts"
import { gameIdParam, principalFor, type Route, type RouteContext } from "../route.ts"

export const timelineRoutes: ReadonlyArray<Route> = [
  {
    method: "GET",
    path: "/api/games/:gameId/timeline",
    doc: {
      summary: "Every state change of the game and its releases, oldest first, with who acted and why (owner and administrators); ?limit=&cursor=",
      access: "signedIn",
      credentialScopes: READ_SCOPES,
      success: [200, Wire.GameTimeline],
      errors: ["GameNotFoundOrForbidden"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      const params = new URL(ctx.request.url).searchParams
      const gameId = yield* gameIdParam(ctx, () => new GameNotFoundOrForbidden({ gameId: "" }))
      return json(200, yield* gameTimeline(principal, gameId, { cursor: params.get("cursor"), limit: params.get("limit") }))
    }),
  },
]
