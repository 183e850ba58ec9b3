// A credential change's timeline events and webhook deliveries (domain/credentials/credentialEvents.ts), written
// inside the transaction of the change by SqlApiKeyStore and SqlTrustedPublisherStore.
import type { Transaction } from "kysely"
import type { CredentialRecord } from "../../domain/credentials/credentialEvents.ts"
import { webhookDeliveries } from "../notifier/creatorEvents.ts"
import type { TimeCodec } from "./dialects/Dialect.ts"
import type { Tables } from "./schema.ts"
import { appendTimelineEvent, insertDeliveries } from "./SqlTimeline.ts"

export const writeCredentialRecord = async (trx: Transaction<Tables>, time: TimeCodec, record: CredentialRecord | undefined): Promise<void> => {
  if (record === undefined) return
  for (const event of record.timeline) await appendTimelineEvent(trx, time, event)
  const subscriptions = await trx.selectFrom("webhook_subscriptions").select("id").where("owner_id", "=", record.ownerId).execute()
  await insertDeliveries(trx, time, webhookDeliveries(record.webhook, subscriptions.map((s) => s.id)))
}
