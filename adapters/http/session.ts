import { fromBase64Url, toBase64Url } from "../shared/bytes.ts"

export const SESSION_COOKIE = "pckgate_session"

const VERSION = "v2"
const SECRET_BYTES = 32

/**
 * The session cookie: `v2.<secret>.<signature>`, where the secret is 256 random bits and the signature its HMAC-SHA256
 * under the session key. The server keeps the session (ports/SessionStore.ts) under the secret's SHA-256, never the
 * secret itself, so a copy of the database (even with the session key) lets nobody make a working cookie. The signature
 * lets every instance refuse a forged or guessed cookie without reading the store. Cookies of the earlier
 * stateless format (`v1.`) are refused: their holders sign in again.
 */
export interface SessionCodec {
  /** A new cookie value, and the id the store keeps its session under. */
  mint(): Promise<{ readonly cookie: string; readonly sessionId: string }>
  /** The id of the session the cookie stands for, or null when it is forged or malformed (nothing is read). */
  open(cookie: string): Promise<string | null>
}

/** Base64url text as bytes; null when it is not base64url (atob throws on some lengths). */
const decoded = (text: string): Uint8Array<ArrayBuffer> | null => {
  try {
    return fromBase64Url(text)
  } catch {
    return null
  }
}

export const makeSessionCodec = async (key: Uint8Array<ArrayBuffer>): Promise<SessionCodec> => {
  const hmac = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"])
  const sessionIdOf = async (secret: Uint8Array<ArrayBuffer>) => toBase64Url(new Uint8Array(await crypto.subtle.digest("SHA-256", secret)))
  return {
    async mint() {
      const secret = crypto.getRandomValues(new Uint8Array(SECRET_BYTES))
      const signature = new Uint8Array(await crypto.subtle.sign("HMAC", hmac, secret))
      return { cookie: `${VERSION}.${toBase64Url(secret)}.${toBase64Url(signature)}`, sessionId: await sessionIdOf(secret) }
    },
    async open(cookie) {
      const [version, encodedSecret, encodedSignature, extra] = cookie.split(".")
      if (version !== VERSION || encodedSecret === undefined || encodedSignature === undefined || extra !== undefined) return null
      const secret = decoded(encodedSecret)
      const signature = decoded(encodedSignature)
      if (secret === null || signature === null || secret.length !== SECRET_BYTES) return null
      return (await crypto.subtle.verify("HMAC", hmac, signature, secret)) ? sessionIdOf(secret) : null
    },
  }
}

export const sessionCookieHeader = (value: string, maxAgeSeconds: number, secure: boolean): string =>
  [
    `${SESSION_COOKIE}=${value}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`,
    ...(secure ? ["Secure"] : []),
  ].join("; ")

export const readCookie = (request: Request, name: string): string | null => {
  const header = request.headers.get("cookie")
  if (header === null) return null
  for (const part of header.split(";")) {
    const eq = part.indexOf("=")
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim()
  }
  return null
}
