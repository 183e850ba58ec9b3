// What a request was made with, beyond who it names. A person's own credentials (access token, session cookie) carry
// no `credential` and may do whatever the person may; an API key or a trusted publisher's token carries its scopes
// and games, and every route declares which scopes may call it (adapters/http/credentialAccess.ts).

export const CREDENTIAL_SCOPES = ["read", "release", "submit"] as const
export type CredentialScope = (typeof CREDENTIAL_SCOPES)[number]

/** The games a credential may touch: every game of its owner, or exactly these. */
export type CredentialGames = "all" | ReadonlyArray<string>

export interface Credential {
  readonly kind: "api_key" | "publisher"
  /** The API key's id, or the trusted publisher's id. */
  readonly id: string
  readonly scopes: ReadonlyArray<CredentialScope>
  readonly games: CredentialGames
}

/** Who acted, as timeline events record it: one derivation, in domain/auth/Actor.ts. */
export { actorOf } from "../auth/Actor.ts"

/** True when the caller may act on `gameId` as far as its credential goes (ownership is checked separately). */
export const credentialCoversGame = (credential: Credential | undefined, gameId: string): boolean =>
  credential === undefined || credential.games === "all" || credential.games.includes(gameId)

/** True when one of the credential's scopes is among those a route accepts. */
export const credentialHasScope = (credential: Credential, accepted: ReadonlyArray<CredentialScope>): boolean =>
  credential.scopes.some((scope) => accepted.includes(scope))
