/** Who is calling: established by the identity adapter from a Bearer token or a session cookie. */
export interface Principal {
  readonly userId: string
  readonly isAdmin: boolean
  /**
   * The acting credential the timeline records (domain/auth/Actor.ts); absent means a user's own sign-in
   * (`user:<userId>`). API keys and trusted publishers set theirs.
   */
  readonly actor?: import("./Actor.ts").Actor
}

/** upload-url and finalize act only on games the caller owns. */
export const owns = (principal: Principal, ownerId: string): boolean => principal.userId === ownerId

/** Owners and administrators see every release of a game, pending and rejected ones included. */
export const seesAllReleases = (principal: Principal | null, ownerId: string): boolean =>
  principal !== null && (principal.isAdmin || principal.userId === ownerId)
