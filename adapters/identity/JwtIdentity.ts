import { Effect, Layer } from "effect"
import { errors as joseErrors, type JWTPayload, jwtVerify, type JWTVerifyGetKey } from "jose"
import type { Principal } from "../../domain/auth/Principal.ts"
import { SignInRequired, Unavailable } from "../../domain/errors.ts"
import { Identity } from "../../ports/Identity.ts"
import { subjectProblem } from "./subject.ts"

/** Asymmetric algorithms only: `none` and HMAC-with-a-public-key confusions are refused before any key is used. */
export const ALLOWED_ALGORITHMS = ["ES256", "RS256", "EdDSA"] as const

export interface JwtIdentityOptions {
  readonly keys: JWTVerifyGetKey
  readonly issuer: string
  readonly audience: string
  readonly algorithms?: ReadonlyArray<string>
  /** Subjects that are administrators even without a `roles: ["admin"]` claim. */
  readonly adminSubjects?: ReadonlyArray<string>
}

const MAX_TOKEN_LENGTH = 16 * 1024

/** The principal a verified token names, or why its subject cannot be a user id (it becomes owner ids and log fields). */
const principalOf = (payload: JWTPayload, adminSubjects: ReadonlySet<string>): Principal | SignInRequired => {
  const problem = subjectProblem(payload.sub)
  if (problem !== null) return new SignInRequired({ reason: `The access token ${problem}` })
  const sub = payload.sub as string
  const roles = payload["roles"]
  const isAdmin = (Array.isArray(roles) && roles.includes("admin")) || adminSubjects.has(sub)
  return { userId: sub, isAdmin }
}

/** Why a token was refused, in words a caller can act on; never the token itself. */
const refusal = (error: unknown): SignInRequired | Unavailable => {
  if (error instanceof joseErrors.JWTExpired) return new SignInRequired({ reason: "The access token has expired; get a new one" })
  if (error instanceof joseErrors.JWKSTimeout || error instanceof joseErrors.JWKSInvalid) {
    return new Unavailable({ dependency: "identity", reason: `key set: ${(error as Error).name}` })
  }
  if (error instanceof joseErrors.JOSEError) {
    return new SignInRequired({ reason: `The access token is not valid (${error.code})` })
  }
  if (error instanceof TypeError || (error as { name?: string })?.name === "AbortError") {
    return new Unavailable({ dependency: "identity", reason: "the identity provider's key set could not be fetched" })
  }
  return new SignInRequired({ reason: "The access token is not valid" })
}

/** How many verified tokens are remembered; CI and browsers reuse one token for many requests. */
const VERIFIED_CACHE_SIZE = 10_000

/**
 * Verifies JWTs with jose against a key set (remote JWKS in production, the dev issuer's key by default). A token that
 * verified is remembered until its `exp`, so repeated requests skip the signature check (only successes are kept).
 */
export const layerJwtIdentity = (options: JwtIdentityOptions) => {
  const adminSubjects = new Set(options.adminSubjects ?? [])
  const algorithms = [...(options.algorithms ?? ALLOWED_ALGORITHMS)]
  const verified = new Map<string, { readonly principal: Principal; readonly expiresAtMs: number }>()
  const remember = (token: string, principal: Principal, exp: number | undefined) => {
    if (exp === undefined) return
    if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!)
    verified.set(token, { principal, expiresAtMs: exp * 1000 })
  }
  const check = (token: string) =>
    Effect.tryPromise({
      try: () => jwtVerify(token, options.keys, { issuer: options.issuer, audience: options.audience, algorithms, requiredClaims: ["sub", "exp"] }),
      catch: refusal,
    }).pipe(
      Effect.flatMap(({ payload }) => {
        const principal = principalOf(payload, adminSubjects)
        if (principal instanceof SignInRequired) return Effect.fail(principal)
        remember(token, principal, payload.exp)
        return Effect.succeed(principal)
      }),
    )
  return Layer.succeed(Identity, Identity.of({
    verify: (token) => {
      if (token.length > MAX_TOKEN_LENGTH) return Effect.fail(new SignInRequired({ reason: "The access token is too long to be valid" }))
      const known = verified.get(token)
      if (known !== undefined) {
        if (known.expiresAtMs > Date.now()) return Effect.succeed(known.principal)
        verified.delete(token)
      }
      return check(token)
    },
  }))
}
