import { type Actor, actorOf } from "../auth/Actor.ts"
import { DEFAULT_PUBLISH_MODE, PublishMode } from "../release/Release.ts"
import { Effect, Option, Schema } from "effect"
import { Clock } from "../../ports/Clock.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { Ids } from "../../ports/Ids.ts"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { PackScanner } from "../../ports/PackScanner.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { ReviewNotifier } from "../../ports/ReviewNotifier.ts"
import type { ScanRecord } from "../../ports/ScanStore.ts"
import { type Submission, SubmissionStore } from "../../ports/SubmissionStore.ts"
import type { Principal } from "../auth/Principal.ts"
import { withBudget } from "../budget/withBudget.ts"
import { credentialCoversGame } from "../credentials/Credential.ts"
import { GameNotFoundOrForbidden, InvalidManifest, InvalidRequest, StaticAnalysisFailed, VersionExists } from "../errors.ts"
import type { Game } from "../game/Game.ts"
import { withDerivedSlug } from "../game/derivedSlug.ts"
import { decodeManifest } from "../manifest/decodeManifest.ts"
import type { Manifest } from "../manifest/Manifest.ts"
import { manifestCharacterProblems } from "../manifest/manifestRules.ts"
import { parseJsonText } from "../text/jsonText.ts"
import { ARTIFACT_CONTENT_TYPE } from "../release/Limits.ts"
import { releaseObjectKey } from "../release/ObjectKey.ts"
import type { Release } from "../release/Release.ts"
import { compareVersions } from "../release/VersionOrder.ts"
import type { ScanReport } from "../scan/ScanReport.ts"
import { storageByteSource } from "../scan/storageByteSource.ts"

/** A manifest's JSON object as it was sent (every valid manifest is an object). */
export type ManifestJson = { readonly [field: string]: unknown }

/** The manifest part, decoded by parseManifest: the Manifest, and the JSON it came from (the scanner compares both). */
export interface SubmittedManifest {
  readonly manifest: Manifest
  readonly input: ManifestJson
}

/** What the transport received: the package already in storage under a temporary key, and the decoded manifest. */
export interface ReceivedUpload {
  readonly pck: { readonly key: string; readonly sha256: string; readonly sizeBytes: number }
  /** Decoded once, by the transport as the part arrived (so a bad manifest is refused before the package is read). */
  readonly manifest: SubmittedManifest
  /** The optional `publish` text part (issue 16): `manual` stays inactive after approval until activated. */
  readonly publishMode?: PublishMode
}

export interface SubmissionAccepted {
  readonly gameId: string
  readonly submissionId: string
  readonly status: "review"
  readonly scan: ScanReport
}

/** Commits that find the manifest id taken, each followed by a fresh read of the game that took it. */
const MAX_RACE_ATTEMPTS = 3

/** The manifest part as a Manifest, naming every offending field otherwise; null is a request without one. */
export const parseManifest = Effect.fnUntraced(function*(text: string | null): Effect.fn.Return<SubmittedManifest, InvalidManifest> {
  if (text === null) return yield* new InvalidManifest({ fields: ["manifest"], problem: "The request has no 'manifest' part." })
  let input: unknown
  try {
    input = parseJsonText(text)
  } catch {
    return yield* new InvalidManifest({ fields: ["manifest"], problem: "The manifest is not valid JSON." })
  }
  const decoded = decodeManifest(input)
  if (decoded._tag === "Invalid") {
    const characters = manifestCharacterProblems(input)
    const problem = `These manifest fields are missing or invalid.${characters.length > 0 ? ` ${characters.join("; ")}.` : ""}`
    return yield* new InvalidManifest({ fields: decoded.fields, problem })
  }
  // decodeManifest accepts JSON objects only.
  return { manifest: decoded.manifest, input: input as ManifestJson }
})

/** The optional `publish` text part (issue 16), decoded with the declaration's PublishMode. */
export const parsePublishMode = (text: string): Effect.Effect<PublishMode, InvalidRequest> =>
  Schema.is(PublishMode)(text) ? Effect.succeed(text) : Effect.fail(new InvalidRequest({ problems: ['publish: expected "on_approval" or "manual"'] }))

/** An update must come from the game's creator and raise the version (spec §4.6, §9). */
const gameToUpdate = Effect.fnUntraced(function*(principal: Principal, manifest: Manifest) {
  const existing = Option.getOrNull(yield* GameStore.use((g) => g.findByManifestId(manifest.id)))
  // A key limited to some games may update those only; a new game needs one for all games (like POST /api/games/engine).
  const credential = principal.credential
  if (credential !== undefined && credential.games !== "all" && (existing === null || !credentialCoversGame(credential, existing.id))) {
    return yield* new GameNotFoundOrForbidden({ gameId: manifest.id })
  }
  if (existing === null) return null
  if (existing.ownerId !== principal.userId) return yield* new GameNotFoundOrForbidden({ gameId: manifest.id })
  const releases = yield* ReleaseStore.use((r) => r.listByGame(existing.id))
  const newest = releases.reduce<string | null>((top, r) => (top === null || compareVersions(r.version, top) > 0 ? r.version : top), null)
  if (newest !== null && compareVersions(manifest.version, newest) <= 0) {
    return yield* new VersionExists({ gameId: existing.id, version: manifest.version })
  }
  return existing
})

/**
 * The game a concurrent first submission of this manifest id created while this one was being scanned: this one is
 * decided as if it had arrived second, an update of that game under the usual rules (the creator's own game, a version
 * higher than its newest). Null when no such game exists after all.
 */
const gameCreatedMeanwhile = gameToUpdate

