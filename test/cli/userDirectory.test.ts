// Paths on the command line are relative to where the user typed the command, also through `npm run -s cli`, which
// runs the script from the repository's root (the user's directory arrives in INIT_CWD).
import { randomBytes } from "node:crypto"
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, test } from "vitest"
import { REPO_ROOT } from "../support/server.ts"
import { runProcess, serverForSuite } from "./support/processes.ts"

/** `npm --prefix <repository> run -s cli -- …` from `cwd`, as a creator runs it from their game's folder. */
const npmCli = (cwd: string, args: ReadonlyArray<string>, env: Readonly<Record<string, string>>) =>
  runProcess("npm", ["--prefix", REPO_ROOT, "run", "-s", "cli", "--", ...args], { cwd, env })

describe("npm run -s cli from another directory", () => {
  const server = serverForSuite()

  test("reads the pack and writes the download relative to that directory, not to the repository", async () => {
    const home = mkdtempSync(join(tmpdir(), "pckgate-elsewhere-"))
    writeFileSync(join(home, "game.pck"), randomBytes(4096))
    const env = { PCKGATE_URL: server().baseUrl, PCKGATE_TOKEN: server().token("elsewhere") }
    const released = await npmCli(home, ["release", "game.pck", "--name", "Elsewhere", "--version", "1.0.0", "--skip-check", "--json"], env)
    expect(released.code, released.stderr).toBe(0)
    const { gameId } = JSON.parse(released.stdout)
    const downloaded = await npmCli(home, ["download", gameId, "--version", "1.0.0", "-o", "copy.pck"], env)
    expect(downloaded.code, downloaded.stderr).toBe(0)
    expect(readFileSync(join(home, "copy.pck"))).toEqual(readFileSync(join(home, "game.pck")))
    expect(existsSync(join(REPO_ROOT, "copy.pck"))).toBe(false)
    // The default output name lands there too.
    expect((await npmCli(home, ["download", gameId, "--version", "1.0.0"], env)).code).toBe(0)
    expect(existsSync(join(home, `${gameId}-1.0.0.pck`))).toBe(true)
  })

  test("a file missing from that directory is missing, even when the repository has one of that name", async () => {
    const home = mkdtempSync(join(tmpdir(), "pckgate-elsewhere-"))
    const run = await npmCli(home, ["check-preset", "package.json"], {})
    expect([run.code, run.stderr]).toEqual([2, expect.stringMatching(/^check-preset: cannot read package\.json: ENOENT/)])
  })
})
