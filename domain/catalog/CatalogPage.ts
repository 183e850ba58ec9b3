// GET /api/catalog and GET /api/games/by-slug/{slug}: the public catalog, paginated by first publication (newest
// first), with a case-insensitive prefix search on names and slugs.
import { Effect, Option, Schema } from "effect"
import { Catalog, type CatalogEntry, type CatalogQuery } from "../../ports/Catalog.ts"
import { decodeInput } from "../decode.ts"
import { GameNotFoundOrForbidden, InvalidRequest } from "../errors.ts"
import { searchKey } from "../game/searchKey.ts"
import { CATALOG_ORDER } from "../paging/orders.ts"
import { type PageParams, pageOf, readPageRequest } from "../paging/Page.ts"

/** A search longer than any name cannot match anything; refusing it keeps cache keys small. */
export const MAX_QUERY_LENGTH = 80

export interface CatalogParams extends PageParams {
  readonly q: string | null
}

/** A checked catalog request; `key` names it exactly (what a cache of serialized pages is keyed by). */
export interface CatalogRequest extends CatalogQuery {
  readonly key: string
}

/** Validates limit, cursor and q (400 invalid_request naming each problem). An empty or blank q means no search. */
export const readCatalogRequest = (params: CatalogParams): Effect.Effect<CatalogRequest, InvalidRequest> =>
  Effect.flatMap(
    Effect.result(readPageRequest(CATALOG_ORDER, params)),
    (page) => {
      const problems = page._tag === "Failure" ? [...page.failure.problems] : []
      const q = params.q === null ? "" : searchKey(params.q.trim())
      if ([...q].length > MAX_QUERY_LENGTH) problems.push(`q: at most ${MAX_QUERY_LENGTH} characters; search for the start of a name or slug`)
      if (problems.length > 0 || page._tag === "Failure") return Effect.fail(new InvalidRequest({ problems }))
      const prefix = q === "" ? null : q
      return Effect.succeed({ ...page.success, prefix, key: JSON.stringify([String(page.success.limit), params.cursor, prefix]) })
    },
  )

/** GET /api/catalog's query string as sent: `limit`, `cursor` and `q`, each optional (readCatalogRequest checks them). */
export const CatalogQueryString = Schema.Struct({
  limit: Schema.optionalKey(Schema.String),
  cursor: Schema.optionalKey(Schema.String),
  q: Schema.optionalKey(Schema.String),
})

/** The query string (a record of its parameters) decoded into a checked request: 400 invalid_request naming each problem. */
export const decodeCatalogQuery = (query: unknown): Effect.Effect<CatalogRequest, InvalidRequest> =>
  Effect.flatMap(decodeInput(CatalogQueryString, query), (params) =>
    readCatalogRequest({ limit: params.limit ?? null, cursor: params.cursor ?? null, q: params.q ?? null }))

/** A catalog item: the public fields of today's catalog, plus the active release's size, digest and first publication. */
export const catalogItem = (entry: CatalogEntry) => ({
  gameId: entry.gameId,
  name: entry.name,
  slug: entry.slug,
  kind: entry.kind,
  status: "published" as const,
  activeVersion: entry.activeVersion,
  sizeBytes: entry.sizeBytes,
  sha256: entry.sha256,
  firstPublishedAt: entry.firstPublishedAt,
  activeRelease: { version: entry.activeVersion, sha256: entry.sha256, sizeBytes: entry.sizeBytes, publishedAt: entry.activeSince },
})
export type CatalogItem = ReturnType<typeof catalogItem>

/** One page of the catalog, and the cursor of the next. */
export const catalogPage = Effect.fn("catalogPage")(function*(request: CatalogRequest) {
  const entries = yield* Catalog.use((catalog) => catalog.page({ after: request.after, limit: request.limit + 1, prefix: request.prefix }))
  const page = pageOf(CATALOG_ORDER, request, entries, (e) => ({ firstPublishedAt: e.firstPublishedAt, gameId: e.gameId }))
  return { games: page.items.map(catalogItem), nextCursor: page.nextCursor }
})

/** A published game by slug; an unknown slug and a game that is not published answer alike (404), revealing nothing. */
export const publishedGameBySlug = Effect.fn("publishedGameBySlug")(function*(slug: string) {
  const entry = Option.getOrNull(yield* Catalog.use((catalog) => catalog.bySlug(slug)))
  if (entry === null) return yield* new GameNotFoundOrForbidden({ gameId: slug })
  return catalogItem(entry)
})
