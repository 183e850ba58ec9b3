import { Effect, Layer, Option } from "effect"
import { SlugTaken } from "../../domain/errors.ts"
import type { Game } from "../../domain/game/Game.ts"
import { GameStore } from "../../ports/GameStore.ts"

export const layerMemoryGameStore = Layer.sync(GameStore, () => {
  const games = new Map<string, Game>()
  const bySlug = new Map<string, string>()
  return GameStore.of({
    // Check and insert happen in one synchronous step, so concurrent inserts of one slug cannot both succeed.
    insert: (game) =>
      Effect.suspend(() => {
        if (bySlug.has(game.slug)) return Effect.fail(new SlugTaken({ slug: game.slug }))
        games.set(game.id, game)
        bySlug.set(game.slug, game.id)
        return Effect.void
      }),
    get: (id) => Effect.sync(() => Option.fromNullishOr(games.get(id))),
    getMany: (ids) => Effect.sync(() => ids.flatMap((id) => games.get(id) ?? [])),
    slugsStartingWith: (prefix) => Effect.sync(() => [...bySlug.keys()].filter((slug) => slug.startsWith(prefix))),
    listByOwner: (ownerId) =>
      Effect.sync(() =>
        [...games.values()]
          .filter((g) => g.ownerId === ownerId)
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      ),
  })
})
