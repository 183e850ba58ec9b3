import { Effect } from "effect"
import { SignInRequired } from "../../../domain/errors.ts"
import { Clock } from "../../../ports/Clock.ts"
import { UploadTokens } from "../../../ports/UploadTokens.ts"
import { sessionCaller } from "../auth.ts"
import * as Wire from "../openapi/schemas.ts"
import { json } from "../respond.ts"
import type { Route, RouteContext } from "../route.ts"
import { defineRoute } from "../routeInput.ts"

// The submit page's way to the Bearer-only multipart endpoint (spec §4.6, §5.5): a signed-in browser session asks for
// a token that lasts at most 5 minutes and opens that endpoint only. Cookie sessions from the service's own pages only:
// the auth module treats the cookie of a cross-origin POST as absent.

export const uploadTokenRoutes: ReadonlyArray<Route> = [
  defineRoute({
    method: "POST",
    path: "/api/session/upload-token",
    doc: {
      summary: "A token for the multipart submit endpoint, valid 5 minutes (the submit page's browser session only; Bearer callers send their own token there)",
      access: "session",
      success: [200, Wire.UploadToken],
      errors: ["SignInRequired"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      if (ctx.request.headers.get("authorization") !== null) {
        return yield* new SignInRequired({
          reason: "Upload tokens are for the browser session of this site's pages; API clients send their own access token to the submit endpoint",
        })
      }
      const principal = yield* sessionCaller(ctx.request, ctx.auth)
      if (principal === null) return yield* new SignInRequired({ reason: "Sign in on this site first (a session cookie sent from its own pages)" })
      ctx.setUser(principal.userId)
      const now = yield* Clock.use((clock) => clock.now)
      const { token, expiresAt } = yield* UploadTokens.use((tokens) => tokens.issue(principal, now))
      return json(200, { token, expiresAt })
    }),
  }),
]
