import { Context, type Effect } from "effect"
import type { Unavailable } from "../domain/errors.ts"
import type { Game } from "../domain/game/Game.ts"
import type { OwnerGamesKey, QueueKey } from "../domain/paging/orders.ts"
import type { Release } from "../domain/release/Release.ts"

/**
 * The keyset reads behind the paginated lists of administrators and creators (domain/paging/): each returns the rows
 * strictly after `after` in the list's order (from the start when null), at most `limit` of them, in one indexed
 * statement.
 */
export class PagedLists extends Context.Service<PagedLists, {
  /** Pending releases in queue order: submitted first, then game id, then version, all ascending. */
  pendingReleases(after: QueueKey | null, limit: number): Effect.Effect<ReadonlyArray<Release>, Unavailable>
  /** The owner's games, oldest first, then game id ascending. */
  gamesOfOwner(ownerId: string, after: OwnerGamesKey | null, limit: number): Effect.Effect<ReadonlyArray<Game>, Unavailable>
}>()("pckgate/ports/PagedLists") {}
