import { createRemoteJWKSet, errors as joseErrors, type JWTPayload, jwtVerify, type JWTVerifyGetKey } from "jose"
import type { Principal } from "../../domain/auth/Principal.ts"
import { toBase64Url } from "../shared/bytes.ts"
import { ALLOWED_ALGORITHMS } from "./JwtIdentity.ts"
import { subjectProblem } from "./subject.ts"

// Browser sign-in with the identity provider: the OpenID Connect authorization-code flow with PKCE (S256), a state
// and a nonce. The provider's endpoints come from its discovery document; the id token is verified with jose against
// the provider's key set, the issuer, the client id as audience, the nonce, and asymmetric algorithms only.

export interface OidcLoginSettings {
  /** Exactly as the provider writes it in `iss`; discovery is read from `<issuer>/.well-known/openid-configuration`. */
  readonly issuer: string
  readonly clientId: string
  /** Confidential clients: sent with HTTP Basic to the token endpoint. Public clients rely on PKCE alone. */
  readonly clientSecret: string | null
  /** Space-separated; must include `openid`. */
  readonly scopes: string
  /** The key set the provider signs with (OIDC_JWKS_URL, the same one access tokens are verified against). */
  readonly keys: JWTVerifyGetKey
  /** Subjects that are administrators even without `roles: ["admin"]` in the id token. */
  readonly adminSubjects: ReadonlyArray<string>
  readonly fetch?: (request: Request) => Promise<Response>
  readonly timeoutMs?: number
}

/** What the browser keeps (in a signed, short-lived cookie) between the redirect out and the callback. */
export interface PendingLogin {
  readonly state: string
  readonly nonce: string
  readonly verifier: string
  /** Where to go after signing in: a path of this site. */
  readonly returnTo: string
}

/** Why a sign-in did not complete: `refused` (the user or the answer is not acceptable) or `unavailable` (the provider is down). */
export class OidcLoginError extends Error {
  readonly kind: "refused" | "unavailable"
  constructor(kind: "refused" | "unavailable", message: string) {
    super(message)
    this.name = "OidcLoginError"
    this.kind = kind
  }
}

export interface OidcLogin {
  /** A fresh state, nonce and PKCE verifier, and the provider's authorization URL to send the browser to. */
  begin(redirectUri: string, returnTo: string): Promise<{ readonly url: string; readonly pending: PendingLogin }>
  /** Checks the callback against the pending login, exchanges the code, verifies the id token; the signed-in person. */
  complete(callback: URLSearchParams, pending: PendingLogin, redirectUri: string): Promise<Principal>
}

interface Discovery {
  readonly authorizationEndpoint: string
  readonly tokenEndpoint: string
}

const randomToken = (bytes = 32): string => toBase64Url(crypto.getRandomValues(new Uint8Array(bytes)))

export const pkceChallenge = async (verifier: string): Promise<string> =>
  toBase64Url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))))

const isHttpUrl = (value: unknown): value is string => {
  if (typeof value !== "string") return false
  try {
    const url = new URL(value)
    return url.protocol === "https:" || url.protocol === "http:"
  } catch {
    return false
  }
}

/** Compares without leaking timing: state and nonce are secrets of this browser. */
const sameSecret = (a: string, b: string): boolean => {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return diff === 0
}

const principalOf = (payload: JWTPayload, adminSubjects: ReadonlySet<string>): Principal => {
  const problem = subjectProblem(payload.sub)
  if (problem !== null) throw new OidcLoginError("refused", `The identity provider's id token ${problem}`)
  const sub = payload.sub as string
  const roles = payload["roles"]
  return { userId: sub, isAdmin: (Array.isArray(roles) && roles.includes("admin")) || adminSubjects.has(sub) }
}

/** The key set of an OIDC_JWKS_URL, with a timeout so a provider outage answers promptly. */
export const remoteKeys = (jwksUrl: string): JWTVerifyGetKey => createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration: 5000 })

