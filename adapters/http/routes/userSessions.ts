import { Effect } from "effect"
import { endUserSessions } from "../../../domain/auth/EndUserSessions.ts"
import { principalFor, rawParam, type Route, type RouteContext } from "../route.ts"

export const userSessionRoutes: ReadonlyArray<Route> = [
  {
    method: "DELETE",
    path: "/api/admin/users/:userId/sessions",
    doc: {
      summary: "End every browser session of a user, on every instance within 5 seconds; their access tokens last until they expire (administrators)",
      access: "admin",
      success: [204, null],
      errors: ["InvalidRequest", "NotFound"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      yield* endUserSessions(principal, rawParam(ctx, "userId"))
      return new Response(null, { status: 204 })
    }),
  },
]
