import { Effect } from "effect"
import { EndSessionsTarget, endUserSessions } from "../../../domain/auth/EndUserSessions.ts"
import type { Route } from "../route.ts"
import { defineRoute } from "../routeInput.ts"

export const userSessionRoutes: ReadonlyArray<Route> = [
  defineRoute({
    method: "DELETE",
    path: "/api/admin/users/:userId/sessions",
    doc: {
      summary: "End every browser session of a user, on every instance within 5 seconds; their access tokens last until they expire (administrators)",
      access: "admin",
      success: [204, null],
      errors: ["InvalidRequest", "NotFound"],
    },
    // A user id is any token subject, not one of ours: one that cannot be a subject is a 400 naming `userId`.
    params: EndSessionsTarget,
    handle: (_ctx, { principal, params }) => Effect.as(endUserSessions(principal, params), new Response(null, { status: 204 })),
  }),
]
