// The README's curl walk-through, run as a reader would: bash, from the repository's root, against a real server —
// twice, since a reader runs it again — and it must stop at the first unexpected answer.
import { mkdtempSync, readdirSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, test } from "vitest"
import { REPO_ROOT } from "../support/server.ts"
import { runProcess, serverForSuite } from "./support/processes.ts"
import { firstShellBlock, README_SOURCES, readSection } from "./support/readme.ts"

const script = firstShellBlock(readSection("walkthrough", "## Walk-through with curl"))

const bash = (env: Readonly<Record<string, string>>) => runProcess("bash", ["-c", script], { cwd: REPO_ROOT, env })

describe(`the curl walk-through (${README_SOURCES.walkthrough})`, () => {
  const server = serverForSuite()
  // mktemp honours TMPDIR: the walk-through's temporary files go here, and must be gone when it ends.
  const scratch = mkdtempSync(join(tmpdir(), "pckgate-walkthrough-"))

  test("runs to the end twice against the same server, leaving no file in the repository or behind", async () => {
    // `dist/` is left out: the packaging test, in the other worker, may build or remove it meanwhile.
    const rootEntries = () => readdirSync(REPO_ROOT).filter((name) => name !== "dist")
    const before = rootEntries()
    const env = { BASE: server().baseUrl, DATA_DIR: server().dataDir, TMPDIR: scratch }
    const published: Array<string> = []
    for (const run of [1, 2]) {
      const result = await bash(env)
      expect(result.code, `run ${run}: ${result.stderr}`).toBe(0)
      const last = result.stdout.trim().split("\n").at(-1)!
      expect(last).toMatch(/^published gm_\w+ 1\.0\.0 \(sha256 [0-9a-f]{64}\)$/)
      published.push(last)
    }
    expect(new Set(published).size).toBe(2)
    expect(rootEntries()).toEqual(before)
    // What mktemp made was removed on exit; npm itself (on Node 24) keeps its compile cache in TMPDIR.
    expect(readdirSync(scratch).filter((name) => name !== "node-compile-cache")).toEqual([])
  }, 120_000)

  test("stops at the first unexpected status and says which", async () => {
    // Tokens from another issuer key: the very first call answers 401.
    const result = await bash({ BASE: server().baseUrl, DATA_DIR: mkdtempSync(join(scratch, "other-keys-")), TMPDIR: scratch })
    expect(result.code).not.toBe(0)
    expect(result.stderr).toMatch(/^POST \S+\/api\/games\/engine answered 401, expected 201: \{"error":"sign_in_required"/m)
    expect(result.stdout).not.toContain("published")
  }, 60_000)
})
