// Every persistence port on one SQL database (SQLite or MySQL): `layerSqlRecords` opens and migrates it, and closes
// it when the layer is released.
import { Layer } from "effect"
import { layerSqlBudgetLedger } from "./SqlBudgetLedger.ts"
import { layerSqlDatabase, type SqlDatabaseOptions } from "./SqlDatabase.ts"
import { layerSqlGameStore } from "./SqlGameStore.ts"
import { layerSqlReleaseStore } from "./SqlReleaseStore.ts"

export { layerSqlDatabase, OPERATION_TIMEOUT_MS, type PausePoint, SqlDatabase, type SqlDatabaseOptions, type SqlTarget } from "./SqlDatabase.ts"
export { describeMysqlTarget, parseMysqlUrl } from "./mysql.ts"

/** GameStore, ReleaseStore and BudgetLedger sharing one database, plus SqlDatabase itself (for its description). */
export const layerSqlRecords = (options: SqlDatabaseOptions) =>
  Layer.mergeAll(layerSqlGameStore, layerSqlReleaseStore, layerSqlBudgetLedger).pipe(Layer.provideMerge(layerSqlDatabase(options)))
