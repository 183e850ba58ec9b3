import { Effect, Layer, Option } from "effect"
import { type ReleaseEntries, ReleaseEntryStore } from "../../ports/ReleaseEntryStore.ts"

/** Entry indexes in a map of its own (a fresh, empty one each time the layer is built). */
export const layerMemoryReleaseEntryStore = Layer.sync(ReleaseEntryStore, () => {
  const records = new Map<string, ReleaseEntries>()
  const key = (gameId: string, version: string) => JSON.stringify([gameId, version])
  return ReleaseEntryStore.of({
    save: (record) => Effect.sync(() => void records.set(key(record.gameId, record.version), record)),
    get: (gameId, version) => Effect.sync(() => Option.fromNullishOr(records.get(key(gameId, version)))),
  })
})
