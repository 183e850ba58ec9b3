import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { makeTestApp, type TestApp, TEST_BASE_URL } from "../support/testApp.ts"

describe("POST /api/games/engine", () => {
  let t: TestApp
  let token: string
  beforeAll(async () => {
    t = await makeTestApp()
    token = await t.token("creator")
  })
  afterAll(() => t.dispose())

  test("creates an engine game owned by the caller, with a slug derived from the name and the upload-url endpoint", async () => {
    const created = await t.api.createGame(token, { name: "Crème Brûlée: Ünïcode Édition!" })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ slug: "creme-brulee-unicode-edition", name: "Crème Brûlée: Ünïcode Édition!", kind: "engine", status: "review", ownerId: "creator" })
    expect(created.body.uploadUrlEndpoint).toBe(`${TEST_BASE_URL}/api/games/${created.body.gameId}/releases/upload-url`)
    expect(created.body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
  })

  test("derived slugs avoid collisions with -2, -3 …, and fall back to 'game' when nothing is left", async () => {
    const slugs = []
    for (let i = 0; i < 3; i++) slugs.push((await t.api.createGame(token, { name: "Same Name" })).body.slug)
    expect(slugs).toEqual(["same-name", "same-name-2", "same-name-3"])
    expect((await t.api.createGame(token, { name: "😀😀" })).body.slug).toBe("game")
  })

  test("an explicit slug is used as given; a taken one is 409 slug_taken; a malformed one is 400", async () => {
    expect((await t.api.createGame(token, { name: "X", slug: "my-slug" })).body.slug).toBe("my-slug")
    const taken = await t.api.createGame(token, { name: "Y", slug: "my-slug" })
    expect([taken.status, taken.body.error]).toEqual([409, "slug_taken"])
    expect(taken.body.detail).toContain("my-slug")
    for (const slug of ["My-Slug", "a--b", "-a", "a-", "a b", "é", "a".repeat(65), ""]) {
      const bad = await t.api.createGame(token, { name: "Z", slug })
      expect([slug, bad.status, bad.body.error]).toEqual([slug, 400, "invalid_request"])
    }
  })

  test("names are 1-80 characters, counted as code points", async () => {
    expect((await t.api.createGame(token, { name: "😀".repeat(80) })).status).toBe(201)
    for (const name of ["", "   ", "x".repeat(81), "😀".repeat(81), 42, null]) {
      const bad = await t.api.createGame(token, { name })
      expect([bad.status, bad.body.error]).toEqual([400, "invalid_request"])
      expect(bad.body.detail).toContain("name")
    }
    expect((await t.api.createGame(token, {})).body.detail).toContain("name: Missing key")
  })

  test("needs sign-in", async () => {
    const anonymous = await t.api.call("POST", "/api/games/engine", { body: { name: "x" } })
    expect([anonymous.status, anonymous.body.error]).toEqual([401, "sign_in_required"])
  })
})

describe("POST /api/admin/games and the not_an_engine_game rule", () => {
  test("an administrator registers a web game for an owner, which cannot use the release API", async () => {
    const t = await makeTestApp()
    const admin = await t.token("root", { admin: true })
    const owner = await t.token("web-owner")
    expect((await t.api.call("POST", "/api/admin/games", { token: owner, body: { name: "W", kind: "web", ownerId: "web-owner" } })).status).toBe(404)
    const registered = await t.api.call("POST", "/api/admin/games", { token: admin, body: { name: "Web Thing", kind: "web", ownerId: "web-owner" } })
    expect(registered.status).toBe(201)
    expect(registered.body).toMatchObject({ kind: "web", ownerId: "web-owner", slug: "web-thing" })
    const refused = await t.api.uploadUrl(owner, registered.body.gameId, { version: "1.0.0", sha256: "a".repeat(64), sizeBytes: 2048 })
    expect([refused.status, refused.body.error]).toEqual([409, "not_an_engine_game"])
    expect((await t.api.call("POST", "/api/admin/games", { token: admin, body: { name: "No Kind", ownerId: "x" } })).status).toBe(400)
    await t.dispose()
  })
})
