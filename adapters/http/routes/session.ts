import { Effect } from "effect"
import { SignInRequired } from "../../../domain/errors.ts"
import { authenticate } from "../auth.ts"
import * as Wire from "../openapi/schemas.ts"
import { json } from "../respond.ts"
import type { Route, RouteContext } from "../route.ts"
import { defineRoute } from "../routeInput.ts"
import { readCookie, SESSION_COOKIE } from "../session.ts"
import { clearedSessionCookie, endSession, startSession } from "../sessionLifecycle.ts"

const secure = (ctx: RouteContext) => ctx.baseUrl().startsWith("https://")

export const sessionRoutes: ReadonlyArray<Route> = [
  defineRoute({
    // Exchanges a valid Bearer token for an HttpOnly session cookie (browsers cannot keep tokens safely).
    method: "POST",
    path: "/api/session",
    doc: {
      summary: "Exchange a Bearer token for an HttpOnly session cookie (browsers)",
      access: "bearer",
      success: [200, Wire.Session],
      errors: ["SignInRequired"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      if (ctx.request.headers.get("authorization") === null) {
        return yield* new SignInRequired({ reason: "Creating a session needs 'Authorization: Bearer <access token>'" })
      }
      const principal = yield* authenticate(ctx.request, ctx.auth)
      if (principal === null) return yield* new SignInRequired({ reason: "Sign-in is required" })
      ctx.setUser(principal.userId)
      const { session, setCookie } = yield* startSession(ctx.auth, principal, secure(ctx))
      return json(200, { userId: principal.userId, isAdmin: principal.isAdmin, expiresAt: session.expiresAt }, { "set-cookie": setCookie })
    }),
  }),
  defineRoute({
    // Ends the session on the server, so a copy of the cookie stops working too. Like every cookie-authenticated state
    // change, only from the service's own pages: elsewhere the cookie counts as absent, and a request that carries one
    // is told to sign in (nothing is ended, nothing cleared).
    method: "DELETE",
    path: "/api/session",
    doc: {
      summary: "End the browser session on the server and clear the cookie (with a cookie: from the service's own origin)",
      access: "public",
      success: [204, null],
      errors: ["SignInRequired"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      if (readCookie(ctx.request, SESSION_COOKIE) !== null && ctx.request.headers.get("origin") !== ctx.auth.ownOrigin()) {
        return yield* new SignInRequired({ reason: "A session is ended from this site's own pages (the request must carry its Origin)" })
      }
      yield* endSession(ctx.request, ctx.auth)
      return new Response(null, { status: 204, headers: { "set-cookie": clearedSessionCookie(secure(ctx)) } })
    }),
  }),
]
