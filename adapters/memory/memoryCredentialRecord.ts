// A credential change's timeline events and webhook deliveries on the memory tables, in the caller's synchronous step.
import { Effect } from "effect"
import type { CredentialRecord } from "../../domain/credentials/credentialEvents.ts"
import { webhookDeliveries } from "../notifier/creatorEvents.ts"
import { appendTimelineEvent } from "./memoryLifecycle.ts"
import type { Tables } from "./MemoryTables.ts"

export const writeCredentialRecord = (tables: Tables, record: CredentialRecord | undefined): void => {
  if (record === undefined) return
  for (const event of record.timeline) appendTimelineEvent(tables, event)
  const subscriptions = [...tables.webhooks.values()].filter((s) => s.ownerId === record.ownerId).map((s) => s.id)
  const deliveries = webhookDeliveries(record.webhook, subscriptions)
  if (deliveries.length > 0) Effect.runSync(tables.outbox.enqueue(deliveries))
}
