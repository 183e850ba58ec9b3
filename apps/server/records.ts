import { join } from "node:path"
import { Layer } from "effect"
import { layerCachedGameViews } from "../../adapters/cache/CachedGameViews.ts"
import { layerCachedSessions, SESSION_CACHE_MS } from "../../adapters/cache/CachedSessions.ts"
import { describeMysqlTarget, layerSqlRecords, parseMysqlUrl, type PausePoint, type SqlTarget } from "../../adapters/sql/index.ts"
import type { BudgetLedger } from "../../ports/BudgetLedger.ts"
import type { GameStore } from "../../ports/GameStore.ts"
import type { NotificationOutbox } from "../../ports/NotificationOutbox.ts"
import type { ReleaseStore } from "../../ports/ReleaseStore.ts"
import type { ScanStore } from "../../ports/ScanStore.ts"
import type { SessionStore } from "../../ports/SessionStore.ts"
import type { SubmissionStore } from "../../ports/SubmissionStore.ts"
import type { ServerConfig } from "./config.ts"

/** Fault tests only: the server holds forever at this point of a write, so a test can SIGKILL it there. */
const PAUSE_VARIABLE = "PCKGATE_TEST_PAUSE_AT"
const PAUSE_POINTS: ReadonlyArray<PausePoint> = ["finalize:before-commit", "finalize:after-commit"]

export interface Records {
  /** Opens and migrates the database when built; closes it when released (the runtime's dispose at shutdown). */
  readonly layer: Layer.Layer<GameStore | ReleaseStore | BudgetLedger | ScanStore | SubmissionStore | NotificationOutbox | SessionStore, unknown>
  readonly describe: string
}

/** DATABASE_URL (mysql://…) selects MySQL; otherwise the embedded SQLite file in DATA_DIR. */
export const recordsTarget = (config: ServerConfig): SqlTarget =>
  config.databaseUrl !== null
    ? { kind: "mysql", url: config.databaseUrl }
    : { kind: "sqlite", path: join(config.dataDir, "pckgate.sqlite") }

const describeTarget = (target: SqlTarget): string => {
  if (target.kind === "sqlite") return `records: SQLite ${target.path} (WAL)`
  const parsed = parseMysqlUrl(target.url)
  if ("error" in parsed) throw new Error(parsed.error)
  return `records: ${describeMysqlTarget(parsed)}`
}

const pauseHook = (env: Readonly<Record<string, string | undefined>>) => {
  const wanted = env[PAUSE_VARIABLE]
  if (wanted === undefined || wanted === "") return undefined
  if (!PAUSE_POINTS.includes(wanted as PausePoint)) throw new Error(`${PAUSE_VARIABLE} must be one of ${PAUSE_POINTS.join(", ")}`)
  return async (point: PausePoint) => {
    if (point !== wanted) return
    process.stderr.write(`[${PAUSE_VARIABLE}] paused at ${point}\n`)
    await new Promise<never>(() => undefined)
  }
}

/** Where records live, chosen from the configuration. */
export const selectRecords = async (config: ServerConfig, env: Readonly<Record<string, string | undefined>> = process.env): Promise<Records> => {
  const target = recordsTarget(config)
  const pause = pauseHook(env)
  return {
    layer: Layer.provideMerge(
      // Sessions: each instance answers a session lookup from memory for at most 5 s (adapters/cache/CachedSessions.ts).
      Layer.merge(layerCachedGameViews({ ttlMs: config.gameViewCacheMs }), layerCachedSessions()),
      layerSqlRecords({ target, ...(pause !== undefined ? { pause } : {}) }),
    ),
    describe: describeTarget(target) + (config.gameViewCacheMs > 0 ? `, game views cached ${config.gameViewCacheMs} ms` : "") +
      `, sessions cached ${SESSION_CACHE_MS} ms` +
      (pause !== undefined ? ` — TEST HOOK ${PAUSE_VARIABLE}=${env[PAUSE_VARIABLE]}` : ""),
  }
}
