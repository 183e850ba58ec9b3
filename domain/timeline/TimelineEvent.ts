import type { Actor } from "../auth/Actor.ts"

/** What the timeline records (append-only): every state change of a game and its releases. */
export type TimelineKind =
  | "game_created"
  | "upload_url_issued"
  | "finalized"
  | "submitted"
  | "scanned"
  | "claimed"
  | "approved"
  | "rejected"
  | "withdrawn"
  | "activated"
  | "taken_down"
  | "reinstated"
  | "finding_accepted"
  | "finding_acceptance_withdrawn"
  | "api_key_created"
  | "api_key_revoked"
  | "trusted_publisher_added"
  | "trusted_publisher_removed"

/** One event as a store appends it, in the transaction of the change it records. */
export interface TimelineEvent {
  readonly gameId: string
  /** The release it concerns, when it concerns one. */
  readonly version: string | null
  readonly kind: TimelineKind | (string & {})
  readonly actor: Actor
  readonly reason: string | null
  readonly at: Date
}

/** A stored event: `seq` orders a game's events and is the pagination key. */
export interface StoredTimelineEvent extends TimelineEvent {
  readonly seq: number
}
