// The public catalog (issue 17): pages of published games with a prefix search, served from the serialized page
// cache (adapters/cache/CatalogPages.ts) with an entity tag so clients and proxies revalidate for the cost of a 304.
import { Effect } from "effect"
import { FastResponse } from "srvx"
import { CatalogQueryString, decodeCatalogQuery, publishedGameBySlug } from "../../../domain/catalog/CatalogPage.ts"
import { SlugPath } from "../../../domain/game/Slug.ts"
import { CatalogPages, type SerializedPage } from "../../cache/CatalogPages.ts"
import * as Wire from "../openapi/schemas.ts"
import { json } from "../respond.ts"
import type { Route } from "../route.ts"
import { defineRoute } from "../routeInput.ts"

/** Shared caches may keep a page this long; the service changes tags within 1 s of a decision anyway. */
export const CATALOG_CACHE_CONTROL = "public, max-age=5"

/** True when `ifNoneMatch` (a list of tags, weak or strong, or `*`) names `etag` (weak comparison, RFC 9110 §13.1.2). */
export const tagMatches = (ifNoneMatch: string | null, etag: string): boolean => {
  if (ifNoneMatch === null) return false
  if (ifNoneMatch.trim() === "*") return true
  return ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)
}

/** The page as answered: 304 without a body when the client holds its current tag, else 200 with the kept bytes. */
const pageResponse = (request: Request, page: SerializedPage): Response => {
  const headers = { etag: page.etag, "cache-control": CATALOG_CACHE_CONTROL }
  if (tagMatches(request.headers.get("if-none-match"), page.etag)) return new FastResponse(null, { status: 304, headers })
  return new FastResponse(page.body, { status: 200, headers: { "content-type": "application/json; charset=utf-8", ...headers } })
}

/** The raw query string of a request URL ("?…", or "" without one): what a kept page is found by. */
const rawQuery = (url: string): string => {
  const start = url.indexOf("?")
  return start < 0 ? "" : url.slice(start)
}

/** A page the cache holds, answered without the Effect runtime (CatalogPageCacheOptions.fastHits). */
const keptPage = CatalogPages.useSync((pages): ((request: Request) => Response | null) => {
  const peek = pages.peek
  if (peek === undefined) return () => null
  return (request: Request) => {
    const page = peek(rawQuery(request.url))
    return page === null ? null : pageResponse(request, page)
  }
})

export const catalogRoutes: ReadonlyArray<Route> = [
  defineRoute({
    method: "GET",
    path: "/api/catalog",
    doc: {
      summary:
        "A page of published games, newest first publication first (?limit=1-100&cursor=nextCursor&q=prefix of name or slug); ETag, 304 on If-None-Match",
      access: "public",
      success: [200, Wire.CatalogPage],
      errors: [],
    },
    // A kept page is answered ahead of all this (App.ts runs the shortcut first); the query is decoded otherwise.
    shortcut: keptPage,
    query: { schema: CatalogQueryString, decode: decodeCatalogQuery },
    handle: (ctx, { query }) =>
      Effect.map(CatalogPages.use((pages) => pages.page(query, rawQuery(ctx.request.url))), (page) => pageResponse(ctx.request, page)),
  }),
  defineRoute({
    method: "GET",
    path: "/api/games/by-slug/:slug",
    doc: {
      summary:
        "A published game by its slug: name, active version, size, sha256, first published (404 game_not_found_or_forbidden for anything not published; not_found for what cannot be a slug)",
      access: "public",
      success: [200, Wire.CatalogGame],
      errors: ["GameNotFoundOrForbidden"],
    },
    // Text that cannot be a slug (malformed percent-encoding included) names no game: 404 not_found, nothing echoed.
    params: SlugPath,
    paramsNotFound: "game",
    handle: (_ctx, { params }) => Effect.map(publishedGameBySlug(params.slug), (game) => json(200, game)),
  }),
]
