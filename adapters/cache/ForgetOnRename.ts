// Read-your-writes for a rename: a submission that updates a game may change its name, which the catalog's pages and
// search show. Once the store has committed an update, this instance forgets the game's view; the catalog's kept pages
// only when the commit says it renamed the game (or when it failed: a write that timed out may still have committed),
// without waiting for the change follower to read the feed entry the store wrote for the rename. An update that keeps
// the name changes no page. New games are not in the catalog yet; nothing to forget for them.
import { Effect, Exit, Layer } from "effect"
import { SubmissionStore } from "../../ports/SubmissionStore.ts"
import { GameViewCache } from "./CachedGameViews.ts"
import { CatalogPageCache } from "./CatalogPages.ts"

/** Decorates the SubmissionStore it is given (provide one to it, and the plain caches); `get` passes through. */
export const layerForgetOnRename: Layer.Layer<SubmissionStore, never, SubmissionStore | GameViewCache | CatalogPageCache> = Layer.effect(
  SubmissionStore,
  Effect.gen(function*() {
    const store = yield* SubmissionStore
    const views = yield* GameViewCache
    const pages = yield* CatalogPageCache
    return SubmissionStore.of({
      ...store,
      commit: (input) =>
        input.newGame ? store.commit(input) : store.commit(input).pipe(
          Effect.onExit((exit) =>
            Effect.andThen(
              views.forget([input.game.id]),
              Exit.isSuccess(exit) && exit.value !== "renamed" ? Effect.void : pages.forgetAll,
            )
          ),
        ),
    })
  }),
)
