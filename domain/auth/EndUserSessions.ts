import { Effect, Schema } from "effect"
import { SessionStore } from "../../ports/SessionStore.ts"
import { IdentifierText } from "../text/UserText.ts"
import { type Principal, requireAdmin } from "./Principal.ts"

/** The path of DELETE /api/admin/users/{userId}/sessions: a token subject, matched verbatim (see IdentifierText). */
export const EndSessionsTarget = Schema.Struct({ userId: IdentifierText }).pipe(Schema.brand("EndSessionsTarget"))
export type EndSessionsTarget = typeof EndSessionsTarget.Type

/**
 * DELETE /api/admin/users/{userId}/sessions: an administrator ends every browser session of a user, on every instance
 * (within the session cache's bound elsewhere). Their access tokens are not sessions: they last until they expire.
 * Everyone else is answered like an unknown route. Returns how many sessions ended.
 */
export const endUserSessions = Effect.fn("endUserSessions")(function*(principal: Principal, target: EndSessionsTarget) {
  yield* requireAdmin(principal)
  return yield* SessionStore.use((store) => store.revokeAllOf(target.userId))
})
