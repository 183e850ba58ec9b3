import type { Principal } from "./Principal.ts"

/** Who acted, as the timeline records it: the credential, not only the person behind it. */
export type Actor = `user:${string}` | `api_key:${string}` | `publisher:${string}` | "system"

export const SYSTEM_ACTOR: Actor = "system"

export const actorOf = (principal: Principal): Actor => principal.actor ?? `user:${principal.userId}`
