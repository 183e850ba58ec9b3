import { Context, type Effect } from "effect"
import type { Principal } from "../domain/auth/Principal.ts"
import type { SignInRequired, Unavailable } from "../domain/errors.ts"

/** Verifies an access token (a JWT from the identity provider) and says who it names. */
export class Identity extends Context.Service<Identity, {
  verify(token: string): Effect.Effect<Principal, SignInRequired | Unavailable>
}>()("pckgate/ports/Identity") {}
