import { MIGRATION_NAMES } from "../../adapters/sql/migrate.ts"
import { mkdtempSync, readdirSync, readlinkSync } from "node:fs"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { createConnection } from "mysql2"
import { describe, expect, inject, test } from "vitest"
import { freshDatabase } from "../setup/mariadb.ts"
import { type RunningServer, startServer } from "../support/server.ts"

const hasOpen = (pid: number, path: string): boolean => {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === path
      } catch {
        return false
      }
    })
  } catch {
    return false
  }
}

const bothUp = async (starting: ReadonlyArray<Promise<RunningServer>>) => {
  const servers = await Promise.all(starting)
  for (const server of servers) expect((await fetch(`${server.baseUrl}/api/catalog`)).status).toBe(200)
  for (const server of servers) expect(await server.stop()).toBe(0)
}

describe("two instances starting at once on an empty database both come up, and the schema is applied once", () => {
  test("SQLite: both wait on the write lock, then one migrates and the other finds nothing to apply", async () => {
    const dataDir = mkdtempSync(join(inject("runDir"), "start-"))
    const file = join(dataDir, "pckgate.sqlite")
    // Hold the write lock while both start, so both reach the migration together when it is released.
    const holder = new DatabaseSync(file)
    holder.exec("PRAGMA journal_mode = WAL")
    holder.exec("BEGIN IMMEDIATE")
    const starting = [startServer({ dataDir }), startServer({ dataDir })]
    const children = () => {
      const pids: Array<number> = []
      for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) if (hasOpen(Number(entry), file)) pids.push(Number(entry))
      return pids.filter((pid) => pid !== process.pid)
    }
    while (children().length < 2) await new Promise((resolve) => setTimeout(resolve, 20))
    holder.exec("COMMIT")
    await bothUp(starting)
    expect(holder.prepare("SELECT name FROM kysely_migration").all().map((r) => r["name"])).toEqual(MIGRATION_NAMES)
    holder.close()
  })

  test("MariaDB: the Migrator's GET_LOCK lets one migrate while the other waits", async () => {
    const url = await freshDatabase(inject("mariadbUrl"), "start")
    const dataDir = mkdtempSync(join(inject("runDir"), "start-"))
    await bothUp([startServer({ dataDir, env: { DATABASE_URL: url } }), startServer({ dataDir, env: { DATABASE_URL: url } })])
    const connection = createConnection({ uri: url }).promise()
    const [rows] = await connection.query("SELECT name FROM kysely_migration")
    await connection.end()
    expect((rows as Array<{ name: string }>).map((r) => r.name)).toEqual(MIGRATION_NAMES)
  })
})
