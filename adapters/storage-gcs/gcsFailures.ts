// Reading @google-cloud/storage's failures: its API errors carry the HTTP status as a numeric `code` (or `status`, or
// `response.status` from gaxios); network errors carry a string code such as ECONNREFUSED.
import { Unavailable } from "../../domain/errors.ts"

/** A deadline or idle timeout of ours ran out; the library's own timeouts do not cover streams. */
export class GcsTimeout extends Error {
  constructor(what: string, ms: number) {
    super(`${what}: no progress for ${ms} ms`)
    this.name = "GcsTimeout"
  }
}

export const httpStatusOf = (error: unknown): number | null => {
  const e = error as { code?: unknown; status?: unknown; response?: { status?: unknown } } | null
  for (const candidate of [e?.code, e?.status, e?.response?.status]) {
    if (typeof candidate === "number") return candidate
  }
  return null
}

/** Signatures, keys and tokens never reach a log line, whatever a library put in its message. */
const redact = (text: string) =>
  text
    .replace(/(X-Goog-Signature=)[0-9a-f]+/gi, "$1…")
    .replace(/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g, "[private key]")
    .replace(/(Bearer\s+)[\w.-]+/gi, "$1…")
    .replace(/(access_token["'=:\s]+)[\w.-]+/gi, "$1…")

/** A short, secret-free description of a failure, for the operator's log. */
export const describeFailure = (error: unknown): string => {
  const status = httpStatusOf(error)
  const e = error as { code?: unknown; message?: unknown } | null
  const code = typeof e?.code === "string" ? `${e.code} ` : ""
  const message = typeof e?.message === "string" ? e.message : String(error)
  return redact(`${status === null ? "" : `HTTP ${status} `}${code}${message}`.slice(0, 300))
}

export const storageUnavailable = (operation: string, bucket: string, error: unknown): Unavailable => {
  const status = httpStatusOf(error)
  const hint = status === 401 || status === 403 ? " (check the service account's roles on the bucket)" : ""
  return new Unavailable({ dependency: "storage", reason: `GCS ${operation} on gs://${bucket}: ${describeFailure(error)}${hint}` })
}

export const bucketMissing = (bucket: string): Unavailable =>
  new Unavailable({ dependency: "storage", reason: `GCS bucket gs://${bucket} does not exist (or is not visible to this service account)` })

export const signerUnavailable = (error: unknown): Unavailable =>
  new Unavailable({ dependency: "signer", reason: `GCS URL signing failed: ${describeFailure(error)}` })
