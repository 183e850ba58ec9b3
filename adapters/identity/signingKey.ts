// The service's own ES256 signing keys (the dev issuer, upload tokens, publishing tokens): each a private JWK taken from
// an environment variable (so several instances share it), else kept in DATA_DIR/keys and created on first start.
import { join } from "node:path"
import { createLocalJWKSet, exportJWK, generateKeyPair, importJWK, type JWK, type JWTPayload, SignJWT } from "jose"
import { loadOrCreateFile } from "../system/secretFiles.ts"

export const generateDevJwk = async (): Promise<JWK> => {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true })
  return { ...(await exportJWK(privateKey)), kid: `dev-${crypto.randomUUID().slice(0, 8)}`, alg: "ES256" }
}

/**
 * The private key: `fromEnv` (a private ES256 JWK as JSON) when set, else DATA_DIR/keys/`fileName`, created on first
 * use (safe when two processes start at once).
 */
export const loadSigningJwk = async (dataDir: string, fileName: string, fromEnv?: string): Promise<JWK> => {
  const text = fromEnv !== undefined && fromEnv !== ""
    ? fromEnv
    : await loadOrCreateFile(join(dataDir, "keys", fileName), async () => JSON.stringify(await generateDevJwk()))
  return JSON.parse(text) as JWK
}

/** What signing with a private JWK and verifying its tokens need: the key to sign with, its kid, the public key set. */
export const signingKeyPair = async (privateJwk: JWK, defaultKid: string) => {
  const { d: _d, ...publicJwk } = privateJwk
  const privateKey = await importJWK(privateJwk, "ES256")
  const kid = privateJwk.kid ?? defaultKid
  return {
    privateKey,
    kid,
    keys: createLocalJWKSet({ keys: [{ ...publicJwk, alg: "ES256", use: "sig" }] }),
    /** A token of the service's own (issuer `pckgate`) for `audience` and `subject`, valid `ttlSeconds` from `now`. */
    sign: async (token: { readonly claims: JWTPayload; readonly audience: string; readonly subject: string; readonly ttlSeconds: number }, now: Date) => {
      const expiresAt = new Date(now.getTime() + token.ttlSeconds * 1000)
      const signed = await new SignJWT(token.claims)
        .setProtectedHeader({ alg: "ES256", kid })
        .setIssuer(SERVICE_TOKEN_ISSUER)
        .setAudience(token.audience)
        .setSubject(token.subject)
        .setIssuedAt(Math.floor(now.getTime() / 1000))
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(privateKey)
      return { token: signed, expiresAt }
    },
  }
}

/** The issuer of the tokens the service signs for itself (upload and publishing tokens). */
export const SERVICE_TOKEN_ISSUER = "pckgate"
