// Upload tokens kept in memory: opaque random strings mapped to who they name and when they stop working. The same
// rules as the JWT adapter (adapters/identity/JwtUploadTokens.ts), checked by one contract suite; for embedding and
// tests that do not want a key.
import { Effect, Layer } from "effect"
import type { Principal } from "../../domain/auth/Principal.ts"
import { SignInRequired } from "../../domain/errors.ts"
import { UploadTokens } from "../../ports/UploadTokens.ts"

/** Five minutes, as the port requires at most. */
const TTL_MS = 300_000

const refused = () => new SignInRequired({ reason: "The upload token is not valid or has expired; reload the submit page" })

export const makeMemoryUploadTokens = (): UploadTokens["Service"] => {
  const issued = new Map<string, { readonly principal: Principal; readonly expiresAtMs: number }>()
  return UploadTokens.of({
    issue: (principal, now) =>
      Effect.sync(() => {
        const expiresAt = new Date(now.getTime() + TTL_MS)
        const token = `upl_${crypto.randomUUID()}`
        issued.set(token, { principal: { userId: principal.userId, isAdmin: principal.isAdmin }, expiresAtMs: expiresAt.getTime() })
        return { token, expiresAt }
      }),
    // Like jose's check of `exp`, expiry is judged against the wall clock: the port's verify takes no time.
    verify: (token) =>
      Effect.suspend(() => {
        const entry = issued.get(token)
        if (entry === undefined) return Effect.fail(refused())
        if (entry.expiresAtMs <= Date.now()) {
          issued.delete(token)
          return Effect.fail(refused())
        }
        return Effect.succeed(entry.principal)
      }),
  })
}

export const layerMemoryUploadTokens = Layer.sync(UploadTokens, makeMemoryUploadTokens)
