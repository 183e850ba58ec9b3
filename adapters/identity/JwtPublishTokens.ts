import { Effect, Layer } from "effect"
import { decodeJwt, errors, type JWK, jwtVerify } from "jose"
import type { Principal } from "../../domain/auth/Principal.ts"
import { SignInRequired } from "../../domain/errors.ts"
import { PublishTokens } from "../../ports/PublishTokens.ts"
import { generateDevJwk, loadSigningJwk, SERVICE_TOKEN_ISSUER, signingKeyPair } from "./signingKey.ts"

// Trusted publishing's tokens: signed with the service's own key (PUBLISH_TOKEN_JWK, shared between instances), an
// audience of their own, 15 minutes, one game and the `release` scope. Never mistaken for the identity provider's.

export const PUBLISH_TOKEN_ISSUER = SERVICE_TOKEN_ISSUER
export const PUBLISH_TOKEN_AUDIENCE = "pckgate-publish"
export const PUBLISH_TOKEN_TTL_SECONDS = 15 * 60

export const makeJwtPublishTokens = async (privateJwk: JWK): Promise<PublishTokens["Service"]> => {
  const { sign, keys } = await signingKeyPair(privateJwk, "publish")
  return PublishTokens.of({
    issue: (grant, now) =>
      Effect.promise(() =>
        sign({
          claims: { game: grant.gameId, pub: grant.publisherId, scope: "release" },
          audience: PUBLISH_TOKEN_AUDIENCE,
          subject: grant.ownerId,
          ttlSeconds: PUBLISH_TOKEN_TTL_SECONDS,
        }, now)
      ),
    verify: (token) =>
      Effect.tryPromise({
        try: () =>
          jwtVerify(token, keys, {
            issuer: PUBLISH_TOKEN_ISSUER,
            audience: PUBLISH_TOKEN_AUDIENCE,
            algorithms: ["ES256"],
            requiredClaims: ["sub", "exp", "game", "pub"],
          }),
        catch: (error) =>
          new SignInRequired({
            reason: error instanceof errors.JWTExpired
              ? "The publishing token expired (they last 15 minutes); exchange the CI's ID token again"
              : "The publishing token is not valid; exchange the CI's ID token again",
          }),
      }).pipe(Effect.map(({ payload }): Principal => ({
        userId: String(payload.sub),
        isAdmin: false,
        credential: { kind: "publisher", id: String(payload["pub"]), scopes: ["release"], games: [String(payload["game"])] },
      }))),
    claims: (token) => {
      try {
        return decodeJwt(token).aud === PUBLISH_TOKEN_AUDIENCE
      } catch {
        return false
      }
    },
  })
}

/** The key from `PUBLISH_TOKEN_JWK` (to share it between instances), else kept in DATA_DIR. */
export const layerJwtPublishTokens = (dataDir: string, fromEnv?: string) =>
  Layer.effect(PublishTokens, Effect.promise(async () => makeJwtPublishTokens(await loadSigningJwk(dataDir, "publish-token.jwk.json", fromEnv))))

/** For tests and embedding: a fresh key in memory. */
export const layerEphemeralPublishTokens = Layer.effect(PublishTokens, Effect.promise(async () => makeJwtPublishTokens(await generateDevJwk())))
