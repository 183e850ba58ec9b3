import type { PendingLogin } from "../../identity/OidcLogin.ts"
import { fromBase64Url, toBase64Url } from "../../shared/bytes.ts"

// The OIDC sign-in in flight (state, nonce, PKCE verifier, where to return) travels in a short-lived HttpOnly cookie
// signed with a key derived from the session secret: any instance can finish a sign-in another one started.

export const LOGIN_COOKIE = "pckgate_login"
export const LOGIN_TTL_SECONDS = 600

export interface LoginStateCodec {
  seal(pending: PendingLogin, now: Date): Promise<string>
  /** The pending sign-in, or null when the cookie is forged, malformed or older than LOGIN_TTL_SECONDS. */
  open(value: string, now: Date): Promise<PendingLogin | null>
}

const encoder = new TextEncoder()

const hmacKey = (raw: Uint8Array<ArrayBuffer>) => crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"])

export const makeLoginStateCodec = (secret: Uint8Array<ArrayBuffer>): LoginStateCodec => {
  // A key of its own (HMAC of a label under the session secret), so a session cookie can never pass for a login state.
  let key: Promise<CryptoKey> | null = null
  const getKey = () =>
    (key ??= hmacKey(secret)
      .then((parent) => crypto.subtle.sign("HMAC", parent, encoder.encode("pckgate login state v1")))
      .then((derived) => hmacKey(new Uint8Array(derived))))
  return {
    async seal(pending, now) {
      const body = toBase64Url(encoder.encode(JSON.stringify({ ...pending, exp: Math.floor(now.getTime() / 1000) + LOGIN_TTL_SECONDS })))
      const signature = new Uint8Array(await crypto.subtle.sign("HMAC", await getKey(), encoder.encode(body)))
      return `${body}.${toBase64Url(signature)}`
    },
    async open(value, now) {
      const [body, signature, extra] = value.split(".")
      if (body === undefined || signature === undefined || extra !== undefined) return null
      const signatureBytes = fromBase64Url(signature)
      if (signatureBytes === null || !(await crypto.subtle.verify("HMAC", await getKey(), signatureBytes, encoder.encode(body)))) return null
      try {
        const parsed = JSON.parse(new TextDecoder().decode(fromBase64Url(body) ?? new Uint8Array())) as Record<string, unknown>
        const { state, nonce, verifier, returnTo, exp } = parsed
        if (typeof exp !== "number" || exp * 1000 <= now.getTime()) return null
        if (typeof state !== "string" || typeof nonce !== "string" || typeof verifier !== "string" || typeof returnTo !== "string") return null
        return { state, nonce, verifier, returnTo }
      } catch {
        return null
      }
    },
  }
}

export const loginCookieHeader = (value: string, maxAgeSeconds: number, secure: boolean): string =>
  [`${LOGIN_COOKIE}=${value}`, "Path=/auth", "HttpOnly", "SameSite=Lax", `Max-Age=${maxAgeSeconds}`, ...(secure ? ["Secure"] : [])].join("; ")
