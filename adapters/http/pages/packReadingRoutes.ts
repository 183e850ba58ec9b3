import { Effect } from "effect"
import { NotFound } from "../../../domain/errors.ts"
import type { Route, RouteContext } from "../route.ts"
import { gameIdParam, versionParam } from "../route.ts"
import { notFoundPage, signedInPage } from "./common.ts"
import { codePage, downloadRedirect } from "./packReadingPages.ts"

const release = (ctx: RouteContext) => Effect.all([gameIdParam(ctx, () => new NotFound({ what: "release" })), versionParam(ctx)])

/** The code view and the pack download of /admin/games/{gameId}/releases/{version}. */
export const packReadingPageRoutes: ReadonlyArray<Route> = [
  {
    method: "GET",
    path: "/admin/games/:gameId/releases/:version/code",
    handle: (ctx) =>
      signedInPage(ctx, (principal) =>
        Effect.gen(function*() {
          if (!principal.isAdmin) return notFoundPage(principal)
          const [gameId, version] = yield* release(ctx)
          return yield* codePage(principal, gameId, version, new URL(ctx.request.url).searchParams.get("path"))
        })),
  },
  {
    method: "GET",
    path: "/admin/games/:gameId/releases/:version/download",
    handle: (ctx) =>
      signedInPage(ctx, (principal) =>
        Effect.gen(function*() {
          if (!principal.isAdmin) return notFoundPage(principal)
          const [gameId, version] = yield* release(ctx)
          return yield* downloadRedirect(principal, gameId, version)
        })),
  },
]
