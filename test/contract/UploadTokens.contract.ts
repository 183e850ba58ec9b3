import { assert, layer } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import type { Principal } from "../../domain/auth/Principal.ts"
import { UploadTokens } from "../../ports/UploadTokens.ts"
import { unique } from "../support/fixtures.ts"

// Upload tokens are judged against the wall clock (jose's `exp` check, and the memory adapter's): the suite issues at
// real times, now or well in the past.
const FIVE_MINUTES_MS = 300_000

const refusal = (token: string) =>
  Effect.gen(function*() {
    const error = yield* Effect.flip(UploadTokens.use((tokens) => tokens.verify(token)))
    assert.strictEqual(error._tag, "SignInRequired")
    return error.reason
  })

export const uploadTokensContract = (name: string, makeLayer: () => Layer.Layer<UploadTokens, unknown>) =>
  layer(makeLayer(), { timeout: 60_000 })(`UploadTokens contract: ${name}`, (it) => {
    it.effect("a token verifies to exactly the principal it was issued for, administrator flag included, as often as asked", () =>
      Effect.gen(function*() {
        const tokens = yield* UploadTokens
        const creator: Principal = { userId: unique("Zoë ☃ "), isAdmin: false }
        const admin: Principal = { userId: unique("root-"), isAdmin: true }
        const forCreator = yield* tokens.issue(creator, new Date())
        const forAdmin = yield* tokens.issue(admin, new Date())
        assert.notStrictEqual(forCreator.token, forAdmin.token)
        assert.deepStrictEqual(yield* tokens.verify(forCreator.token), creator)
        assert.deepStrictEqual(yield* tokens.verify(forAdmin.token), admin)
        assert.deepStrictEqual(yield* tokens.verify(forCreator.token), creator, "a token is not used up by a check")
      }))

    it.effect("a token lasts at most five minutes from the time it is issued at, and is refused once that has passed", () =>
      Effect.gen(function*() {
        const tokens = yield* UploadTokens
        const now = new Date()
        const { expiresAt } = yield* tokens.issue({ userId: unique("u-"), isAdmin: false }, now)
        assert.isAbove(expiresAt.getTime(), now.getTime())
        assert.isAtMost(expiresAt.getTime(), now.getTime() + FIVE_MINUTES_MS)
        const longAgo = new Date(Date.now() - FIVE_MINUTES_MS - 60_000)
        const stale = yield* tokens.issue({ userId: unique("u-"), isAdmin: false }, longAgo)
        assert.isBelow(stale.expiresAt.getTime(), Date.now())
        assert.match(yield* refusal(stale.token), /expired/)
      }))

    it.effect("anything else is refused with sign_in_required, never an outage, and the refusal never quotes the token", () =>
      Effect.gen(function*() {
        const tokens = yield* UploadTokens
        const { token } = yield* tokens.issue({ userId: unique("u-"), isAdmin: false }, new Date())
        // A character well inside the token (a signature's last character may carry only padding bits).
        const at = token.length - 10
        const altered = token.slice(0, at) + (token[at] === "A" ? "B" : "A") + token.slice(at + 1)
        for (const bad of ["", "x", altered, token + "x", `${token}.${token}`, "a".repeat(20_000)]) {
          const reason = yield* refusal(bad)
          if (bad.length > 8) assert.notInclude(reason, bad)
        }
      }))
  })
