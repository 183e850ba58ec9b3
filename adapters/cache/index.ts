// In-process caches an application may put in front of the stores (the server does): each file says why what it
// serves is what the store would answer, or how stale it may be.
import { Layer } from "effect"
import { type GameViewCacheOptions, layerCachedGameViews } from "./CachedGameViews.ts"
import { layerCachedCatalogPages } from "./CatalogPages.ts"
import { type ChangeFollowerOptions, layerChangeFollower } from "./ChangeFollower.ts"
import { layerForgetCatalogPagesToo } from "./ForgetCatalogPagesToo.ts"
import { layerForgetOnDecision } from "./ForgetOnDecision.ts"
import { layerForgetOnRename } from "./ForgetOnRename.ts"

export { GameViewCache, type GameViewCacheOptions, layerCachedGameViews } from "./CachedGameViews.ts"
export { CatalogPageCache, type CatalogPageCacheOptions, CatalogPages, layerCachedCatalogPages, layerCatalogPages } from "./CatalogPages.ts"
export { layerCachedSessions, SESSION_CACHE_MS, type SessionCacheOptions } from "./CachedSessions.ts"
export { ChangeFollower, type ChangeFollowerOptions, FOLLOW_INTERVAL_MS, layerChangeFollower } from "./ChangeFollower.ts"
export { layerForgetOnDecision } from "./ForgetOnDecision.ts"
export { layerForgetOnRename } from "./ForgetOnRename.ts"
export { layerMemoizedDownloadUrls } from "./MemoizedDownloadUrls.ts"

/** How late another instance's decision may show on this one, by default (the follower reads every 250 ms). */
export const FOLLOWER_MAX_LAG_MS = 1000

/**
 * The game view cache as an instance among others runs it: GameViews from the cache, this instance's decisions
 * forgetting what they change at once, and the change follower forgetting what other instances' decisions change.
 * The catalog's serialized pages (CatalogPages.ts) are kept under the same bound and dropped by the same changes.
 * A submission updating a game forgets its view, and the pages only when it renamed the game (ForgetOnRename.ts).
 * Provide it the records (GameViews, Catalog, ReleaseStore, SubmissionStore and ChangeFeed on one database).
 */
export const layerGameViewCache = (options: GameViewCacheOptions & ChangeFollowerOptions) =>
  Layer.mergeAll(
    Layer.merge(layerForgetOnDecision, layerChangeFollower(options)).pipe(Layer.provide(layerForgetCatalogPagesToo)),
    // A submission knows whether it renamed the game: it forgets the pages itself, only then.
    layerForgetOnRename,
  ).pipe(
    Layer.provideMerge(Layer.merge(
      layerCachedGameViews({ maxLagMs: FOLLOWER_MAX_LAG_MS, ...options }),
      layerCachedCatalogPages({ maxLagMs: FOLLOWER_MAX_LAG_MS, ...options }),
    )),
  )
