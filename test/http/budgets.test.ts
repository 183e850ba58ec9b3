import { describe, expect, test } from "vitest"
import { artifact } from "../support/api.ts"
import { makeTestApp, newGame } from "../support/testApp.ts"

const ONE_PER_HOUR = { count: 1, windowSeconds: 3600 }

describe("per-account budgets (spec §8)", () => {
  test("create-game: one per hour; the next is 429 with Retry-After and retryAfterSeconds; the window slides", async () => {
    const t = await makeTestApp({ budget: ONE_PER_HOUR })
    const alice = await t.token("alice")
    expect((await t.api.createGame(alice, { name: "First" })).status).toBe(201)
    t.clock.advance(600)
    const limited = await t.api.createGame(alice, { name: "Second" })
    expect([limited.status, limited.body.error, limited.body.retryAfterSeconds]).toEqual([429, "rate_limited", 3000])
    expect(limited.headers.get("retry-after")).toBe("3000")
    expect(limited.body.detail).toContain("3000 seconds")
    expect((await t.api.createGame(await t.token("bob"), { name: "Bob's" })).status, "budgets are per account").toBe(201)
    t.clock.advance(3000)
    expect((await t.api.createGame(alice, { name: "Third" })).status).toBe(201)
    await t.dispose()
  })

  test("failed validation and failed ownership do not spend; a failing call refunds; each endpoint has its own budget", async () => {
    const t = await makeTestApp({ budget: ONE_PER_HOUR })
    const alice = await t.token("alice")
    expect((await t.api.createGame(alice, { name: "" })).status).toBe(400)
    expect((await t.api.createGame(alice, { name: "x", slug: "Bad Slug" })).status).toBe(400)
    const gameId = await newGame(t, alice)
    const pck = artifact(2048)
    expect((await t.api.uploadUrl(alice, gameId, { ...pck.declaration, version: ".." })).status).toBe(400)
    expect((await t.api.uploadUrl(alice, "gm_other", pck.declaration)).status).toBe(404)
    // finalize without an intent fails after the budget check: the reservation is refunded.
    expect((await t.api.finalize(alice, gameId, pck.declaration)).body.error).toBe("no_upload_intent")
    const presigned = await t.api.uploadUrl(alice, gameId, pck.declaration)
    expect(presigned.status, "upload-url budget unaffected by create-game and by the failures").toBe(200)
    expect((await t.api.finalize(alice, gameId, pck.declaration)).body.error, "refunded, then artifact_missing refunds too").toBe("artifact_missing")
    await t.api.put(presigned.body.uploadUrl, presigned.body.headers, pck.bytes)
    expect((await t.api.finalize(alice, gameId, pck.declaration)).status).toBe(201)
    const second = artifact(2048, "2.0.0")
    expect((await t.api.uploadUrl(alice, gameId, second.declaration)).status).toBe(429)
    await t.dispose()
  })

  test("concurrent calls cannot overspend: 10 simultaneous creates on a budget of 1 give exactly one 201", async () => {
    const t = await makeTestApp({ budget: ONE_PER_HOUR })
    const alice = await t.token("alice")
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => t.api.createGame(alice, { name: `Game ${i}` })))
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1)
    expect(replies.filter((r) => r.status === 429)).toHaveLength(9)
    expect((await t.api.call("GET", "/api/me/games", { token: alice })).body.games).toHaveLength(1)
    await t.dispose()
  })
})
