// The public API of the domain (`pckgate/domain`): use cases, every error, value objects and policies.
// Pure like the rest of domain/: effect and the core only, so it runs on Node, Deno and in a browser bundle.

// Use cases (each an Effect that needs ports; every failure is one of the tagged errors below)
export { CreateGameBody, createGame, RegisterGameBody, registerGame } from "./game/CreateGame.ts"
export { catalog, gameDetail, myGames, ownerGameView, releaseDetail, releaseView } from "./game/Views.ts"
export { Declaration, DeclarationBody, decodeDeclaration } from "./release/Declaration.ts"
export { downloadUrl, visibleRelease } from "./release/DownloadUrl.ts"
export { finalizeRelease } from "./release/FinalizeRelease.ts"
export { requestUploadUrl } from "./release/RequestUploadUrl.ts"
export { approveRelease, RejectBody, rejectRelease, reviewQueue } from "./review/Review.ts"
export { claimRelease, releaseClaim } from "./review/Claims.ts"
export { acceptFinding, withdrawAcceptance } from "./review/Acceptances.ts"
export { AcceptFindingBody, ApproveBody, CLAIM_MINUTES, NO_OVERRIDE, countsAsError, scanCounts, type ScanCounts, UNREADABLE_PACK_RULES, unresolvedErrors } from "./review/ReviewGate.ts"
export { endUserSessions } from "./auth/EndUserSessions.ts"
export { DEFAULT_SWEEP_GRACE_SECONDS, sweep, type SweepReport } from "./maintenance/Sweep.ts"
export { parseManifest, type ReceivedUpload, type SubmissionAccepted, submitPackage } from "./submission/SubmitPackage.ts"
export { releaseScan } from "./scan/ReleaseScan.ts"
export { makeScanRetries, scanKey, type ScanPass, type ScanPassOptions, scanUnscannedReleases } from "./scan/ScanReleases.ts"
export { storageByteSource } from "./scan/storageByteSource.ts"

// Errors: every tagged error a use case can fail with (errors.ts holds them all, so new ones follow)
export * from "./errors.ts"
export { decodeInput, describeIssues } from "./decode.ts"

// Value objects, entities and rules
export { owns, type Principal, requireAdmin, seesAllReleases } from "./auth/Principal.ts"
export { newSession, type Session, SESSION_ADMIN_TTL_SECONDS, SESSION_TTL_SECONDS, sessionPrincipal } from "./auth/Session.ts"
export { type CatalogStatus, Game, GAME_ID_PATTERN, GameId, GameKind } from "./game/Game.ts"
export { GameName } from "./game/GameName.ts"
export { GameIdParam, GamePath } from "./game/GamePath.ts"
export { ReleasePath } from "./release/ReleasePath.ts"
export { firstFreeSlug, Slug, SLUG_MAX_LENGTH, SLUG_PATTERN, slugCandidate, slugFromName } from "./game/Slug.ts"
export { ARTIFACT_CONTENT_TYPE, MULTIPART_MAX_BYTES, RELEASE_MAX_BYTES, RELEASE_MIN_BYTES } from "./release/Limits.ts"
export { releaseObjectKey, sha256FromObjectKey, TEMP_PREFIX, tempObjectKey } from "./release/ObjectKey.ts"
export { Release, ReleaseStatus, sameDeclaration, type UploadDeclaration, UploadIntent } from "./release/Release.ts"
export { Sha256 } from "./release/Sha256.ts"
export { isValidVersion, Version, VERSION_PATTERN } from "./release/Version.ts"
export { compareVersions } from "./release/VersionOrder.ts"
export { activeRelease, catalogStatus, nextReleaseStatus, type ReviewEvent } from "./review/ReviewMachine.ts"

// Policies operators may widen
export { DEFAULT_POLICY, Policy, type ServicePolicy } from "./Policy.ts"
export { type BudgetDecision, type BudgetedEndpoint, type BudgetLimit, DEFAULT_BUDGET, decideBudget } from "./budget/BudgetPolicy.ts"

// Manifests and scan reports (the multipart path and the scanner)
export { EngineSdk, EntryScene, Manifest, MANIFEST_FIELD_SCHEMAS, ManifestId, PlayerCount } from "./manifest/Manifest.ts"
export { decodeManifest, type ManifestDecoding } from "./manifest/decodeManifest.ts"
export { MANIFEST_FIELD_RULES, MANIFEST_FIELDS, type ManifestData, type ManifestField } from "./manifest/manifestRules.ts"
export { EmbeddedIn, Finding, Severity } from "./scan/Finding.ts"
export { ALL_RULES, RULE, type RuleId } from "./scan/RuleId.ts"
export { ScanReport, ScanSummary } from "./scan/ScanReport.ts"
export { compareFindings, makeScanReport, type ScanFacts } from "./scan/buildReport.ts"
export { LISTED_FILES_LIMIT } from "./scan/limits.ts"

// The release lifecycle after review (issue 16) and the timeline
export { activateRelease, reinstateGame, reinstateRelease, takeDownGame, takeDownRelease, withdrawRelease } from "./release/Lifecycle.ts"
export { DEFAULT_PUBLISH_MODE, PublishMode, publishModeOf, storedKeyOf } from "./release/Release.ts"
export { quarantineObjectKey } from "./release/ObjectKey.ts"
export { activationOnApproval, type ActivationNote, type LifecycleStep, newestApproved, planLifecycle } from "./review/ReviewMachine.ts"
export { queuePosition } from "./review/QueuePosition.ts"
export { type Actor, actorOf, SYSTEM_ACTOR } from "./auth/Actor.ts"
export type { StoredTimelineEvent, TimelineEvent, TimelineKind } from "./timeline/TimelineEvent.ts"
export { gameTimeline } from "./timeline/GameTimeline.ts"
export { addWebhook, listWebhooks, MAX_WEBHOOKS_PER_ACCOUNT, removeWebhook } from "./webhooks/CreatorWebhooks.ts"
