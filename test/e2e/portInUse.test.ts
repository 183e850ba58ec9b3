// `npm start` on a port that is taken: one line naming the port and PORT on stderr, exit 2, no stack trace.
import { spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { REPO_ROOT, type RunningServer, SERVER_ENV, SERVER_NODE_FLAGS, startServer } from "../support/server.ts"

describe("npm start on a port in use", () => {
  let first: RunningServer
  beforeAll(async () => {
    first = await startServer()
  })
  afterAll(() => first.stop())

  test("exits 2 with one line that names the port and PORT", async () => {
    const port = new URL(first.baseUrl).port
    const env = { ...process.env, ...SERVER_ENV, PORT: port, HOST: "127.0.0.1", DATA_DIR: mkdtempSync(join(tmpdir(), "pckgate-port-")) }
    const second = spawn(process.execPath, [...SERVER_NODE_FLAGS, "apps/server/main.ts"], { cwd: REPO_ROOT, env, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    second.stdout.on("data", (d: Buffer) => (stdout += d))
    second.stderr.on("data", (d: Buffer) => (stderr += d))
    const code = await new Promise<number | null>((resolve) => second.on("close", resolve))
    expect(code).toBe(2)
    expect(stderr.trimEnd().split("\n"), stderr).toHaveLength(1)
    expect(stderr).toContain(`port ${port}`)
    expect(stderr).toMatch(/\bPORT\b/)
    expect(stderr).not.toMatch(/^\s+at /m)
    expect(stdout).not.toContain("listening")
    // The first server still answers.
    expect((await fetch(`${first.baseUrl}/healthz`)).status).toBe(200)
  })
})
