import { Effect, Layer, Option } from "effect"
import { activeRelease } from "../../domain/review/ReviewMachine.ts"
import { GameViews } from "../../ports/GameViews.ts"
import { oldestFirst } from "./MemoryReleaseStore.ts"
import { MemoryTables } from "./MemoryTables.ts"

export const layerMemoryGameViews = Layer.effect(GameViews, MemoryTables.useSync(({ games, releases }) => {
  const approvedByGame = () => Map.groupBy([...releases.values()].filter((r) => r.status === "approved").sort(oldestFirst), (r) => r.gameId)
  return GameViews.of({
    view: (gameId) =>
      Effect.sync(() => {
        const game = games.get(gameId)
        if (game === undefined) return Option.none()
        return Option.some({ gameId, ownerId: game.ownerId, slug: game.slug, active: activeRelease(approvedByGame().get(gameId) ?? []) })
      }),
    listActive: () => Effect.sync(() => [...approvedByGame().values()].flatMap((approved) => activeRelease(approved) ?? [])),
  })
}))
