import { type createLocalJWKSet, type JWK, SignJWT } from "jose"
import { loadSigningJwk, signingKeyPair } from "./signingKey.ts"

export { generateDevJwk } from "./signingKey.ts"

// The embedded default identity provider: an ES256 key generated once and kept in DATA_DIR, so `pckgate token`
// and a server using the same DATA_DIR agree. Disabled whenever OIDC is configured.

export const DEV_ISSUER = "pckgate-dev"
export const DEV_AUDIENCE = "pckgate"
export const TOKEN_TTL_SECONDS = 3600

export interface DevIssuer {
  readonly keys: ReturnType<typeof createLocalJWKSet>
  issue(options: { readonly userId: string; readonly admin?: boolean; readonly ttlSeconds?: number; readonly audience?: string }): Promise<string>
}

export const makeDevIssuerFromJwk = async (privateJwk: JWK): Promise<DevIssuer> => {
  const { privateKey, kid, keys } = await signingKeyPair(privateJwk, "dev")
  return {
    keys,
    issue: ({ userId, admin = false, ttlSeconds = TOKEN_TTL_SECONDS, audience = DEV_AUDIENCE }) =>
      new SignJWT({ roles: admin ? ["admin"] : [] })
        .setProtectedHeader({ alg: "ES256", kid })
        .setIssuer(DEV_ISSUER)
        .setAudience(audience)
        .setSubject(userId)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(privateKey),
  }
}

/**
 * The dev issuer's key: from `DEV_ISSUER_JWK` (a private ES256 JWK as JSON, so several instances can share it), else
 * from `dataDir`, created on first use (safe when two processes start at once).
 */
export const loadDevIssuer = async (dataDir: string, fromEnv?: string): Promise<DevIssuer> =>
  makeDevIssuerFromJwk(await loadSigningJwk(dataDir, "dev-issuer.jwk.json", fromEnv))
