import { Effect, Layer, Option } from "effect"
import type { Session } from "../../domain/auth/Session.ts"
import { SessionStore } from "../../ports/SessionStore.ts"

export const layerMemorySessionStore = Layer.sync(SessionStore, () => {
  const sessions = new Map<string, Session>()
  return SessionStore.of({
    create: (session) =>
      Effect.sync(() => {
        for (const [id, existing] of sessions) {
          if (existing.userId === session.userId && existing.expiresAt.getTime() <= session.createdAt.getTime()) sessions.delete(id)
        }
        sessions.set(session.id, session)
      }),
    get: (id) => Effect.sync(() => Option.fromNullishOr(sessions.get(id))),
    revoke: (id) => Effect.sync(() => sessions.delete(id)),
    revokeAllOf: (userId) =>
      Effect.sync(() => {
        let ended = 0
        for (const [id, session] of sessions) {
          if (session.userId === userId && sessions.delete(id)) ended++
        }
        return ended
      }),
  })
})
