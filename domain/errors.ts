import { Schema } from "effect"

// Every domain error. Each carries the data a caller needs and a `detail` that names the next action.
// The HTTP adapter maps each tag to [status, code] in one table (adapters/http/errorTable.ts).

export class SignInRequired extends Schema.TaggedError<SignInRequired>()("SignInRequired", {
  reason: Schema.String,
}) {
  get detail(): string {
    return `${this.reason}. Send 'Authorization: Bearer <access token>' (or sign in in the browser) and retry.`
  }
}

export class InvalidRequest extends Schema.TaggedError<InvalidRequest>()("InvalidRequest", {
  problems: Schema.Array(Schema.String),
}) {
  get detail(): string {
    return `Fix the request and retry: ${this.problems.join("; ")}.`
  }
}

export class RequestTooLarge extends Schema.TaggedError<RequestTooLarge>()("RequestTooLarge", {
  limitBytes: Schema.Number,
}) {
  get detail(): string {
    return `The JSON body is larger than ${this.limitBytes} bytes; send a smaller body.`
  }
}

export class SlugTaken extends Schema.TaggedError<SlugTaken>()("SlugTaken", {
  slug: Schema.String,
}) {
  get detail(): string {
    return `The slug '${this.slug}' is already used; choose another slug or omit it to have one derived from the name.`
  }
}

export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  endpoint: Schema.String,
  retryAfterSeconds: Schema.Number,
}) {
  get detail(): string {
    return `The ${this.endpoint} budget for this account is spent; retry in ${this.retryAfterSeconds} seconds.`
  }
}

export class ArtifactTooLarge extends Schema.TaggedError<ArtifactTooLarge>()("ArtifactTooLarge", {
  sizeBytes: Schema.Number,
  limitBytes: Schema.Number,
}) {
  get detail(): string {
    return `The artifact is ${this.sizeBytes} bytes, above the limit of ${this.limitBytes} bytes; reduce the package (larger packages need onboarding with the operator).`
  }
}

export class GameNotFoundOrForbidden extends Schema.TaggedError<GameNotFoundOrForbidden>()(
  "GameNotFoundOrForbidden",
  { gameId: Schema.String },
) {
  get detail(): string {
    // An id that could not be read (malformed percent-encoding) or is not echoed is not named as ''.
    const game = this.gameId === "" ? "No such game" : `No game '${this.gameId}'`
    return `${game} owned by you; check the gameId returned when you created the game.`
  }
}

export class NotAnEngineGame extends Schema.TaggedError<NotAnEngineGame>()("NotAnEngineGame", {
  gameId: Schema.String,
  kind: Schema.String,
}) {
  get detail(): string {
    return `Game '${this.gameId}' is a '${this.kind}' game; publish it through its own flow, or create an engine game with POST /api/games/engine.`
  }
}

export class VersionExists extends Schema.TaggedError<VersionExists>()("VersionExists", {
  gameId: Schema.String,
  version: Schema.String,
}) {
  get detail(): string {
    return `Version '${this.version}' of game '${this.gameId}' is already released and immutable; increase the version and upload again.`
  }
}

export class StorageNotConfigured extends Schema.TaggedError<StorageNotConfigured>()("StorageNotConfigured", {
  reason: Schema.String,
}) {
  get detail(): string {
    return `Object storage is not configured (${this.reason}); the operator must set the storage settings, then retry.`
  }
}

export class NoUploadIntent extends Schema.TaggedError<NoUploadIntent>()("NoUploadIntent", {
  gameId: Schema.String,
  version: Schema.String,
}) {
  get detail(): string {
    return `No live upload-url request matches this declaration of version '${this.version}'; call upload-url first with exactly the same version, sha256, sizeBytes and contentType.`
  }
}

export class ArtifactMissing extends Schema.TaggedError<ArtifactMissing>()("ArtifactMissing", {
  key: Schema.String,
}) {
  get detail(): string {
    return "No object is stored for this release; PUT the artifact to the uploadUrl with the returned headers, then finalize again."
  }
}

