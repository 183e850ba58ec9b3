import { Effect, Layer } from "effect"
import { createRemoteJWKSet, decodeJwt, errors, jwtVerify } from "jose"
import type { PublisherProvider } from "../../domain/credentials/TrustedPublisher.ts"
import { SignInRequired, Unavailable } from "../../domain/errors.ts"
import { CiIdentity } from "../../ports/CiIdentity.ts"

// CI providers' OIDC ID tokens (trusted publishing), verified with jose against each configured issuer's JWKS.

export interface CiIssuer {
  readonly provider: PublisherProvider
  /** Exactly the token's `iss`. */
  readonly issuer: string
  readonly jwksUrl: string
}

export const GITHUB_ACTIONS_ISSUER = "https://token.actions.githubusercontent.com"
export const GITLAB_ISSUER = "https://gitlab.com"
export const DEFAULT_PUBLISHING_AUDIENCE = "pckgate"

/** Where each provider publishes its keys, relative to its issuer. */
export const ciIssuer = (provider: PublisherProvider, issuer: string): CiIssuer => ({
  provider,
  issuer,
  jwksUrl: `${issuer.replace(/\/+$/, "")}${provider === "github" ? "/.well-known/jwks" : "/oauth/discovery/keys"}`,
})

/** Asymmetric only: `none` and HMAC with a public key as the secret are refused before any key is looked at. */
const ALGORITHMS = ["RS256", "ES256"]

const refusal = (error: unknown, audience: string): SignInRequired | Unavailable => {
  if (error instanceof errors.JWTExpired) return new SignInRequired({ reason: "The CI's ID token has expired; request a new one" })
  if (error instanceof errors.JWTClaimValidationFailed) {
    return new SignInRequired({
      reason: error.claim === "aud" ? `The CI's ID token is not for audience '${audience}'; request it with that audience` : `The CI's ID token's '${error.claim}' claim is not valid`,
    })
  }
  if (error instanceof errors.JWKSTimeout || !(error instanceof errors.JOSEError)) {
    return new Unavailable({ dependency: "identity", reason: `the CI provider's keys could not be read: ${String(error)}` })
  }
  return new SignInRequired({ reason: "The CI's ID token's signature or algorithm is not accepted" })
}

export const makeJoseCiIdentity = (options: { readonly issuers: ReadonlyArray<CiIssuer>; readonly audience: string }): CiIdentity["Service"] => {
  const keys = new Map(options.issuers.map((i) => [i.issuer, { ...i, jwks: createRemoteJWKSet(new URL(i.jwksUrl), { timeoutDuration: 5000 }) }]))
  return CiIdentity.of({
    verify: (idToken) =>
      Effect.gen(function*() {
        let issuer: unknown
        try {
          issuer = decodeJwt(idToken).iss
        } catch {
          return yield* new SignInRequired({ reason: "The CI's ID token is not a JWT" })
        }
        const known = typeof issuer === "string" ? keys.get(issuer) : undefined
        if (known === undefined) {
          return yield* new SignInRequired({ reason: `ID tokens from issuer '${String(issuer).slice(0, 200)}' are not accepted for trusted publishing` })
        }
        const { payload } = yield* Effect.tryPromise({
          try: () => jwtVerify(idToken, known.jwks, { issuer: known.issuer, audience: options.audience, algorithms: ALGORITHMS, requiredClaims: ["exp", "iat"], maxTokenAge: "1h" }),
          catch: (error) => refusal(error, options.audience),
        })
        return { provider: known.provider, claims: payload as Readonly<Record<string, unknown>> }
      }),
  })
}

export const layerJoseCiIdentity = (options: { readonly issuers: ReadonlyArray<CiIssuer>; readonly audience: string }) =>
  Layer.sync(CiIdentity, () => makeJoseCiIdentity(options))

/** Embedding and tests without trusted publishing: every ID token is refused. */
export const layerNoCiIdentity = Layer.succeed(CiIdentity, CiIdentity.of({
  verify: () => Effect.fail(new SignInRequired({ reason: "Trusted publishing is not configured on this service" })),
}))
