// Read-your-writes for the game view cache: a decision answered by this instance shows in this instance's next answer,
// without waiting for the change follower to read it back from the feed. Every ReleaseStore write that changes what
// GameViews answers (and so appends to the change feed) forgets its game here once the store has committed it.
import { Effect, Layer } from "effect"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { GameViewCache } from "./CachedGameViews.ts"

/** Decorates the ReleaseStore it is given (provide one to it); every other operation passes through. */
export const layerForgetOnDecision: Layer.Layer<ReleaseStore, never, ReleaseStore | GameViewCache> = Layer.effect(
  ReleaseStore,
  Effect.gen(function*() {
    const store = yield* ReleaseStore
    const cache = yield* GameViewCache
    return ReleaseStore.of({
      ...store,
      // Also when it failed: a write that timed out may still have committed.
      review: (gameId, version, decision) => Effect.ensuring(store.review(gameId, version, decision), cache.forget([gameId])),
      lifecycle: (gameId, step, lease) => Effect.ensuring(store.lifecycle(gameId, step, lease), cache.forget([gameId])),
    })
  }),
)