export class SizeMismatch extends Schema.TaggedError<SizeMismatch>()("SizeMismatch", {
  declaredBytes: Schema.Number,
  storedBytes: Schema.Number,
}) {
  get detail(): string {
    return `The stored object is ${this.storedBytes} bytes but ${this.declaredBytes} were declared; it was deleted. Request a new upload URL and upload the exact file.`
  }
}

export class ChecksumMismatch extends Schema.TaggedError<ChecksumMismatch>()("ChecksumMismatch", {
  declared: Schema.String,
  stored: Schema.String,
}) {
  get detail(): string {
    return `The stored object's SHA-256 is ${this.stored}, not the declared ${this.declared}; it was deleted. Upload the exact file again, then finalize.`
  }
}

/** The steps that read a release's stored bytes again before they change its status or the game's pointer. */
export const StoredBytesCheck = Schema.Literals(["approve", "activate", "take_down", "reinstate"])
export type StoredBytesCheck = typeof StoredBytesCheck.Type

/** What stays as it was when a step's check of the stored bytes fails, and what to do next. */
const STORED_BYTES_OUTCOME: Record<StoredBytesCheck, string> = {
  approve: "the release stays pending. Investigate the storage, or reject the release.",
  activate: "the release stays approved and the game's active release is unchanged. Investigate the storage, or take the release down.",
  take_down: "nothing was taken down. Investigate the storage, then take the release down again.",
  reinstate: "the release stays taken down. Investigate the storage (the object waits at the release's quarantine key), then reinstate again.",
}

/** A step found the stored bytes differ from the digest pinned at finalize. */
export class StoredChecksumMismatch extends Schema.TaggedError<StoredChecksumMismatch>()("StoredChecksumMismatch", {
  pinned: Schema.String,
  stored: Schema.String,
  operation: StoredBytesCheck,
}) {
  get detail(): string {
    return `The stored artifact no longer matches the SHA-256 pinned at finalize (${this.pinned}); ${STORED_BYTES_OUTCOME[this.operation]}`
  }
}

/** A step found no stored object for the release. */
export class StoredArtifactMissing extends Schema.TaggedError<StoredArtifactMissing>()("StoredArtifactMissing", {
  key: Schema.String,
  operation: StoredBytesCheck,
}) {
  get detail(): string {
    return `The release's stored artifact is missing; ${STORED_BYTES_OUTCOME[this.operation]}`
  }
}

/** The operations that need a pending release. */
export const PendingOnly = Schema.Literals(["review", "claim", "withdraw"])
export type PendingOnly = typeof PendingOnly.Type

const PENDING_ONLY: Record<PendingOnly, (gameId: string) => string> = {
  review: () => "only pending releases can be approved or rejected. Reload the review queue.",
  claim: () => "only pending releases can be claimed for review. Reload the review queue.",
  withdraw: (gameId) => `only a pending release can be withdrawn. Reload the game's releases (GET /api/games/${gameId}).`,
}

export class ReleaseNotPending extends Schema.TaggedError<ReleaseNotPending>()("ReleaseNotPending", {
  gameId: Schema.String,
  version: Schema.String,
  status: Schema.String,
  operation: PendingOnly,
}) {
  get detail(): string {
    return `Release '${this.version}' is already ${this.status}; ${PENDING_ONLY[this.operation](this.gameId)}`
  }
}

/** Activate needs an approved release that is not taken down. */
export class ReleaseNotActivatable extends Schema.TaggedError<ReleaseNotActivatable>()("ReleaseNotActivatable", {
  gameId: Schema.String,
  version: Schema.String,
  status: Schema.String,
}) {
  get detail(): string {
    return `Release '${this.version}' is ${this.status}; only an approved release that is not taken down can be activated. Pick an approved version from GET /api/games/${this.gameId}.`
  }
}

/** Takedown needs an approved release. */
export class ReleaseNotApproved extends Schema.TaggedError<ReleaseNotApproved>()("ReleaseNotApproved", {
  gameId: Schema.String,
  version: Schema.String,
  status: Schema.String,
}) {
  get detail(): string {
    return `Release '${this.version}' is ${this.status}; only approved releases can be taken down (reject or let the creator withdraw a pending one).`
  }
}

