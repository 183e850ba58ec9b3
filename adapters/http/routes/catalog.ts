// The public catalog (issue 17): pages of published games with a prefix search, served from the serialized page
// cache (adapters/cache/CatalogPages.ts) with an entity tag so clients and proxies revalidate for the cost of a 304.
import { Effect } from "effect"
import { FastResponse } from "srvx"
import { readCatalogRequest, publishedGameBySlug } from "../../../domain/catalog/CatalogPage.ts"
import { CatalogPages } from "../../cache/CatalogPages.ts"
import * as Wire from "../openapi/schemas.ts"
import { json } from "../respond.ts"
import { rawParam, type Route, type RouteContext } from "../route.ts"

/** Shared caches may keep a page this long; the service changes tags within 1 s of a decision anyway. */
export const CATALOG_CACHE_CONTROL = "public, max-age=5"

/** True when `ifNoneMatch` (a list of tags, weak or strong, or `*`) names `etag` (weak comparison, RFC 9110 §13.1.2). */
export const tagMatches = (ifNoneMatch: string | null, etag: string): boolean => {
  if (ifNoneMatch === null) return false
  if (ifNoneMatch.trim() === "*") return true
  return ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)
}

const catalogPage = Effect.fnUntraced(function*(ctx: RouteContext) {
  const query = new URL(ctx.request.url).searchParams
  const request = yield* readCatalogRequest({ limit: query.get("limit"), cursor: query.get("cursor"), q: query.get("q") })
  const page = yield* CatalogPages.use((pages) => pages.page(request))
  const headers = { etag: page.etag, "cache-control": CATALOG_CACHE_CONTROL }
  if (tagMatches(ctx.request.headers.get("if-none-match"), page.etag)) return new FastResponse(null, { status: 304, headers })
  return new FastResponse(page.body, { status: 200, headers: { "content-type": "application/json; charset=utf-8", ...headers } })
})

export const catalogRoutes: ReadonlyArray<Route> = [
  {
    method: "GET",
    path: "/api/catalog",
    doc: {
      summary:
        "A page of published games, newest first publication first (?limit=1-100&cursor=nextCursor&q=prefix of name or slug); ETag, 304 on If-None-Match",
      access: "public",
      success: [200, Wire.CatalogPage],
      errors: ["InvalidRequest"],
    },
    handle: catalogPage,
  },
  {
    method: "GET",
    path: "/api/games/by-slug/:slug",
    doc: {
      summary: "A published game by its slug: name, active version, size, sha256, first published (404 for anything not published)",
      access: "public",
      success: [200, Wire.CatalogGame],
      errors: ["GameNotFoundOrForbidden"],
    },
    handle: (ctx) => Effect.map(publishedGameBySlug(rawParam(ctx, "slug")), (game) => json(200, game)),
  },
]
