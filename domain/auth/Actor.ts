import type { Principal } from "./Principal.ts"

/** Who acted, as the timeline records it: the credential, not only the person behind it. */
export type Actor = `user:${string}` | `api_key:${string}` | `publisher:${string}` | "system"

export const SYSTEM_ACTOR: Actor = "system"

/**
 * The one place an actor is derived: the credential the request was made with (`api_key:<id>`, `publisher:<id>`), an
 * explicit `actor`, else the person (`user:<id>`). A trusted publisher's token names the owner as `userId`, so
 * without this its releases would be recorded as the owner's own.
 */
export const actorOf = (principal: Principal): Actor =>
  principal.credential !== undefined
    ? `${principal.credential.kind}:${principal.credential.id}`
    : principal.actor ?? `user:${principal.userId}`
