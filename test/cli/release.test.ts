import { randomBytes } from "node:crypto"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { apiClient } from "../support/api.ts"
import { runCli } from "../support/cli.ts"
import { type RunningServer, startServer } from "../support/server.ts"
import { sha256Hex } from "../support/streams.ts"

const dir = mkdtempSync(join(tmpdir(), "pckgate-cli-"))
const aFile = (name: string, size = 8192) => {
  const path = join(dir, name)
  writeFileSync(path, randomBytes(size))
  return path
}

describe("the CLI against a running server (embedded defaults)", () => {
  let server: RunningServer
  let env: Record<string, string>
  let admin: string
  beforeAll(async () => {
    server = await startServer({ env: { RATE_LIMIT_COUNT: "1000" } })
    env = { PCKGATE_URL: server.baseUrl, PCKGATE_TOKEN: server.token("cli-creator") }
    admin = server.token("cli-admin", { admin: true })
  })
  afterAll(() => server.stop())

  test("release --name creates the game once, uploads, finalizes and verifies; a re-run changes nothing", async () => {
    const file = aFile("first.pck")
    const first = await runCli(["release", file, "--name", "CLI Game", "--version", "1.0.0", "--skip-check", "--json"], env)
    expect(first.code, first.stderr).toBe(0)
    expect(first.json()).toMatchObject({ ok: true, version: "1.0.0", sha256: sha256Hex(readFileSync(file)), status: "pending_review", verified: true })
    const again = await runCli(["release", file, "--name", "CLI Game", "--version", "1.0.0", "--skip-check"], env)
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toContain("already released")
    const mine = await apiClient(server.baseUrl).call("GET", "/api/me/games", { token: env["PCKGATE_TOKEN"]! })
    expect(mine.body.games.filter((g: { name: string }) => g.name === "CLI Game")).toHaveLength(1)
  })

  test("resumes after an interruption: with the object already stored (412) it goes on to finalize", async () => {
    const file = aFile("resume.pck")
    const api = apiClient(server.baseUrl)
    const token = env["PCKGATE_TOKEN"]!
    const gameId = (await api.createGame(token, { name: "Resume" })).body.gameId
    const bytes = readFileSync(file)
    const declaration = { version: "2.0.0", sha256: sha256Hex(bytes), sizeBytes: bytes.length }
    const presigned = await api.uploadUrl(token, gameId, declaration)
    expect((await api.put(presigned.body.uploadUrl, presigned.body.headers, bytes)).status).toBe(200) // then the CLI "died"
    const resumed = await runCli(["release", file, "--game", gameId, "--version", "2.0.0", "--skip-check"], env)
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(resumed.stderr).toContain("412")
    expect((await api.call("GET", `/api/games/${gameId}/releases/2.0.0`, { token })).body.status).toBe("pending_review")
  })

  test("a failed checksum (wrong bytes already at the key) exits 3 with the error; the object is deleted and a re-run succeeds", async () => {
    const file = aFile("checksum.pck")
    const api = apiClient(server.baseUrl)
    const token = env["PCKGATE_TOKEN"]!
    const gameId = (await api.createGame(token, { name: "Checksum" })).body.gameId
    const bytes = readFileSync(file)
    const declaration = { version: "3.0.0", sha256: sha256Hex(bytes), sizeBytes: bytes.length }
    const presigned = await api.uploadUrl(token, gameId, declaration)
    await api.put(presigned.body.uploadUrl, presigned.body.headers, randomBytes(bytes.length))
    const failed = await runCli(["release", file, "--game", gameId, "--version", "3.0.0", "--skip-check"], env)
    expect(failed.code).toBe(3)
    expect(failed.stderr).toMatch(/^error: checksum_mismatch — /m)
    const retried = await runCli(["release", file, "--game", gameId, "--version", "3.0.0", "--skip-check"], env)
    expect(retried.code, retried.stderr).toBe(0)
  })

  test("status, review, wait and download work together; wait exits 5 at its timeout, 0 once approved, 1 when rejected", async () => {
    const file = aFile("review.pck")
    const released = await runCli(["release", file, "--name", "Waited", "--version", "1.0.0", "--skip-check", "--json"], env)
    const { gameId } = released.json()
    const timedOut = await runCli(["wait", gameId, "--version", "1.0.0", "--until", "published", "--timeout", "1", "--interval", "0.3", "--json"], env)
    expect(timedOut.code).toBe(5)
    expect(timedOut.json()).toMatchObject({ ok: false, error: "still_waiting", status: "pending_review" })
    const waiting = runCli(["wait", gameId, "--version", "1.0.0", "--until", "published", "--timeout", "30", "--interval", "0.2"], env)
    const list = await runCli(["review", "list", "--json"], { ...env, PCKGATE_TOKEN: admin })
    expect(list.json().items.some((i: { gameId: string }) => i.gameId === gameId)).toBe(true)
    // The review gate: the file is random bytes, so its scan (polled, never slept for) has an error finding.
    const scan = await apiClient(server.baseUrl).scanned(admin, gameId, "1.0.0")
    const asAdmin = { ...env, PCKGATE_TOKEN: admin }
    const unresolved = await runCli(["review", "approve", gameId, "1.0.0", "--json"], asAdmin)
    expect([unresolved.code, unresolved.json().error]).toEqual([2, "findings_unresolved"])
    const claimed = await runCli(["review", "claim", gameId, "1.0.0", "--json"], asAdmin)
    expect([claimed.code, claimed.json().claimedBy]).toEqual([0, "cli-admin"])
    const otherAdmin = { ...env, PCKGATE_TOKEN: server.token("cli-admin-2", { admin: true }) }
    const taken = await runCli(["review", "approve", gameId, "1.0.0", "--override-reason", "mine now"], otherAdmin)
    expect([taken.code, taken.stderr]).toEqual([6, expect.stringMatching(/^error: claimed — .*cli-admin/m)])
    const fingerprint = scan.report.findings[0].fingerprint
    const accepted = await runCli(["review", "accept", gameId, fingerprint, "--reason", "Random bytes on purpose"], asAdmin)
    expect([accepted.code, accepted.stdout]).toEqual([0, `${gameId} finding ${fingerprint}: accepted by cli-admin: Random bytes on purpose\n`])
    expect((await runCli(["review", "unaccept", gameId, fingerprint], asAdmin)).code).toBe(0)
    const approved = await runCli(["review", "approve", gameId, "1.0.0", "--override-reason", "A test file of random bytes", "--json"], asAdmin)
    expect(approved.code, approved.stderr).toBe(0)
    expect(approved.json()).toMatchObject({ status: "approved", approvalOverride: { reason: "A test file of random bytes", by: "cli-admin" } })
    const published = await waiting
    expect([published.code, published.stdout]).toEqual([0, "1.0.0 is published\n"])
    const status = await runCli(["status", gameId], env)
    expect(status.stdout).toContain("published, active version 1.0.0")
    const out = join(dir, "downloaded.pck")
    const download = await runCli(["download", gameId, "--version", "1.0.0", "-o", out], { PCKGATE_URL: server.baseUrl, PCKGATE_TOKEN: server.token("someone-else") })
    expect(download.code, download.stderr).toBe(0)
    expect(readFileSync(out)).toEqual(readFileSync(file))

    await runCli(["release", aFile("second.pck"), "--game", gameId, "--version", "1.1.0", "--skip-check"], env)
    expect((await runCli(["review", "reject", gameId, "1.1.0"], { ...env, PCKGATE_TOKEN: admin })).code).toBe(2)
    expect((await runCli(["review", "reject", gameId, "1.1.0", "--reason", "Crashes on start"], { ...env, PCKGATE_TOKEN: admin })).code).toBe(0)
    const rejected = await runCli(["wait", gameId, "--version", "1.1.0", "--until", "reviewed", "--timeout", "5"], env)
    expect([rejected.code, rejected.stderr.trim()]).toEqual([1, "rejected: Crashes on start"])
  }, 180_000) // a dozen CLI processes, each loading effect to decode replies: slow on a loaded machine

  test("wait fetches a fresh token with --token-command when the service answers 401", async () => {
    const file = aFile("token.pck")
    const { gameId } = (await runCli(["release", file, "--name", "Tokens", "--version", "1.0.0", "--skip-check", "--json"], env)).json()
    const tokenFile = join(dir, "fresh-token")
    writeFileSync(tokenFile, env["PCKGATE_TOKEN"]!)
    const waited = await runCli(
      ["wait", gameId, "--version", "1.0.0", "--until", "reviewed", "--timeout", "1", "--interval", "0.3", "--json", "--token-command", `cat ${tokenFile}`],
      { ...env, PCKGATE_TOKEN: "expired.or.revoked" },
    )
    expect(waited.json()).toMatchObject({ error: "still_waiting", status: "pending_review" })
    expect(waited.code).toBe(5)
  })

  test("usage errors and missing files exit 2; an unreachable service exits 3; errors read 'error: <code> — <detail>'", async () => {
    expect((await runCli(["release"], env)).code).toBe(2)
    expect((await runCli(["release", join(dir, "missing.pck"), "--name", "x", "--version", "1"], env)).code).toBe(2)
    const small = await runCli(["release", aFile("small.pck", 1023), "--name", "x", "--version", "1", "--skip-check"], env)
    expect([small.code, small.stderr]).toEqual([2, expect.stringMatching(/^error: too_small — \S*small\.pck is 1023 bytes, too small/)])
    expect((await runCli(["release", aFile("v.pck"), "--name", "x", "--version", "..", "--skip-check"], env)).code).toBe(2)
    const notAPack = await runCli(["release", aFile("random.pck"), "--name", "x", "--version", "1.0.0"], env)
    expect([notAPack.code, notAPack.stderr]).toEqual([2, expect.stringContaining("not a Godot pack")])
    const unreachable = await runCli(["status", "gm_x"], { PCKGATE_URL: "http://127.0.0.1:9", PCKGATE_TOKEN: "t" })
    expect([unreachable.code, unreachable.stderr]).toEqual([3, expect.stringMatching(/^error: network — could not reach/)])
    const unknown = await runCli(["status", "gm_unknown"], env)
    expect([unknown.code, unknown.stderr.trim()]).toEqual([2, expect.stringMatching(/^error: not_found — /)])
  })
})

