import type { CredentialRecord } from "../domain/credentials/credentialEvents.ts"
import { Context, type Effect, type Option } from "effect"
import type { PublisherIds } from "../domain/credentials/publisherMatch.ts"
import type { PublisherProvider, TrustedPublisher } from "../domain/credentials/TrustedPublisher.ts"
import type { Unavailable } from "../domain/errors.ts"

/** The CI workflows each game trusts to publish it. */
export class TrustedPublisherStore extends Context.Service<TrustedPublisherStore, {
  /**
   * Adds the publisher unless its game already has `limit`; false (and nothing written) when it has. The count and the
   * insert are atomic: concurrent adds to one game cannot pass the limit together. `record`: the timeline events and
   * webhook deliveries written in the same transaction.
   */
  add(publisher: TrustedPublisher, limit: number, record?: CredentialRecord): Effect.Effect<boolean, Unavailable>
  /** A game's publishers, oldest first. */
  listByGame(gameId: string): Effect.Effect<ReadonlyArray<TrustedPublisher>, Unavailable>
  /** Removes one of the game's publishers; true when it was there. */
  remove(gameId: string, id: string, record?: CredentialRecord): Effect.Effect<boolean, Unavailable>
  /**
   * Every publisher registered for this repository, whichever game, oldest first: the provider exactly, the repository
   * without regard to the case of ASCII letters (repositoryKey).
   */
  findByRepository(provider: PublisherProvider, repository: string): Effect.Effect<ReadonlyArray<TrustedPublisher>, Unavailable>
  /**
   * Sets each of the publisher's ids that is still unset (one conditional write: of concurrent pins, the first to
   * commit sets them and the others change nothing), and answers the publisher as stored afterwards; none when it
   * does not exist.
   */
  pinIds(id: string, ids: PublisherIds): Effect.Effect<Option.Option<TrustedPublisher>, Unavailable>
}>()("pckgate/ports/TrustedPublisherStore") {}
