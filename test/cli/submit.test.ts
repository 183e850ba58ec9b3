import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import { fixturePackPath, fixtureProjectPath } from "../setup/godot.ts"
import { runCli } from "../support/cli.ts"
import { type RunningServer, startServer } from "../support/server.ts"
import "../setup/provided.ts"

describe("pckgate submit: the multipart path from the command line", () => {
  let server: RunningServer
  let env: Record<string, string>
  const fixture = (name: string) => ({
    pack: fixturePackPath(inject("godotFixtures"), name),
    manifest: join(fixtureProjectPath(inject("godotFixtures"), name), "manifest.json"),
  })
  beforeAll(async () => {
    server = await startServer({ env: { RATE_LIMIT_COUNT: "100" } })
    env = { PCKGATE_URL: server.baseUrl, PCKGATE_TOKEN: server.token("cli-submitter") }
  })
  afterAll(() => server.stop())

  test("a clean pack is submitted for review (exit 0, one JSON result)", async () => {
    const clean = fixture("clean")
    const run = await runCli(["submit", clean.pack, "--manifest", clean.manifest, "--json"], env)
    expect(run.code, run.stderr).toBe(0)
    expect(run.json()).toMatchObject({ ok: true, status: "review", scan: { ok: true } })
    const again = await runCli(["submit", clean.pack, "--manifest", clean.manifest], env)
    expect([again.code, again.stderr.trim()]).toEqual([2, expect.stringMatching(/^error: version_exists — /)])
  })

  test("a violating pack exits 1 and prints each finding as 'file:line rule message'", async () => {
    const violating = fixture("violating-game")
    const run = await runCli(["submit", violating.pack, "--manifest", violating.manifest], env)
    expect(run.code).toBe(1)
    const lines = run.stdout.trim().split("\n")
    expect(lines.length).toBeGreaterThan(10)
    for (const line of lines) expect(line).toMatch(/^res:\/\/\S+(:\d+)? [a-z-]+ \S/)
    expect(lines).toContainEqual(expect.stringMatching(/^res:\/\/\S+\.gd:\d+ banned-api /))
    expect(run.stderr).toMatch(/^error: Static analysis failed — /)
  })

  test("what cannot be sent exits 2 with the reason", async () => {
    const clean = fixture("clean")
    const notPck = join(server.dataDir, "game.zip")
    writeFileSync(notPck, "x")
    expect((await runCli(["submit", notPck, "--manifest", clean.manifest], env)).stderr).toContain("must be a .pck")
    expect((await runCli(["submit", clean.pack, "--manifest", join(server.dataDir, "missing.json")], env)).code).toBe(2)
    expect((await runCli(["submit", clean.pack], env)).code).toBe(2)
    const badManifest = join(server.dataDir, "bad.json")
    writeFileSync(badManifest, '{"id": "x"}')
    const invalid = await runCli(["submit", fixture("clean-update").pack, "--manifest", badManifest], env)
    expect([invalid.code, invalid.stderr]).toEqual([2, expect.stringContaining("error: Invalid manifest. Required: id, name, version")])
  })
})
