import { Context, type Effect, type Option } from "effect"
import type { Actor } from "../domain/auth/Actor.ts"
import type { Claimed, Unavailable } from "../domain/errors.ts"

/** An administrator's hold on a release under review: others cannot decide it until `until` (issue 15). */
export interface ReviewClaim {
  readonly gameId: string
  readonly version: string
  readonly by: string
  readonly until: Date
}

/** Why an administrator approved a release despite unresolved error findings; written with the decision. */
export interface ApprovalOverride {
  readonly reason: string
  readonly by: string
  readonly at: Date
}

/** A finding a reviewer accepted for a game, by fingerprint: it holds for this and every later version. */
export interface FindingAcceptance {
  readonly gameId: string
  readonly fingerprint: string
  readonly by: string
  readonly at: Date
  readonly reason: string
}

/** Who withdraws an acceptance, and when (for the timeline). */
export interface AcceptanceWithdrawal {
  readonly actor: Actor
  readonly at: Date
}

/**
 * The review gate's records besides the decision itself: claims, approval overrides (written by
 * ReleaseStore.review/lifecycle in the decision's own step) and accepted findings. Each change appends its timeline
 * event (domain/timeline/TimelineEvent.ts) in its own transaction: `claimed`, `finding_accepted`,
 * `finding_acceptance_withdrawn`; `actor` defaults to `user:<by>`.
 */
export class ReviewGateStore extends Context.Service<ReviewGateStore, {
  /**
   * Claims a release for `claim.by` until `claim.until`, atomically: fails with Claimed while another administrator's
   * claim lasts past `now`; the holder's own claim is renewed. Taking a claim (not renewing a live one of the same
   * administrator) appends a `claimed` event at `now`.
   */
  claim(claim: ReviewClaim, now: Date, actor?: Actor): Effect.Effect<ReviewClaim, Claimed | Unavailable>
  /** The release's claim, live or expired (callers compare `until` with their clock). */
  getClaim(gameId: string, version: string): Effect.Effect<Option.Option<ReviewClaim>, Unavailable>
  /** The claims of these releases (those that have one). */
  claimsOf(releases: ReadonlyArray<{ readonly gameId: string; readonly version: string }>): Effect.Effect<ReadonlyArray<ReviewClaim>, Unavailable>
  /** Ends `by`'s claim of the release, if it is theirs; returns whether there was one. */
  unclaim(gameId: string, version: string, by: string): Effect.Effect<boolean, Unavailable>
  /** The override recorded with the release's approval, if it had one. */
  getOverride(gameId: string, version: string): Effect.Effect<Option.Option<ApprovalOverride>, Unavailable>
  /** Records (or replaces) the acceptance of a finding for a game, with a `finding_accepted` event. */
  accept(acceptance: FindingAcceptance, actor?: Actor): Effect.Effect<FindingAcceptance, Unavailable>
  /** Withdraws an acceptance, with a `finding_acceptance_withdrawn` event; returns whether there was one. */
  withdraw(gameId: string, fingerprint: string, withdrawal: AcceptanceWithdrawal): Effect.Effect<boolean, Unavailable>
  /** Every acceptance of a game's findings. */
  acceptances(gameId: string): Effect.Effect<ReadonlyArray<FindingAcceptance>, Unavailable>
}>()("pckgate/ports/ReviewGateStore") {}
