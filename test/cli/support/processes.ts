// What the CLI tests that run real commands share: a process whose output is collected, and a real server per suite.
import { spawn } from "node:child_process"
import { afterAll, beforeAll } from "vitest"
import { type RunningServer, type StartOptions, startServer } from "../../support/server.ts"

export interface Finished {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs `command` with `args` in `cwd`, with this process's environment plus `env`, and collects what it prints. */
export const runProcess = (command: string, args: ReadonlyArray<string>, options: { readonly cwd: string; readonly env: Readonly<Record<string, string>> }) =>
  new Promise<Finished>((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (d: Buffer) => (stdout += d))
    child.stderr.on("data", (d: Buffer) => (stderr += d))
    child.on("error", reject)
    child.on("close", (code) => resolve({ code, stdout, stderr }))
  })

/** A real server for the enclosing suite: started before its tests, stopped after them. Call inside `describe`. */
export const serverForSuite = (options: StartOptions = {}): (() => RunningServer) => {
  let server: RunningServer | undefined
  beforeAll(async () => {
    server = await startServer(options)
  })
  afterAll(() => server?.stop())
  return () => {
    if (server === undefined) throw new Error("the suite's server is not running (use it inside a test)")
    return server
  }
}