describe("rate limits in the CLI", () => {
  // The window is long enough that the third run starts inside it even on a loaded machine.
  test("a 429 prints when to retry and exits 4; --wait sleeps until then and succeeds", async () => {
    const server = await startServer({ env: { RATE_LIMIT_COUNT: "1", RATE_LIMIT_WINDOW_SECONDS: "30" } })
    const env = { PCKGATE_URL: server.baseUrl, PCKGATE_TOKEN: server.token("limited") }
    const first = await runCli(["release", aFile("a.pck"), "--name", "Limited", "--version", "1.0.0", "--skip-check", "--json"], env)
    expect(first.code, first.stderr).toBe(0)
    const limited = await runCli(["release", aFile("b.pck"), "--game", first.json().gameId, "--version", "1.0.1", "--skip-check", "--json"], env)
    expect(limited.code).toBe(4)
    expect(limited.stderr).toMatch(/rate limited: retry in ([1-9]|[12]\d|30) s/)
    expect(limited.json()).toMatchObject({ ok: false, error: "rate_limited" })
    const waited = await runCli(["release", aFile("c.pck"), "--game", first.json().gameId, "--version", "1.0.2", "--skip-check", "--wait"], env)
    expect(waited.code, waited.stderr).toBe(0)
    expect(waited.stderr).toContain("(waiting)")
    await server.stop()
  }, 120_000)
})
