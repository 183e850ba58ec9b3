import { Effect, Layer, Option } from "effect"
import { SlugTaken } from "../../domain/errors.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { MemoryTables } from "./MemoryTables.ts"

export const layerMemoryGameStore = Layer.effect(
  GameStore,
  MemoryTables.useSync(({ games, slugs }) =>
    GameStore.of({
      // Check and insert happen in one synchronous step, so concurrent inserts of one slug cannot both succeed.
      insert: (game) =>
        Effect.suspend(() => {
          if (slugs.has(game.slug)) return Effect.fail(new SlugTaken({ slug: game.slug }))
          games.set(game.id, game)
          slugs.set(game.slug, game.id)
          return Effect.void
        }),
      get: (id) => Effect.sync(() => Option.fromNullishOr(games.get(id))),
      getMany: (ids) => Effect.sync(() => ids.flatMap((id) => games.get(id) ?? [])),
      slugsStartingWith: (prefix) => Effect.sync(() => [...slugs.keys()].filter((slug) => slug.startsWith(prefix))),
      findByManifestId: (manifestId) =>
        Effect.sync(() => Option.fromNullishOr([...games.values()].find((g) => g.manifestId === manifestId))),
      listByOwner: (ownerId) =>
        Effect.sync(() =>
          [...games.values()]
            .filter((g) => g.ownerId === ownerId)
            .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
        ),
    })),
)
