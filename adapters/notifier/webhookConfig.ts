// REVIEW_WEBHOOK_* from the environment (apps/server/config.ts calls this). Error messages never quote the URL or the
// secret: webhook URLs often carry a token in their path.

import { webhookKey } from "./standardWebhooks.ts"

export interface ReviewWebhookConfig {
  readonly url: string
  readonly secret: string
  /** First retry delay; each later one doubles, up to an hour (see WebhookDispatcher.ts). */
  readonly retryBaseMs: number
}

export const MIN_SECRET_LENGTH = 32
export const DEFAULT_RETRY_BASE_MS = 10_000
const MAX_RETRY_BASE_MS = 3_600_000

type Env = Readonly<Record<string, string | undefined>>

/** null when REVIEW_WEBHOOK_URL is unset (log lines only); problems are appended to `errors`. */
export const readReviewWebhook = (env: Env, errors: Array<string>): ReviewWebhookConfig | null => {
  const rawUrl = env["REVIEW_WEBHOOK_URL"]
  if (rawUrl === undefined || rawUrl === "") return null
  const found: Array<string> = []
  let url: URL | null = null
  try {
    url = new URL(rawUrl)
  } catch {
    found.push("REVIEW_WEBHOOK_URL must be an absolute http(s) URL")
  }
  if (url !== null && url.protocol !== "https:" && url.protocol !== "http:") found.push(`REVIEW_WEBHOOK_URL must use http or https (got '${url.protocol}')`)
  if (url !== null && (url.username !== "" || url.password !== "")) {
    found.push("REVIEW_WEBHOOK_URL must not contain user:password@ (requests are authenticated by their signature)")
  }
  const secret = env["REVIEW_WEBHOOK_SECRET"] ?? ""
  if (secret === "") found.push(`REVIEW_WEBHOOK_SECRET is required when REVIEW_WEBHOOK_URL is set (at least ${MIN_SECRET_LENGTH} characters)`)
  else if (secret.length < MIN_SECRET_LENGTH) found.push(`REVIEW_WEBHOOK_SECRET must be at least ${MIN_SECRET_LENGTH} characters (got ${secret.length})`)
  else if (webhookKey(secret) === null) found.push("REVIEW_WEBHOOK_SECRET starts with whsec_ but the rest is not base64; use a whsec_<base64> secret or any other string of 32+ characters")
  const rawBase = env["REVIEW_WEBHOOK_RETRY_BASE_MS"]
  let retryBaseMs = DEFAULT_RETRY_BASE_MS
  if (rawBase !== undefined && rawBase !== "") {
    retryBaseMs = Number(rawBase)
    if (!Number.isSafeInteger(retryBaseMs) || retryBaseMs < 1 || retryBaseMs > MAX_RETRY_BASE_MS) {
      found.push(`REVIEW_WEBHOOK_RETRY_BASE_MS must be an integer from 1 to ${MAX_RETRY_BASE_MS} (got '${rawBase}')`)
    }
  }
  errors.push(...found)
  return found.length > 0 || url === null ? null : { url: url.href, secret, retryBaseMs }
}
