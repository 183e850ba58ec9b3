import { Context, type Effect, type Option } from "effect"
import type { Actor } from "../domain/auth/Actor.ts"
import type { SlugTaken, Unavailable } from "../domain/errors.ts"
import type { Game } from "../domain/game/Game.ts"

export class GameStore extends Context.Service<GameStore, {
  /**
   * Inserts a game and its `game_created` timeline event, recorded under `actor` (the credential that created it, which
   * is not always the owner's: an administrator registering a game, an API key); a slug already in use fails with
   * SlugTaken (enforced by the store, also under concurrency).
   */
  insert(game: Game, actor: Actor): Effect.Effect<void, SlugTaken | Unavailable>
  get(id: string): Effect.Effect<Option.Option<Game>, Unavailable>
  getMany(ids: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<Game>, Unavailable>
  /** Slugs in use that start with `prefix` (only [a-z0-9-] is ever passed): the candidates a derived slug must avoid. */
  slugsStartingWith(prefix: string): Effect.Effect<ReadonlyArray<string>, Unavailable>
  /** The game a multipart submission's `manifest.id` names (unique across the service). */
  findByManifestId(manifestId: string): Effect.Effect<Option.Option<Game>, Unavailable>
  /** The owner's games, oldest first. */
  listByOwner(ownerId: string): Effect.Effect<ReadonlyArray<Game>, Unavailable>
}>()("pckgate/ports/GameStore") {}
