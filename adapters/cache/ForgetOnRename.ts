// Read-your-writes for a rename: a submission that updates a game may change its name, which the catalog's pages and
// search show, so once the store has committed it this instance forgets the game (its view and, through
// ForgetCatalogPagesToo.ts, every catalog page) without waiting for the change follower to read the feed entry the
// store wrote for a rename. New games are not in the catalog yet; nothing to forget for them.
import { Effect, Layer } from "effect"
import { SubmissionStore } from "../../ports/SubmissionStore.ts"
import { GameViewCache } from "./CachedGameViews.ts"

/** Decorates the SubmissionStore it is given (provide one to it); `get` passes through. */
export const layerForgetOnRename: Layer.Layer<SubmissionStore, never, SubmissionStore | GameViewCache> = Layer.effect(
  SubmissionStore,
  Effect.gen(function*() {
    const store = yield* SubmissionStore
    const cache = yield* GameViewCache
    return SubmissionStore.of({
      ...store,
      // Also when it failed: a write that timed out may still have committed.
      commit: (input) => input.newGame ? store.commit(input) : Effect.ensuring(store.commit(input), cache.forget([input.game.id])),
    })
  }),
)
