import { mkdtempSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, inject, test } from "vitest"
import { freshDatabase } from "../setup/mariadb.ts"
import { apiClient } from "../support/api.ts"
import { startPausedServer, untilPaused } from "../support/pausedServer.ts"
import { PAUSE_VARIABLE } from "../support/pausingDatabase.ts"
import { startServer } from "../support/server.ts"
import { uploadedArtifact } from "../support/uploadedArtifact.ts"

// The fault server (test/support/faultServer.ts: the real server plus a test-only layer over its database) holds at a
// named point inside finalize and is SIGKILLed there: a crash at a known instant, not after a guessed sleep.
const stores: ReadonlyArray<readonly [string, () => Promise<Record<string, string>>]> = [
  ["SQLite", async () => ({})],
  ["MariaDB", async () => ({ DATABASE_URL: await freshDatabase(inject("mariadbUrl"), "kill") })],
]

describe.each(stores)("SIGKILL in the middle of a finalize (%s)", (_name, storeEnv) => {
  test.each([
    ["finalize:before-commit", 201, "nothing was committed: the retry succeeds"],
    ["finalize:after-commit", 409, "the release was committed: the retry answers version_exists"],
  ] as const)("at %s → %i (%s)", async (point, retryStatus, _outcome) => {
    const env = { ...(await storeEnv()), RATE_LIMIT_COUNT: "100" }
    const dataDir = mkdtempSync(join(inject("runDir"), "kill-"))
    const paused = await startPausedServer(point, { dataDir, env })
    const creator = paused.token("creator-kill")
    let api = apiClient(paused.baseUrl)
    const { gameId, pck } = await uploadedArtifact(api, creator, "Crash Test", 8192)
    const lost = api.finalize(creator, gameId, pck.declaration).catch((error: unknown) => error)
    await untilPaused(paused, point)
    await paused.kill()
    expect(await lost).toBeInstanceOf(Error) // the connection died with the process: no answer

    const restarted = await startServer({ dataDir, env })
    try {
      api = apiClient(restarted.baseUrl)
      const retry = await api.finalize(creator, gameId, pck.declaration)
      expect([retry.status, retry.body.error ?? retry.body.status]).toEqual(retryStatus === 201 ? [201, "pending_review"] : [409, "version_exists"])
      const game = await api.call("GET", `/api/games/${gameId}`, { token: creator })
      expect(game.body.releases.map((r: { version: string; sha256: string; status: string }) => [r.version, r.sha256, r.status])).toEqual([
        ["1.0.0", pck.declaration.sha256, "pending_review"],
      ])
    } finally {
      await restarted.stop()
    }
  })
})

test("the production server has no pause hook: it ignores the fault server's variable and finalizes", async () => {
  const server = await startServer({ env: { [PAUSE_VARIABLE]: "finalize:before-commit", RATE_LIMIT_COUNT: "100" } })
  try {
    const api = apiClient(server.baseUrl, (request) => fetch(request, { signal: AbortSignal.timeout(30_000) }))
    const creator = server.token("creator-no-hook")
    const { gameId, pck } = await uploadedArtifact(api, creator, "No Hook")
    const finalized = await api.finalize(creator, gameId, pck.declaration)
    expect([finalized.status, finalized.body.status]).toEqual([201, "pending_review"])
    expect(server.output()).not.toContain(PAUSE_VARIABLE)
  } finally {
    await server.stop()
  }
})
