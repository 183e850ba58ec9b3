import type { DomainError } from "../../domain/errors.ts"
import { ERROR_TABLE, type StatusAndCode } from "./errorTable.ts"

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" }

/** A JSON response; Dates become ISO-8601 UTC strings with milliseconds. */
export const json = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } })

/** The one error shape: `{error, detail}`, where detail names the next action. */
export const errorResponse = (
  status: number,
  error: string,
  detail: string,
  extra: { readonly body?: Record<string, unknown>; readonly headers?: Record<string, string> } = {},
): Response => json(status, { error, detail, ...extra.body }, extra.headers)

/** Renders a domain error through the table; `dependencyFailure` replaces the row for Unavailable on endpoints that document one. */
export const renderDomainError = (error: DomainError, dependencyFailure?: StatusAndCode): Response => {
  const [status, code] = error._tag === "Unavailable" && dependencyFailure !== undefined
    ? dependencyFailure
    : ERROR_TABLE[error._tag]
  if (error._tag === "RateLimited") {
    return errorResponse(status, code, error.detail, {
      body: { retryAfterSeconds: error.retryAfterSeconds },
      headers: { "retry-after": String(error.retryAfterSeconds) },
    })
  }
  return errorResponse(status, code, error.detail)
}
