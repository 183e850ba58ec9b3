import { mkdtempSync } from "node:fs"
import { join } from "node:path"
import { inject } from "vitest"
import { layerSqlRecords } from "../../adapters/sql/index.ts"
import { budgetLedgerContract } from "../contract/BudgetLedger.contract.ts"
import { changeFeedContract } from "../contract/ChangeFeed.contract.ts"
import { gameStoreContract } from "../contract/GameStore.contract.ts"
import { gameViewsContract } from "../contract/GameViews.contract.ts"
import { catalogContract } from "../contract/Catalog.contract.ts"
import { pagedListsContract } from "../contract/PagedLists.contract.ts"
import { notificationOutboxContract } from "../contract/NotificationOutbox.contract.ts"
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
import { apiKeyStoreContract } from "../contract/ApiKeyStore.contract.ts"
import { trustedPublisherStoreContract } from "../contract/TrustedPublisherStore.contract.ts"
import { reviewGateStoreContract } from "../contract/ReviewGateStore.contract.ts"

// Each suite opens its own database file, as a fresh `npm start` would.
const dir = mkdtempSync(join(inject("runDir"), "sqlite-"))
let files = 0
const records = () => layerSqlRecords({ target: { kind: "sqlite", path: join(dir, `records-${++files}.sqlite`) } })

gameStoreContract("SQLite", records)
releaseStoreContract("SQLite", records)
gameViewsContract("SQLite", records)
changeFeedContract("SQLite", records)
submissionStoreContract("SQLite", records)
scanStoreContract("SQLite", records)
reviewGateStoreContract("SQLite", records)
releaseEntryStoreContract("SQLite", records)
budgetLedgerContract("SQLite", records)
notificationOutboxContract("SQLite", records)
sessionStoreContract("SQLite", records)
pagedListsContract("SQLite", records)
catalogContract("SQLite", records)
lifecycleContract("SQLite", records)
lifecycleUseCasesContract("SQLite", records)
lifecycleLeaseContract("SQLite", records)
webhookSubscriptionsContract("SQLite", records)
apiKeyStoreContract("SQLite", records)
trustedPublisherStoreContract("SQLite", records)
creatorWebhooksContract("SQLite", records)
