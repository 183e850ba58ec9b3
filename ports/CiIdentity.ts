import { Context, type Effect } from "effect"
import type { CiClaims } from "../domain/credentials/publisherMatch.ts"
import type { SignInRequired, Unavailable } from "../domain/errors.ts"

/**
 * Verifies a CI provider's OIDC ID token (GitHub Actions, GitLab CI) against its issuer's keys, the audience and its
 * times, and says which provider issued it and what it claims. 401 for anything it cannot verify.
 */
export class CiIdentity extends Context.Service<CiIdentity, {
  verify(idToken: string): Effect.Effect<CiClaims, SignInRequired | Unavailable>
}>()("pckgate/ports/CiIdentity") {}
