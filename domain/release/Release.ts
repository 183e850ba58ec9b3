import { Schema } from "effect"

export const ReleaseStatus = Schema.Literals(["pending_review", "approved", "rejected"])
export type ReleaseStatus = typeof ReleaseStatus.Type

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
})
export type Release = typeof Release.Type

/** What upload-url records and finalize must match exactly. */
export interface UploadDeclaration {
  readonly gameId: string
  readonly version: string
  readonly sha256: string
  readonly sizeBytes: number
  readonly contentType: string
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
})
export type UploadIntent = typeof UploadIntent.Type

export const sameDeclaration = (a: UploadDeclaration, b: UploadDeclaration): boolean =>
  a.gameId === b.gameId &&
  a.version === b.version &&
  a.sha256 === b.sha256 &&
  a.sizeBytes === b.sizeBytes &&
  a.contentType === b.contentType
