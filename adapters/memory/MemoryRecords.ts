import { Effect, Layer } from "effect"
import { NotificationOutbox } from "../../ports/NotificationOutbox.ts"
import { layerMemoryApiKeyStore } from "./MemoryApiKeyStore.ts"
import { layerMemoryTrustedPublisherStore } from "./MemoryTrustedPublisherStore.ts"
import { layerMemoryBudgetLedger } from "./MemoryBudgetLedger.ts"
import { layerCatalogPages } from "../cache/CatalogPages.ts"
import { layerMemoryCatalog } from "./MemoryCatalog.ts"
import { layerMemoryChangeFeed } from "./MemoryChangeFeed.ts"
import { layerMemoryGameStore } from "./MemoryGameStore.ts"
import { layerMemoryGameViews } from "./MemoryGameViews.ts"
import { layerMemoryReleaseEntryStore } from "./MemoryReleaseEntryStore.ts"
import { layerMemoryPagedLists } from "./MemoryPagedLists.ts"
import { layerMemoryReleaseStore } from "./MemoryReleaseStore.ts"
import { layerMemoryReviewGateStore } from "./MemoryReviewGateStore.ts"
import { layerMemoryScanStore } from "./MemoryScanStore.ts"
import { layerMemorySessionStore } from "./MemorySessionStore.ts"
import { layerMemorySubmissionStore } from "./MemorySubmissionStore.ts"
import { layerMemoryTables, MemoryTables } from "./MemoryTables.ts"
import { layerMemoryTimeline } from "./MemoryTimeline.ts"
import { layerMemoryWebhookSubscriptions } from "./MemoryWebhookSubscriptions.ts"

const stores = Layer.mergeAll(
  layerMemoryGameStore,
  layerMemoryReleaseStore,
  layerMemoryGameViews,
  layerMemoryChangeFeed,
  layerMemoryScanStore,
  layerMemorySubmissionStore,
  layerMemoryBudgetLedger,
  layerMemorySessionStore,
  layerMemoryReviewGateStore,
  layerMemoryReleaseEntryStore,
  layerMemoryTimeline,
  layerMemoryWebhookSubscriptions,
  layerMemoryApiKeyStore,
  layerMemoryTrustedPublisherStore,
  layerMemoryPagedLists,
  layerMemoryCatalog,
)

/** Every persistence port on one shared in-memory state (a fresh, empty "database" each time it is built). */
export const layerMemoryRecords = stores.pipe(Layer.provide(layerMemoryTables), (records) => Layer.provideMerge(layerCatalogPages, records))

/**
 * The same, plus the outbox that creator webhook deliveries are enqueued into with their timeline events (the SQL
 * records include theirs). Separate so that callers who bring their own outbox keep it.
 */
export const layerMemoryRecordsWithOutbox = Layer.merge(
  stores,
  Layer.effect(NotificationOutbox, Effect.map(MemoryTables, (tables) => tables.outbox)),
).pipe(Layer.provide(layerMemoryTables), (records) => Layer.provideMerge(layerCatalogPages, records))
