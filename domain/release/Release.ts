import { Schema } from "effect"

export const ReleaseStatus = Schema.Literals(["pending_review", "approved", "rejected", "withdrawn", "taken_down"])
export type ReleaseStatus = typeof ReleaseStatus.Type

/** `on_approval` (the default): approval makes the release active if it is newer; `manual`: only `activate` does. */
export const PublishMode = Schema.Literals(["on_approval", "manual"])
export type PublishMode = typeof PublishMode.Type
export const DEFAULT_PUBLISH_MODE: PublishMode = "on_approval"

/**
 * How a taken-down release was taken down: alone (`release`), or by a game-wide takedown (`game`; `game_active` when it
 * was the active release then). A game-wide reinstate brings back only `game` and `game_active` releases, and makes a
 * `game_active` one active again.
 */
export const TakedownScope = Schema.Literals(["release", "game", "game_active"])
export type TakedownScope = typeof TakedownScope.Type

/** A release exists only after a successful finalize (or a multipart submission) and its bytes are immutable. */
export const Release = Schema.Struct({
  gameId: Schema.String,
  version: Schema.String,
  sha256: Schema.String,
  sizeBytes: Schema.Number,
  contentType: Schema.String,
  objectKey: Schema.String,
  source: Schema.Literals(["release_api", "multipart"]),
  status: ReleaseStatus,
  createdBy: Schema.String,
  createdAt: Schema.Date,
  reviewedBy: Schema.NullOr(Schema.String),
  reviewedAt: Schema.NullOr(Schema.Date),
  rejectionReason: Schema.NullOr(Schema.String),
  /** Absent means the default, `on_approval` (releases recorded before the lifecycle existed). */
  publishMode: Schema.optionalKey(PublishMode),
  /** Where the object of a taken-down release lives until it is reinstated; null or absent otherwise. */
  quarantineKey: Schema.optionalKey(Schema.NullOr(Schema.String)),
  takedownReason: Schema.optionalKey(Schema.NullOr(Schema.String)),
  /** While taken down: alone or with its whole game; null or absent otherwise (and for takedowns before migration 0011). */
  takedownScope: Schema.optionalKey(Schema.NullOr(TakedownScope)),
})
export type Release = typeof Release.Type

export const publishModeOf = (release: { readonly publishMode?: PublishMode | undefined }): PublishMode =>
  release.publishMode ?? DEFAULT_PUBLISH_MODE

/** Where the release's bytes are now: its content-addressed key, or the quarantine key while it is taken down. */
export const storedKeyOf = (release: Release): string => release.quarantineKey ?? release.objectKey

/** What upload-url records and finalize must match exactly. */
export interface UploadDeclaration {
  readonly gameId: string
  readonly version: string
  readonly sha256: string
  readonly sizeBytes: number
  readonly contentType: string
  /** Part of the declaration: finalize must repeat what upload-url was asked (absent = on_approval). */
  readonly publishMode?: PublishMode
}

export const UploadIntent = Schema.Struct({
  id: Schema.String,
  gameId: Schema.String,
  version: Schema.String,
  sha256: Schema.String,
  sizeBytes: Schema.Number,
  contentType: Schema.String,
  objectKey: Schema.String,
  createdBy: Schema.String,
  createdAt: Schema.Date,
  expiresAt: Schema.Date,
  publishMode: Schema.optionalKey(PublishMode),
})
export type UploadIntent = typeof UploadIntent.Type

export const sameDeclaration = (a: UploadDeclaration, b: UploadDeclaration): boolean =>
  a.gameId === b.gameId &&
  a.version === b.version &&
  a.sha256 === b.sha256 &&
  a.sizeBytes === b.sizeBytes &&
  a.contentType === b.contentType &&
  publishModeOf(a) === publishModeOf(b)
