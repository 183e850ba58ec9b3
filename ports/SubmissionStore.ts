import type { Actor } from "../domain/auth/Actor.ts"
import { Context, type Effect, type Option } from "effect"
import type { SlugTaken, Unavailable, VersionExists } from "../domain/errors.ts"
import type { Game } from "../domain/game/Game.ts"
import type { Release } from "../domain/release/Release.ts"
import type { ScanRecord } from "./ScanStore.ts"

/** One multipart submission (spec §4.6): which version of which game it created, by whom and when. */
export interface Submission {
  readonly id: string
  readonly gameId: string
  readonly version: string
  readonly createdBy: string
  readonly createdAt: Date
}

export interface SubmissionCommit {
  readonly game: Game
  /** True: insert the game; false: update its name, manifest id and updatedAt. */
  readonly newGame: boolean
  readonly release: Release
  readonly submission: Submission
  readonly scan: ScanRecord
  /** Who the timeline records (domain/auth/Actor.ts); default `user:<submission.createdBy>`. */
  readonly actor?: Actor
}

/**
 * How a commit ended. "renamed": committed, and the update changed the game's name (the name it had is read in the
 * same atomic step, so this says what the commit did, whatever ran at the same time). "manifest_id_taken": nothing
 * was written, because the new game's manifest id belongs to a game that a concurrent submission created meanwhile
 * (the caller decides again, as an update of that game).
 */
export type SubmissionCommitOutcome = "committed" | "renamed" | "manifest_id_taken"

export class SubmissionStore extends Context.Service<SubmissionStore, {
  /**
   * Writes the game, the release, the submission and its scan in one atomic step: all of it or nothing. A new game
   * whose manifest id is in use meanwhile ends as "manifest_id_taken" (reported before a slug clash: a slug retry
   * could not help it); a version that exists meanwhile fails with VersionExists; a derived slug taken meanwhile with
   * SlugTaken.
   */
  commit(input: SubmissionCommit): Effect.Effect<SubmissionCommitOutcome, VersionExists | SlugTaken | Unavailable>
  get(id: string): Effect.Effect<Option.Option<Submission>, Unavailable>
}>()("pckgate/ports/SubmissionStore") {}
