// The CLI follows the real server's nextCursor (api-conventions.md): with more games than one page holds, `release
// --name` finds the game on the second page instead of creating a duplicate, and `status` lists every game.
import { randomBytes } from "node:crypto"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { apiClient } from "../support/api.ts"
import { runCli } from "../support/cli.ts"
import { type RunningServer, startServer } from "../support/server.ts"

describe("the CLI pages through the real server's lists", () => {
  let server: RunningServer
  let env: Record<string, string>
  beforeAll(async () => {
    server = await startServer({ env: { RATE_LIMIT_COUNT: "1000" } })
    env = { PCKGATE_URL: server.baseUrl, PCKGATE_TOKEN: server.token("cli-pager") }
  })
  afterAll(() => server.stop())

  test("release --name finds a game past the first page; status lists all of them", async () => {
    const api = apiClient(server.baseUrl)
    const token = env["PCKGATE_TOKEN"]!
    // 52 games: the last one (oldest first) is on the second page of 50.
    for (let i = 0; i < 52; i++) expect((await api.createGame(token, { name: `Paged ${String(i).padStart(2, "0")}` })).status).toBe(201)
    const firstPage = await api.call("GET", "/api/me/games", { token })
    expect([firstPage.body.games.length, typeof firstPage.body.nextCursor]).toEqual([50, "string"])
    const file = join(mkdtempSync(join(tmpdir(), "pckgate-cli-pages-")), "game.pck")
    writeFileSync(file, randomBytes(4096))
    const run = await runCli(["release", file, "--name", "Paged 51", "--version", "1.0.0", "--skip-check", "--no-verify", "--json"], env)
    expect(run.code, run.stderr).toBe(0)
    const all = await runCli(["status", "--json"], env)
    expect(all.code, all.stderr).toBe(0)
    const games = all.json().games as Array<{ name: string; gameId: string }>
    expect(games).toHaveLength(52)
    expect(games.filter((g) => g.name === "Paged 51")).toHaveLength(1)
    expect(run.json().gameId).toBe(games.find((g) => g.name === "Paged 51")!.gameId)
  })
})
