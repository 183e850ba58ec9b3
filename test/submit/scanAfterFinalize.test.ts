import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { describe, expect, test } from "vitest"
import { apiClient } from "../support/api.ts"
import { type RunningServer, startServer } from "../support/server.ts"
import { sha256Hex } from "../support/streams.ts"
import { pack } from "./fixtures.ts"

/** Releases a real pack through the release API (create, upload-url, PUT, finalize). */
const releasePack = async (server: RunningServer, token: string, name: string, bytes: Uint8Array) => {
  const api = apiClient(server.baseUrl)
  const gameId = (await api.createGame(token, { name })).body.gameId as string
  const declaration = { version: "1.0.0", sha256: sha256Hex(bytes), sizeBytes: bytes.length }
  const presigned = await api.uploadUrl(token, gameId, declaration)
  expect((await api.put(presigned.body.uploadUrl, presigned.body.headers, bytes)).status).toBe(200)
  const finalized = await api.finalize(token, gameId, declaration)
  expect(finalized.status, "findings never delay or fail finalize").toBe(201)
  return gameId
}

/** Polls the scan endpoint until the background scan has run (never a fixed sleep). */
const scanOf = async (server: RunningServer, token: string, gameId: string, timeoutMs = 20_000) => {
  const api = apiClient(server.baseUrl)
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const reply = await api.call("GET", `/api/games/${gameId}/releases/1.0.0/scan`, { token })
    if (reply.body.status === "scanned") return reply.body
    if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(reply.body)}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

describe("releases finalized through the release API are scanned afterwards", () => {
  test("the report is attached for the creator and reviewers; findings do not block the release", async () => {
    const server = await startServer({ env: { RATE_LIMIT_COUNT: "100", SCAN_INTERVAL_SECONDS: "1" } })
    const creator = server.token("release-creator")
    const cleanGame = await releasePack(server, creator, "Scanned Clean", pack("clean").bytes)
    const violatingGame = await releasePack(server, creator, "Scanned Violating", pack("violations").bytes)
    expect(await scanOf(server, creator, cleanGame)).toMatchObject({ report: { ok: true, findings: [] } })
    const violating = await scanOf(server, creator, violatingGame)
    expect(violating.report.ok).toBe(false)
    expect(violating.report.findings).toContainEqual(expect.objectContaining({ rule: "banned-api", severity: "error" }))
    const api = apiClient(server.baseUrl)
    expect((await api.call("GET", `/api/games/${violatingGame}/releases/1.0.0`, { token: creator })).body.status).toBe("pending_review")
    expect((await api.call("GET", `/api/games/${violatingGame}/releases/1.0.0/scan`, { token: server.token("stranger") })).status).toBe(404)
    const admin = server.token("reviewer", { admin: true })
    expect((await api.call("GET", `/api/games/${violatingGame}/releases/1.0.0/scan`, { token: admin })).body.status).toBe("scanned")
    await server.stop()
  })

  test("finalize starts the scan at once, not on the worker's timer", async () => {
    // An hour between passes: only the wake signal of finalize can explain a scan within the test's time.
    const server = await startServer({ env: { RATE_LIMIT_COUNT: "100", SCAN_INTERVAL_SECONDS: "3600" } })
    const creator = server.token("woken-creator")
    const gameId = await releasePack(server, creator, "Scanned At Once", pack("clean").bytes)
    expect(await scanOf(server, creator, gameId)).toMatchObject({ report: { ok: true } })
    await server.stop()
  })

  test("a scan interrupted by a crash runs after the restart", async () => {
    const env = { RATE_LIMIT_COUNT: "100", SCAN_INTERVAL_SECONDS: "3600" }
    const first = await startServer({ env })
    const creator = first.token("crash-creator")
    const gameId = await releasePack(first, creator, "Survives A Crash", pack("clean").bytes)
    await scanOf(first, creator, gameId)
    await first.kill()
    // As if the process had died before the scan was recorded: the release is back in the queue.
    const database = new DatabaseSync(join(first.dataDir, "pckgate.sqlite"))
    database.prepare("DELETE FROM scans WHERE game_id = ?").run(gameId)
    database.close()
    const second = await startServer({ env, dataDir: first.dataDir })
    expect(await scanOf(second, creator, gameId)).toMatchObject({ report: { ok: true } })
    await second.stop()
  })
})
