// How every command ends: one table from the error codes the CLI prints (the service's and its own) to exit codes,
// as api-conventions.md defines them. The README's exit-code table is this one.
import { ERROR_TABLE } from "../../adapters/http/errorTable.ts"

export const EXIT = {
  ok: 0,
  rejectedOrFindings: 1,
  /** Usage, a missing file, not a pack, or a conflict that waiting never clears. */
  cannotRun: 2,
  /** The service or the network failed; running the same command again may work. */
  serviceFailure: 3,
  rateLimited: 4,
  stillWaiting: 5,
  /** A conflict that clears with time: run the same command again later. */
  tryAgainLater: 6,
} as const

export type ExitCode = (typeof EXIT)[keyof typeof EXIT]

export const EXIT_BY_ERROR_CODE: Readonly<Record<string, ExitCode>> = {
  // The service refused the content.
  [ERROR_TABLE.StaticAnalysisFailed[1]]: EXIT.rejectedOrFindings,
  findings: EXIT.rejectedOrFindings,
  rejected: EXIT.rejectedOrFindings,

  // Cannot run: the request itself is wrong, or the state it conflicts with never changes by waiting.
  usage: EXIT.cannotRun,
  no_such_file: EXIT.cannotRun,
  not_a_pck: EXIT.cannotRun,
  too_small: EXIT.cannotRun,
  check: EXIT.cannotRun,
  sign_in_required: EXIT.cannotRun,
  invalid_request: EXIT.cannotRun,
  request_too_large: EXIT.cannotRun,
  artifact_too_large: EXIT.cannotRun,
  not_found: EXIT.cannotRun,
  game_not_found_or_forbidden: EXIT.cannotRun,
  not_an_engine_game: EXIT.cannotRun,
  slug_taken: EXIT.cannotRun,
  version_exists: EXIT.cannotRun,
  no_upload_intent: EXIT.cannotRun,
  artifact_missing: EXIT.cannotRun,
  release_not_pending: EXIT.cannotRun,
  release_not_activatable: EXIT.cannotRun,
  release_not_approved: EXIT.cannotRun,
  release_not_taken_down: EXIT.cannotRun,
  webhook_limit_reached: EXIT.cannotRun,
  api_key_limit_reached: EXIT.cannotRun,
  trusted_publisher_limit_reached: EXIT.cannotRun,
  findings_unresolved: EXIT.cannotRun,
  ambiguous_publisher: EXIT.cannotRun,
  [ERROR_TABLE.MissingPck[1]]: EXIT.cannotRun,
  [ERROR_TABLE.NotAPckFile[1]]: EXIT.cannotRun,
  [ERROR_TABLE.InvalidManifest[1]]: EXIT.cannotRun,

  // The service, its storage or the network failed; a retry may help. A checksum or size that does not match means
  // the stored bytes were not the file's: the service deleted them, and running the command again uploads them anew.
  network: EXIT.serviceFailure,
  unexpected_response: EXIT.serviceFailure,
  upload_failed: EXIT.serviceFailure,
  download_failed: EXIT.serviceFailure,
  checksum_mismatch: EXIT.serviceFailure,
  size_mismatch: EXIT.serviceFailure,
  upload_timeout: EXIT.serviceFailure,
  request_timeout: EXIT.serviceFailure,
  insufficient_storage: EXIT.serviceFailure,
  storage_not_configured: EXIT.serviceFailure,
  service_unavailable: EXIT.serviceFailure,
  create_failed: EXIT.serviceFailure,
  upload_url_failed: EXIT.serviceFailure,
  finalize_failed: EXIT.serviceFailure,
  internal: EXIT.serviceFailure,

  rate_limited: EXIT.rateLimited,
  too_many_uploads: EXIT.rateLimited,

  still_waiting: EXIT.stillWaiting,

  // Conflicts that clear with time: the scan has not finished, another reviewer holds the release.
  scan_pending: EXIT.tryAgainLater,
  claimed: EXIT.tryAgainLater,
}

/** A code the table does not know (a newer service) is classified by its HTTP status. */
const byStatus = (status: number): ExitCode =>
  status === 429 ? EXIT.rateLimited : status >= 500 || status === 408 || status === 0 ? EXIT.serviceFailure : status >= 400 ? EXIT.cannotRun : EXIT.serviceFailure

export const exitCodeFor = (error: { readonly code: string; readonly status?: number }): ExitCode =>
  Object.hasOwn(EXIT_BY_ERROR_CODE, error.code) ? EXIT_BY_ERROR_CODE[error.code]! : byStatus(error.status ?? 0)
