import { mkdtempSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, inject, test } from "vitest"
import { freshDatabase } from "../setup/mariadb.ts"
import { apiClient, artifact } from "../support/api.ts"
import { type RunningServer, startServer } from "../support/server.ts"

// The server holds at a named point inside finalize (PCKGATE_TEST_PAUSE_AT, read only by apps/server/records.ts) and
// is SIGKILLed there: a crash at a known instant, not after a guessed sleep.
const untilPaused = async (server: RunningServer, point: string) => {
  const marker = `paused at ${point}`
  while (!server.output().includes(marker)) {
    if (server.process.exitCode !== null) throw new Error(`server exited before ${point}:\n${server.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

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
    const paused = await startServer({ dataDir, env: { ...env, PCKGATE_TEST_PAUSE_AT: point } })
    const creator = paused.token("creator-kill")
    let api = apiClient(paused.baseUrl)
    const gameId: string = (await api.createGame(creator, { name: "Crash Test" })).body.gameId
    const pck = artifact(8192)
    const presigned = await api.uploadUrl(creator, gameId, pck.declaration)
    expect((await api.put(presigned.body.uploadUrl, presigned.body.headers, pck.bytes)).status).toBe(200)
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
