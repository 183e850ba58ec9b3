// Trusted publishers and API keys driven over HTTP by concurrent requests, shared by the app's tests (memory stores,
// test/http) and those on the SQL stores and the real server (test/e2e/credentialRaces.test.ts).
import { Context, Effect, Layer } from "effect"
import { expect } from "vitest"
import { TrustedPublisherStore } from "../../ports/TrustedPublisherStore.ts"
import type { apiClient } from "./api.ts"
import { type CiIssuerDouble, githubClaims } from "./ciIssuer.ts"

export type Api = ReturnType<typeof apiClient>

/** What a refusal for a pinned id tells the owner to do. */
export const RE_REGISTER = "the game's owner must remove the trusted publisher and register it again"

export const registerPublisher = async (api: Api, token: string, gameId: string, body: object) => {
  const added = await api.call("POST", `/api/games/${gameId}/trusted-publishers`, { token, body })
  if (added.status !== 201) throw new Error(`registration failed: ${JSON.stringify(added.body)}`)
  return added.body as { id: string }
}

export const exchangeIdToken = (api: Api, idToken: string, gameId?: string) =>
  api.call("POST", "/api/auth/trusted-publishing/token", { body: gameId === undefined ? { token: idToken } : { token: idToken, gameId } })

export const publishersOf = async (api: Api, token: string, gameId: string) =>
  (await api.call("GET", `/api/games/${gameId}/trusted-publishers`, { token })).body.publishers as Array<Record<string, unknown>>

/** A GitHub publisher of `repository` (workflow release.yml, no environment or ref) and the claims of its workflow. */
export const githubRepo = (repository: string) => ({
  publisher: { provider: "github", repository, workflow: ".github/workflows/release.yml" },
  claims: (over: Record<string, unknown> = {}) =>
    githubClaims({ repository, job_workflow_ref: `${repository}/.github/workflows/release.yml@refs/heads/main`, workflow_ref: undefined, ...over }),
})

/** Holds pins until both racers of a round have one waiting (5 s at most): each matched the publisher still unpinned. */
export const makePinBarrier = () => {
  let held: Array<() => void> = []
  let met = false
  return {
    arm: () => void ((held = []), (met = false)),
    met: () => met,
    pass: Effect.promise(() =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 5000)
        held.push(() => {
          clearTimeout(timer)
          resolve()
        })
        if (held.length === 2) {
          met = true
          for (const go of held) go()
        }
      })
    ),
  }
}
export type PinBarrier = ReturnType<typeof makePinBarrier>

/** The records with every TrustedPublisherStore.pinIds passing the barrier first. */
export const withPinBarrier = (records: Layer.Layer<TrustedPublisherStore, unknown>, barrier: PinBarrier) =>
  Layer.effectContext(Effect.gen(function*() {
    const context = yield* Layer.build(records)
    const inner = Context.get(context, TrustedPublisherStore)
    return Context.add(context, TrustedPublisherStore, TrustedPublisherStore.of({ ...inner, pinIds: (id, ids) => Effect.andThen(barrier.pass, inner.pinIds(id, ids)) }))
  })).pipe(Layer.orDie)

/**
 * Rounds of two concurrent first exchanges for a new publisher, with different repository ids: one answer is 200, the
 * other 401 naming repository_id, and the publisher is pinned to the winner's ids. With a barrier, both are held at
 * the pin until each has matched the unpinned publisher: the race happens every round, not by luck.
 */
export const raceFirstExchanges = async (
  issuer: CiIssuerDouble,
  api: Api,
  game: { readonly owner: string; readonly gameId: string },
  org: string,
  rounds: number,
  barrier?: PinBarrier,
) => {
  for (let round = 0; round < rounds; round++) {
    const repo = githubRepo(`${org}/game-${round}`)
    await registerPublisher(api, game.owner, game.gameId, repo.publisher)
    const ids = [{ repository_id: `${round + 1}1`, repository_owner_id: "77" }, { repository_id: `${round + 1}2`, repository_owner_id: "77" }]
    const tokens = await Promise.all(ids.map((id) => issuer.github(repo.claims(id))))
    barrier?.arm()
    const answers = await Promise.all(tokens.map((token) => exchangeIdToken(api, token)))
    if (barrier !== undefined) expect(barrier.met(), "both exchanges reached the pin").toBe(true)
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401])
    const winner = answers.findIndex((a) => a.status === 200)
    expect(answers[1 - winner]!.body.detail).toContain("'repository_id'")
    expect(answers[1 - winner]!.body.detail).toContain(RE_REGISTER)
    const pinned = (await publishersOf(api, game.owner, game.gameId)).find((p) => p["repository"] === repo.publisher.repository)
    expect(pinned).toMatchObject({ repositoryId: ids[winner]!.repository_id, repositoryOwnerId: "77" })
  }
}

/** 25 concurrent registrations on a game without publishers: exactly MAX_PUBLISHERS_PER_GAME (20) are added. */
export const registerConcurrently = async (api: Api, owner: string, gameId: string) => {
  const answers = await Promise.all(Array.from({ length: 25 }, (_, i) =>
    api.call("POST", `/api/games/${gameId}/trusted-publishers`, { token: owner, body: githubRepo(`busy-org/game-${i}`).publisher })))
  expect(answers.filter((a) => a.status === 201)).toHaveLength(20)
  const refused = answers.filter((a) => a.status !== 201)
  expect(refused.map((a) => [a.status, a.body.error])).toEqual(Array.from({ length: 5 }, () => [409, "trusted_publisher_limit_reached"]))
  expect(refused[0]!.body.detail).toContain("already has 20 trusted publishers; remove one")
  expect(await publishersOf(api, owner, gameId)).toHaveLength(20)
}

/**
 * 55 creations at once by an account that holds one revoked key and one live key: exactly 49 more are created (50
 * live keys), the others answer 409 api_key_limit_reached naming the limit, and the list shows 50.
 */
export const createKeysConcurrently = async (api: Api, token: string) => {
  const revoked = (await api.call("POST", "/api/me/api-keys", { token, body: { name: "old", games: "all", scopes: ["read"] } })).body.id
  expect((await api.call("DELETE", `/api/me/api-keys/${revoked}`, { token })).status).toBe(204)
  expect((await api.call("POST", "/api/me/api-keys", { token, body: { name: "kept", games: "all", scopes: ["read"] } })).status).toBe(201)
  const answers = await Promise.all(Array.from({ length: 55 }, (_, i) =>
    api.call("POST", "/api/me/api-keys", { token, body: { name: `racer ${i}`, games: "all", scopes: ["read"] } })))
  expect(answers.filter((a) => a.status === 201)).toHaveLength(49)
  const refused = answers.filter((a) => a.status !== 201)
  expect(refused.map((a) => [a.status, a.body.error])).toEqual(Array.from({ length: 6 }, () => [409, "api_key_limit_reached"]))
  expect(refused[0]!.body.detail).toContain("already has 50 live API keys; revoke one")
  expect((await api.call("GET", "/api/me/api-keys", { token })).body.keys).toHaveLength(50)
}
