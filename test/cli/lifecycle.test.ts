// The lifecycle commands against a running server: rollback, activate refused (exit 2), withdraw, review takedown and
// reinstate, timeline, and status with the queue position.
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { apiClient, artifact } from "../support/api.ts"
import { runCli } from "../support/cli.ts"
import { type RunningServer, startServer } from "../support/server.ts"

describe("lifecycle commands of the CLI", () => {
  let server: RunningServer
  let env: Record<string, string>
  let adminEnv: Record<string, string>
  beforeAll(async () => {
    server = await startServer({ env: { RATE_LIMIT_COUNT: "1000" } })
    env = { PCKGATE_URL: server.baseUrl, PCKGATE_TOKEN: server.token("cli-lifecycle") }
    adminEnv = { PCKGATE_URL: server.baseUrl, PCKGATE_TOKEN: server.token("cli-lifecycle-admin", { admin: true }) }
  })
  afterAll(() => server.stop())

  test("rollback, activate, withdraw, takedown, reinstate, timeline and the queue in status", async () => {
    const api = apiClient(server.baseUrl)
    const creator = env["PCKGATE_TOKEN"]!
    const admin = adminEnv["PCKGATE_TOKEN"]!
    const gameId: string = (await api.createGame(creator, { name: "CLI Lifecycle" })).body.gameId
    for (const version of ["1.0.0", "2.0.0", "3.0.0"]) expect((await api.uploadRelease(creator, gameId, artifact(2048, version))).status).toBe(201)
    for (const version of ["1.0.0", "2.0.0"]) expect((await api.approveScanned(admin, gameId, version)).status).toBe(200)

    const queued = await runCli(["status", gameId, "--version", "3.0.0"], env)
    expect(queued.code, queued.stderr).toBe(0)
    expect(queued.stdout).toContain("in the review queue at position 1 (0 ahead), no estimate yet (fewer than 5 decisions)")

    const rolled = await runCli(["rollback", gameId, "--to", "1.0.0"], env)
    expect(rolled.code, rolled.stderr).toBe(0)
    expect(rolled.stdout).toContain("active version 1.0.0")
    const refused = await runCli(["activate", gameId, "3.0.0", "--json"], env)
    expect(refused.code).toBe(2)
    expect(refused.json()).toMatchObject({ error: "release_not_activatable" })
    const usage = await runCli(["rollback", gameId], env)
    expect(usage.code).toBe(2)

    const withdrawn = await runCli(["withdraw", gameId, "3.0.0"], env)
    expect(withdrawn.code, withdrawn.stderr).toBe(0)
    expect(withdrawn.stdout).toContain("3.0.0: withdrawn")

    const down = await runCli(["review", "takedown", gameId, "1.0.0", "--reason", "Bundles adware"], adminEnv)
    expect(down.code, down.stderr).toBe(0)
    expect(down.stdout).toContain("active version 2.0.0")
    expect((await runCli(["review", "takedown", gameId, "1.0.0", "--reason", "again"], adminEnv)).code).toBe(2)
    expect((await runCli(["review", "takedown", gameId, "2.0.0"], adminEnv)).code).toBe(2)
    const status = await runCli(["status", gameId, "--version", "1.0.0"], env)
    expect(status.stdout).toContain("taken_down — Bundles adware")
    expect((await runCli(["review", "reinstate", gameId, "1.0.0", "--reason", "cleared"], adminEnv)).code).toBe(0)

    const timeline = await runCli(["timeline", gameId, "--json"], env)
    expect(timeline.code, timeline.stderr).toBe(0)
    expect(timeline.json().events.map((e: { kind: string }) => e.kind).slice(-5)).toEqual(["activated", "withdrawn", "taken_down", "activated", "reinstated"])
    expect((await runCli(["timeline", gameId], { ...env, PCKGATE_TOKEN: server.token("someone-else") })).code).toBe(2)
  })

  test("review takedown-game takes every approved release down at once, review reinstate-game reverses exactly that", async () => {
    const api = apiClient(server.baseUrl)
    const creator = env["PCKGATE_TOKEN"]!
    const admin = adminEnv["PCKGATE_TOKEN"]!
    const gameId: string = (await api.createGame(creator, { name: "CLI Game Takedown" })).body.gameId
    for (const version of ["1.0.0", "2.0.0"]) {
      expect((await api.uploadRelease(creator, gameId, artifact(2048, version))).status).toBe(201)
      expect((await api.approveScanned(admin, gameId, version)).status).toBe(200)
    }
    expect((await runCli(["review", "takedown-game", gameId], adminEnv)).code).toBe(2) // no reason
    expect((await runCli(["review", "takedown-game", gameId, "--reason", "x"], env)).code).toBe(2) // not an administrator: 404

    const down = await runCli(["review", "takedown-game", gameId, "--reason", "Publisher account compromised"], adminEnv)
    expect(down.code, down.stderr).toBe(0)
    expect(down.stdout).toContain("1.0.0 taken_down")
    expect(down.stdout).toContain("2.0.0 taken_down")
    expect(down.stdout).toContain("game taken_down, active version none")
    const game = await api.call("GET", `/api/games/${gameId}`, { token: creator })
    expect(game.body.releases.map((r: { status: string }) => r.status)).toEqual(["taken_down", "taken_down"])

    const back = await runCli(["review", "reinstate-game", gameId, "--reason", "Account recovered", "--json"], adminEnv)
    expect(back.code, back.stderr).toBe(0)
    expect(back.json()).toMatchObject({ gameStatus: "published", activeVersion: "2.0.0" })
  })
})
