// One global setup per test run: provisions external programs once, starts shared servers, stops them at the end.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { TestProject } from "vitest/node"
import { type DebianRequirement, ensureDebianPackages } from "./apt.ts"
import "./provided.ts"

/** Everything the suite needs from Debian, installed in one apt-get run when missing. */
const REQUIREMENTS: ReadonlyArray<DebianRequirement> = []

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  ensureDebianPackages(REQUIREMENTS)
  const runDir = mkdtempSync(join(tmpdir(), "pckgate-test-"))
  project.provide("runDir", runDir)
  const teardowns: Array<() => Promise<void>> = []
  return async () => {
    for (const teardown of teardowns.reverse()) await teardown()
    rmSync(runDir, { recursive: true, force: true })
  }
}
