import type { Principal } from "./Principal.ts"

// Browser sessions live on the server (ports/SessionStore.ts), so signing out or an administrator ending them takes
// effect everywhere. The rules here are pure: who a stored session names at a given moment.

/** How long a browser session lasts; signing in again starts a new one. */
export const SESSION_TTL_SECONDS = 8 * 3600

/**
 * How long a session acts as an administrator after sign-in. Afterwards it still works, as a non-administrator: someone
 * removed from the administrators (ADMIN_SUBJECTS, the identity provider's roles) loses the role within this time.
 */
export const SESSION_ADMIN_TTL_SECONDS = 10 * 60

export interface Session {
  /** What the store keys the session by (the HTTP adapter derives it from the cookie; the cookie's secret is not it). */
  readonly id: string
  readonly userId: string
  readonly createdAt: Date
  readonly expiresAt: Date
  /** Until when the session acts as an administrator; null for a session that never does. */
  readonly adminUntil: Date | null
}

const plusSeconds = (at: Date, seconds: number) => new Date(at.getTime() + seconds * 1000)

/** A session for `principal` starting at `now`: the administrator role, if any, for SESSION_ADMIN_TTL_SECONDS only. */
export const newSession = (id: string, principal: Principal, now: Date): Session => ({
  id,
  userId: principal.userId,
  createdAt: now,
  expiresAt: plusSeconds(now, SESSION_TTL_SECONDS),
  adminUntil: principal.isAdmin ? plusSeconds(now, SESSION_ADMIN_TTL_SECONDS) : null,
})

/** Who the session names at `now`, or null once it has expired. */
export const sessionPrincipal = (session: Session, now: Date): Principal | null => {
  const at = now.getTime()
  if (at >= session.expiresAt.getTime()) return null
  return { userId: session.userId, isAdmin: session.adminUntil !== null && at < session.adminUntil.getTime() }
}
