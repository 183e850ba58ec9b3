import { mkdtempSync } from "node:fs"
import { join } from "node:path"
import { createConnection } from "mysql2"
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import { startMariaDb, type MariaDb } from "../setup/mariadb.ts"
import { apiClient, artifact } from "../support/api.ts"
import { type RunningServer, startServer } from "../support/server.ts"
import { uploadedArtifact } from "../support/uploadedArtifact.ts"

// Its own MariaDB: this file stops and restarts it, which the run's shared server must never see.
describe("the database goes down while the server runs, and comes back", () => {
  let mariadb: MariaDb
  let server: RunningServer
  beforeAll(async () => {
    mariadb = await startMariaDb()
    server = await startServer({ dataDir: mkdtempSync(join(inject("runDir"), "db-down-")), env: { DATABASE_URL: mariadb.url, RATE_LIMIT_COUNT: "100" } })
  })
  afterAll(async () => {
    await server?.stop()
    await mariadb?.destroy()
  })

  test("each endpoint answers its documented failure code without hanging, and recovers without a restart", async () => {
    // A request that hangs fails the test here instead of running into the test timeout.
    const api = apiClient(server.baseUrl, (request) => fetch(request, { signal: AbortSignal.timeout(30_000) }))
    const creator = server.token("creator-db-down")
    const { gameId, pck } = await uploadedArtifact(api, creator, "Before The Outage")

    await mariadb.stop()
    const down = {
      create: await api.createGame(creator, { name: "During The Outage" }),
      uploadUrl: await api.uploadUrl(creator, gameId, artifact(4096, "2.0.0").declaration),
      finalize: await api.finalize(creator, gameId, pck.declaration),
      catalog: await api.call("GET", "/api/catalog"),
      mine: await api.call("GET", "/api/me/games", { token: creator }),
    }
    expect(Object.fromEntries(Object.entries(down).map(([name, reply]) => [name, [reply.status, reply.body.error]]))).toEqual({
      create: [502, "create_failed"],
      uploadUrl: [502, "upload_url_failed"],
      finalize: [502, "finalize_failed"],
      catalog: [503, "service_unavailable"],
      mine: [503, "service_unavailable"],
    })
    for (const reply of Object.values(down)) expect(reply.body.detail).toMatch(/database is unavailable/)
    expect((await api.call("GET", "/healthz")).status).toBe(200)
    expect(server.process.exitCode).toBeNull()

    await mariadb.restart()
    const finalized = await api.finalize(creator, gameId, pck.declaration)
    expect([finalized.status, finalized.body.status]).toEqual([201, "pending_review"])
    expect((await api.createGame(creator, { name: "After The Outage" })).status).toBe(201)
    const mine = await api.call("GET", "/api/me/games", { token: creator })
    expect(mine.body.games.map((g: { name: string; releases: Array<unknown> }) => [g.name, g.releases.length])).toEqual([
      ["Before The Outage", 1],
      ["After The Outage", 0],
    ])
    // The outage was logged (reason included) but the password never was.
    await server.outputContaining("dependency unavailable")
    expect(server.output()).not.toContain(decodeURIComponent(new URL(mariadb.url).password))
  })

  test("a database that stops answering (frozen, connections open) costs a bounded wait, and the abandoned write never commits", async () => {
    const api = apiClient(server.baseUrl, (request) => fetch(request, { signal: AbortSignal.timeout(30_000) }))
    const creator = server.token("creator-db-frozen")
    expect((await api.createGame(creator, { name: "Warm Up" })).status).toBe(201)
    process.kill(mariadb.pid()!, "SIGSTOP")
    let frozen
    try {
      frozen = await api.createGame(creator, { name: "While Frozen" })
    } finally {
      process.kill(mariadb.pid()!, "SIGCONT")
    }
    expect([frozen.status, frozen.body.error]).toEqual([502, "create_failed"])
    const created = await api.createGame(creator, { name: "After The Thaw" })
    expect(created.status).toBe(201)
    const names = (await api.call("GET", "/api/me/games", { token: creator })).body.games.map((g: { name: string }) => g.name)
    expect(names).toEqual(["Warm Up", "After The Thaw"])
    // The frozen call's budget reservation resumed after the thaw and rolled back: only the two successes spent.
    // (The thaw's own reservation waited on that account's lock row, so the abandoned transaction has ended.)
    const connection = createConnection({ uri: mariadb.url }).promise()
    const [rows] = await connection.query("SELECT COUNT(*) AS spent FROM budget_spends WHERE account_id = ? AND endpoint = 'create_game'", ["creator-db-frozen"])
    await connection.end()
    expect((rows as Array<{ spent: number }>)[0]!.spent).toBe(2)
  })
})
