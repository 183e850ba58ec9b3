import { Effect, Schema } from "effect"
import { SessionStore } from "../../ports/SessionStore.ts"
import { decodeInput } from "../decode.ts"
import { NotFound } from "../errors.ts"
import { IdentifierText } from "../text/UserText.ts"
import type { Principal } from "./Principal.ts"

/** The user whose sessions end: a token subject, matched verbatim (see IdentifierText). */
const EndSessionsTarget = Schema.Struct({ userId: IdentifierText })

/**
 * DELETE /api/admin/users/{userId}/sessions: an administrator ends every browser session of a user, on every instance
 * (within the session cache's bound elsewhere). Their access tokens are not sessions: they last until they expire.
 * Everyone else is answered like an unknown route. Returns how many sessions ended.
 */
export const endUserSessions = Effect.fn("endUserSessions")(function*(principal: Principal, userId: string) {
  if (!principal.isAdmin) return yield* new NotFound({ what: "route" })
  const target = yield* decodeInput(EndSessionsTarget, { userId })
  return yield* SessionStore.use((store) => store.revokeAllOf(target.userId))
})