export const makeOidcLogin = (settings: OidcLoginSettings): OidcLogin => {
  const fetchImpl = settings.fetch ?? ((request: Request) => fetch(request))
  const timeoutMs = settings.timeoutMs ?? 10_000
  const adminSubjects = new Set(settings.adminSubjects)
  const discoveryUrl = `${settings.issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`
  // Discovered once; a failed discovery is not remembered, so the next sign-in tries again.
  let discovered: Promise<Discovery> | null = null

  const call = async (url: string, init: RequestInit, what: string): Promise<Response> => {
    try {
      return await fetchImpl(new Request(url, { ...init, signal: AbortSignal.timeout(timeoutMs), redirect: "manual" }))
    } catch {
      throw new OidcLoginError("unavailable", `The identity provider's ${what} could not be reached`)
    }
  }

  const discover = (): Promise<Discovery> => {
    discovered ??= (async () => {
      const response = await call(discoveryUrl, { headers: { accept: "application/json" } }, "discovery document")
      if (!response.ok) throw new OidcLoginError("unavailable", `The identity provider's discovery document answered ${response.status}`)
      const doc = (await response.json().catch(() => null)) as Record<string, unknown> | null
      if (doc === null || doc["issuer"] !== settings.issuer) {
        throw new OidcLoginError("unavailable", "The identity provider's discovery document names another issuer than OIDC_ISSUER")
      }
      const methods = doc["code_challenge_methods_supported"]
      if (Array.isArray(methods) && !methods.includes("S256")) {
        throw new OidcLoginError("unavailable", "The identity provider does not support PKCE with S256")
      }
      if (!isHttpUrl(doc["authorization_endpoint"]) || !isHttpUrl(doc["token_endpoint"])) {
        throw new OidcLoginError("unavailable", "The identity provider's discovery document lacks its authorization or token endpoint")
      }
      return { authorizationEndpoint: doc["authorization_endpoint"], tokenEndpoint: doc["token_endpoint"] }
    })()
    discovered.catch(() => void (discovered = null))
    return discovered
  }

  const exchange = async (endpoint: string, code: string, verifier: string, redirectUri: string): Promise<string> => {
    const form = new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectUri, code_verifier: verifier, client_id: settings.clientId })
    const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" }
    if (settings.clientSecret !== null) {
      // RFC 6749 §2.3.1: both parts form-urlencoded before Basic encoding.
      const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, "+")
      headers["authorization"] = `Basic ${btoa(`${enc(settings.clientId)}:${enc(settings.clientSecret)}`)}`
    }
    const response = await call(endpoint, { method: "POST", headers, body: form.toString() }, "token endpoint")
    const body = (await response.json().catch(() => null)) as Record<string, unknown> | null
    if (response.status >= 500) throw new OidcLoginError("unavailable", `The identity provider's token endpoint answered ${response.status}`)
    if (!response.ok) {
      const reason = typeof body?.["error"] === "string" ? body["error"].slice(0, 100) : `status ${response.status}`
      throw new OidcLoginError("refused", `The identity provider did not accept the sign-in code (${reason})`)
    }
    const idToken = body?.["id_token"]
    if (typeof idToken !== "string" || idToken.length > 16 * 1024) throw new OidcLoginError("refused", "The identity provider returned no id token")
    return idToken
  }

  const verifyIdToken = async (idToken: string, nonce: string): Promise<Principal> => {
    let payload: JWTPayload
    try {
      payload = (await jwtVerify(idToken, settings.keys, {
        issuer: settings.issuer,
        audience: settings.clientId,
        algorithms: [...ALLOWED_ALGORITHMS],
        requiredClaims: ["sub", "exp", "iat", "nonce"],
      })).payload
    } catch (error) {
      if (error instanceof joseErrors.JWKSTimeout || error instanceof joseErrors.JWKSInvalid || error instanceof TypeError) {
        throw new OidcLoginError("unavailable", "The identity provider's key set could not be fetched")
      }
      const code = error instanceof joseErrors.JOSEError ? error.code : "ERR_JWT_INVALID"
      throw new OidcLoginError("refused", `The identity provider's id token is not valid (${code})`)
    }
    if (typeof payload["nonce"] !== "string" || !sameSecret(payload["nonce"], nonce)) {
      throw new OidcLoginError("refused", "The id token was issued for another sign-in (nonce mismatch)")
    }
    // OIDC Core §3.1.3.7: with several audiences, the authorized party must be this client.
    if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload["azp"] !== settings.clientId) {
      throw new OidcLoginError("refused", "The id token was issued to another client (azp)")
    }
    return principalOf(payload, adminSubjects)
  }

  return {
    async begin(redirectUri, returnTo) {
      const { authorizationEndpoint } = await discover()
      const pending: PendingLogin = { state: randomToken(), nonce: randomToken(), verifier: randomToken(48), returnTo }
      const url = new URL(authorizationEndpoint)
      url.searchParams.set("response_type", "code")
      url.searchParams.set("client_id", settings.clientId)
      url.searchParams.set("redirect_uri", redirectUri)
      url.searchParams.set("scope", settings.scopes)
      url.searchParams.set("state", pending.state)
      url.searchParams.set("nonce", pending.nonce)
      url.searchParams.set("code_challenge", await pkceChallenge(pending.verifier))
      url.searchParams.set("code_challenge_method", "S256")
      return { url: url.toString(), pending }
    },
    async complete(callback, pending, redirectUri) {
      const state = callback.get("state")
      if (state === null || !sameSecret(state, pending.state)) {
        throw new OidcLoginError("refused", "The sign-in answer does not belong to this browser's sign-in (state mismatch)")
      }
      const error = callback.get("error")
      if (error !== null) {
        const description = callback.get("error_description")
        throw new OidcLoginError("refused", `The identity provider ended the sign-in: ${error.slice(0, 100)}${description !== null ? ` — ${description.slice(0, 300)}` : ""}`)
      }
      // RFC 9207: when the provider names itself, it must be the configured one (mix-up defence).
      const iss = callback.get("iss")
      if (iss !== null && iss !== settings.issuer) throw new OidcLoginError("refused", "The sign-in answer comes from another identity provider")
      const code = callback.get("code")
      if (code === null || code === "") throw new OidcLoginError("refused", "The sign-in answer carries no code")
      const { tokenEndpoint } = await discover()
      return verifyIdToken(await exchange(tokenEndpoint, code, pending.verifier, redirectUri), pending.nonce)
    },
  }
}
