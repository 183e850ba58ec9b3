import { Effect } from "effect"

/**
 * Changes to who may publish a game: a stolen session must not be able to add a publisher or a key silently.
 *
 * MERGE POINT (issue 18 × release lifecycle, branch i16): once the timeline and the owners' webhooks exist, this is
 * where each event is appended to the timeline (in the same transaction as the change, actor `user:<id>`) and sent
 * to the owner's webhooks. Until then the event is only logged. Callers: createApiKey, revokeApiKey (ManageApiKeys.ts),
 * addTrustedPublisher, removeTrustedPublisher (TrustedPublishers.ts).
 */
export type CredentialEvent =
  | { readonly type: "api_key.created" | "api_key.revoked"; readonly ownerId: string; readonly actor: string; readonly apiKeyId: string }
  | {
    readonly type: "trusted_publisher.added" | "trusted_publisher.removed"
    readonly ownerId: string
    readonly actor: string
    readonly gameId: string
    readonly publisherId: string
  }

export const recordCredentialEvent = (event: CredentialEvent): Effect.Effect<void> =>
  Effect.logInfo("credential change", event)
