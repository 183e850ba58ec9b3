import type { Principal } from "../../domain/auth/Principal.ts"
import { fromBase64Url, toBase64Url } from "../shared/bytes.ts"

export const SESSION_COOKIE = "pckgate_session"

interface SessionPayload {
  readonly sub: string
  readonly adm: boolean
  readonly exp: number
}

/**
 * Browser sessions as signed cookies (HMAC-SHA256 over the payload): stateless, so every instance that shares the
 * session secret accepts them. Signing out clears the cookie.
 */
export interface SessionCodec {
  issue(principal: Principal, expiresAt: Date): Promise<string>
  /** The principal the cookie names, or null when it is forged, malformed or expired. */
  open(cookie: string, now: Date): Promise<Principal | null>
}

export const makeSessionCodec = async (secret: Uint8Array<ArrayBuffer>): Promise<SessionCodec> => {
  const key = await crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"])
  const encoder = new TextEncoder()
  return {
    async issue(principal, expiresAt) {
      const payload: SessionPayload = { sub: principal.userId, adm: principal.isAdmin, exp: Math.floor(expiresAt.getTime() / 1000) }
      const body = toBase64Url(encoder.encode(JSON.stringify(payload)))
      const signature = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(body)))
      return `v1.${body}.${toBase64Url(signature)}`
    },
    async open(cookie, now) {
      const [version, body, signature] = cookie.split(".")
      if (version !== "v1" || body === undefined || signature === undefined) return null
      const signatureBytes = fromBase64Url(signature)
      if (signatureBytes === null || !(await crypto.subtle.verify("HMAC", key, signatureBytes, encoder.encode(body)))) return null
      try {
        const payload = JSON.parse(new TextDecoder().decode(fromBase64Url(body) ?? new Uint8Array())) as Partial<SessionPayload>
        if (typeof payload.sub !== "string" || typeof payload.exp !== "number") return null
        if (payload.exp * 1000 <= now.getTime()) return null
        return { userId: payload.sub, isAdmin: payload.adm === true }
      } catch {
        return null
      }
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
