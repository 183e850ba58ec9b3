import { Effect, Layer } from "effect"
import { type JWK, jwtVerify } from "jose"
import type { Principal } from "../../domain/auth/Principal.ts"
import { SignInRequired } from "../../domain/errors.ts"
import { UploadTokens } from "../../ports/UploadTokens.ts"
import { generateDevJwk, loadSigningJwk, SERVICE_TOKEN_ISSUER, signingKeyPair } from "./signingKey.ts"

// Tokens the service issues to its own submit page. Their own key and audience: they open the multipart endpoint and
// nothing else, and a token from the identity provider is never mistaken for one.

export const UPLOAD_TOKEN_ISSUER = SERVICE_TOKEN_ISSUER
export const UPLOAD_TOKEN_AUDIENCE = "pckgate-upload"
export const UPLOAD_TOKEN_TTL_SECONDS = 300

export const makeJwtUploadTokens = async (privateJwk: JWK): Promise<UploadTokens["Service"]> => {
  const { sign, keys } = await signingKeyPair(privateJwk, "upload")
  return UploadTokens.of({
    issue: (principal, now) =>
      Effect.promise(() =>
        sign({ claims: { adm: principal.isAdmin }, audience: UPLOAD_TOKEN_AUDIENCE, subject: principal.userId, ttlSeconds: UPLOAD_TOKEN_TTL_SECONDS }, now)
      ),
    verify: (token) =>
      Effect.tryPromise({
        try: () => jwtVerify(token, keys, { issuer: UPLOAD_TOKEN_ISSUER, audience: UPLOAD_TOKEN_AUDIENCE, algorithms: ["ES256"], requiredClaims: ["sub", "exp"] }),
        catch: () => new SignInRequired({ reason: "The upload token is not valid or has expired; reload the submit page" }),
      }).pipe(Effect.map(({ payload }): Principal => ({ userId: String(payload.sub), isAdmin: payload["adm"] === true }))),
  })
}

/** The key from `UPLOAD_TOKEN_JWK` (to share it between instances), else kept in DATA_DIR. */
export const layerJwtUploadTokens = (dataDir: string, fromEnv?: string) =>
  Layer.effect(UploadTokens, Effect.promise(async () => makeJwtUploadTokens(await loadSigningJwk(dataDir, "upload-token.jwk.json", fromEnv))))

/** For tests and embedding: a fresh key in memory. */
export const layerEphemeralUploadTokens = Layer.effect(UploadTokens, Effect.promise(async () => makeJwtUploadTokens(await generateDevJwk())))
