import type { Actor } from "../auth/Actor.ts"
import type { TimelineEvent } from "../timeline/TimelineEvent.ts"

// The review gate's timeline events (issue 15 on issue 16's timeline). An acceptance belongs to the game, not to one
// release, so its events carry no version; the fingerprint leads the reason, so the timeline says which finding.

export const claimedEvent = (claim: { readonly gameId: string; readonly version: string; readonly by: string }, at: Date, actor?: Actor): TimelineEvent => ({
  gameId: claim.gameId,
  version: claim.version,
  kind: "claimed",
  actor: actor ?? `user:${claim.by}`,
  reason: null,
  at,
})

export const findingAcceptedEvent = (
  acceptance: { readonly gameId: string; readonly fingerprint: string; readonly by: string; readonly at: Date; readonly reason: string },
  actor?: Actor,
): TimelineEvent => ({
  gameId: acceptance.gameId,
  version: null,
  kind: "finding_accepted",
  actor: actor ?? `user:${acceptance.by}`,
  reason: `${acceptance.fingerprint}: ${acceptance.reason}`,
  at: acceptance.at,
})

export const acceptanceWithdrawnEvent = (gameId: string, fingerprint: string, withdrawal: { readonly actor: Actor; readonly at: Date }): TimelineEvent => ({
  gameId,
  version: null,
  kind: "finding_acceptance_withdrawn",
  actor: withdrawal.actor,
  reason: fingerprint,
  at: withdrawal.at,
})

/** Whether a claim takes the release (an event) rather than renewing the same administrator's live claim. */
export const takesClaim = (held: { readonly by: string; readonly until: Date } | null, by: string, now: Date): boolean =>
  held === null || held.by !== by || held.until.getTime() <= now.getTime()
