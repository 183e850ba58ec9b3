import { spawnSync } from "node:child_process"
import { mkdtempSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, inject, test } from "vitest"
import { apiClient } from "../support/api.ts"
import { repeated, sendMultipart, sendRequest } from "../support/multipart.ts"
import { REPO_ROOT, type RunningServer, startServer } from "../support/server.ts"
import { sha256Hex } from "../support/streams.ts"

// Issue 12: a crash mid-upload leaves a partial file in storage/incoming/. Nothing may keep it forever: the next
// start removes what a dead process left, and the sweeper and `cli gc` remove whatever no live upload owns once it is
// older than the grace period.

const MiB = new Uint8Array(1024 * 1024).fill(0x33)
const UPLOAD_BYTES = 256 * 1024 * 1024
const STALL_AFTER = 8 * 1024 * 1024

const incoming = (dataDir: string) => join(dataDir, "storage", "incoming")
const partialFiles = (dataDir: string) => readdirSync(incoming(dataDir)).filter((name) => name.endsWith(".part"))
const partialBytes = (dataDir: string) => partialFiles(dataDir).reduce((n, name) => n + statSync(join(incoming(dataDir), name)).size, 0)

const until = async (what: string, condition: () => boolean, server: RunningServer) => {
  const deadline = Date.now() + 30_000
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${server.output().slice(-2000)}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

const manifest = (version: string) =>
  JSON.stringify({ id: "crash-game", name: "Crash", version, engine_sdk: "1.0.0", entry_scene: "res://main.tscn", min_players: 1, max_players: 2 })

describe("partial uploads left by a crash", () => {
  test("ten SIGKILLs mid-PUT and mid-multipart: every restart removes what the dead process left; nothing committed is lost", async () => {
    const dataDir = mkdtempSync(join(inject("runDir"), "abandoned-"))
    const env = { RATE_LIMIT_COUNT: "1000" }
    let server = await startServer({ dataDir, env })
    const creator = server.token("crasher")
    let api = apiClient(server.baseUrl)
    const gameId: string = (await api.createGame(creator, { name: "Crashing Uploads" })).body.gameId
    const committed = new Uint8Array(8192).fill(7)
    const declaration = { version: "1.0.0", sha256: sha256Hex(committed), sizeBytes: committed.length }
    expect((await api.uploadRelease(creator, gameId, { bytes: committed, declaration })).status).toBe(201)

    for (let cycle = 0; cycle < 10; cycle++) {
      expect(partialFiles(dataDir)).toEqual([])
      const upload = await api.uploadUrl(creator, gameId, { version: `5.${cycle}.0`, sha256: "a".repeat(64), sizeBytes: UPLOAD_BYTES })
      // Both uploads send part of their body, then stall: the server holds a partial file for each.
      void sendRequest(upload.body.uploadUrl, "PUT", { ...upload.body.headers, "content-length": String(UPLOAD_BYTES) }, repeated(MiB, 256), {
        pauseAfterBytes: STALL_AFTER,
        pauseMs: 60_000,
      })
      void sendMultipart(`${server.baseUrl}/submit-api/games/submit`, [
        { name: "manifest", body: manifest(`2.${cycle}.0`), contentType: "application/json", filename: "manifest.json" },
        { name: "pck", filename: "game.pck", body: () => repeated(MiB, 256), size: UPLOAD_BYTES },
      ], { headers: { authorization: `Bearer ${creator}` }, pauseAfterBytes: STALL_AFTER, pauseMs: 60_000 })
      await until("two partial files holding 8 MiB", () => partialFiles(dataDir).length === 2 && partialBytes(dataDir) >= 8 * 1024 * 1024, server)
      await server.kill()
      expect(partialFiles(dataDir)).toHaveLength(2) // the crash left them
      server = await startServer({ dataDir, env })
      api = apiClient(server.baseUrl)
    }
    expect(partialFiles(dataDir)).toEqual([])
    expect(partialBytes(dataDir)).toBe(0)
    const game = await api.call("GET", `/api/games/${gameId}`, { token: creator })
    expect(game.body.releases.map((r: { version: string; sha256: string }) => [r.version, r.sha256])).toEqual([["1.0.0", declaration.sha256]])
    await server.stop()
  }, 240_000)

  test("cli gc removes partial files whose owner is gone or that outlived the grace period, and keeps the rest", () => {
    const dataDir = mkdtempSync(join(inject("runDir"), "gc-partials-"))
    const dir = incoming(dataDir)
    spawnSync("mkdir", ["-p", dir])
    const host = spawnSync("hostname", [], { encoding: "utf8" }).stdout.trim().replace(/[^A-Za-z0-9-]/g, "-").slice(0, 63)
    const uuid = () => crypto.randomUUID()
    // A dead process of this host (pid far above any live one), an old file of another host, a fresh one of another
    // host (its owner may be writing), and an old file from before owners were named.
    const dead = `${host}~4194000~${uuid()}.part`
    const oldForeign = `elsewhere~12~${uuid()}.part`
    const freshForeign = `elsewhere~13~${uuid()}.part`
    const oldUnnamed = `${uuid()}.part`
    for (const name of [dead, oldForeign, freshForeign, oldUnnamed]) writeFileSync(join(dir, name), new Uint8Array(1000))
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000)
    for (const name of [oldForeign, oldUnnamed]) utimesSync(join(dir, name), twoHoursAgo, twoHoursAgo)

    const gc = spawnSync(process.execPath, ["apps/cli/main.ts", "gc", "--data-dir", dataDir], { cwd: REPO_ROOT, encoding: "utf8" })
    expect(gc.status, gc.stderr).toBe(0)
    expect(readdirSync(dir).sort()).toEqual([freshForeign])
    expect(gc.stdout).toMatch(/abandoned upload files removed: \d+ \(\d+ bytes\)/)
  })
})
