// In-process caches an application may put in front of the stores (the server does): each file says why what it
// serves is what the store would answer, or how stale it may be.
export { type GameViewCacheOptions, layerCachedGameViews } from "./CachedGameViews.ts"
export { layerCachedSessions, SESSION_CACHE_MS, type SessionCacheOptions } from "./CachedSessions.ts"
export { layerMemoizedDownloadUrls } from "./MemoizedDownloadUrls.ts"
