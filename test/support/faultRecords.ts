// Stands in for apps/server/records.ts inside the fault server (faultServer.ts): the same records, caches and start-up
// line, with the SQL stores on a database whose finalize transaction pauses (pausingDatabase.ts).
import { Layer } from "effect"
import * as production from "../../apps/server/records.ts"
import { layerSqlDatabase, layerSqlStores } from "../../adapters/sql/index.ts"
import { layerPausingDatabase, PAUSE_VARIABLE, pausePointFrom } from "./pausingDatabase.ts"

export * from "../../apps/server/records.ts"

export const selectRecords: typeof production.selectRecords = async (config) => {
  const point = pausePointFrom(process.env)
  const database = layerPausingDatabase(point).pipe(Layer.provideMerge(layerSqlDatabase({ target: production.recordsTarget(config) })))
  return {
    layer: production.cachedRecords(config, layerSqlStores.pipe(Layer.provideMerge(database))),
    describe: `${production.describeRecords(config)} — TEST HOOK ${PAUSE_VARIABLE}=${point}`,
  }
}