/** Reinstate needs a taken-down release. */
export class ReleaseNotTakenDown extends Schema.TaggedError<ReleaseNotTakenDown>()("ReleaseNotTakenDown", {
  gameId: Schema.String,
  version: Schema.String,
  status: Schema.String,
}) {
  get detail(): string {
    return `Release '${this.version}' is ${this.status}, not taken down; there is nothing to reinstate. Reload the game's releases.`
  }
}

/** An account has the most webhooks allowed. */
export class WebhookLimitReached extends Schema.TaggedError<WebhookLimitReached>()("WebhookLimitReached", {
  limit: Schema.Number,
}) {
  get detail(): string {
    return `This account already has ${this.limit} webhooks; delete one (DELETE /api/me/webhooks/{id}) before adding another.`
  }
}

/** An account has the most live API keys allowed. */
export class ApiKeyLimitReached extends Schema.TaggedError<ApiKeyLimitReached>()("ApiKeyLimitReached", {
  limit: Schema.Number,
}) {
  get detail(): string {
    return `This account already has ${this.limit} live API keys; revoke one (DELETE /api/me/api-keys/{id}) before creating another.`
  }
}

/** A game has the most trusted publishers allowed. */
export class TrustedPublisherLimitReached extends Schema.TaggedError<TrustedPublisherLimitReached>()("TrustedPublisherLimitReached", {
  limit: Schema.Number,
}) {
  get detail(): string {
    return `This game already has ${this.limit} trusted publishers; remove one (DELETE /api/games/{gameId}/trusted-publishers/{id}) before adding another.`
  }
}

/** Unknown resource, or one the caller may not see: answered 404 so existence cannot be probed. */
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", {
  what: Schema.String,
}) {
  get detail(): string {
    return `No ${this.what} here, or you may not see it; check the identifiers and your sign-in.`
  }
}

/** A dependency (database, object storage, signer, identity provider) failed; the endpoint answers its documented failure code. */
export class Unavailable extends Schema.TaggedError<Unavailable>()("Unavailable", {
  dependency: Schema.Literals(["database", "storage", "signer", "identity", "scanner", "notifier"]),
  reason: Schema.String,
}) {
  get detail(): string {
    return `The ${this.dependency} is unavailable right now; retry in a moment. Nothing was changed.`
  }
}

// The multipart path (spec §4.6, §7): its four messages are the `error` of these.

export class MissingPck extends Schema.TaggedError<MissingPck>()("MissingPck", {}) {
  get detail(): string {
    return "The request has no file part named 'pck'; send the package as multipart field 'pck' (and the manifest as field 'manifest')."
  }
}

export class NotAPckFile extends Schema.TaggedError<NotAPckFile>()("NotAPckFile", { filename: Schema.String }) {
  get detail(): string {
    return `The file '${this.filename.slice(0, 200)}' does not end in .pck; export the game with Godot's "Export PCK/ZIP" and send the .pck.`
  }
}

export class InvalidManifest extends Schema.TaggedError<InvalidManifest>()("InvalidManifest", {
  /** The offending fields, or "manifest" when it is missing or not JSON at all. */
  fields: Schema.Array(Schema.String),
  problem: Schema.String,
}) {
  get detail(): string {
    return `${this.problem} Fix: ${this.fields.join(", ")}; see the manifest field rules in the README.`
  }
}

export class StaticAnalysisFailed extends Schema.TaggedError<StaticAnalysisFailed>()("StaticAnalysisFailed", {
  /** The blocking findings, each with file, line and the blocked pattern. */
  violations: Schema.Array(Schema.Unknown),
}) {
  get detail(): string {
    return `The scanner found ${this.violations.length} blocking problem(s) in the package; fix each listed file and line, export again and resubmit.`
  }
}

export class UploadTimedOut extends Schema.TaggedError<UploadTimedOut>()("UploadTimedOut", {
  what: Schema.Literals(["idle", "deadline"]),
}) {
  get detail(): string {
    return this.what === "idle"
      ? "The upload stalled (no bytes for too long) and was dropped; nothing was kept. Check the connection and upload again."
      : "The upload took longer than the server allows and was dropped; nothing was kept. Upload from a faster connection, or use the release API."
  }
}

