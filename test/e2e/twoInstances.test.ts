// Two server processes sharing one data directory (SQLite file, objects, keys), as two instances share one database:
// each keeps download-url's game read for GAME_VIEW_CACHE_MS. An approval shows at once on the instance that made it,
// and on the other one within that bound — never a release that was not approved.
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { apiClient, artifact } from "../support/api.ts"
import { type RunningServer, startServer } from "../support/server.ts"

const CACHE_MS = 1500

describe("two instances, each with its game view cache", () => {
  let first: RunningServer
  let second: RunningServer
  beforeAll(async () => {
    first = await startServer({ env: { RATE_LIMIT_COUNT: "100", GAME_VIEW_CACHE_MS: String(CACHE_MS) } })
    second = await startServer({ dataDir: first.dataDir, env: { RATE_LIMIT_COUNT: "100", GAME_VIEW_CACHE_MS: String(CACHE_MS) } })
  })
  afterAll(async () => {
    expect(await second.stop()).toBe(0)
    expect(await first.stop()).toBe(0)
  })

  test("an approval on one instance shows there at once and on the other within GAME_VIEW_CACHE_MS", async () => {
    const a = apiClient(first.baseUrl)
    const b = apiClient(second.baseUrl)
    const creator = first.token("creator-two")
    const admin = first.token("admin-two", { admin: true })
    const stranger = first.token("stranger-two")
    const gameId: string = (await a.createGame(creator, { name: "Two Instances" })).body.gameId
    for (const version of ["1.0.0", "1.1.0"]) {
      const pck = artifact(4096 + version.length)
      const declaration = { ...pck.declaration, version }
      const presigned = await a.uploadUrl(creator, gameId, declaration)
      expect((await a.put(presigned.body.uploadUrl, presigned.body.headers, pck.bytes)).status).toBe(200)
      expect((await b.finalize(creator, gameId, declaration)).status).toBe(201)
    }
    expect((await a.approveScanned(admin, gameId, "1.0.0")).status).toBe(200)
    // Both instances now hold the view with 1.0.0 active (read after that approval).
    expect((await a.downloadUrl(stranger, gameId, "1.0.0")).status).toBe(200)
    expect((await b.downloadUrl(stranger, gameId, "1.0.0")).status).toBe(200)
    expect((await b.downloadUrl(stranger, gameId, "1.1.0")).status).toBe(404)

    const approvedAt = performance.now()
    expect((await a.approveScanned(admin, gameId, "1.1.0")).status).toBe(200)
    expect((await a.downloadUrl(stranger, gameId, "1.1.0")).status).toBe(200)
    expect((await a.downloadUrl(stranger, gameId, "1.0.0")).status).toBe(404)

    // The other instance: the previous active release until its entry expires, then the new one; an owner sees every
    // release on either instance at once (that path is never cached).
    expect((await b.downloadUrl(creator, gameId, "1.1.0")).status).toBe(200)
    // Until then it serves the previous approved release; the switch may fall between the two requests of a round.
    let shownAfterMs = Number.NaN
    while (Number.isNaN(shownAfterMs) && performance.now() - approvedAt < CACHE_MS + 5000) {
      if ((await b.downloadUrl(stranger, gameId, "1.1.0")).status === 200) shownAfterMs = performance.now() - approvedAt
      else await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect((await b.downloadUrl(stranger, gameId, "1.0.0")).status).toBe(404)
    expect(shownAfterMs).toBeLessThanOrEqual(CACHE_MS + 3000)
  })
})
