import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { makeTestApp, newGame, type TestApp } from "../support/testApp.ts"

// Routes that declare their input (adapters/http/routeInput.ts): the app authenticates, then decodes the body, then
// the path, then the query, before the handler runs, and answers each problem in the order the API conventions say
// (401 → 400/413 → 404; a query's 400 after the path's 404).

describe("declared route input", () => {
  let t: TestApp
  let creator: string
  let admin: string
  beforeAll(async () => {
    t = await makeTestApp()
    creator = await t.token("route-input-creator")
    admin = await t.token("route-input-admin", { admin: true })
  })
  afterAll(() => t.dispose())

  test("who is asking comes first: no credentials and a broken body is 401, not 400", async () => {
    const anonymous = await t.api.call("POST", "/api/games/engine", { body: { name: 5 } })
    expect([anonymous.status, anonymous.body.error]).toEqual([401, "sign_in_required"])
  })

  test("a body that does not decode is 400 invalid_request whose detail names every bad field; nothing is created", async () => {
    const before = (await t.api.call("GET", "/api/me/games", { token: creator })).body.games.length
    const bad = await t.api.call("POST", "/api/games/engine", { token: creator, body: { name: "", slug: "Not A Slug" } })
    expect(bad.status).toBe(400)
    expect(bad.body.error).toBe("invalid_request")
    expect(bad.body.detail).toMatch(/name: /)
    expect(bad.body.detail).toMatch(/slug: /)
    expect((await t.api.call("GET", "/api/me/games", { token: creator })).body.games.length).toBe(before)
  })

  test("a path id that cannot be one of ours is answered like an unknown game (404), malformed percent-encoding too", async () => {
    const gameId = await newGame(t, creator, "Route Input Game")
    expect((await t.api.call("GET", `/api/games/${gameId}`, { token: creator })).status).toBe(200)
    for (const path of ["/api/games/not!an!id", "/api/games/%ZZ", `/api/games/${"a".repeat(65)}`]) {
      const answer = await t.api.call("GET", path, { token: creator })
      expect([path, answer.status, answer.body.error]).toEqual([path, 404, "not_found"])
    }
    // A percent-encoded id that decodes to one of ours is that game.
    const encoded = await t.api.call("GET", `/api/games/${[...gameId].map((c) => `%${c.charCodeAt(0).toString(16)}`).join("")}`, { token: creator })
    expect([encoded.status, encoded.body.gameId]).toEqual([200, gameId])
  })

  test("a path value that is not an id of ours but must be valid text is 400 naming the field", async () => {
    const bidi = await t.api.call("DELETE", `/api/admin/users/${encodeURIComponent("evil\u202Euser")}/sessions`, { token: admin })
    expect([bidi.status, bidi.body.error]).toEqual([400, "invalid_request"])
    expect(bidi.body.detail).toMatch(/userId: /)
    expect((await t.api.call("DELETE", "/api/admin/users/someone/sessions", { token: admin })).status).toBe(204)
    expect((await t.api.call("DELETE", "/api/admin/users/someone/sessions", { token: creator })).status).toBe(404)
  })

  test("the body comes before the path: a bad body on a path that cannot exist is 400 naming the field, a good one 404", async () => {
    const bad = await t.api.call("POST", "/api/admin/games/not!an!id/releases/1.0.0/reject", { token: admin, body: { reason: 7 } })
    expect([bad.status, bad.body.error]).toEqual([400, "invalid_request"])
    expect(bad.body.detail).toMatch(/reason: /)
    // Approve and reject are about a game: for an administrator, a game id that cannot be ours is an unknown game.
    const good = await t.api.call("POST", "/api/admin/games/not!an!id/releases/1.0.0/reject", { token: admin, body: { reason: "no" } })
    expect([good.status, good.body.error]).toEqual([404, "game_not_found_or_forbidden"])
    // An optional body may be absent: then the path decides.
    const approve = await t.api.call("POST", "/api/admin/games/not!an!id/releases/1.0.0/approve", { token: admin })
    expect([approve.status, approve.body.error]).toEqual([404, "game_not_found_or_forbidden"])
  })

  test("a path refusal may name what it refused: a game id that cannot be ours is the caller's unknown game", async () => {
    const declaration = { version: "1.0.0", sha256: "a".repeat(64), sizeBytes: 2048 }
    const refused = await t.api.call("POST", "/api/games/not!an!id/releases/upload-url", { token: creator, body: declaration })
    expect([refused.status, refused.body.error]).toEqual([404, "game_not_found_or_forbidden"])
    expect(refused.body.detail).toContain("'not!an!id'")
    // One that cannot even be read is not named as an empty id.
    const garbled = await t.api.call("POST", "/api/games/%ZZ/releases/upload-url", { token: creator, body: declaration })
    expect([garbled.status, garbled.body.error, garbled.body.detail]).toEqual([
      404,
      "game_not_found_or_forbidden",
      "No such game owned by you; check the gameId returned when you created the game.",
    ])
    // A declared size above the limit is the body's 413, before the path.
    const tooLarge = await t.api.call("POST", "/api/games/not!an!id/releases/upload-url", { token: creator, body: { ...declaration, sizeBytes: 2 ** 31 } })
    expect([tooLarge.status, tooLarge.body.error]).toEqual([413, "artifact_too_large"])
  })

  test("a declared query is decoded after the path: each bad parameter named in one 400, a path that cannot exist first", async () => {
    const gameId = await newGame(t, creator, "Route Query Game")
    const files = (game: string, query: string) => t.api.call("GET", `/api/admin/games/${game}/releases/1.0.0/files${query}`, { token: admin })
    const bad = await files(gameId, "?limit=0&cursor=%25&limit=5")
    expect([bad.status, bad.body.error]).toEqual([400, "invalid_request"])
    // The first value of a repeated parameter counts.
    expect(bad.body.detail).toContain('limit: an integer from 1 to 1000 (got "0")')
    expect(bad.body.detail).toContain("cursor: not a cursor of this listing")
    const impossible = await files("not!an!id", "?limit=0")
    expect([impossible.status, impossible.body.error]).toEqual([404, "game_not_found_or_forbidden"])
    // A good query reaches the use case: this game has no release 1.0.0.
    const unknown = await files(gameId, "?limit=5")
    expect([unknown.status, unknown.body.error]).toEqual([404, "not_found"])
  })

  test("an administrator route answers everyone else 404 before it looks at the body or the path; anonymous callers 401", async () => {
    const path = "/api/admin/games/not!an!id/releases/1.0.0/reject"
    const creatorCall = await t.api.call("POST", path, { token: creator, body: "{broken" })
    expect([creatorCall.status, creatorCall.body.error]).toEqual([404, "not_found"])
    const anonymous = await t.api.call("POST", path, { body: "{broken" })
    expect([anonymous.status, anonymous.body.error]).toEqual([401, "sign_in_required"])
  })
})
