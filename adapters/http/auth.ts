import { Effect, Option } from "effect"
import type { Principal } from "../../domain/auth/Principal.ts"
import { sessionPrincipal } from "../../domain/auth/Session.ts"
import { SignInRequired, type Unavailable } from "../../domain/errors.ts"
import type { ApiKeyStore } from "../../ports/ApiKeyStore.ts"
import { PublishTokens } from "../../ports/PublishTokens.ts"
import type { Sha256Hasher } from "../../ports/Sha256Hasher.ts"
import { Clock } from "../../ports/Clock.ts"
import { apiKeyPrincipal } from "../../domain/credentials/ManageApiKeys.ts"
import { API_KEY_PREFIX } from "../../domain/credentials/apiKeyFormat.ts"
import { Identity } from "../../ports/Identity.ts"
import { type Admission, admitPeopleOnly } from "./credentialAccess.ts"
import { SessionStore } from "../../ports/SessionStore.ts"
import { readCookie, SESSION_COOKIE, type SessionCodec } from "./session.ts"

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"])

export interface AuthContext {
  readonly sessions: SessionCodec
  /** The service's own origin: cookie-authenticated state changes must come from it. */
  readonly ownOrigin: () => string
  /** What a scoped credential (API key, publisher token) may do on the route at hand; none when absent. */
  readonly admit?: Admission
}

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive); null for any other header or none. */
export const bearerTokenOf = (authorization: string | null): string | null =>
  authorization === null ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization)?.[1] ?? null

/** Who a Bearer credential names: an API key (`pckg_…`), a trusted publisher's token or an access token; else 401. */
export const bearerPrincipal = (
  token: string,
): Effect.Effect<Principal, SignInRequired | Unavailable, Identity | ApiKeyStore | Clock | Sha256Hasher | PublishTokens> =>
  token.startsWith(API_KEY_PREFIX)
    ? apiKeyPrincipal(token)
    : PublishTokens.use((tokens) => (tokens.claims(token) ? tokens.verify(token) : Identity.use((identity) => identity.verify(token))))

/**
 * Spec §5: Bearer first. A Bearer token that is present but invalid is a hard 401 and never falls through to the
 * cookie. Without Authorization, the session cookie counts — for state-changing requests only when `Origin` is the
 * service's own (otherwise the cookie is treated as absent). A cookie counts while its session is on the server
 * (signing out and administrators end sessions there); its administrator role lasts SESSION_ADMIN_TTL_SECONDS.
 */
export const authenticate = Effect.fnUntraced(function*(request: Request, auth: AuthContext) {
  const authorization = request.headers.get("authorization")
  if (authorization !== null) {
    const token = bearerTokenOf(authorization)
    if (token === null) return yield* new SignInRequired({ reason: "The Authorization header is not 'Bearer <access token>'" })
    const principal: Principal = yield* bearerPrincipal(token)
    if (principal.credential !== undefined) yield* (auth.admit ?? admitPeopleOnly)(principal)
    return principal
  }
  return yield* sessionCaller(request, auth)
})

/** Who the session cookie names (what `authenticate` reads without Authorization); null without a live session. */
export const sessionCaller = Effect.fnUntraced(function*(request: Request, auth: AuthContext) {
  const cookie = readCookie(request, SESSION_COOKIE)
  if (cookie === null) return null
  if (!SAFE_METHODS.has(request.method) && request.headers.get("origin") !== auth.ownOrigin()) return null
  const sessionId = yield* Effect.promise(() => auth.sessions.open(cookie))
  if (sessionId === null) return null
  const session = yield* SessionStore.use((store) => store.get(sessionId))
  if (Option.isNone(session)) return null
  return sessionPrincipal(session.value, yield* Clock.use((clock) => clock.now))
})

/** The principal, or 401 when the request carries no valid credentials. */
export const requirePrincipal = (request: Request, auth: AuthContext) =>
  Effect.flatMap(authenticate(request, auth), (principal: Principal | null) =>
    principal === null
      ? Effect.fail(new SignInRequired({ reason: "Sign-in is required" }))
      : Effect.succeed(principal))
