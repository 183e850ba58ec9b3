// Every persistence port on one SQL database (SQLite or MySQL): `layerSqlRecords` opens and migrates it, and closes
// it when the layer is released.
import { Layer } from "effect"
import { layerSqlApiKeyStore } from "./SqlApiKeyStore.ts"
import { layerSqlTrustedPublisherStore } from "./SqlTrustedPublisherStore.ts"
import { layerCatalogPages } from "../cache/CatalogPages.ts"
import { layerSqlBudgetLedger } from "./SqlBudgetLedger.ts"
import { layerSqlCatalog } from "./SqlCatalog.ts"
import { layerSqlChangeFeed } from "./SqlChangeFeed.ts"
import { layerSqlDatabase, type SqlDatabaseOptions } from "./SqlDatabase.ts"
import { layerSqlGameStore } from "./SqlGameStore.ts"
import { layerSqlGameViews } from "./SqlGameViews.ts"
import { layerSqlNotificationOutbox } from "./SqlNotificationOutbox.ts"
import { layerSqlReleaseEntryStore } from "./SqlReleaseEntryStore.ts"
import { layerSqlPagedLists } from "./SqlPagedLists.ts"
import { layerSqlReleaseStore } from "./SqlReleaseStore.ts"
import { layerSqlReviewGateStore } from "./SqlReviewGateStore.ts"
import { layerSqlScanStore } from "./SqlScanStore.ts"
import { layerSqlSessionStore } from "./SqlSessionStore.ts"
import { layerSqlSubmissionStore } from "./SqlSubmissionStore.ts"
import { layerSqlTimeline } from "./SqlTimeline.ts"
import { layerSqlWebhookSubscriptions } from "./SqlWebhookSubscriptions.ts"

export { layerSqlDatabase, OPERATION_TIMEOUT_MS, SqlDatabase, type SqlDatabaseOptions, type SqlTarget, type SqlTransaction } from "./SqlDatabase.ts"
export { SqlFailure, type SqlFailureKind } from "./SqlFailure.ts"
export { describeMysqlTarget, parseMysqlUrl } from "./mysql.ts"
export { layerSqlNotificationOutbox } from "./SqlNotificationOutbox.ts"
export { layerSqlSessionStore } from "./SqlSessionStore.ts"
export { layerSqlApiKeyStore } from "./SqlApiKeyStore.ts"
export { layerSqlTrustedPublisherStore } from "./SqlTrustedPublisherStore.ts"

/** Every persistence port, on the SqlDatabase they are given (layerSqlRecords opens one). */
export const layerSqlStores = Layer.mergeAll(
  layerSqlGameStore,
  layerSqlReleaseStore,
  layerSqlGameViews,
  layerSqlChangeFeed,
  layerSqlBudgetLedger,
  layerSqlScanStore,
  layerSqlSubmissionStore,
  layerSqlNotificationOutbox,
  layerSqlSessionStore,
  layerSqlReviewGateStore,
  layerSqlReleaseEntryStore,
  layerSqlTimeline,
  layerSqlWebhookSubscriptions,
  layerSqlApiKeyStore,
  layerSqlTrustedPublisherStore,
  layerSqlPagedLists,
  layerSqlCatalog,
).pipe((stores) => Layer.provideMerge(layerCatalogPages, stores))

/** Every persistence port sharing one database, plus SqlDatabase itself (for its description). */
export const layerSqlRecords = (options: SqlDatabaseOptions) => layerSqlStores.pipe(Layer.provideMerge(layerSqlDatabase(options)))
