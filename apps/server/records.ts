import { Layer } from "effect"
import { layerMemoryBudgetLedger } from "../../adapters/memory/MemoryBudgetLedger.ts"
import { layerMemoryGameStore } from "../../adapters/memory/MemoryGameStore.ts"
import { layerMemoryReleaseStore } from "../../adapters/memory/MemoryReleaseStore.ts"
import type { BudgetLedger } from "../../ports/BudgetLedger.ts"
import type { GameStore } from "../../ports/GameStore.ts"
import type { ReleaseStore } from "../../ports/ReleaseStore.ts"
import type { ServerConfig } from "./config.ts"

export interface Records {
  readonly layer: Layer.Layer<GameStore | ReleaseStore | BudgetLedger, unknown>
  readonly describe: string
}

/** Where records live, chosen from the configuration. */
export const selectRecords = async (_config: ServerConfig): Promise<Records> => ({
  layer: Layer.mergeAll(layerMemoryGameStore, layerMemoryReleaseStore, layerMemoryBudgetLedger),
  describe: "records: in memory (lost on restart until the SQL store lands)",
})
