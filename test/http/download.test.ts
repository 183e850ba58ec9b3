import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { artifact } from "../support/api.ts"
import { sha256Hex } from "../support/streams.ts"
import { makeTestApp, newGame, release, type TestApp } from "../support/testApp.ts"

describe("GET /api/games/{gameId}/releases/{version}/download-url", () => {
  let t: TestApp
  let owner: string, admin: string, stranger: string
  let gameId: string
  const v1 = artifact(3000, "1.0.0")
  const v2 = artifact(3000, "2.0.0")
  beforeAll(async () => {
    t = await makeTestApp()
    owner = await t.token("owner")
    admin = await t.token("admin", { admin: true })
    stranger = await t.token("stranger")
    gameId = await newGame(t, owner)
    expect((await release(t, owner, gameId, v1)).status).toBe(201)
  })
  afterAll(() => t.dispose())

  const bytesAt = async (url: string) => new Uint8Array(await (await t.app.fetch(new Request(url))).arrayBuffer())

  test("the owner and administrators may download a pending release; the sha256 is read back from the key", async () => {
    for (const token of [owner, admin]) {
      const reply = await t.api.downloadUrl(token, gameId, "1.0.0")
      expect(reply.status).toBe(200)
      expect(reply.body.sha256).toBe(v1.declaration.sha256)
      // Signed at the whole second: expiresAt is exactly when the URL stops working (its expiry is in seconds).
      const signedAt = Math.floor(t.clock.current().getTime() / 1000) * 1000
      expect(new Date(reply.body.expiresAt).getTime()).toBe(signedAt + 300_000)
      expect(new URL(reply.body.url).searchParams.get("X-Pckgate-Expires")).toBe(String((signedAt + 300_000) / 1000))
      expect(sha256Hex(await bytesAt(reply.body.url))).toBe(v1.declaration.sha256)
    }
  })

  test("everyone else gets 404 not_found until approval, anonymous callers 401", async () => {
    const reply = await t.api.downloadUrl(stranger, gameId, "1.0.0")
    expect([reply.status, reply.body.error]).toEqual([404, "not_found"])
    expect((await t.api.downloadUrl(undefined, gameId, "1.0.0")).status).toBe(401)
  })

  test("unknown games, versions and malformed ids answer exactly like forbidden ones", async () => {
    const forbidden = await t.api.downloadUrl(stranger, gameId, "1.0.0")
    for (const [id, version] of [["gm_nope", "1.0.0"], [gameId, "9.9.9"], [gameId, "..%2F..%2Fx"], ["%ZZ", "1.0.0"]]) {
      const reply = await t.api.downloadUrl(owner, id!, version!)
      expect([reply.status, reply.body]).toEqual([404, forbidden.body])
    }
  })

  test("after approval others may download only the active release of the published game", async () => {
    expect((await t.api.approveScanned(admin, gameId, "1.0.0")).status).toBe(200)
    const reply = await t.api.downloadUrl(stranger, gameId, "1.0.0")
    expect(reply.status).toBe(200)
    expect(sha256Hex(await bytesAt(reply.body.url))).toBe(v1.declaration.sha256)
    expect((await release(t, owner, gameId, v2)).status).toBe(201)
    expect((await t.api.downloadUrl(stranger, gameId, "2.0.0")).status).toBe(404)
    expect((await t.api.approveScanned(admin, gameId, "2.0.0")).status).toBe(200)
    expect((await t.api.downloadUrl(stranger, gameId, "2.0.0")).status).toBe(200)
    expect((await t.api.downloadUrl(stranger, gameId, "1.0.0")).status, "no longer the active release").toBe(404)
    expect((await t.api.downloadUrl(owner, gameId, "1.0.0")).status).toBe(200)
  })

  test("download URLs expire after about five minutes", async () => {
    const reply = await t.api.downloadUrl(owner, gameId, "2.0.0")
    t.clock.advance(301)
    const expired = await t.app.fetch(new Request(reply.body.url))
    expect(expired.status).toBe(403)
    const tampered = await t.app.fetch(new Request(reply.body.url.replace("2.0.0", "1.0.0")))
    expect(tampered.status).toBe(403)
  })
})
