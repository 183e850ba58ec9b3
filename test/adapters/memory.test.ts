import { Layer } from "effect"
import { layerMemoryTables } from "../../adapters/memory/MemoryTables.ts"
import { layerMemoryBudgetLedger } from "../../adapters/memory/MemoryBudgetLedger.ts"
import { layerManualClock } from "../../adapters/memory/MemoryClock.ts"
import { layerMemoryRecords, layerMemoryRecordsWithOutbox } from "../../adapters/memory/MemoryRecords.ts"
import { layerMemoryObjectStorage } from "../../adapters/memory/MemoryObjectStorage.ts"
import { layerMemorySessionStore } from "../../adapters/memory/MemorySessionStore.ts"
import { SignedUrls } from "../../adapters/signed-urls/SignedUrls.ts"
import { budgetLedgerContract } from "../contract/BudgetLedger.contract.ts"
import { changeFeedContract } from "../contract/ChangeFeed.contract.ts"
import { gameStoreContract } from "../contract/GameStore.contract.ts"
import { gameViewsContract } from "../contract/GameViews.contract.ts"
import { layerMemoryNotificationOutbox } from "../../adapters/notifier/MemoryNotificationOutbox.ts"
import { catalogContract } from "../contract/Catalog.contract.ts"
import { pagedListsContract } from "../contract/PagedLists.contract.ts"
import { notificationOutboxContract } from "../contract/NotificationOutbox.contract.ts"
import { objectStorageContract } from "../contract/ObjectStorage.contract.ts"
import { releaseStoreContract } from "../contract/ReleaseStore.contract.ts"
import { lifecycleContract } from "../contract/Lifecycle.contract.ts"
import { lifecycleUseCasesContract } from "../contract/LifecycleUseCases.contract.ts"
import { lifecycleLeaseContract } from "../contract/LifecycleLease.contract.ts"
import { creatorWebhooksContract } from "../contract/CreatorWebhooks.contract.ts"
import { webhookSubscriptionsContract } from "../contract/WebhookSubscriptions.contract.ts"
import { submissionStoreContract } from "../contract/SubmissionStore.contract.ts"
import { scanStoreContract } from "../contract/ScanStore.contract.ts"
import { releaseEntryStoreContract } from "../contract/ReleaseEntryStore.contract.ts"
import { sessionStoreContract } from "../contract/SessionStore.contract.ts"
import { reviewGateStoreContract } from "../contract/ReviewGateStore.contract.ts"
import { layerMemoryIdentity } from "../../adapters/memory/MemoryIdentity.ts"
import { layerMemoryUploadTokens } from "../../adapters/memory/MemoryUploadTokens.ts"
import { identityContract, memoryTokenSource } from "../contract/Identity.contract.ts"
import { uploadTokensContract } from "../contract/UploadTokens.contract.ts"
import { apiKeyStoreContract } from "../contract/ApiKeyStore.contract.ts"
import { trustedPublisherStoreContract } from "../contract/TrustedPublisherStore.contract.ts"
import { layerMemoryApiKeyStore } from "../../adapters/memory/MemoryApiKeyStore.ts"

gameStoreContract("memory", () => layerMemoryRecords)
releaseStoreContract("memory", () => layerMemoryRecords)
gameViewsContract("memory", () => layerMemoryRecords)
changeFeedContract("memory", () => layerMemoryRecords)
submissionStoreContract("memory", () => layerMemoryRecords)
scanStoreContract("memory", () => layerMemoryRecords)
reviewGateStoreContract("memory", () => layerMemoryRecords)
releaseEntryStoreContract("memory", () => layerMemoryRecords)
budgetLedgerContract("memory", () => layerMemoryBudgetLedger)
notificationOutboxContract("memory", () => layerMemoryNotificationOutbox)
sessionStoreContract("memory", () => layerMemorySessionStore)
apiKeyStoreContract("memory", () => layerMemoryApiKeyStore.pipe(Layer.provide(layerMemoryTables)))
trustedPublisherStoreContract("memory", () => layerMemoryRecords)
objectStorageContract("memory", () =>
  layerMemoryObjectStorage.pipe(
    Layer.provide(SignedUrls.layer(new Uint8Array(32), () => "http://localhost")),
    Layer.provide(layerManualClock()),
  ))
uploadTokensContract("memory", () => layerMemoryUploadTokens)
identityContract("memory", () => memoryTokenSource(layerMemoryIdentity))
pagedListsContract("memory", () => layerMemoryRecords)
catalogContract("memory", () => layerMemoryRecords)
lifecycleContract("memory", () => layerMemoryRecords)
lifecycleUseCasesContract("memory", () => layerMemoryRecords)
lifecycleLeaseContract("memory", () => layerMemoryRecords)
webhookSubscriptionsContract("memory", () => layerMemoryRecords)
creatorWebhooksContract("memory", () => layerMemoryRecordsWithOutbox)
