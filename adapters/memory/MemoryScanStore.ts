import { appendTimelineEvent } from "./memoryLifecycle.ts"
import { Effect, Layer, Option } from "effect"
import { scanCounts } from "../../domain/review/ReviewGate.ts"
import { ScanStore } from "../../ports/ScanStore.ts"
import { oldestFirst } from "./MemoryReleaseStore.ts"
import { MemoryTables, releaseKey } from "./MemoryTables.ts"

export const layerMemoryScanStore = Layer.effect(
  ScanStore,
  MemoryTables.useSync((tables) => {
    const { releases, scans } = tables
    return ScanStore.of({
      save: (record) =>
        Effect.sync(() => {
          scans.set(releaseKey(record.gameId, record.version), record)
          appendTimelineEvent(tables, { gameId: record.gameId, version: record.version, kind: "scanned", actor: "system", reason: null, at: record.scannedAt })
        }),
      get: (gameId, version) => Effect.sync(() => Option.fromNullishOr(scans.get(releaseKey(gameId, version)))),
      listByGame: (gameId) =>
        Effect.sync(() =>
          [...scans.values()].filter((s) => s.gameId === gameId).sort((a, b) => (a.version < b.version ? -1 : a.version > b.version ? 1 : 0))
        ),
      countsOf: (wanted) =>
        Effect.sync(() =>
          wanted.flatMap(({ gameId, version }) => {
            const record = scans.get(releaseKey(gameId, version))
            return record === undefined ? [] : [{ gameId, version, ...scanCounts(record.report) }]
          })
        ),
      unscanned: (limit) =>
        Effect.sync(() => [...releases.entries()].filter(([key]) => !scans.has(key)).map(([, r]) => r).sort(oldestFirst).slice(0, limit)),
      remove: (gameId, version) => Effect.sync(() => scans.delete(releaseKey(gameId, version))),
    })
  }),
)
