import { Context, type Effect } from "effect"
import type { Principal } from "../domain/auth/Principal.ts"
import type { SignInRequired } from "../domain/errors.ts"

export interface PublishGrant {
  /** The game's owner: the token acts as them (ownership, budgets). */
  readonly ownerId: string
  readonly gameId: string
  readonly publisherId: string
}

/** The service's own short-lived publishing tokens (trusted publishing): one game, the `release` scope. */
export class PublishTokens extends Context.Service<PublishTokens, {
  issue(grant: PublishGrant, now: Date): Effect.Effect<{ readonly token: string; readonly expiresAt: Date }>
  /** The principal a publishing token stands for (credential kind `publisher`); 401 for anything else. */
  verify(token: string): Effect.Effect<Principal, SignInRequired>
  /** True when the token is meant for this port (its audience), so other verifiers need not try it. */
  claims(token: string): boolean
}>()("pckgate/ports/PublishTokens") {}
