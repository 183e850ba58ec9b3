// Runs the CLI as a subprocess (`node apps/cli/main.ts …`, as `npm run -s cli -- …` does).
import { spawn } from "node:child_process"
import { REPO_ROOT } from "./server.ts"

export interface CliRun {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
  /** stdout parsed as JSON (for --json runs). */
  readonly json: () => any
}

/** The CLI exchanges a CI's ID token when it finds one: tests that want none say so, even when run in CI. */
export const NO_CI_ID_TOKEN = { ACTIONS_ID_TOKEN_REQUEST_URL: "", ACTIONS_ID_TOKEN_REQUEST_TOKEN: "", PCKGATE_ID_TOKEN: "" }

export const runCli = (args: ReadonlyArray<string>, env: Readonly<Record<string, string>> = {}, timeoutMs = 60_000) =>
  new Promise<CliRun>((resolve, reject) => {
    const child = spawn(process.execPath, ["apps/cli/main.ts", ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, PCKGATE_URL: "", PCKGATE_TOKEN: "", PCKGATE_TOKEN_COMMAND: "", ...NO_CI_ID_TOKEN, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (d: Buffer) => (stdout += d))
    child.stderr.on("data", (d: Buffer) => (stderr += d))
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs)
    child.on("error", reject)
    child.on("close", (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr, json: () => JSON.parse(stdout.trim().split("\n").at(-1)!) })
    })
  })
