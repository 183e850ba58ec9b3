import { Effect, Layer } from "effect"
import type { Principal } from "../../domain/auth/Principal.ts"
import { SignInRequired } from "../../domain/errors.ts"
import { Identity } from "../../ports/Identity.ts"

/** Opaque tokens mapped to principals: an identity provider for embedding and tests without JWTs. */
export const layerMemoryIdentity = (tokens: Readonly<Record<string, Principal>>) =>
  Layer.succeed(Identity, Identity.of({
    verify: (token) => {
      const principal = Object.hasOwn(tokens, token) ? tokens[token] : undefined
      return principal === undefined ? Effect.fail(new SignInRequired({ reason: "The access token is not valid" })) : Effect.succeed(principal)
    },
  }))
