import { createLocalJWKSet, exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from "jose"
import { join } from "node:path"
import { loadOrCreateFile } from "../system/secretFiles.ts"

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
  const { d: _d, ...publicJwk } = privateJwk
  const privateKey = await importJWK(privateJwk, "ES256")
  const keys = createLocalJWKSet({ keys: [{ ...publicJwk, alg: "ES256", use: "sig" }] })
  return {
    keys,
    issue: ({ userId, admin = false, ttlSeconds = TOKEN_TTL_SECONDS, audience = DEV_AUDIENCE }) =>
      new SignJWT({ roles: admin ? ["admin"] : [] })
        .setProtectedHeader({ alg: "ES256", kid: privateJwk.kid ?? "dev" })
        .setIssuer(DEV_ISSUER)
        .setAudience(audience)
        .setSubject(userId)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(privateKey),
  }
}

export const generateDevJwk = async (): Promise<JWK> => {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true })
  return { ...(await exportJWK(privateKey)), kid: `dev-${crypto.randomUUID().slice(0, 8)}`, alg: "ES256" }
}

/**
 * The dev issuer's key: from `DEV_ISSUER_JWK` (a private ES256 JWK as JSON, so several instances can share it), else
 * from `dataDir`, created on first use (safe when two processes start at once).
 */
export const loadDevIssuer = async (dataDir: string, fromEnv?: string): Promise<DevIssuer> => {
  const text = fromEnv !== undefined && fromEnv !== ""
    ? fromEnv
    : await loadOrCreateFile(join(dataDir, "keys", "dev-issuer.jwk.json"), async () => JSON.stringify(await generateDevJwk()))
  return makeDevIssuerFromJwk(JSON.parse(text) as JWK)
}
