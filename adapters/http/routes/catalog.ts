// The public catalog (issue 17): pages of published games with a prefix search, served from the serialized page
// cache (adapters/cache/CatalogPages.ts) with an entity tag so clients and proxies revalidate for the cost of a 304.
import { Effect } from "effect"
import { FastResponse } from "srvx"
import { readCatalogRequest, publishedGameBySlug } from "../../../domain/catalog/CatalogPage.ts"
import { CatalogPages, type SerializedPage } from "../../cache/CatalogPages.ts"
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

const catalogPage = Effect.fnUntraced(function*(ctx: RouteContext) {
  const query = new URL(ctx.request.url).searchParams
  const request = yield* readCatalogRequest({ limit: query.get("limit"), cursor: query.get("cursor"), q: query.get("q") })
  const page = yield* CatalogPages.use((pages) => pages.page(request, rawQuery(ctx.request.url)))
  return pageResponse(ctx.request, page)
})

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
    shortcut: keptPage,
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
