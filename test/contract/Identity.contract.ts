import { assert, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import type { Principal } from "../../domain/auth/Principal.ts"
import { Identity } from "../../ports/Identity.ts"
import { unique } from "../support/fixtures.ts"

/** How a suite gets access tokens the adapter under test accepts: its identity provider, as far as the test goes. */
export class TokenSource extends Context.Service<TokenSource, {
  tokenFor(principal: Principal): Effect.Effect<string>
}>()("test/contract/TokenSource") {}

/** For the memory adapter, whose tokens are the keys of the map it is given: a map this source fills. */
export const memoryTokenSource = (make: (tokens: Readonly<Record<string, Principal>>) => Layer.Layer<Identity>) => {
  const tokens: Record<string, Principal> = {}
  return Layer.merge(
    make(tokens),
    Layer.succeed(TokenSource, {
      tokenFor: (principal) =>
        Effect.sync(() => {
          const token = `tok_${crypto.randomUUID()}`
          tokens[token] = principal
          return token
        }),
    }),
  )
}

const refusal = (token: string) =>
  Effect.gen(function*() {
    const error = yield* Effect.flip(Identity.use((identity) => identity.verify(token)))
    assert.strictEqual(error._tag, "SignInRequired", "a bad token is the caller's problem (401), not an outage")
    return error.reason
  })

export const identityContract = (name: string, makeLayer: () => Layer.Layer<Identity | TokenSource, unknown>) =>
  layer(makeLayer(), { timeout: 60_000 })(`Identity contract: ${name}`, (it) => {
    it.effect("a token of the provider verifies to the principal it names, administrator or not, as often as asked", () =>
      Effect.gen(function*() {
        const identity = yield* Identity
        const source = yield* TokenSource
        const creator: Principal = { userId: unique("Zoë ☃ "), isAdmin: false }
        const admin: Principal = { userId: unique("root-"), isAdmin: true }
        const [creatorToken, adminToken] = [yield* source.tokenFor(creator), yield* source.tokenFor(admin)]
        assert.deepStrictEqual(yield* identity.verify(creatorToken), creator)
        assert.deepStrictEqual(yield* identity.verify(adminToken), admin)
        assert.deepStrictEqual(yield* identity.verify(creatorToken), creator, "verifying again (a remembered token) answers the same")
      }))

    it.effect("two users' tokens never verify to each other", () =>
      Effect.gen(function*() {
        const source = yield* TokenSource
        const users = Array.from({ length: 5 }, (): Principal => ({ userId: unique("u-"), isAdmin: false }))
        const tokens = yield* Effect.forEach(users, (user) => source.tokenFor(user))
        assert.strictEqual(new Set(tokens).size, users.length)
        const verified = yield* Effect.forEach(tokens, (token) => Identity.use((identity) => identity.verify(token)))
        assert.deepStrictEqual(verified, users)
      }))

    it.effect("anything else is refused with sign_in_required, and the refusal never quotes the token", () =>
      Effect.gen(function*() {
        const token = yield* TokenSource.use((source) => source.tokenFor({ userId: unique("u-"), isAdmin: false }))
        // A character well inside the token (a signature's last character may carry only padding bits).
        const at = token.length - 10
        const altered = token.slice(0, at) + (token[at] === "A" ? "B" : "A") + token.slice(at + 1)
        for (const bad of ["", "x", altered, token + "x", `${token}.${token}`, "a".repeat(20_000)]) {
          const reason = yield* refusal(bad)
          if (bad.length > 8) assert.notInclude(reason, bad)
        }
      }))
  })
