import { appendTimelineEvent } from "./memoryLifecycle.ts"
import { Effect, Layer, Option } from "effect"
import { SlugTaken } from "../../domain/errors.ts"
import type { Game } from "../../domain/game/Game.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { MemoryTables, withPointer as withGamePointer } from "./MemoryTables.ts"

export const layerMemoryGameStore = Layer.effect(
  GameStore,
  MemoryTables.useSync((tables) => {
    const { games, slugs, pointers } = tables
    const withPointer = (game: Game): Game => withGamePointer(pointers, game)
    return GameStore.of({
      // Check and insert happen in one synchronous step, so concurrent inserts of one slug cannot both succeed.
      insert: (game, actor) =>
        Effect.suspend(() => {
          if (slugs.has(game.slug)) return Effect.fail(new SlugTaken({ slug: game.slug }))
          games.set(game.id, game)
          slugs.set(game.slug, game.id)
          appendTimelineEvent(tables, { gameId: game.id, version: null, kind: "game_created", actor, reason: null, at: game.createdAt })
          return Effect.void
        }),
      get: (id) => Effect.sync(() => Option.map(Option.fromNullishOr(games.get(id)), withPointer)),
      getMany: (ids) => Effect.sync(() => ids.flatMap((id) => games.get(id) ?? []).map(withPointer)),
      slugsStartingWith: (prefix) => Effect.sync(() => [...slugs.keys()].filter((slug) => slug.startsWith(prefix))),
      findByManifestId: (manifestId) =>
        Effect.sync(() => Option.map(Option.fromNullishOr([...games.values()].find((g) => g.manifestId === manifestId)), withPointer)),
      listByOwner: (ownerId) =>
        Effect.sync(() =>
          [...games.values()]
            .filter((g) => g.ownerId === ownerId)
            .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
            .map(withPointer)
        ),
    })
  }),
)
