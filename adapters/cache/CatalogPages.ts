// Serialized pages of the public catalog with their entity tags, per (limit, cursor, q): the hottest read of a store
// costs about as much as a static file when a page is kept as its JSON text and tag.
//
// Why a kept page is right: any approval, activation or takedown may change any page (a newly published game shifts
// every page after it), so every change drops every page. Changes on this instance drop them when the store has
// committed (ForgetOnDecision.ts, through the game view cache's handle); changes elsewhere when the change follower
// reads them from the feed (ChangeFollower.ts), within its bound. Like the game view cache, a page older than `maxLagMs`
// is served only while the follower has confirmed it is current, so a stalled feed cannot keep a stale page. The tag is
// a digest of the body: the same page has the same tag on every instance, so revalidation works across instances.
//
// `fastHits`: a page answered once is also kept under the request's raw query string, for `peek`, which the route
// calls before the Effect runtime runs (a hit then costs about what /healthz costs). The query string names the page
// as surely as the checked request does (reading it is a pure function); the same bounds apply, a forget empties it,
// and a read that a forget overtook is never put there, nor served from effect's Cache (forgets.ts).
import { Cache, Context, Duration, Effect, Exit, Layer } from "effect"
import { type CatalogRequest, catalogPage, readCatalogRequest } from "../../domain/catalog/CatalogPage.ts"
import type { Unavailable } from "../../domain/errors.ts"
import { Catalog } from "../../ports/Catalog.ts"
import { makeCacheCounters } from "../observability/cacheMetrics.ts"
import { makeForgets, type ReadMark } from "./forgets.ts"

export interface SerializedPage {
  /** The response body: `{games, nextCursor}` as JSON, encoded once (a hit writes these bytes as they are). */
  readonly body: Uint8Array<ArrayBuffer>
  /** A strong entity tag, quoted. */
  readonly etag: string
}

/** What GET /api/catalog answers with. */
export class CatalogPages extends Context.Service<CatalogPages, {
  /** `query`: the raw query string the request was read from (`?limit=…`, or ""), which `peek` then knows. */
  page(request: CatalogRequest, query?: string): Effect.Effect<SerializedPage, Unavailable>
  /**
   * Without effects (the route's shortcut, adapters/http/route.ts): the page `page` last answered for exactly this raw
   * query string, when it may still be served (the same bounds as `page`); null when in doubt, then `page` answers.
   * Absent where nothing is kept.
   */
  readonly peek?: (query: string) => SerializedPage | null
}>()("pckgate/adapters/cache/CatalogPages") {}

/** The cache's handle, for those that know when pages change (see layerForgetCatalogPagesToo in index.ts). */
export class CatalogPageCache extends Context.Service<CatalogPageCache, {
  readonly forgetAll: Effect.Effect<void>
  /** The follower had applied every change committed before `readAt` (Effect clock, milliseconds). */
  confirmCurrent(readAt: number): Effect.Effect<void>
}>()("pckgate/adapters/cache/CatalogPageCache") {}

const toBase64Url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")

const serialized = (request: CatalogRequest) =>
  Effect.flatMap(catalogPage(request), (page) => {
    const body = new TextEncoder().encode(JSON.stringify(page))
    return Effect.promise(() => crypto.subtle.digest("SHA-256", body)).pipe(
      Effect.map((digest): SerializedPage => ({ body, etag: `"${toBase64Url(new Uint8Array(digest).subarray(0, 18))}"` })),
    )
  })

/** Every request serialized anew (no cache): what the records provide until a cache is put in front. */
export const layerCatalogPages: Layer.Layer<CatalogPages, never, Catalog> = Layer.effect(
  CatalogPages,
  Effect.map(Catalog, (catalog) => CatalogPages.of({ page: (request) => Effect.provideService(serialized(request), Catalog, catalog) })),
)

export interface CatalogPageCacheOptions {
  /** The longest a page is kept, however current the follower is; 0 disables the cache. */
  readonly ttlMs: number
  /** Pages kept at most (distinct limit, cursor and search combinations); the least recently used goes first. */
  readonly capacity?: number
  /** As in CachedGameViews.ts: pages older than this are served only while the follower confirms it is current. */
  readonly maxLagMs?: number
  /**
   * Pages the cache holds are also answered by `peek` from a plain map keyed by the raw query string (on by default):
   * the route answers those requests without the Effect runtime. Same pages, same bounds, same invalidation;
   * docs/performance.md has the figure.
   */
  readonly fastHits?: boolean
}

const DEFAULT_CAPACITY = 2_000
const EVERY_PAGE = "*"
/**
 * Raw query strings longer than this are not kept for `peek` (those requests take the ordinary way): any valid request
 * fits (a cursor is at most 1,024 characters, a search 80, percent-encoded at most 960), while a flood of padded
 * query strings cannot make the plain map hold more than `capacity` × this many characters.
 */
