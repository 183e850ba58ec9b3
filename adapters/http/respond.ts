import { FastResponse } from "srvx"
import type { DomainError } from "../../domain/errors.ts"
import { ERROR_TABLE, type StatusAndCode } from "./errorTable.ts"

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" }

/**
 * A JSON response; Dates become ISO-8601 UTC strings with milliseconds. srvx's FastResponse (the platform's Response
 * outside Node) is sent by Node's server in one write with a Content-Length, where a Response is streamed in chunks.
 */
export const json = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new FastResponse(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } })

/** The one error shape: `{error, detail}`, where detail names the next action. */
export const errorResponse = (
  status: number,
  error: string,
  detail: string,
  extra: { readonly body?: Record<string, unknown>; readonly headers?: Record<string, string> } = {},
): Response => {
  const { ok, ...rest } = extra.body ?? {}
  return json(status, { ...(ok === undefined ? {} : { ok }), error, detail, ...rest }, extra.headers)
}

export interface RenderOptions {
  /** Replaces the table's row for Unavailable on endpoints that document their own failure code. */
  readonly dependencyFailure?: StatusAndCode | undefined
  /** Adds `ok: false` (the multipart endpoint's envelope). */
  readonly okEnvelope?: boolean | undefined
}

/** Renders a domain error through the table, in the one shape `{error, detail}` (plus the error's own data). */
export const renderDomainError = (error: DomainError, options: RenderOptions = {}): Response => {
  const [status, code] = error._tag === "Unavailable" && options.dependencyFailure !== undefined
    ? options.dependencyFailure
    : ERROR_TABLE[error._tag]
  const envelope = options.okEnvelope === true ? { ok: false } : {}
  if (error._tag === "StaticAnalysisFailed") return errorResponse(status, code, error.detail, { body: { ...envelope, violations: error.violations } })
  if (error._tag === "RateLimited" || error._tag === "TooManyUploads") {
    return errorResponse(status, code, error.detail, {
      body: { ...envelope, retryAfterSeconds: error.retryAfterSeconds },
      headers: { "retry-after": String(error.retryAfterSeconds) },
    })
  }
  if (error._tag === "FindingsUnresolved") return errorResponse(status, code, error.detail, { body: { ...envelope, unresolvedErrors: error.unresolvedErrors } })
  if (error._tag === "Claimed") {
    return errorResponse(status, code, error.detail, { body: { ...envelope, claimedBy: error.claimedBy, claimedUntil: error.claimedUntil.toISOString() } })
  }
  // A body that timed out is not read any further: the connection is closed after the answer.
  const close = error._tag === "RequestTimedOut" || error._tag === "UploadTimedOut" ? { connection: "close" } : undefined
  return errorResponse(status, code, error.detail, { body: envelope, ...(close !== undefined ? { headers: close } : {}) })
}
