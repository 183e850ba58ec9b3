// The Standard Webhooks scheme (standardwebhooks.com), which receivers verify with its libraries:
//   webhook-signature: v1,<base64 HMAC-SHA256(key, `${id}.${timestamp}.${body}`)>
// The key is the base64 part of a `whsec_…` secret, or, for any other secret, its UTF-8 bytes (REVIEW_WEBHOOK_SECRET
// before this scheme was adopted: receivers then verify with the raw secret, e.g. `new Webhook(secret, {format: "raw"})`).
import { createHmac } from "node:crypto"

export const STANDARD_HEADERS = { id: "webhook-id", timestamp: "webhook-timestamp", signature: "webhook-signature" } as const

const PREFIX = "whsec_"
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/

/** The HMAC key a secret stands for; null for a `whsec_` secret whose rest is not base64. */
export const webhookKey = (secret: string): Uint8Array | null => {
  if (!secret.startsWith(PREFIX)) return new TextEncoder().encode(secret)
  const encoded = secret.slice(PREFIX.length)
  return BASE64.test(encoded) && encoded.length % 4 === 0 ? new Uint8Array(Buffer.from(encoded, "base64")) : null
}

/** A new secret as creators get it: `whsec_` and 32 random bytes in base64. */
export const newWebhookSecret = (): string => `${PREFIX}${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64")}`

/** The three Standard Webhooks headers for one attempt. */
export const standardWebhookHeaders = (key: Uint8Array, id: string, timestamp: number, body: string): Record<string, string> => ({
  [STANDARD_HEADERS.id]: id,
  [STANDARD_HEADERS.timestamp]: String(timestamp),
  [STANDARD_HEADERS.signature]: `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`, "utf8").digest("base64")}`,
})
