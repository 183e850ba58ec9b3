import { Effect, Layer } from "effect"
import type { Game } from "../../domain/game/Game.ts"
import type { OwnerGamesKey, QueueKey } from "../../domain/paging/orders.ts"
import type { Release } from "../../domain/release/Release.ts"
import { PagedLists } from "../../ports/PagedLists.ts"
import { oldestFirst } from "./MemoryReleaseStore.ts"
import { MemoryTables, withPointer } from "./MemoryTables.ts"

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

const afterQueueKey = (key: QueueKey | null) => (release: Release) =>
  key === null ||
  (release.createdAt.getTime() - key.createdAt.getTime() || compareText(release.gameId, key.gameId) || compareText(release.version, key.version)) > 0

const ownerOrder = (a: Game, b: Game) => a.createdAt.getTime() - b.createdAt.getTime() || compareText(a.id, b.id)

const afterOwnerKey = (key: OwnerGamesKey | null) => (game: Game) =>
  key === null || (game.createdAt.getTime() - key.createdAt.getTime() || compareText(game.id, key.gameId)) > 0

export const layerMemoryPagedLists = Layer.effect(
  PagedLists,
  MemoryTables.useSync(({ games, releases, pointers }) =>
    PagedLists.of({
      pendingReleases: (after, limit) =>
        Effect.sync(() =>
          [...releases.values()].filter((r) => r.status === "pending_review").filter(afterQueueKey(after)).sort(oldestFirst).slice(0, limit)
        ),
      gamesOfOwner: (ownerId, after, limit) =>
        Effect.sync(() => [...games.values()].filter((g) => g.ownerId === ownerId).filter(afterOwnerKey(after)).sort(ownerOrder).slice(0, limit)
          .map((game) => withPointer(pointers, game))),
    })
  ),
)