const MAX_PEEK_QUERY_LENGTH = 2_500

interface Kept {
  readonly page: SerializedPage
  readonly readAt: number
  /** Which serialization this was (1, 2, …): a page read before a request began is a hit for it. */
  readonly read: number
  /** Whether a forget overtook this read (forgets.ts): then it is never served, not even to its own request. */
  readonly mark: ReadMark
}

/** Decorates the Catalog's serialized pages with the cache, and provides the handle that empties it. */
export const layerCachedCatalogPages = (options: CatalogPageCacheOptions): Layer.Layer<CatalogPages | CatalogPageCache, never, Catalog> =>
  Layer.effectContext(
    Effect.gen(function*() {
      const catalog = yield* Catalog
      const uncached = (request: CatalogRequest) => Effect.provideService(serialized(request), Catalog, catalog)
      if (options.ttlMs <= 0) {
        return Context.make(CatalogPages, CatalogPages.of({ page: uncached })).pipe(
          Context.add(CatalogPageCache, CatalogPageCache.of({ forgetAll: Effect.void, confirmCurrent: () => Effect.void })),
        )
      }
      const ttl = Duration.millis(options.ttlMs)
      const clock = yield* Effect.clockWith(Effect.succeed)
      const capacity = options.capacity ?? DEFAULT_CAPACITY
      // /metrics: a miss is one serialization from the store; every other page answered is a hit.
      const counters = makeCacheCounters("catalog", yield* Effect.context<never>())
      let reads = 0
      // Every change forgets every page: one key stands for all of them.
      const forgets = makeForgets<typeof EVERY_PAGE>()
      // The key names the request exactly (CatalogRequest.key); it is read back into the same request.
      const pages = yield* Cache.makeWith((key: string) => {
        counters.miss()
        const read = ++reads
        const [limit, cursor, q] = JSON.parse(key) as [string, string | null, string | null]
        return forgets.marked(EVERY_PAGE, Effect.flatMap(Effect.orDie(readCatalogRequest({ limit, cursor, q })), uncached)).pipe(
          Effect.map(({ value: page, mark }): Kept => ({ page, readAt: clock.currentTimeMillisUnsafe(), read, mark })),
        )
      }, {
        capacity,
        timeToLive: (exit: Exit.Exit<Kept, Unavailable>) => (Exit.isSuccess(exit) ? ttl : Duration.zero),
      })
      const maxLagMs = options.maxLagMs ?? Infinity
      let trustedUntil = options.maxLagMs === undefined ? Infinity : -Infinity
      const servable = (kept: Kept, now: number) => now < trustedUntil || now - kept.readAt < maxLagMs
      /** `fastHits`: the pages `page` answered, by raw query string (several strings may name one page). */
      const hot = new Map<string, Kept>()
      const keepHot = (query: string | undefined, kept: Kept) => {
        if (options.fastHits === false || query === undefined || query.length > MAX_PEEK_QUERY_LENGTH || kept.mark.overtakenBy(Infinity)) return
        if (hot.size >= capacity) hot.clear()
        hot.set(query, kept)
      }
      const peek = (query: string): SerializedPage | null => {
        const kept = hot.get(query)
        if (kept === undefined) return null
        const now = clock.currentTimeMillisUnsafe()
        if (now - kept.readAt < options.ttlMs && servable(kept, now)) {
          counters.hit()
          return kept.page
        }
        hot.delete(query)
        return null
      }
      const page = (request: CatalogRequest, query?: string) =>
        Effect.suspend(() => {
          const readsBefore = reads
          return Effect.flatMap(Cache.get(pages, request.key), (kept) => {
            // A read a forget overtook can still land in effect's Cache (when the forget runs while the read starts):
            // read again.
            if (!kept.mark.overtakenBy(Infinity) && servable(kept, clock.currentTimeMillisUnsafe())) {
              if (kept.read <= readsBefore) counters.hit()
              keepHot(query, kept)
              return Effect.succeed(kept.page)
            }
            return Effect.andThen(Cache.invalidate(pages, request.key), Effect.map(Cache.get(pages, request.key), (fresh) => {
              keepHot(query, fresh)
              return fresh.page
            }))
          })
        })
      return Context.make(CatalogPages, CatalogPages.of(options.fastHits === false ? { page } : { page, peek })).pipe(
        Context.add(CatalogPageCache, CatalogPageCache.of({
          forgetAll: Effect.andThen(
            Effect.sync(() => {
              forgets.forget()
              hot.clear()
            }),
            Cache.invalidateAll(pages),
          ),
          confirmCurrent: (readAt) => Effect.sync(() => void (trustedUntil = Math.max(trustedUntil, readAt + maxLagMs))),
        })),
      )
    }),
  )
