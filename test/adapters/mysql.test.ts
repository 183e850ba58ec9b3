import { inject } from "vitest"
import { layerSqlRecords } from "../../adapters/sql/index.ts"
import { freshDatabase } from "../setup/mariadb.ts"
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

// The run's MariaDB (test/setup/global.ts), a database of this file's own. Every suite opens its own pool and runs the
// migrations again: the later ones find nothing to apply.
const url = await freshDatabase(inject("mariadbUrl"), "contracts")
const records = () => layerSqlRecords({ target: { kind: "mysql", url } })

gameStoreContract("MariaDB", records)
releaseStoreContract("MariaDB", records)
gameViewsContract("MariaDB", records)
changeFeedContract("MariaDB", records)
submissionStoreContract("MariaDB", records)
scanStoreContract("MariaDB", records)
reviewGateStoreContract("MariaDB", records)
releaseEntryStoreContract("MariaDB", records)
budgetLedgerContract("MariaDB", records)
notificationOutboxContract("MariaDB", records)
sessionStoreContract("MariaDB", records)
pagedListsContract("MariaDB", records)
catalogContract("MariaDB", records)
lifecycleContract("MariaDB", records)
lifecycleUseCasesContract("MariaDB", records)
lifecycleLeaseContract("MariaDB", records)
webhookSubscriptionsContract("MariaDB", records)
apiKeyStoreContract("MariaDB", records)
trustedPublisherStoreContract("MariaDB", records)
creatorWebhooksContract("MariaDB", records)
