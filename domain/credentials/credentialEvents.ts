import { Effect } from "effect"
import type { TimelineEvent } from "../timeline/TimelineEvent.ts"
import type { Actor } from "../auth/Actor.ts"

/**
 * Changes to who may publish a game: a stolen session must not be able to add a publisher or a key silently. Each one
 * is written by the credential store in the transaction of the change (a `CredentialRecord`): a timeline event on
 * every game it concerns, and one delivery to each of the owner's webhooks (adapters/notifier/creatorEvents.ts).
 *
 * Which games an API key concerns: the games it names, or, for `games: "all"`, every game the owner has when it is
 * created or revoked (each of those games' timelines then shows a key that can act on it). The webhook is sent once
 * per subscription whatever the number of games, so a key of an owner who has no game yet is still announced.
 */
export type CredentialEvent =
  | { readonly type: "api_key.created" | "api_key.revoked"; readonly ownerId: string; readonly actor: Actor; readonly apiKeyId: string }
  | {
    readonly type: "trusted_publisher.added" | "trusted_publisher.removed"
    readonly ownerId: string
    readonly actor: Actor
    readonly gameId: string
    readonly publisherId: string
  }

/** What a credential store writes with the change. */
export interface CredentialRecord {
  readonly ownerId: string
  /** One event per game concerned (kind `api_key_created`, `trusted_publisher_added`, …; reason: the credential's id). */
  readonly timeline: ReadonlyArray<TimelineEvent>
  /** Sent once to each of the owner's webhooks. */
  readonly webhook: { readonly type: CredentialEvent["type"]; readonly at: Date; readonly data: Readonly<Record<string, unknown>> }
}

export const credentialRecord = (event: CredentialEvent, gameIds: ReadonlyArray<string>, at: Date): CredentialRecord => {
  const credentialId = "apiKeyId" in event ? event.apiKeyId : event.publisherId
  const kind = event.type.replace(".", "_")
  const { type: _type, ownerId: _owner, ...data } = event
  return {
    ownerId: event.ownerId,
    timeline: gameIds.map((gameId) => ({ gameId, version: null, kind, actor: event.actor, reason: credentialId, at })),
    webhook: { type: event.type, at, data: { ...data, gameIds } },
  }
}

export const recordCredentialEvent = (event: CredentialEvent): Effect.Effect<void> =>
  Effect.logInfo("credential change", event)
