import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { makeTestApp, newGame, type TestApp } from "../support/testApp.ts"

// Routes that declare their input (adapters/http/routeInput.ts): the app authenticates, then decodes the path, then
// the body, before the handler runs, and answers each problem the way the API conventions say.

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
})
