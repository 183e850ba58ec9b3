import { Context, type Effect, type Option, Schema } from "effect"
import type { Actor } from "../domain/auth/Actor.ts"
import type { Claimed, NoUploadIntent, ReleaseNotPending, Unavailable, VersionExists } from "../domain/errors.ts"
import type { Release, UploadDeclaration, UploadIntent } from "../domain/release/Release.ts"
import type { ActivationNote, LifecycleStep } from "../domain/review/ReviewMachine.ts"

/** A lifecycle step found a release in a status that does not allow it (or no such release); nothing was changed. */
export class LifecycleRefused extends Schema.TaggedError<LifecycleRefused>()("LifecycleRefused", {
  gameId: Schema.String,
  version: Schema.String,
  status: Schema.String,
}) {}

/**
 * The step was not recorded because `holder` no longer held the game's lifecycle lease when the store came to it (the
 * lease ran out, and another request may hold it now); nothing was changed.
 */
export class LifecycleLeaseLost extends Schema.TaggedError<LifecycleLeaseLost>()("LifecycleLeaseLost", {
  gameId: Schema.String,
  holder: Schema.String,
}) {}

/** Fencing: the step is recorded only if `holder` holds the game's lifecycle lease, unexpired at `now`. */
export interface LeaseFence {
  readonly holder: string
  readonly now: Date
}

/** What a lifecycle step (or a review decision) did. */
export interface LifecycleOutcome {
  readonly updated: ReadonlyArray<Release>
  readonly activeVersionBefore: string | null
  readonly activeVersion: string | null
  readonly activationNote: ActivationNote | null
}

export interface ReviewDecision {
  readonly status: "approved" | "rejected"
  readonly by: string
  readonly at: Date
  readonly reason: string | null
  /** An approval's override reason (issue 15), recorded with the decision; absent or null when there was none. */
  readonly overrideReason?: string | null
  /** The acting credential for the timeline; `user:<by>` when absent. */
  readonly actor?: Actor
}

/** Releases and the upload intents that precede them, with the atomicity finalize and review need. */
export class ReleaseStore extends Context.Service<ReleaseStore, {
  /** Records an intent; the same declaration again refreshes the existing intent's expiry instead of adding one. */
  /** `actor` is who the timeline records (default `user:<createdBy>`): a publisher or API key acting for the owner. */
  recordIntent(intent: UploadIntent, actor?: Actor): Effect.Effect<UploadIntent, Unavailable>
  /** The live (unexpired, unconsumed) intent matching the declaration exactly. */
  findIntent(declaration: UploadDeclaration, now: Date): Effect.Effect<Option.Option<UploadIntent>, Unavailable>
  /**
   * Consumes the intent and inserts the release in one atomic step. A (game, version) pair exists once:
   * a concurrent second finalize fails with VersionExists; an intent consumed meanwhile with NoUploadIntent.
   */
  finalize(intentId: string, release: Release, actor?: Actor): Effect.Effect<Release, VersionExists | NoUploadIntent | Unavailable>
  get(gameId: string, version: string): Effect.Effect<Option.Option<Release>, Unavailable>
  /** A game's releases, oldest first. */
  listByGame(gameId: string): Effect.Effect<ReadonlyArray<Release>, Unavailable>
  /** Pending releases of every game, oldest first (ties by game id, then version): the review queue. */
  listPending(): Effect.Effect<ReadonlyArray<Release>, Unavailable>
  /** Approved releases of every game. */
  listApproved(): Effect.Effect<ReadonlyArray<Release>, Unavailable>
  /**
   * Applies a review decision only if the release is still pending (compare-and-set), and announces it in the change
   * feed (ports/ChangeFeed.ts) in the same atomic step. A claim (ports/ReviewGateStore.ts) by someone other than
   * `decision.by` that lasts past `decision.at` refuses it with Claimed; the decision ends any claim and records the
   * override reason, in that same step.
   */
  review(gameId: string, version: string, decision: ReviewDecision): Effect.Effect<Release, ReleaseNotPending | Claimed | Unavailable>
  /**
   * Applies one lifecycle step (domain/review/ReviewMachine.ts planLifecycle) atomically under the game's lock: the
   * releases' statuses (compare-and-set), the game's active pointer and first-published time, the step's timeline
   * events and a change-feed entry. `review` is the same operation for approve and reject, and also moves the pointer
   * by the activation rule. Approve and reject also pass the review gate's claim check (Claimed), end the claim and
   * record an approval's override reason (ports/ReviewGateStore.ts) in that same step. With `lease`, the step is
   * recorded only while its holder holds the game's lifecycle lease (checked in that same step under the game's lock);
   * otherwise it fails with LifecycleLeaseLost and changes nothing.
   */
  lifecycle(gameId: string, step: LifecycleStep, lease?: LeaseFence): Effect.Effect<LifecycleOutcome, LifecycleRefused | LifecycleLeaseLost | Claimed | Unavailable>
  /**
   * Takes the game's lifecycle lease for `holder` until `until`, in one atomic step, if nobody holds it or its holder's
   * lease ran out by `now`; true when taken. Steps that move objects in and out of quarantine (takedown, reinstate),
   * activate and review decisions (approve, reject) hold it, so that only one of them decides and moves at a time
   * across every instance (domain/release/Lifecycle.ts, domain/review/Review.ts).
   */
  takeLifecycleLease(gameId: string, holder: string, now: Date, until: Date): Effect.Effect<boolean, Unavailable>
  /**
   * Extends the lease to `until` if `holder` still holds it, unexpired at `now`; true when extended. A lease that ran
   * out stays lost to its holder even if nobody took it meanwhile: whatever it guarded may have changed hands.
   */
  renewLifecycleLease(gameId: string, holder: string, now: Date, until: Date): Effect.Effect<boolean, Unavailable>
  /** Gives the lease back if `holder` still holds it. */
  dropLifecycleLease(gameId: string, holder: string): Effect.Effect<void, Unavailable>
  /** Submission and decision times of the `limit` most recent review decisions, newest first (the queue estimate). */
  recentDecisions(limit: number): Effect.Effect<ReadonlyArray<{ readonly submittedAt: Date; readonly decidedAt: Date }>, Unavailable>
  /** The game's active version as stored (the pointer); null for none or an unknown game. */
  activeVersion(gameId: string): Effect.Effect<string | null, Unavailable>
  /** Removes the intents that expired at or before `now` without being finalized; returns how many (for the sweeper). */
  deleteExpiredIntents(now: Date): Effect.Effect<number, Unavailable>
  /**
   * Which of `objectKeys` a release or a live intent refers to, read in one consistent step: an intent turns into a
   * release atomically, so a key in the middle of a finalize is always seen as in use.
   */
  keysInUse(objectKeys: ReadonlyArray<string>, now: Date): Effect.Effect<ReadonlySet<string>, Unavailable>
}>()("pckgate/ports/ReleaseStore") {}
