// One global setup per test run: provisions external programs once, starts shared servers, stops them at the end.
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { TestProject } from "vitest/node"
import { type DebianRequirement, ensureDebianPackages } from "./apt.ts"
import { exportGodotFixtures } from "./godot.ts"
import { MARIADB_SERVER, startMariaDb } from "./mariadb.ts"
import "./provided.ts"

/** Everything the suite needs from Debian, installed in one apt-get run when missing. */
const REQUIREMENTS: ReadonlyArray<DebianRequirement> = [{ binary: "godot3-server", pkg: "godot3-server" }, { binary: MARIADB_SERVER, pkg: "mariadb-server" }, { binary: "chromium", pkg: "chromium" }]

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  ensureDebianPackages(REQUIREMENTS)
  const runDir = mkdtempSync(join(tmpdir(), "pckgate-test-"))
  // Every temporary file or directory a test makes (data directories of the servers it starts, scratch files) lands
  // under the run's directory, removed at the end: test files, which fork after this, inherit the variable.
  // Like /tmp itself (anyone may create, only owners remove): MariaDB runs as its own user and keeps its folder there too.
  const scratch = join(runDir, "tmp")
  mkdirSync(scratch)
  chmodSync(runDir, 0o711)
  chmodSync(scratch, 0o1777)
  process.env["TMPDIR"] = scratch
  project.provide("runDir", runDir)
  project.provide("godotFixtures", await exportGodotFixtures(join(runDir, "godot")))
  const teardowns: Array<() => Promise<void>> = []
  // One MariaDB for the whole run; test files each create their own database on it (test/setup/mariadb.ts).
  const mariadb = await startMariaDb()
  teardowns.push(mariadb.destroy)
  project.provide("mariadbUrl", mariadb.url)
  return async () => {
    for (const teardown of teardowns.reverse()) await teardown()
    rmSync(runDir, { recursive: true, force: true })
  }
}
