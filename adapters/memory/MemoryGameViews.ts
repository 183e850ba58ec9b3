import { Effect, Layer, Option } from "effect"
import { GameViews } from "../../ports/GameViews.ts"
import { MemoryTables, releaseKey } from "./MemoryTables.ts"

/** Reads the game's pointer, as the SQL view joins the games row's active version. */
export const layerMemoryGameViews = Layer.effect(GameViews, MemoryTables.useSync(({ games, releases, pointers }) => {
  const activeOf = (gameId: string) => {
    const version = pointers.get(gameId)?.activeVersion ?? null
    return version === null ? null : releases.get(releaseKey(gameId, version)) ?? null
  }
  return GameViews.of({
    view: (gameId) =>
      Effect.sync(() => {
        const game = games.get(gameId)
        if (game === undefined) return Option.none()
        return Option.some({ gameId, ownerId: game.ownerId, slug: game.slug, active: activeOf(gameId) })
      }),
    listActive: () => Effect.sync(() => [...pointers.keys()].flatMap((gameId) => activeOf(gameId) ?? [])),
  })
}))
