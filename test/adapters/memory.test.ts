import { Layer } from "effect"
import { layerMemoryBudgetLedger } from "../../adapters/memory/MemoryBudgetLedger.ts"
import { layerManualClock } from "../../adapters/memory/MemoryClock.ts"
import { layerMemoryGameStore } from "../../adapters/memory/MemoryGameStore.ts"
import { layerMemoryObjectStorage } from "../../adapters/memory/MemoryObjectStorage.ts"
import { layerMemoryReleaseStore } from "../../adapters/memory/MemoryReleaseStore.ts"
import { SignedUrls } from "../../adapters/signed-urls/SignedUrls.ts"
import { budgetLedgerContract } from "../contract/BudgetLedger.contract.ts"
import { gameStoreContract } from "../contract/GameStore.contract.ts"
import { objectStorageContract } from "../contract/ObjectStorage.contract.ts"
import { releaseStoreContract } from "../contract/ReleaseStore.contract.ts"

gameStoreContract("memory", () => layerMemoryGameStore)
releaseStoreContract("memory", () => Layer.merge(layerMemoryReleaseStore, layerMemoryGameStore))
budgetLedgerContract("memory", () => layerMemoryBudgetLedger)
objectStorageContract("memory", () =>
  layerMemoryObjectStorage.pipe(
    Layer.provide(SignedUrls.layer(new Uint8Array(32), () => "http://localhost")),
    Layer.provide(layerManualClock()),
  ))
