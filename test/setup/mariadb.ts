// A throwaway MariaDB server: its own data directory, a free loopback port, utf8mb4 with a binary collation, a password
// user for TCP. The test run starts one (test/setup/global.ts); fault tests and the benchmark start their own, because
// they stop and restart it. Stopped by its pid, never by name.
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createConnection } from "mysql2"

export const MARIADB_SERVER = "/usr/sbin/mariadbd"
const INSTALL_DB = "mariadb-install-db"
const USER = "pckgate"
const DATABASE = "pckgate"

export interface MariaDb {
  /** mysql://pckgate:<password>@127.0.0.1:<port>/pckgate */
  readonly url: string
  readonly port: number
  readonly pid: () => number | undefined
  /** SIGTERM by pid and wait until it has exited. */
  readonly stop: () => Promise<void>
  /** Starts the stopped server again on the same data directory and port. */
  readonly restart: () => Promise<void>
  /** Stops the server and deletes its data directory. */
  readonly destroy: () => Promise<void>
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))))
    })
  })

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Resolves once `url` accepts a login, or rejects with what the server logged. */
const waitUntilReady = async (url: string, child: ChildProcess, errorLog: string) => {
  const deadline = Date.now() + 60_000
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const connection = createConnection({ uri: url, connectTimeout: 1000 })
      connection.on("error", () => undefined)
      connection.ping((error) => {
        if (error) {
          connection.destroy()
          resolve(false)
        } else connection.end(() => resolve(true))
      })
    })
    if (ok) return
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      let log = ""
      try {
        log = readFileSync(errorLog, "utf8").slice(-3000)
      } catch {
        // no log yet
      }
      throw new Error(`MariaDB did not become ready (exit ${child.exitCode ?? child.signalCode}):\n${log}`)
    }
    await sleep(50)
  }
}

/** Initialises a data directory and starts `mariadbd` on it. Needs Debian's `mariadb-server`. */
export const startMariaDb = async (): Promise<MariaDb> => {
  const asRoot = process.getuid?.() === 0
  const dir = mkdtempSync(join(tmpdir(), "pckgate-mariadb-"))
  const data = join(dir, "data")
  // Its temporary tables in a folder of its own, not the run's shared scratch folder where other processes come and go.
  const temporary = join(dir, "tmp")
  mkdirSync(temporary, { mode: 0o700 })
  // mariadbd drops to the `mysql` user when started as root; that user must own everything it touches.
  if (asRoot) {
    const uid = Number(spawnSync("id", ["-u", "mysql"], { encoding: "utf8" }).stdout.trim())
    const gid = Number(spawnSync("id", ["-g", "mysql"], { encoding: "utf8" }).stdout.trim())
    chownSync(dir, uid, gid)
    chownSync(temporary, uid, gid)
  }
  const userArgs = asRoot ? ["--user=mysql"] : []
  const init = spawnSync(INSTALL_DB, ["--no-defaults", ...userArgs, `--datadir=${data}`, "--auth-root-authentication-method=socket", "--skip-test-db"], { encoding: "utf8" })
  if (init.status !== 0) throw new Error(`${INSTALL_DB} failed (exit ${init.status}): ${init.stderr.slice(-2000)}${init.error ? String(init.error) : ""}`)

  const password = randomBytes(12).toString("hex")
  const port = await freePort()
  const initFile = join(dir, "init.sql")
  // Runs at every start, so it is idempotent. The user may create databases: test files each make their own.
  writeFileSync(initFile, [
    `CREATE DATABASE IF NOT EXISTS ${DATABASE} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;`,
    `CREATE USER IF NOT EXISTS '${USER}'@'127.0.0.1' IDENTIFIED BY '${password}';`,
    `GRANT ALL PRIVILEGES ON *.* TO '${USER}'@'127.0.0.1';`,
  ].join("\n"), { mode: 0o644 })
  const url = `mysql://${USER}:${password}@127.0.0.1:${port}/${DATABASE}`
  const errorLog = join(dir, "error.log")
  const args = [
    "--no-defaults",
    ...userArgs,
    `--datadir=${data}`,
    `--tmpdir=${temporary}`,
    `--socket=${join(dir, "mysqld.sock")}`,
    `--pid-file=${join(dir, "mysqld.pid")}`,
    `--port=${port}`,
    "--bind-address=127.0.0.1",
    "--skip-name-resolve",
    `--log-error=${errorLog}`,
    "--character-set-server=utf8mb4",
    "--collation-server=utf8mb4_bin",
    `--init-file=${initFile}`,
    // A test server: small memory footprint on a 2-core machine.
    "--innodb-buffer-pool-size=64M",
    "--performance-schema=OFF",
  ]

  let child: ChildProcess | null = null
  const launch = async () => {
    const started = spawn(MARIADB_SERVER, args, { stdio: "ignore" })
    child = started
    try {
      await waitUntilReady(url, started, errorLog)
    } catch (error) {
      await stop() // never leave a half-started server behind
      throw error
    }
  }
  const stop = async () => {
    const running = child
    child = null
    if (running === null || running.exitCode !== null || running.signalCode !== null) return
    const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()))
    process.kill(running.pid!, "SIGTERM")
    const timer = setTimeout(() => running.pid !== undefined && process.kill(running.pid, "SIGKILL"), 30_000)
    await exited
    clearTimeout(timer)
  }
  await launch()
  return {
    url,
    port,
    pid: () => child?.pid,
    stop,
    restart: launch,
    destroy: async () => {
      await stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** Creates an empty utf8mb4_bin database next to the one in `url` and returns its URL: one per test file or benchmark. */
export const freshDatabase = async (url: string, prefix: string): Promise<string> => {
  const name = `${prefix}_${randomBytes(4).toString("hex")}`.replace(/[^A-Za-z0-9_]/g, "_")
  await new Promise<void>((resolve, reject) => {
    const connection = createConnection({ uri: url })
    connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`, (error) => {
      connection.end()
      if (error) reject(error)
      else resolve()
    })
  })
  const fresh = new URL(url)
  fresh.pathname = `/${name}`
  return fresh.toString()
}
