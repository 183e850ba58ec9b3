import { Effect } from "effect"
import { SignInRequired } from "../../../domain/errors.ts"
import { Clock } from "../../../ports/Clock.ts"
import { authenticate } from "../auth.ts"
import * as Wire from "../openapi/schemas.ts"
import { json } from "../respond.ts"
import type { Route, RouteContext } from "../route.ts"
import { sessionCookieHeader } from "../session.ts"

/** How long a browser session lasts; signing in again starts a new one. */
export const SESSION_TTL_SECONDS = 8 * 3600

const secure = (ctx: RouteContext) => ctx.baseUrl().startsWith("https://")

export const sessionRoutes: ReadonlyArray<Route> = [
  {
    // Exchanges a valid Bearer token for an HttpOnly session cookie (browsers cannot keep tokens safely).
    method: "POST",
    path: "/api/session",
    doc: { summary: "Exchange a Bearer token for an HttpOnly session cookie (browsers)", access: "bearer", success: [200, Wire.Session], errors: [] },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      if (ctx.request.headers.get("authorization") === null) {
        return yield* new SignInRequired({ reason: "Creating a session needs 'Authorization: Bearer <access token>'" })
      }
      const principal = yield* authenticate(ctx.request, ctx.auth)
      if (principal === null) return yield* new SignInRequired({ reason: "Sign-in is required" })
      ctx.setUser(principal.userId)
      const now = yield* Clock.use((clock) => clock.now)
      const expiresAt = new Date(now.getTime() + SESSION_TTL_SECONDS * 1000)
      const cookie = yield* Effect.promise(() => ctx.auth.sessions.issue(principal, expiresAt))
      return json(200, { userId: principal.userId, isAdmin: principal.isAdmin, expiresAt }, {
        "set-cookie": sessionCookieHeader(cookie, SESSION_TTL_SECONDS, secure(ctx)),
      })
    }),
  },
  {
    method: "DELETE",
    path: "/api/session",
    doc: { summary: "End the browser session (clears the cookie)", access: "public", success: [204, null], errors: [] },
    handle: (ctx) =>
      Effect.succeed(new Response(null, { status: 204, headers: { "set-cookie": sessionCookieHeader("", 0, secure(ctx)) } })),
  },
]
