// Starting and ending browser sessions: the record on the server (ports/SessionStore.ts) and the cookie naming it.
import { Effect } from "effect"
import type { Principal } from "../../domain/auth/Principal.ts"
import { newSession, SESSION_TTL_SECONDS } from "../../domain/auth/Session.ts"
import { Clock } from "../../ports/Clock.ts"
import { SessionStore } from "../../ports/SessionStore.ts"
import type { AuthContext } from "./auth.ts"
import { readCookie, SESSION_COOKIE, sessionCookieHeader } from "./session.ts"

/** Records a new session for `principal`; returns it and the Set-Cookie header that hands it to the browser. */
export const startSession = Effect.fnUntraced(function*(auth: AuthContext, principal: Principal, secure: boolean) {
  const { cookie, sessionId } = yield* Effect.promise(() => auth.sessions.mint())
  const session = newSession(sessionId, principal, yield* Clock.use((clock) => clock.now))
  yield* SessionStore.use((store) => store.create(session))
  return { session, setCookie: sessionCookieHeader(cookie, SESSION_TTL_SECONDS, secure) }
})

/**
 * Ends the session the request's cookie names, if it names one: the same cookie no longer signs anyone in, on any
 * instance. The caller has checked that the request comes from the service's own pages.
 */
export const endSession = Effect.fnUntraced(function*(request: Request, auth: AuthContext) {
  const cookie = readCookie(request, SESSION_COOKIE)
  const sessionId = cookie === null ? null : yield* Effect.promise(() => auth.sessions.open(cookie))
  if (sessionId !== null) yield* SessionStore.use((store) => store.revoke(sessionId))
})

/** The Set-Cookie header that removes the session cookie from the browser. */
export const clearedSessionCookie = (secure: boolean): string => sessionCookieHeader("", 0, secure)
