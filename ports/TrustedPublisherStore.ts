import type { CredentialRecord } from "../domain/credentials/credentialEvents.ts"
import { Context, type Effect } from "effect"
import type { PublisherProvider, TrustedPublisher } from "../domain/credentials/TrustedPublisher.ts"
import type { Unavailable } from "../domain/errors.ts"

/** The CI workflows each game trusts to publish it. */
export class TrustedPublisherStore extends Context.Service<TrustedPublisherStore, {
  /** `record`: the timeline events and webhook deliveries written in the same transaction. */
  add(publisher: TrustedPublisher, record?: CredentialRecord): Effect.Effect<void, Unavailable>
  /** A game's publishers, oldest first. */
  listByGame(gameId: string): Effect.Effect<ReadonlyArray<TrustedPublisher>, Unavailable>
  /** Removes one of the game's publishers; true when it was there. */
  remove(gameId: string, id: string, record?: CredentialRecord): Effect.Effect<boolean, Unavailable>
  /** Every publisher registered for this repository (exact, case included), whichever game. */
  findByRepository(provider: PublisherProvider, repository: string): Effect.Effect<ReadonlyArray<TrustedPublisher>, Unavailable>
}>()("pckgate/ports/TrustedPublisherStore") {}
