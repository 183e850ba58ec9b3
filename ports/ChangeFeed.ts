import { Context, type Effect } from "effect"
import type { Unavailable } from "../domain/errors.ts"

/**
 * Why a game's read-side state changed (`renamed`: a submission changed its name, which the catalog shows and searches).
 * Readers must accept kinds they do not know (a newer instance wrote them).
 */
export type ChangeKind = "approved" | "rejected" | "withdrawn" | "activated" | "taken_down" | "reinstated" | "renamed"

/** One announced change: `gameId`'s views (its active release, its place in the catalog) may differ from before. */
export interface Change {
  /** Dense and in commit order: a reader that has seen `seq` has seen every change before it. */
  readonly seq: number
  readonly gameId: string
  readonly kind: ChangeKind | (string & {})
  readonly at: Date
}

/**
 * The records database's change feed, read side. A store appends a change in the same transaction as the change it
 * announces, so a change is in the feed if and only if it committed; every instance follows the feed to drop what its
 * caches hold about the games named (adapters/cache/ChangeFollower.ts).
 *
 * Sequences have no gaps and are assigned in commit order: a change that commits late can never be skipped by a
 * reader that already read past it, and a reader whose next change is not `seq + 1` knows it missed pruned entries.
 */
export class ChangeFeed extends Context.Service<ChangeFeed, {
  /** The changes after `seq`, oldest first, at most `limit` of them. */
  since(seq: number, limit: number): Effect.Effect<ReadonlyArray<Change>, Unavailable>
  /** The sequence of the newest change ever appended, pruned or not (0 before the first). */
  readonly latest: Effect.Effect<number, Unavailable>
  /** Removes the changes made before `before`, never the newest one; returns how many were removed. */
  prune(before: Date): Effect.Effect<number, Unavailable>
}>()("pckgate/ports/ChangeFeed") {}
