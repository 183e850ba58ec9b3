// Wire shapes of the responses, as Schemas: the OpenAPI document is generated from them (requests use the domain's).
import { Schema } from "effect"
import { Finding } from "../../../domain/scan/Finding.ts"
import { ScanReport } from "../../../domain/scan/ScanReport.ts"

const Timestamp = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/u, { expected: "an ISO-8601 UTC timestamp with milliseconds" })),
)
const Sha256 = Schema.String.pipe(Schema.check(Schema.isPattern(/^[0-9a-f]{64}$/u)))
const Status = Schema.Literals(["review", "published", "rejected", "taken_down"])
const ReleaseStatus = Schema.Literals(["pending_review", "approved", "rejected", "withdrawn", "taken_down"])
const ActivationNote = Schema.Literals(["lower_than_active", "staged"])

export const ErrorBody = Schema.Struct({ error: Schema.String, detail: Schema.String })
export const RateLimitedBody = Schema.Struct({ error: Schema.Literal("rate_limited"), detail: Schema.String, retryAfterSeconds: Schema.Int })

export const CreatedGame = Schema.Struct({
  gameId: Schema.String,
  slug: Schema.String,
  name: Schema.String,
  kind: Schema.String,
  ownerId: Schema.String,
  status: Schema.Literal("review"),
  createdAt: Timestamp,
  uploadUrlEndpoint: Schema.String,
})

export const UploadUrl = Schema.Struct({
  uploadUrl: Schema.String,
  headers: Schema.Record(Schema.String, Schema.String),
  expiresAt: Timestamp,
})

export const FinalizedRelease = Schema.Struct({
  gameId: Schema.String,
  version: Schema.String,
  sha256: Sha256,
  sizeBytes: Schema.Int,
  status: Schema.Literal("pending_review"),
  createdAt: Timestamp,
})

export const DownloadUrl = Schema.Struct({ url: Schema.String, sha256: Sha256, expiresAt: Timestamp })

const releaseFields = {
  version: Schema.String,
  status: ReleaseStatus,
  sha256: Sha256,
  sizeBytes: Schema.Int,
  source: Schema.Literals(["release_api", "multipart"]),
  createdAt: Timestamp,
  reviewedAt: Schema.NullOr(Timestamp),
  rejectionReason: Schema.NullOr(Schema.String),
  publishMode: Schema.Literals(["on_approval", "manual"]),
  takedownReason: Schema.NullOr(Schema.String),
}
/** The review gate's view of a release's scan (issue 15); errors and warnings are null while it is pending. */
export const GateScan = Schema.Struct({
  status: Schema.Literals(["pending", "scanned"]),
  errors: Schema.NullOr(Schema.Int),
  warnings: Schema.NullOr(Schema.Int),
})
export const ApprovalOverride = Schema.Struct({ reason: Schema.String, by: Schema.String, at: Timestamp })
/** Owners' and administrators' release details carry the gate's fields. */
const reviewGateFields = { scan: Schema.optionalKey(GateScan), approvalOverride: Schema.optionalKey(Schema.NullOr(ApprovalOverride)) }
const publicReleaseFields = { version: Schema.String, sha256: Sha256, sizeBytes: Schema.Int, publishedAt: Schema.NullOr(Timestamp) }

/**
 * Why the active release is active: activated when approved (`approval`), made active by someone (`activation`: a
 * go-live or a rollback), the fallback when the active release was taken down (`takedown_fallback`), or restored by a
 * game-wide reinstate (`game_reinstate`); by whom (an actor, as on the timeline) and when.
 */
const ActiveReason = Schema.Struct({
  cause: Schema.Literals(["approval", "activation", "takedown_fallback", "game_reinstate"]),
  actor: Schema.String,
  at: Timestamp,
})

export const OwnerGame = Schema.Struct({
  gameId: Schema.String,
  name: Schema.String,
  slug: Schema.String,
  kind: Schema.String,
  ownerId: Schema.String,
  status: Status,
  activeVersion: Schema.NullOr(Schema.String),
  /**
   * Null when nothing is active, or when the reason was not recorded (a pointer moved by an instance older than
   * migration 0011). Always sent; optional so that clients also read services that predate it.
   */
  activeReason: Schema.optionalKey(Schema.NullOr(ActiveReason)),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  releases: Schema.Array(Schema.Struct(releaseFields)),
})

