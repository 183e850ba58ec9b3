import { Context, type Effect } from "effect"
import type { Principal } from "../domain/auth/Principal.ts"
import type { SignInRequired } from "../domain/errors.ts"

/**
 * Short-lived tokens (at most 5 minutes, a narrow audience) the service issues to a signed-in browser so its submit
 * page can call the Bearer-only multipart endpoint. They are accepted there and nowhere else.
 */
export class UploadTokens extends Context.Service<UploadTokens, {
  issue(principal: Principal, now: Date): Effect.Effect<{ readonly token: string; readonly expiresAt: Date }>
  verify(token: string): Effect.Effect<Principal, SignInRequired>
}>()("pckgate/ports/UploadTokens") {}
