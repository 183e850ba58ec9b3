import { Effect } from "effect"
import type { Credential } from "../credentials/Credential.ts"
import { NotFound } from "../errors.ts"

/** Who is calling: established by the identity adapter from a Bearer token or a session cookie. */
export interface Principal {
  readonly userId: string
  readonly isAdmin: boolean
  /**
   * The acting credential the timeline records (domain/auth/Actor.ts); absent means a user's own sign-in
   * (`user:<userId>`). API keys and trusted publishers set theirs.
   */
  readonly actor?: import("./Actor.ts").Actor
  /**
   * Absent for the person's own credentials (access token, session). An API key or a trusted publisher's token acts
   * for `userId` (the owner, so ownership and budgets stay the owner's) within its scopes and games.
   */
  readonly credential?: Credential
}

/** upload-url and finalize act only on games the caller owns. */
export const owns = (principal: Principal, ownerId: string): boolean => principal.userId === ownerId

/** Owners and administrators see every release of a game, pending and rejected ones included. */
export const seesAllReleases = (principal: Principal | null, ownerId: string): boolean =>
  principal !== null && (principal.isAdmin || principal.userId === ownerId)

/**
 * The one administrator rule of the domain: anyone else is answered like an unknown route (404, never 403). The HTTP
 * app applies it before an `access: "admin"` route runs; use cases apply it again for embedders that call them directly.
 */
export const requireAdmin = (principal: Principal): Effect.Effect<void, NotFound> =>
  principal.isAdmin ? Effect.void : Effect.fail(new NotFound({ what: "route" }))
