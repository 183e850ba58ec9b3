import { Context, type Effect, type Option } from "effect"
import type { Session } from "../domain/auth/Session.ts"
import type { Unavailable } from "../domain/errors.ts"

/**
 * Browser sessions, shared by every instance: ending one here ends it everywhere. Ending a session removes it, so
 * `get` answers none for it from then on.
 */
export class SessionStore extends Context.Service<SessionStore, {
  /** Records a new session, and forgets the same user's sessions that had expired by its `createdAt`. */
  create(session: Session): Effect.Effect<void, Unavailable>
  /** The session, until it is ended; expired ones too (see `sessionPrincipal`) until `create` forgets them. */
  get(id: string): Effect.Effect<Option.Option<Session>, Unavailable>
  /** Ends one session; true when it was still there. Ending it again is harmless. */
  revoke(id: string): Effect.Effect<boolean, Unavailable>
  /** Ends every session of `userId`; returns how many there were. */
  revokeAllOf(userId: string): Effect.Effect<number, Unavailable>
}>()("pckgate/ports/SessionStore") {}
