import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { artifact } from "../support/api.ts"
import { makeTestApp, newGame, type TestApp, TEST_BASE_URL } from "../support/testApp.ts"

const VALID = { version: "1.0.0", sha256: "a".repeat(64), sizeBytes: 2048 }

describe("POST /api/games/{gameId}/releases/upload-url", () => {
  let t: TestApp
  let owner: string
  let gameId: string
  beforeAll(async () => {
    t = await makeTestApp()
    owner = await t.token("owner")
    gameId = await newGame(t, owner)
  })
  afterAll(() => t.dispose())

  test("returns a presigned URL with exactly the two headers, valid for one hour", async () => {
    const now = t.clock.current()
    const presigned = await t.api.uploadUrl(owner, gameId, VALID)
    expect(presigned.status).toBe(200)
    expect(presigned.body.headers).toEqual({ "content-type": "application/octet-stream", "if-none-match": "*" })
    expect(new Date(presigned.body.expiresAt).getTime()).toBe(now.getTime() + 3600_000)
    expect(presigned.body.uploadUrl.startsWith(`${TEST_BASE_URL}/storage/releases/${gameId}/1.0.0/${"a".repeat(64)}.pck?`)).toBe(true)
  })

  test("contentType may be sent, but only as application/octet-stream", async () => {
    expect((await t.api.uploadUrl(owner, gameId, { ...VALID, version: "1.0.1", contentType: "application/octet-stream" })).status).toBe(200)
    const wrong = await t.api.uploadUrl(owner, gameId, { ...VALID, version: "1.0.1", contentType: "application/zip" })
    expect([wrong.status, wrong.body.error]).toEqual([400, "invalid_request"])
    expect(wrong.body.detail).toContain("contentType")
  })

  test("a declared size above 512 MiB is 413 artifact_too_large; below 1024 or not an integer is 400", async () => {
    const big = await t.api.uploadUrl(owner, gameId, { ...VALID, sizeBytes: 536870913 })
    expect([big.status, big.body.error]).toEqual([413, "artifact_too_large"])
    expect((await t.api.uploadUrl(owner, gameId, { ...VALID, sizeBytes: 536870912 })).status).toBe(200)
    expect((await t.api.uploadUrl(owner, gameId, { ...VALID, version: "1.0.2", sizeBytes: 1024 })).status).toBe(200)
    for (const sizeBytes of [1023, 0, -5, 2048.5, "2048", null, 1e300]) {
      const bad = await t.api.uploadUrl(owner, gameId, { ...VALID, sizeBytes })
      expect([sizeBytes, bad.status]).toEqual([sizeBytes, sizeBytes === 1e300 ? 413 : 400])
    }
  })

  test("versions follow the rule: 1-32 of [A-Za-z0-9._-], first alphanumeric, no '..'", async () => {
    for (const version of ["1", "v1.0.0-RC_2", "a".repeat(32)]) {
      expect((await t.api.uploadUrl(owner, gameId, { ...VALID, version })).status).toBe(200)
    }
    for (const version of ["", ".1", "-1", "1..2", "../x", "a".repeat(33), "1.0/2", "1 0", "é1", "1.0%2e", 1]) {
      const bad = await t.api.uploadUrl(owner, gameId, { ...VALID, version })
      expect([version, bad.status, bad.body.error]).toEqual([version, 400, "invalid_request"])
    }
  })

  test("sha256 is 64 lowercase hex characters without a prefix", async () => {
    for (const sha256 of [`sha256:${"a".repeat(64)}`, "A".repeat(64), "a".repeat(63), "g".repeat(64)]) {
      const bad = await t.api.uploadUrl(owner, gameId, { ...VALID, sha256 })
      expect([bad.status, bad.body.error]).toEqual([400, "invalid_request"])
      expect(bad.body.detail).toContain("sha256")
    }
  })

  test("every problem is named at once", async () => {
    const bad = await t.api.uploadUrl(owner, gameId, { version: "..", sha256: "x" })
    expect(bad.body.detail).toMatch(/version.*sha256.*sizeBytes/s)
  })

  test("someone else's game, an unknown game and a malformed id are all 404 game_not_found_or_forbidden", async () => {
    const stranger = await t.token("stranger")
    for (const [token, id] of [[stranger, gameId], [owner, "gm_unknown"], [owner, "..%2F..%2Fetc"], [owner, "%ZZ"]] as const) {
      const reply = await t.api.uploadUrl(token, id, VALID)
      expect([id, reply.status, reply.body.error]).toEqual([id, 404, "game_not_found_or_forbidden"])
    }
  })

  test("precedence: 401 before 400, 400 before 404", async () => {
    expect((await t.api.call("POST", `/api/games/gm_unknown/releases/upload-url`, { body: { version: ".." } })).status).toBe(401)
    expect((await t.api.uploadUrl(owner, "gm_unknown", { version: ".." })).status).toBe(400)
  })

  test("a released version is 409 version_exists", async () => {
    const pck = artifact(2048, "7.0.0")
    const presigned = await t.api.uploadUrl(owner, gameId, pck.declaration)
    await t.api.put(presigned.body.uploadUrl, presigned.body.headers, pck.bytes)
    expect((await t.api.finalize(owner, gameId, pck.declaration)).status).toBe(201)
    const again = await t.api.uploadUrl(owner, gameId, { ...pck.declaration, sha256: "b".repeat(64) })
    expect([again.status, again.body.error]).toEqual([409, "version_exists"])
  })
})
