// Whatever drops game views also drops the catalog's serialized pages: a change to any game may change any page.
// Given to the game view cache's users (the change follower, ForgetOnDecision) in place of the plain handle.
import { Effect, Layer } from "effect"
import { GameViewCache } from "./CachedGameViews.ts"
import { CatalogPageCache } from "./CatalogPages.ts"

export const layerForgetCatalogPagesToo: Layer.Layer<GameViewCache, never, GameViewCache | CatalogPageCache> = Layer.effect(
  GameViewCache,
  Effect.gen(function*() {
    const views = yield* GameViewCache
    const pages = yield* CatalogPageCache
    return GameViewCache.of({
      forget: (gameIds) => Effect.andThen(views.forget(gameIds), pages.forgetAll),
      forgetAll: Effect.andThen(views.forgetAll, pages.forgetAll),
      confirmCurrent: (readAt) => Effect.andThen(views.confirmCurrent(readAt), pages.confirmCurrent(readAt)),
    })
  }),
)
