import { Effect } from "effect"
import { SlugPath } from "../../../domain/game/Slug.ts"
import { ReleasePath } from "../../../domain/release/ReleasePath.ts"
import { pageParamsOf } from "../pageParams.ts"
import type { Route, RouteContext } from "../route.ts"
import { decodePath } from "../routeInput.ts"
import { authRoutes, type SignInMode } from "../routes/auth.ts"
import { uploadTokenRoutes } from "../routes/uploadToken.ts"
import { findAsset } from "./assets.ts"
import { gamePage, gamesPage } from "./catalogPages.ts"
import { adminPage, catalogParamsOf, currentUser, notFoundPage, publicPage, signedInPage } from "./common.ts"
import { creatorPage } from "./creatorPage.ts"
import { html } from "./html.ts"
import { htmlResponse, page, pageSecurityHeaders } from "./layout.ts"
import { makeLoginStateCodec } from "./loginState.ts"
import { packReadingPageRoutes } from "./packReadingRoutes.ts"
import { queuePage, reviewReleasePage } from "./reviewPages.ts"
import { submitPage } from "./submitPage.ts"

// The browser side of the service: sign-in, the upload-token endpoint, the pages and their static files.
// Plug into makeApp with `routes: browserRoutes({...})`.

export interface BrowserOptions {
  readonly signIn: SignInMode
  /** Key material for the signed sign-in state cookie: the session secret (a key is derived from it). */
  readonly secret: Uint8Array<ArrayBuffer>
  /** `{submit_api_url}` without a trailing slash; the page posts to `<it>/games/submit`. */
  readonly submitApiUrl: () => string
}

const homePage = Effect.fnUntraced(function*(ctx: RouteContext) {
  const principal = yield* currentUser(ctx).pipe(Effect.orElseSucceed(() => null))
  return htmlResponse(200, page({
    title: "pckgate",
    principal,
    section: "home",
    main: html`<p>Submit Godot game packages (<code>.pck</code>) for review. Nothing is published until an administrator approves it;
approved releases are downloadable by signed-in players through short-lived links.</p>
<ul class="actions">
  ${principal === null && html`<li><a href="/auth/login">Sign in</a> to submit and follow your games.</li>`}
  <li><a href="/submit">Submit a game</a>: a package and its manifest, checked by the scanner at once.</li>
  <li><a href="/creator">My games</a>: review status, rejection reasons, scan results and downloads.</li>
  ${principal?.isAdmin === true && html`<li><a href="/admin">Review queue</a>: approve or reject waiting releases.</li>`}
</ul>`,
  }))
})

const assetResponse = (ctx: RouteContext): Response => {
  const asset = findAsset(ctx.params["file"] ?? "")
  if (asset === undefined) return notFoundPage(null)
  const current = new URL(ctx.request.url).searchParams.get("v") === asset.hash
  return new Response(asset.body, {
    status: 200,
    headers: {
      "content-type": asset.contentType,
      // Pages link to the hashed URL, which never changes content; anything else is revalidated.
      "cache-control": current ? "public, max-age=31536000, immutable" : "no-cache",
      ...pageSecurityHeaders(),
    },
  })
}

export const pageRoutes = (options: BrowserOptions): ReadonlyArray<Route> => [
  { method: "GET", path: "/", handle: homePage },
  {
    method: "GET",
    path: "/submit",
    handle: (ctx) =>
      signedInPage(ctx, (principal) =>
        Effect.sync(() => {
          const submitApi = options.submitApiUrl()
          const origin = new URL(submitApi).origin
          return submitPage(principal, `${submitApi}/games/submit`, origin === ctx.auth.ownOrigin() ? [] : [origin])
        })),
  },
  {
    method: "GET",
    path: "/creator",
    handle: (ctx) =>
      signedInPage(ctx, (principal) => {
        const query = new URL(ctx.request.url).searchParams
        return creatorPage(principal, pageParamsOf(ctx.request), { gameId: query.get("timeline"), cursor: query.get("timelineCursor") })
      }),
  },
  { method: "GET", path: "/admin", handle: (ctx) => adminPage(ctx, (principal) => queuePage(principal, pageParamsOf(ctx.request))) },
  {
    method: "GET",
    path: "/admin/games/:gameId/releases/:version",
    handle: (ctx) =>
      adminPage(ctx, (principal) =>
        Effect.flatMap(decodePath(ReleasePath, "release", ctx.params), ({ gameId, version }) => {
          const query = new URL(ctx.request.url).searchParams
          return reviewReleasePage(principal, gameId, version, query.get("against"), query.get("timelineCursor"))
        })),
  },
  { method: "GET", path: "/games", handle: (ctx) => publicPage(ctx, (principal) => gamesPage(principal, catalogParamsOf(ctx.request))) },
  {
    method: "GET",
    path: "/games/:slug",
    handle: (ctx) => publicPage(ctx, (principal) => Effect.flatMap(decodePath(SlugPath, "game", ctx.params), ({ slug }) => gamePage(principal, slug))),
  },
  { method: "GET", path: "/assets/:file", handle: (ctx) => Effect.sync(() => assetResponse(ctx)) },
]

export const browserRoutes = (options: BrowserOptions): ReadonlyArray<Route> => [
  ...authRoutes({ signIn: options.signIn, loginState: makeLoginStateCodec(options.secret) }),
  ...uploadTokenRoutes,
  ...pageRoutes(options),
  ...packReadingPageRoutes,
]

