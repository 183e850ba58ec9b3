// `review show` and `review diff` against the real server, on packs godot3-server exported in this run.
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import "../setup/provided.ts"
import { apiClient } from "../support/api.ts"
import { runCli } from "../support/cli.ts"
import { shipReadingPack } from "../support/readingPacks.ts"
import { sha256Hex } from "../support/streams.ts"
import { MAIN_V1, readingPack } from "../review/support.ts"
import { utf8 } from "../scanner/support/bytes.ts"
import { type RunningServer, startServer } from "../support/server.ts"

const fixtures = inject("godotFixtures")
let server: RunningServer
let gameId: string
let admin: string
let owner: string

const ship = (version: string) => shipReadingPack(server.baseUrl, fixtures, owner, gameId, version)

const env = (token = admin) => ({ PCKGATE_URL: server.baseUrl, PCKGATE_TOKEN: token })

beforeAll(async () => {
  server = await startServer({ env: { RATE_LIMIT_COUNT: "100", SCAN_INTERVAL_SECONDS: "1" } })
  owner = server.token("cli-reading-owner")
  admin = server.token("cli-reading-admin", { admin: true })
  gameId = (await apiClient(server.baseUrl).createGame(owner, { name: "CLI Reading" })).body.gameId
  await ship("1.0.0")
  expect((await apiClient(server.baseUrl).approveScanned(admin, gameId, "1.0.0")).status).toBe(200)
  await ship("1.1.0")
}, 120_000)
afterAll(() => server?.stop())

describe("review show and review diff", () => {
  test("show prints the scan summary, every finding as file:line rule message, capabilities added and changed files", async () => {
    const run = await runCli(["review", "show", gameId, "1.1.0"], env())
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain(`${gameId} 1.1.0: pending_review, `)
    expect(run.stdout).toMatch(/^scan: 1 error \(1 unresolved, 0 accepted\), 0 warnings, \d+ files \(scanner [^;)]+\)$/m)
    // Each finding names its docs page under the service's URL, as submit and check do.
    expect(run.stdout).toMatch(new RegExp(`^ {2}res://game/main\\.gd:5 banned-api OS\\.execute.* \\(docs: ${server.baseUrl}/docs/rules/[\\w.-]+\\)$`, "m"))
    expect(run.stdout).toContain("capabilities added since 1.0.0: file-writes\n")
    expect(run.stdout).toContain("files changed since 1.0.0: 2\n  modified res://game/main.gd\n  modified res://manifest.json\n")
  })

  test("show marks an accepted finding [accepted by X: reason] and counts it as the gate does; unaccepting brings it back", async () => {
    const scan = await apiClient(server.baseUrl).call("GET", `/api/games/${gameId}/releases/1.1.0/scan`, { token: admin })
    const fingerprint = scan.body.report.findings.find((f: { line: number }) => f.line === 5).fingerprint
    const reason = "The level editor lists files on purpose"
    expect((await runCli(["review", "accept", gameId, fingerprint, "--reason", reason], env())).code).toBe(0)
    try {
      const run = await runCli(["review", "show", gameId, "1.1.0"], env())
      expect(run.code, run.stderr).toBe(0)
      expect(run.stdout).toMatch(/^scan: 1 error \(0 unresolved, 1 accepted\), 0 warnings, /m)
      expect(run.stdout).toMatch(new RegExp(`^ {2}res://game/main\\.gd:5 banned-api .*\\(docs: [^)]+\\) \\[accepted by cli-reading-admin: ${reason}\\]$`, "m"))
      const json = await runCli(["review", "show", gameId, "1.1.0", "--json"], env())
      expect(json.json().gate).toEqual({ errors: 1, unresolvedErrors: 0, warnings: 0 })
    } finally {
      expect((await runCli(["review", "unaccept", gameId, fingerprint], env())).code).toBe(0)
    }
    const after = await runCli(["review", "show", gameId, "1.1.0"], env())
    expect(after.stdout).toMatch(/^scan: 1 error \(1 unresolved, 0 accepted\)/m)
    expect(after.stdout).not.toContain("[accepted by")
  })

  test("show --json carries the release, its scan, the capabilities added and the changes", async () => {
    const run = await runCli(["review", "show", gameId, "1.1.0", "--json"], env())
    expect(run.code).toBe(0)
    expect(run.json()).toMatchObject({
      version: "1.1.0",
      scan: { status: "scanned" },
      gate: { errors: 1, unresolvedErrors: 1, warnings: 0 },
      capabilitiesAdded: ["file-writes"],
      against: "1.0.0",
      changes: [{ path: "res://game/main.gd", change: "modified", kind: "script" }, { path: "res://manifest.json", change: "modified", kind: "manifest" }],
    })
  })

  test("diff prints unified diffs against the active release, or --against a chosen one; --json the endpoint's body", async () => {
    const run = await runCli(["review", "diff", gameId, "1.1.0"], env())
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain("--- a/res://game/main.gd\n+++ b/res://game/main.gd\n")
    expect(run.stdout).toContain('-\tprint("round one")\n+\tprint("round two")\n')
    const same = await runCli(["review", "diff", gameId, "1.1.0", "--against", "1.1.0"], env())
    expect(same.stdout).toBe("no files differ from 1.1.0\n")
    const json = await runCli(["review", "diff", gameId, "1.1.0", "--json"], env())
    expect(json.json()).toMatchObject({ against: "1.0.0", capabilities: { added: ["file-writes"], removed: [] } })
  })

  test("diff marks hidden characters in every path it prints: the diff itself and the note of a diff cut at 256 KiB", async () => {
    const api = apiClient(server.baseUrl)
    const game = (await api.createGame(owner, { name: "CLI Hidden Path" })).body.gameId as string
    const path = "res://big\u202Enotes.gd"
    // ~290 KB of changed lines: the unified diff (every line removed and added) is cut.
    const notes = (round: string) => utf8(Array.from({ length: 12_000 }, (_, i) => `# note ${i} of round ${round}\n`).join(""))
    for (const [version, round] of [["1.0.0", "one"], ["1.1.0", "two"]] as const) {
      const bytes = readingPack(version, MAIN_V1, [{ path, data: notes(round) }])
      const declaration = { version, sha256: sha256Hex(bytes), sizeBytes: bytes.length }
      expect((await api.uploadRelease(owner, game, { bytes, declaration })).status).toBe(201)
      if (version === "1.0.0") expect((await api.approveScanned(admin, game, version)).status).toBe(200)
    }
    const run = await runCli(["review", "diff", game, "1.1.0"], env())
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain("--- a/res://big<U+202E>notes.gd\n")
    expect(run.stdout).toContain("(diff of res://big<U+202E>notes.gd cut at 256 KiB)\n")
    expect(run.stdout).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/)
  })

  test("exit codes: not an administrator or an unknown version 2 (not_found), bad --against 2 (invalid_request)", async () => {
    const stranger = await runCli(["review", "diff", gameId, "1.1.0", "--json"], env(owner))
    expect([stranger.code, stranger.json().error]).toEqual([2, "not_found"])
    const unknown = await runCli(["review", "show", gameId, "9.9.9"], env())
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/^error: not_found/)
    const bad = await runCli(["review", "diff", gameId, "1.1.0", "--against", "..", "--json"], env())
    expect([bad.code, bad.json().error]).toEqual([2, "invalid_request"])
  })
})
