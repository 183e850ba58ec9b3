import { Context, type Effect, type Option } from "effect"
import type { Unavailable } from "../domain/errors.ts"
import type { Release } from "../domain/release/Release.ts"

/**
 * What every release path needs about a game, in one read: its owner and slug (neither ever changes after the game is
 * created) and its active release. The hot read of download-url.
 */
export interface GameReleaseView {
  readonly gameId: string
  readonly ownerId: string
  readonly slug: string
  readonly active: Release | null
}

/**
 * The read side of games and releases: what download-url and the catalog read, apart from ReleaseStore's writes so it
 * can be served from a cache (adapters/cache/CachedGameViews.ts) whose entries the change feed invalidates. The active
 * release is the one the game's stored pointer names (moved only by the lifecycle rules of
 * domain/review/ReviewMachine.ts): it can move backwards (rollback, takedown), so caches are dropped by every change.
 */
export class GameViews extends Context.Service<GameViews, {
  /** The game's owner, slug and active release in one read; none for an unknown game. */
  view(gameId: string): Effect.Effect<Option.Option<GameReleaseView>, Unavailable>
  /** The active release of every game that has one (the catalog). */
  listActive(): Effect.Effect<ReadonlyArray<Release>, Unavailable>
}>()("pckgate/ports/GameViews") {}
