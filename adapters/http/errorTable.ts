import type { DomainError } from "../../domain/errors.ts"

export type StatusAndCode = readonly [status: number, code: string]

/** Every domain error's HTTP status and code (spec §7). A new error without a row here does not compile. */
export const ERROR_TABLE: { readonly [Tag in DomainError["_tag"]]: StatusAndCode } = {
  SignInRequired: [401, "sign_in_required"],
  InvalidRequest: [400, "invalid_request"],
  RequestTooLarge: [413, "request_too_large"],
  SlugTaken: [409, "slug_taken"],
  RateLimited: [429, "rate_limited"],
  ArtifactTooLarge: [413, "artifact_too_large"],
  GameNotFoundOrForbidden: [404, "game_not_found_or_forbidden"],
  NotAnEngineGame: [409, "not_an_engine_game"],
  VersionExists: [409, "version_exists"],
  StorageNotConfigured: [503, "storage_not_configured"],
  NoUploadIntent: [409, "no_upload_intent"],
  ArtifactMissing: [409, "artifact_missing"],
  SizeMismatch: [400, "size_mismatch"],
  ChecksumMismatch: [400, "checksum_mismatch"],
  StoredChecksumMismatch: [409, "checksum_mismatch"],
  StoredArtifactMissing: [409, "artifact_missing"],
  ReleaseNotPending: [409, "release_not_pending"],
  NotFound: [404, "not_found"],
  // Endpoints with a documented failure code (create_failed, upload_url_failed, finalize_failed) override this row.
  Unavailable: [503, "service_unavailable"],
  // The multipart endpoint's messages, verbatim (spec §7).
  MissingPck: [400, "Missing .pck file (multipart field: pck)"],
  NotAPckFile: [400, "Uploaded file must be a .pck"],
  InvalidManifest: [400, "Invalid manifest. Required: id, name, version, engine_sdk, entry_scene, min_players, max_players"],
  StaticAnalysisFailed: [422, "Static analysis failed"],
  UploadTimedOut: [408, "upload_timeout"],
  InsufficientStorage: [507, "insufficient_storage"],
  RequestTimedOut: [408, "request_timeout"],
  TooManyUploads: [429, "too_many_uploads"],
  ScanPending: [409, "scan_pending"],
  FindingsUnresolved: [409, "findings_unresolved"],
  Claimed: [409, "claimed"],
  ReleaseNotActivatable: [409, "release_not_activatable"],
  ReleaseNotApproved: [409, "release_not_approved"],
  ReleaseNotTakenDown: [409, "release_not_taken_down"],
  WebhookLimitReached: [409, "webhook_limit_reached"],
  ApiKeyLimitReached: [409, "api_key_limit_reached"],
  TrustedPublisherLimitReached: [409, "trusted_publisher_limit_reached"],
  AmbiguousPublisher: [409, "ambiguous_publisher"],
}

/** The documented failure of each endpoint whose dependency failed (spec §4.1, §4.2, §4.4). */
export const DEPENDENCY_FAILURE = {
  createGame: [502, "create_failed"],
  uploadUrl: [502, "upload_url_failed"],
  finalize: [502, "finalize_failed"],
} as const satisfies Record<string, StatusAndCode>