export const PublicGame = Schema.Struct({
  gameId: Schema.String,
  name: Schema.String,
  slug: Schema.String,
  kind: Schema.String,
  status: Schema.Literal("published"),
  activeVersion: Schema.String,
  activeRelease: Schema.Struct(publicReleaseFields),
})

export const GameDetail = Schema.Union([OwnerGame, PublicGame])
/** A pending release's place in the review queue (owner and administrators). */
const QueuePosition = Schema.Struct({
  position: Schema.Int,
  ahead: Schema.Int,
  waitingSeconds: Schema.Int,
  estimatedWaitSeconds: Schema.NullOr(Schema.Int),
})
export const ReleaseDetail = Schema.Union([
  Schema.Struct({ gameId: Schema.String, ...releaseFields, ...reviewGateFields, queue: Schema.optionalKey(QueuePosition) }),
  Schema.Struct({ gameId: Schema.String, ...publicReleaseFields }),
])
/** The cursor of the next page (paginated lists, api-conventions.md); the service always sends it, null on the last page. */
const nextPage = { nextCursor: Schema.optionalKey(Schema.NullOr(Schema.String)) }
export const MyGames = Schema.Struct({ games: Schema.Array(OwnerGame), ...nextPage })
export const Catalog = Schema.Struct({ games: Schema.Array(PublicGame) })
/** A catalog item (issue 17): the public record plus the active release's size and digest and the first publication. */
export const CatalogGame = Schema.Struct({
  ...PublicGame.fields,
  sizeBytes: Schema.Int,
  sha256: Sha256,
  firstPublishedAt: Timestamp,
})
export const CatalogPage = Schema.Struct({ games: Schema.Array(CatalogGame), nextCursor: Schema.NullOr(Schema.String) })

export const ReviewQueue = Schema.Struct({
  items: Schema.Array(Schema.Struct({
    gameId: Schema.String,
    gameName: Schema.String,
    slug: Schema.String,
    ownerId: Schema.String,
    version: Schema.String,
    sha256: Sha256,
    sizeBytes: Schema.Int,
    source: Schema.Literals(["release_api", "multipart"]),
    submittedAt: Timestamp,
    waitingSeconds: Schema.Int,
    scan: GateScan,
    /** Capability ids of this release's scan that the game's active release's scan lacks. */
    capabilitiesAdded: Schema.Array(Schema.String),
    claimedBy: Schema.NullOr(Schema.String),
    claimedUntil: Schema.NullOr(Timestamp),
  })),
  ...nextPage,
})

export const ReviewDecision = Schema.Struct({
  gameId: Schema.String,
  ...releaseFields,
  gameStatus: Status,
  activeVersion: Schema.NullOr(Schema.String),
  scan: GateScan,
  approvalOverride: Schema.NullOr(ApprovalOverride),
  /** Approve and activate: whether the release is now the active one, and if not why (lower_than_active, staged). */
  activated: Schema.optionalKey(Schema.Boolean),
  activationNote: Schema.optionalKey(ActivationNote),
})

export const ReviewClaim = Schema.Struct({ gameId: Schema.String, version: Schema.String, claimedBy: Schema.String, claimedUntil: Timestamp })

export const FindingAcceptance = Schema.Struct({ by: Schema.String, at: Timestamp, reason: Schema.String })
export const AcceptedFinding = Schema.Struct({ gameId: Schema.String, fingerprint: Schema.String, accepted: FindingAcceptance })

/**
 * Withdraw, activate, takedown and reinstate: the releases changed and which release is active afterwards. Activate also
 * answers `activated: true` (like an approval that activated; a refused activation is an error instead).
 */
export const LifecycleOutcome = Schema.Struct({
  gameId: Schema.String,
  gameStatus: Status,
  activeVersion: Schema.NullOr(Schema.String),
  activated: Schema.optionalKey(Schema.Boolean),
  activationNote: Schema.optionalKey(ActivationNote),
  releases: Schema.Array(Schema.Struct(releaseFields)),
})

/** GET /api/games/{gameId}/timeline: events oldest first; `actor` is user:<id>, api_key:<id>, publisher:<id> or system. */
export const GameTimeline = Schema.Struct({
  events: Schema.Array(Schema.Struct({
    at: Timestamp,
    kind: Schema.String,
    version: Schema.NullOr(Schema.String),
    actor: Schema.String,
    reason: Schema.NullOr(Schema.String),
  })),
  nextCursor: Schema.NullOr(Schema.String),
})

