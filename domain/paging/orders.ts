// The keyset order of each paginated list, as its cursor carries it (Cursor.ts). Each order is total (it ends with an
// id), so a position is never ambiguous and rows added meanwhile are never skipped or repeated.
import { idPart, instantPart, type KeysetOrder } from "./Cursor.ts"

/** The review queue: oldest submission first, then game id, then version (ReleaseStore's listing order). */
export interface QueueKey {
  readonly createdAt: Date
  readonly gameId: string
  readonly version: string
}

export const QUEUE_ORDER: KeysetOrder<QueueKey> = {
  list: "review-queue",
  toParts: (key) => [key.createdAt.toISOString(), key.gameId, key.version],
  fromParts: ([at, gameId, version, ...rest]) => {
    const createdAt = instantPart(at)
    const game = idPart(gameId)
    const v = idPart(version)
    return createdAt === null || game === null || v === null || rest.length > 0 ? null : { createdAt, gameId: game, version: v }
  },
}

/** A creator's games: oldest first, then game id. */
export interface OwnerGamesKey {
  readonly createdAt: Date
  readonly gameId: string
}

export const OWNER_GAMES_ORDER: KeysetOrder<OwnerGamesKey> = {
  list: "my-games",
  toParts: (key) => [key.createdAt.toISOString(), key.gameId],
  fromParts: ([at, gameId, ...rest]) => {
    const createdAt = instantPart(at)
    const game = idPart(gameId)
    return createdAt === null || game === null || rest.length > 0 ? null : { createdAt, gameId: game }
  },
}

/** The public catalog: newest first publication first, then game id descending. */
export interface CatalogKey {
  readonly firstPublishedAt: Date
  readonly gameId: string
}

export const CATALOG_ORDER: KeysetOrder<CatalogKey> = {
  list: "catalog",
  toParts: (key) => [key.firstPublishedAt.toISOString(), key.gameId],
  fromParts: ([at, gameId, ...rest]) => {
    const firstPublishedAt = instantPart(at)
    const game = idPart(gameId)
    return firstPublishedAt === null || game === null || rest.length > 0 ? null : { firstPublishedAt, gameId: game }
  },
}