/** The object store has no room for the upload (a full disk or quota); nothing was kept. */
export class InsufficientStorage extends Schema.TaggedError<InsufficientStorage>()("InsufficientStorage", {}) {
  get detail(): string {
    return "The service has no room to store this upload right now; nothing was kept. Retry later, and tell the operator if it persists."
  }
}

/** A request body stalled (no bytes for too long) or took longer than allowed; nothing was done. */
export class RequestTimedOut extends Schema.TaggedError<RequestTimedOut>()("RequestTimedOut", {
  what: Schema.Literals(["idle", "deadline"]),
}) {
  get detail(): string {
    return this.what === "idle"
      ? "The request body stalled (no bytes for too long) and was dropped; nothing was changed. Send the whole body promptly."
      : "The request body took longer than the server allows and was dropped; nothing was changed. Send the whole body promptly."
  }
}

/** The account already has the most uploads allowed at once running. */
export class TooManyUploads extends Schema.TaggedError<TooManyUploads>()("TooManyUploads", {
  limit: Schema.Number,
  retryAfterSeconds: Schema.Number,
}) {
  get detail(): string {
    return `This account already has ${this.limit} uploads running; wait for one to finish, then retry in ${this.retryAfterSeconds} seconds.`
  }
}

/** Approval asked for before the release's scan has run (the review gate, issue 15). */
export class ScanPending extends Schema.TaggedError<ScanPending>()("ScanPending", {
  gameId: Schema.String,
  version: Schema.String,
}) {
  get detail(): string {
    return `The scan of release '${this.version}' has not finished; the release stays pending. Wait until GET /api/games/${this.gameId}/releases/${this.version}/scan answers status "scanned", then approve again.`
  }
}

/** Approval of a release whose scan has error findings nobody accepted, without an override reason. */
export class FindingsUnresolved extends Schema.TaggedError<FindingsUnresolved>()("FindingsUnresolved", {
  gameId: Schema.String,
  version: Schema.String,
  unresolvedErrors: Schema.Int,
}) {
  get detail(): string {
    return `The scan of release '${this.version}' has ${this.unresolvedErrors} unresolved error finding(s); the release stays pending. Accept each finding with a reason, reject the release, or approve with {"override": {"reason": "<why>"}}.`
  }
}

/** Another administrator holds the release's review claim. */
export class Claimed extends Schema.TaggedError<Claimed>()("Claimed", {
  gameId: Schema.String,
  version: Schema.String,
  claimedBy: Schema.String,
  claimedUntil: Schema.Date,
}) {
  get detail(): string {
    return `Release '${this.version}' is claimed by '${this.claimedBy}' until ${this.claimedUntil.toISOString()}; ask them, or try again after that time.`
  }
}

export type DomainError =
  | SignInRequired
  | InvalidRequest
  | RequestTooLarge
  | SlugTaken
  | RateLimited
  | ArtifactTooLarge
  | GameNotFoundOrForbidden
  | NotAnEngineGame
  | VersionExists
  | StorageNotConfigured
  | NoUploadIntent
  | ArtifactMissing
  | SizeMismatch
  | ChecksumMismatch
  | StoredChecksumMismatch
  | StoredArtifactMissing
  | ReleaseNotPending
  | NotFound
  | Unavailable
  | MissingPck
  | NotAPckFile
  | InvalidManifest
  | StaticAnalysisFailed
  | UploadTimedOut
  | InsufficientStorage
  | RequestTimedOut
  | TooManyUploads
  | ScanPending
  | FindingsUnresolved
  | Claimed
  | ReleaseNotActivatable
  | ReleaseNotApproved
  | ReleaseNotTakenDown
  | WebhookLimitReached
  | ApiKeyLimitReached
  | TrustedPublisherLimitReached
  | AmbiguousPublisher

/** Trusted publishing: the CI token matches publishers of several games and the request did not say which. */
export class AmbiguousPublisher extends Schema.TaggedError<AmbiguousPublisher>()("AmbiguousPublisher", {
  gameIds: Schema.Array(Schema.String),
}) {
  get detail(): string {
    return `This workflow is a trusted publisher of several games (${this.gameIds.join(", ")}); send the one to publish as gameId.`
  }
}
