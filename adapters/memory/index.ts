// Complete in-memory implementations of every port: run the whole domain without a server, a database or a disk.
import { Layer } from "effect"
import type { Principal } from "../../domain/auth/Principal.ts"
import { SignedUrls } from "../signed-urls/SignedUrls.ts"
import { layerManualClock } from "./MemoryClock.ts"
import { layerMemoryIdentity } from "./MemoryIdentity.ts"
import { layerSequentialIds } from "./MemoryIds.ts"
import { layerMemoryObjectStorage } from "./MemoryObjectStorage.ts"
import { layerMemoryRecords } from "./MemoryRecords.ts"
import { layerMemoryReviewNotifier } from "./MemoryReviewNotifier.ts"
import { layerMemorySha256Hasher } from "./MemorySha256Hasher.ts"
import { layerWebCryptoSecretRandom } from "./MemorySecretRandom.ts"

export { layerMemoryBudgetLedger } from "./MemoryBudgetLedger.ts"
export { layerManualClock, ManualClock } from "./MemoryClock.ts"
export { layerMemoryCatalog } from "./MemoryCatalog.ts"
export { layerMemoryChangeFeed } from "./MemoryChangeFeed.ts"
export { layerMemoryGameStore } from "./MemoryGameStore.ts"
export { layerMemoryGameViews } from "./MemoryGameViews.ts"
export { layerMemoryIdentity } from "./MemoryIdentity.ts"
export { layerSequentialIds } from "./MemoryIds.ts"
export { layerMemoryObjectStorage } from "./MemoryObjectStorage.ts"
export { layerMemoryPagedLists } from "./MemoryPagedLists.ts"
export { layerMemoryReleaseStore } from "./MemoryReleaseStore.ts"
export { layerMemoryReleaseEntryStore } from "./MemoryReleaseEntryStore.ts"
export { layerMemoryRecords } from "./MemoryRecords.ts"
export { layerMemoryReviewGateStore } from "./MemoryReviewGateStore.ts"
export { layerScanWake, makeScanWake } from "./MemoryScanWake.ts"
export { layerMemoryScanStore } from "./MemoryScanStore.ts"
export { layerMemorySessionStore } from "./MemorySessionStore.ts"
export { layerMemorySubmissionStore } from "./MemorySubmissionStore.ts"
export { layerMemoryUploadTokens, makeMemoryUploadTokens } from "./MemoryUploadTokens.ts"
export { layerMemoryTables, MemoryTables } from "./MemoryTables.ts"
export { layerMemoryReviewNotifier, ReviewInbox } from "./MemoryReviewNotifier.ts"
export { layerMemorySha256Hasher } from "./MemorySha256Hasher.ts"
export { layerMemoryApiKeyStore } from "./MemoryApiKeyStore.ts"
export { layerMemoryTrustedPublisherStore } from "./MemoryTrustedPublisherStore.ts"
export { layerWebCryptoSecretRandom } from "./MemorySecretRandom.ts"

export interface MemoryOptions {
  /** Opaque access tokens and who they name. */
  readonly tokens?: Readonly<Record<string, Principal>>
  /** Where presigned URLs point (the app that serves /storage/). */
  readonly baseUrl?: string
  readonly start?: Date
}

/** Every port on memory adapters, plus ManualClock and ReviewInbox for driving and observing them. */
export const layerMemory = (options: MemoryOptions = {}) => {
  const signer = SignedUrls.layer(crypto.getRandomValues(new Uint8Array(32)), () => options.baseUrl ?? "http://localhost")
  const clock = layerManualClock(options.start)
  return Layer.mergeAll(
    layerMemoryRecords,
    layerSequentialIds,
    layerMemoryReviewNotifier,
    layerMemorySha256Hasher,
    layerWebCryptoSecretRandom,
    layerMemoryIdentity(options.tokens ?? {}),
    layerMemoryObjectStorage.pipe(Layer.provideMerge(signer)),
  ).pipe(Layer.provideMerge(clock))
}