export const CreatedWebhook = Schema.Struct({ id: Schema.String, url: Schema.String, secret: Schema.String, createdAt: Timestamp })
export const WebhookList = Schema.Struct({ webhooks: Schema.Array(Schema.Struct({ id: Schema.String, url: Schema.String, createdAt: Timestamp })) })
/** A finding as answered: with `docsUrl`, its page under BASE_URL/docs/rules/ (computed when answering, not stored). */
const AnsweredFinding = Schema.Struct({ ...Finding.fields, docsUrl: Schema.optionalKey(Schema.String) })
const AnsweredScanReport = Schema.Struct({ ...ScanReport.fields, findings: Schema.Array(AnsweredFinding) })
/**
 * A finding of a release's scan as reviewers read it (issue 15), in the scan report, /file and /diff alike: `accepted`
 * says who accepted it for the game, when and why, and is null when nobody did; accepted findings stay listed.
 */
export const ReviewedFinding = Schema.Struct({ ...AnsweredFinding.fields, accepted: Schema.NullOr(FindingAcceptance) })
const ReviewedScanReport = Schema.Struct({ ...ScanReport.fields, findings: Schema.Array(ReviewedFinding) })

export const ReleaseScan = Schema.Union([
  Schema.Struct({ gameId: Schema.String, version: Schema.String, status: Schema.Literal("pending") }),
  Schema.Struct({ gameId: Schema.String, version: Schema.String, status: Schema.Literal("scanned"), scannedAt: Timestamp, report: ReviewedScanReport }),
])

export const Session = Schema.Struct({ userId: Schema.String, isAdmin: Schema.Boolean, expiresAt: Timestamp })

/** A short-lived token for the multipart endpoint, for the submit page. */
export const UploadToken = Schema.Struct({ token: Schema.String, expiresAt: Timestamp })
export const Health = Schema.Struct({ ok: Schema.Literal(true) })

/** The multipart endpoint's answers: accepted for review, or refused with its blocking findings (422). */
export const SubmissionOk = Schema.Struct({
  ok: Schema.Literal(true),
  gameId: Schema.String,
  submissionId: Schema.String,
  status: Schema.Literal("review"),
  scan: AnsweredScanReport,
})
export const SubmissionRefused = Schema.Struct({ ok: Schema.Literal(false), error: Schema.String, detail: Schema.String, violations: Schema.Array(AnsweredFinding) })

/** The cursor of a paginated list (api-conventions.md): a string to ask for the next page, null or absent on the last. */
export const PageCursor = Schema.Struct({ nextCursor: Schema.optionalKey(Schema.NullOr(Schema.String)) })

/** API keys (issue 18): the key itself appears once, in the creation answer. */
const apiKeyFields = {
  id: Schema.String,
  name: Schema.String,
  prefix: Schema.String,
  games: Schema.Union([Schema.Literal("all"), Schema.Array(Schema.String)]),
  scopes: Schema.Array(Schema.Literals(["read", "release", "submit"])),
  createdAt: Timestamp,
  expiresAt: Schema.NullOr(Timestamp),
}
export const CreatedApiKey = Schema.Struct({ ...apiKeyFields, key: Schema.String })
export const ApiKeyList = Schema.Struct({ keys: Schema.Array(Schema.Struct({ ...apiKeyFields, lastUsedAt: Schema.NullOr(Timestamp) })) })

/** Trusted publishing (issue 18). */
export const TrustedPublisherView = Schema.Struct({
  id: Schema.String,
  gameId: Schema.String,
  provider: Schema.Literals(["github", "gitlab"]),
  repository: Schema.String,
  workflow: Schema.String,
  environment: Schema.NullOr(Schema.String),
  ref: Schema.NullOr(Schema.String),
  /** GitHub repository_id / GitLab project_id, pinned at registration or by the first exchange; null until then. */
  repositoryId: Schema.NullOr(Schema.String),
  /** GitHub repository_owner_id / GitLab namespace_id, pinned alike. */
  repositoryOwnerId: Schema.NullOr(Schema.String),
  createdBy: Schema.String,
  createdAt: Timestamp,
})
export const TrustedPublisherList = Schema.Struct({ publishers: Schema.Array(TrustedPublisherView) })
export const PublishingToken = Schema.Struct({
  token: Schema.String,
  expiresAt: Timestamp,
  gameId: Schema.String,
  scopes: Schema.Array(Schema.Literal("release")),
})
