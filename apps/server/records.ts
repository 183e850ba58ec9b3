import { join } from "node:path"
import { Layer } from "effect"
import { layerGameViewCache } from "../../adapters/cache/index.ts"
import { layerCachedSessions, SESSION_CACHE_MS } from "../../adapters/cache/CachedSessions.ts"
import { describeMysqlTarget, layerSqlRecords, parseMysqlUrl, type SqlTarget } from "../../adapters/sql/index.ts"
import type { BudgetLedger } from "../../ports/BudgetLedger.ts"
import type { GameStore } from "../../ports/GameStore.ts"
import type { GameViews } from "../../ports/GameViews.ts"
import type { NotificationOutbox } from "../../ports/NotificationOutbox.ts"
import type { CatalogPages } from "../../adapters/cache/CatalogPages.ts"
import type { Catalog } from "../../ports/Catalog.ts"
import type { PagedLists } from "../../ports/PagedLists.ts"
import type { ReleaseEntryStore } from "../../ports/ReleaseEntryStore.ts"
import type { ReleaseStore } from "../../ports/ReleaseStore.ts"
import type { ReviewGateStore } from "../../ports/ReviewGateStore.ts"
import type { ScanStore } from "../../ports/ScanStore.ts"
import type { SessionStore } from "../../ports/SessionStore.ts"
import type { ApiKeyStore } from "../../ports/ApiKeyStore.ts"
import type { TrustedPublisherStore } from "../../ports/TrustedPublisherStore.ts"
import type { SubmissionStore } from "../../ports/SubmissionStore.ts"
import type { Timeline } from "../../ports/Timeline.ts"
import type { WebhookSubscriptions } from "../../ports/WebhookSubscriptions.ts"
import type { ServerConfig } from "./config.ts"

export interface Records {
  /** Opens and migrates the database when built; closes it when released (the runtime's dispose at shutdown). */
  readonly layer: Layer.Layer<GameStore | GameViews | ReleaseStore | BudgetLedger | ScanStore | SubmissionStore | NotificationOutbox | SessionStore | ReleaseEntryStore | Timeline | WebhookSubscriptions | ApiKeyStore | TrustedPublisherStore | PagedLists | Catalog | CatalogPages | ReviewGateStore, unknown>
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

/** The stores on the database, as `layerSqlRecords` opens them. */
export type SqlRecords = ReturnType<typeof layerSqlRecords>

/** What the server says about its records at start-up. */
export const describeRecords = (config: ServerConfig): string =>
  describeTarget(recordsTarget(config)) + (config.gameViewCacheMs > 0 ? `, game views cached ${config.gameViewCacheMs} ms` : "") +
  `, sessions cached ${SESSION_CACHE_MS} ms`

/** The caches in front of `sql`, the stores on the configured database. */
export const cachedRecords = (config: ServerConfig, sql: SqlRecords): Records["layer"] =>
  Layer.provideMerge(
    // Sessions: each instance answers a session lookup from memory for at most 5 s (adapters/cache/CachedSessions.ts).
    // Game views: dropped by this instance's decisions at once, and by other instances' within 1 s through the change
    // feed (adapters/cache/ChangeFollower.ts).
    Layer.merge(layerGameViewCache({ ttlMs: config.gameViewCacheMs }), layerCachedSessions()),
    sql,
  )

/** Where records live, chosen from the configuration. */
export const selectRecords = async (config: ServerConfig): Promise<Records> => ({
  layer: cachedRecords(config, layerSqlRecords({ target: recordsTarget(config) })),
  describe: describeRecords(config),
})
