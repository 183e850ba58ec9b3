import { Effect } from "effect"
import type { Principal } from "../../../domain/auth/Principal.ts"
import { type DomainError, NotFound } from "../../../domain/errors.ts"
import { ReleasePath } from "../../../domain/release/ReleasePath.ts"
import { FileQuery } from "../../../domain/review/ReadingQueries.ts"
import type { AppServices, Route, RouteContext } from "../route.ts"
import { decodePath, decodeQuery } from "../routeInput.ts"
import { adminPage } from "./common.ts"
import { codePage, downloadRedirect } from "./packReadingPages.ts"

/** An administrator's page about a release: the one page-side guard, then the path (anything but a release: 404). */
const releasePage = (ctx: RouteContext, render: (principal: Principal, release: ReleasePath) => Effect.Effect<Response, DomainError, AppServices>) =>
  adminPage(ctx, (principal) => Effect.flatMap(decodePath(ReleasePath, "release", ctx.params), (release) => render(principal, release)))

/** The code view and the pack download of /admin/games/{gameId}/releases/{version}. */
export const packReadingPageRoutes: ReadonlyArray<Route> = [
  {
    method: "GET",
    path: "/admin/games/:gameId/releases/:version/code",
    handle: (ctx) =>
      releasePage(ctx, (principal, { gameId, version }) =>
        decodeQuery(FileQuery, ctx.request).pipe(
          // A path that cannot name a file is a file that is not there: the 404 page.
          Effect.catchTag("InvalidRequest", () => Effect.fail(new NotFound({ what: "file" }))),
          Effect.flatMap((query) => codePage(principal, gameId, version, query)),
        )),
  },
  {
    method: "GET",
    path: "/admin/games/:gameId/releases/:version/download",
    handle: (ctx) => releasePage(ctx, (principal, { gameId, version }) => downloadRedirect(principal, gameId, version)),
  },
]
