// How webhook requests are signed, and how a receiver verifies them (docs/webhooks.md shows the same in a few lines).
//   signature = hex(HMAC-SHA256(secret, `${timestamp}.${body}`)), sent as `v1=<signature>`
// The timestamp (Unix seconds, the time of the attempt) is signed with the body, so a captured request cannot be
// replayed once it is older than the receiver's tolerance, and the body cannot be altered without the secret.
import { createHmac, timingSafeEqual } from "node:crypto"

/** Header names (HTTP header names are case-insensitive; these are sent in lower case). */
export const WEBHOOK_HEADERS = {
  /** The delivery id, equal to the body's `id`: the same on every retry, so receivers can drop duplicates. */
  id: "pckgate-webhook-id",
  /** Unix seconds when this attempt was signed. */
  timestamp: "pckgate-webhook-timestamp",
  /** `v1=<hex HMAC-SHA256>`; several space-separated entries may appear (a receiver accepts any that matches). */
  signature: "pckgate-webhook-signature",
  /** The event type, also in the body. */
  event: "pckgate-webhook-event",
  /** 1 for the first attempt, then 2, 3 … (not signed; for the receiver's logs). */
  attempt: "pckgate-webhook-attempt",
} as const

/** What receivers should accept between their clock and the signed timestamp, either way. */
export const REPLAY_TOLERANCE_SECONDS = 300

const SCHEME = "v1"

const hmacHex = (secret: string, timestamp: string, body: string) => createHmac("sha256", secret).update(`${timestamp}.${body}`, "utf8").digest("hex")

/** The signature header value for `body` signed at `timestamp` (Unix seconds). */
export const signWebhook = (secret: string, timestamp: number, body: string): string => `${SCHEME}=${hmacHex(secret, String(timestamp), body)}`

export type WebhookVerification =
  | { readonly ok: true; readonly timestamp: number }
  | { readonly ok: false; readonly reason: "missing_headers" | "malformed_timestamp" | "outside_tolerance" | "signature_mismatch" }

export interface VerifyInput {
  readonly secret: string
  /** The raw request body exactly as received (verify before parsing: re-serialised JSON would not match). */
  readonly body: string
  readonly timestamp: string | null | undefined
  readonly signature: string | null | undefined
  /** The receiver's clock, Unix seconds. */
  readonly nowSeconds: number
  readonly toleranceSeconds?: number
}

/** A receiver's check: a fresh timestamp and a `v1` signature over `timestamp.body` with the shared secret. */
export const verifyWebhook = (input: VerifyInput): WebhookVerification => {
  if (input.timestamp == null || input.signature == null) return { ok: false, reason: "missing_headers" }
  if (!/^\d{1,12}$/.test(input.timestamp)) return { ok: false, reason: "malformed_timestamp" }
  const timestamp = Number(input.timestamp)
  if (Math.abs(input.nowSeconds - timestamp) > (input.toleranceSeconds ?? REPLAY_TOLERANCE_SECONDS)) return { ok: false, reason: "outside_tolerance" }
  const expected = Buffer.from(hmacHex(input.secret, input.timestamp, input.body), "hex")
  const matches = input.signature.split(/[\s,]+/).some((entry) => {
    const [scheme, value] = entry.split("=", 2)
    if (scheme !== SCHEME || value === undefined || !/^[0-9a-f]{64}$/.test(value)) return false
    return timingSafeEqual(Buffer.from(value, "hex"), expected)
  })
  return matches ? { ok: true, timestamp } : { ok: false, reason: "signature_mismatch" }
}