/** Moves the scanned package to its content-addressed key; an object already there holds these very bytes. */
const placeObject = (fromKey: string, key: string) =>
  ObjectStorage.use((storage) =>
    storage.move(fromKey, key).pipe(
      Effect.catchTag("ObjectExists", () => storage.delete(fromKey)),
      Effect.catchTag("ObjectNotFound", (e) => Effect.die(new Error(`the uploaded object vanished before it was placed: ${e.key}`))),
    )
  )

/** Removes the placed object after a failed commit, unless a committed release uses it (a concurrent twin). */
const unplaceObject = Effect.fnUntraced(function*(key: string) {
  const now = yield* Clock.use((c) => c.now)
  const inUse = yield* ReleaseStore.use((r) => r.keysInUse([key], now))
  if (!inUse.has(key)) yield* ObjectStorage.use((s) => s.delete(key))
}, (effect) => effect.pipe(Effect.ignore))

interface Records {
  readonly actor: Actor
  readonly release: Release
  readonly submission: Submission
  readonly scan: ScanRecord
}

/**
 * Inserts a new game with the records. Its slug comes from the manifest name, collision-free; a concurrent create may
 * take it first, and then the next free one is tried.
 */
const commitNewGame = Effect.fnUntraced(function*(principal: Principal, manifest: Manifest, records: Records, now: Date) {
  const store = yield* SubmissionStore
  return yield* withDerivedSlug(manifest.name, (slug) => {
    const game: Game = {
      id: records.release.gameId,
      name: manifest.name,
      slug,
      kind: "engine",
      ownerId: principal.userId,
      manifestId: manifest.id,
      createdAt: now,
      updatedAt: now,
    }
    return store.commit({ game, newGame: true, ...records })
  })
})

const accept = Effect.fnUntraced(function*(principal: Principal, upload: ReceivedUpload) {
  const { manifest, input } = upload.manifest
  let existing = yield* gameToUpdate(principal, manifest)
  const source = yield* storageByteSource(upload.pck.key, upload.pck.sizeBytes)
  const report = yield* PackScanner.use((s) => s.scan(source, { path: "multipart", submittedManifest: input }))
  if (!report.ok) return yield* new StaticAnalysisFailed({ violations: report.findings.filter((f) => f.severity === "error") })

  const now = yield* Clock.use((c) => c.now)
  const ids = yield* Ids
  const submissionId = yield* ids.next("sub")
  const store = yield* SubmissionStore
  // Where the scanned bytes are: the upload's temporary key (removed by submitPackage on failure), then the key of the
  // game they were last meant for (removed here on failure, unless a committed release uses it).
  let placedAt = upload.pck.key
  let newGameId: string | null = null
  const gameId = yield* Effect.gen(function*() {
    for (let attempt = 1; ; attempt++) {
      const gameId = existing?.id ?? (newGameId ??= yield* ids.next("gm"))
      const key = releaseObjectKey(gameId, manifest.version, upload.pck.sha256)
      if (key !== placedAt) {
        yield* placeObject(placedAt, key)
        placedAt = key
      }
      const records: Records = {
        actor: actorOf(principal),
        release: {
          gameId,
          version: manifest.version,
          sha256: upload.pck.sha256,
          sizeBytes: upload.pck.sizeBytes,
          contentType: ARTIFACT_CONTENT_TYPE,
          objectKey: key,
          source: "multipart",
          status: "pending_review",
          createdBy: principal.userId,
          createdAt: now,
          reviewedBy: null,
          reviewedAt: null,
          rejectionReason: null,
          publishMode: upload.publishMode ?? DEFAULT_PUBLISH_MODE,
        },
        submission: { id: submissionId, gameId, version: manifest.version, createdBy: principal.userId, createdAt: now },
        scan: { gameId, version: manifest.version, report, scannedAt: now },
      }
      const outcome = existing !== null
        ? yield* store.commit({ game: { ...existing, name: manifest.name, manifestId: manifest.id, updatedAt: now }, newGame: false, ...records })
        : yield* commitNewGame(principal, manifest, records, now)
      if (outcome !== "manifest_id_taken") return gameId
      // A concurrent first submission of this manifest id created the game meanwhile: decide again, as its update.
      if (attempt >= MAX_RACE_ATTEMPTS) {
        return yield* Effect.die(new Error(`manifest id '${manifest.id}' stays taken, but no game with it can be read`))
      }
      existing = yield* gameCreatedMeanwhile(principal, manifest)
    }
  }).pipe(Effect.onError(() => (placedAt === upload.pck.key ? Effect.void : unplaceObject(placedAt))))
  yield* ReviewNotifier.use((n) =>
    n.notify({ kind: "submission_received", gameId, version: manifest.version, sha256: upload.pck.sha256, sizeBytes: upload.pck.sizeBytes, at: now })
  )
  return { gameId, submissionId, status: "review", scan: report } satisfies SubmissionAccepted
})

/**
 * POST {submit_api_url}/games/submit (spec §4.6): receives the upload (`receive` streams it into storage and decodes
 * the manifest), checks the update rules and the scan, and records game, version, submission and scan at once. The
 * submit budget is reserved before the upload is read (a spent budget answers 429 without taking the bytes) and given
 * back on any failure. Whatever fails, nothing of the upload is kept.
 */
export const submitPackage = <E, R>(principal: Principal, receive: Effect.Effect<ReceivedUpload, E, R>) =>
  withBudget(
    "submit",
    principal.userId,
    Effect.flatMap(receive, (upload) =>
      accept(principal, upload).pipe(Effect.onError(() => ObjectStorage.use((s) => s.delete(upload.pck.key)).pipe(Effect.ignore)))),
  )
