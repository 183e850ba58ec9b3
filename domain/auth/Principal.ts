/** Who is calling: established by the identity adapter from a Bearer token or a session cookie. */
export interface Principal {
  readonly userId: string
  readonly isAdmin: boolean
}

/** upload-url and finalize act only on games the caller owns. */
export const owns = (principal: Principal, ownerId: string): boolean => principal.userId === ownerId

/** Owners and administrators see every release of a game, pending and rejected ones included. */
export const seesAllReleases = (principal: Principal | null, ownerId: string): boolean =>
  principal !== null && (principal.isAdmin || principal.userId === ownerId)
