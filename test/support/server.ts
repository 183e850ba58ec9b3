// Starts the real server process (`node apps/server/main.ts`, as `npm start` does) on a free port, for end-to-end tests.
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"

export const REPO_ROOT = resolve(import.meta.dirname, "../..")

/**
 * The `start` script of package.json, split into its environment prefix and its Node flags, so tests and benchmarks
 * run the server exactly as `npm start` does (the flags and MALLOC_ARENA_MAX keep upload memory low).
 */
const START = /^((?:[A-Z_]+=\S+ )*)node ((?:--\S+ )*)apps\/server\/main\.ts$/.exec(
  JSON.parse(readFileSync(resolve(REPO_ROOT, "package.json"), "utf8")).scripts.start,
)
if (START === null) throw new Error("package.json's start script is not 'ENV=… node --flags… apps/server/main.ts'")
export const SERVER_NODE_FLAGS: ReadonlyArray<string> = START[2]!.trim().split(" ").filter(Boolean)
export const SERVER_ENV: Readonly<Record<string, string>> = Object.fromEntries(
  START[1]!.trim().split(" ").filter(Boolean).map((pair) => pair.split("=") as [string, string]),
)

export interface RunningServer {
  readonly baseUrl: string
  readonly dataDir: string
  readonly process: ChildProcess
  /** Everything the server printed so far (stdout and stderr). */
  readonly output: () => string
  /**
   * Everything printed, once it contains `text`: log lines are written in batches, so a line about a request may
   * arrive just after its response. Fails after `timeoutMs`.
   */
  readonly outputContaining: (text: string, timeoutMs?: number) => Promise<string>
  /** A dev-issuer token, minted by the CLI against the same DATA_DIR. */
  readonly token: (userId: string, options?: { readonly admin?: boolean }) => string
  /** SIGTERM and wait for exit. */
  readonly stop: () => Promise<number | null>
  /** SIGKILL and wait: a crash. */
  readonly kill: () => Promise<void>
}

export interface StartOptions {
  readonly env?: Readonly<Record<string, string>>
  /** Reuse a data directory (restart after a crash). */
  readonly dataDir?: string
  readonly timeoutMs?: number
  /** The script to run instead of apps/server/main.ts (test/support/faultServer.ts). */
  readonly entry?: string
}

/** Output kept of a long-running server: its first characters (the start-up lines) and its newest ones. */
const OUTPUT_HEAD = 1 << 20
const OUTPUT_TAIL = 32 << 20

const STOP_MS = 60_000

/** Each thread of a process with the kernel function it sleeps in (Linux's /proc), or why that cannot be read. */
const threadWaits = (pid: number | undefined): string => {
  try {
    return readdirSync(`/proc/${pid}/task`).map((task) => {
      const read = (name: string) => readFileSync(`/proc/${pid}/task/${task}/${name}`, "utf8").trim()
      return `${read("comm")}:${read("wchan")}:${/^State:\s*(.*)$/m.exec(read("status"))?.[1] ?? "?"}`
    }).join(", ")
  } catch (error) {
    return `(unreadable: ${(error as Error).message})`
  }
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode)
    else child.once("exit", (code) => resolve(code))
  })

export const startServer = async (options: StartOptions = {}): Promise<RunningServer> => {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "pckgate-e2e-"))
  const env = { ...process.env, ...SERVER_ENV, PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, ...options.env }
  // The same Node flags as `npm start` (package.json): a small young generation keeps upload memory low.
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, options.entry ?? "apps/server/main.ts"], { cwd: REPO_ROOT, env, stdio: ["ignore", "pipe", "pipe"] })
  let output = ""
  const append = (d: Buffer) => {
    output += d.toString()
    // A benchmark's request log outgrows any string (millions of lines): keep the start and the newest part.
    if (output.length > OUTPUT_HEAD + 2 * OUTPUT_TAIL) output = `${output.slice(0, OUTPUT_HEAD)}\n[… output cut …]\n${output.slice(-OUTPUT_TAIL)}`
  }
  child.stdout!.on("data", append)
  child.stderr!.on("data", append)
  const deadline = Date.now() + (options.timeoutMs ?? 30_000)
  let baseUrl: string | null = null
  while (baseUrl === null) {
    const match = /public base URL (\S+)\)/.exec(output)
    if (match !== null && output.includes("data directory:")) baseUrl = match[1]!
    else if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`)
    else if (Date.now() > deadline) {
      child.kill("SIGKILL")
      throw new Error(`server did not start in time:\n${output}`)
    }
    else await new Promise((r) => setTimeout(r, 50))
  }
  return {
    baseUrl,
    dataDir,
    process: child,
    output: () => output,
    outputContaining: async (text, timeoutMs = 5000) => {
      const deadline = Date.now() + timeoutMs
      while (!output.includes(text)) {
        if (Date.now() > deadline) throw new Error(`the server never printed '${text}':\n${output.slice(-4000)}`)
        await new Promise((r) => setTimeout(r, 20))
      }
      return output
    },
    token: (userId, tokenOptions = {}) => {
      const args = ["apps/cli/main.ts", "token", "--user", userId, ...(tokenOptions.admin === true ? ["--admin"] : [])]
      const result = spawnSync(process.execPath, args, { cwd: REPO_ROOT, env, encoding: "utf8" })
      if (result.status !== 0) throw new Error(`token command failed: ${result.stderr}`)
      return result.stdout.trim().split("\n").at(-1)!
    },
    stop: async () => {
      child.kill("SIGTERM")
      // The server exits within 12 s of SIGTERM (apps/server/main.ts); one that has not after a minute is stuck where
      // no timer runs. Fail with what shows where (its threads' kernel waits, its last output) instead of a bare
      // hook timeout.
      let timer: NodeJS.Timeout | undefined
      const stuck = new Promise<"stuck">((resolve) => (timer = setTimeout(() => resolve("stuck"), STOP_MS)))
      const outcome = await Promise.race([exited(child), stuck])
      clearTimeout(timer)
      if (outcome !== "stuck") return outcome
      const where = threadWaits(child.pid)
      child.kill("SIGKILL")
      await exited(child)
      throw new Error(`the server did not exit within ${STOP_MS / 1000} s of SIGTERM; its threads waited in: ${where}\n${output.slice(-8000)}`)
    },
    kill: async () => {
      child.kill("SIGKILL")
      await exited(child)
    },
  }
}
