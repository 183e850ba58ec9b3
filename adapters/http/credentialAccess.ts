// The one place where an API key's or a trusted publisher's scopes meet the routes. Each route declares on its `doc`
// which scopes may call it (`credentialScopes`) and whether it needs a credential for all games (`credentialGames`);
// authenticate() runs this for every principal that carries a credential. A person's own token or session carries
// none and passes untouched. Anything a credential may not call answers like a route that does not exist.
import { Effect } from "effect"
import type { Principal } from "../../domain/auth/Principal.ts"
import { credentialCoversGame, credentialHasScope, type CredentialScope } from "../../domain/credentials/Credential.ts"
import { GameNotFoundOrForbidden, NotFound } from "../../domain/errors.ts"

export interface CredentialRule {
  /** Scopes that may call the route; none: only the person's own credentials. */
  readonly scopes?: ReadonlyArray<CredentialScope> | undefined
  /** The route acts on no particular game and may create one: only credentials for all games. */
  readonly allGames?: boolean | undefined
}

export type Admission = (principal: Principal) => Effect.Effect<void, NotFound | GameNotFoundOrForbidden>

/** Every read a scoped credential may make: `read`, and `release` and `submit`, which include it. */
export const READ_SCOPES: ReadonlyArray<CredentialScope> = ["read", "release", "submit"]

const decodedGameId = (raw: string | undefined): string | undefined => {
  if (raw === undefined || !raw.includes("%")) return raw
  try {
    return decodeURIComponent(raw)
  } catch {
    return raw
  }
}

/** The admission check of one request to a route: its rule and the game its path names. */
export const admission = (rule: CredentialRule, params: Readonly<Record<string, string>>): Admission => (principal) => {
  const credential = principal.credential
  if (credential === undefined) return Effect.void
  if (rule.scopes === undefined || !credentialHasScope(credential, rule.scopes)) return Effect.fail(new NotFound({ what: "route" }))
  if (rule.allGames === true && credential.games !== "all") return Effect.fail(new NotFound({ what: "route" }))
  const gameId = decodedGameId(params["gameId"])
  if (gameId !== undefined && !credentialCoversGame(credential, gameId)) return Effect.fail(new GameNotFoundOrForbidden({ gameId }))
  return Effect.void
}

/** Routes without a rule (pages, sessions, key management, administration) admit no scoped credential. */
export const admitPeopleOnly: Admission = admission({}, {})
