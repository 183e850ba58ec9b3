import { Effect } from "effect"
import { GamePath } from "../../../domain/game/GamePath.ts"
import { releaseDetail } from "../../../domain/game/Views.ts"
import { DeclarationBody, decodeDeclaration } from "../../../domain/release/Declaration.ts"
import { downloadUrl } from "../../../domain/release/DownloadUrl.ts"
import { finalizeRelease } from "../../../domain/release/FinalizeRelease.ts"
import { ReleasePath } from "../../../domain/release/ReleasePath.ts"
import { requestUploadUrl } from "../../../domain/release/RequestUploadUrl.ts"
import { releaseScan } from "../../../domain/scan/ReleaseScan.ts"
import { READ_SCOPES } from "../credentialAccess.ts"
import { DEPENDENCY_FAILURE } from "../errorTable.ts"
import * as Wire from "../openapi/schemas.ts"
import { json } from "../respond.ts"
import type { Route } from "../route.ts"
import { notYourGame } from "../pathRefusals.ts"
import { defineRoute } from "../routeInput.ts"

/** upload-url's and finalize's body: 400 for bad fields, then 413 for a size above the limit (the Schema is documented). */
const declaration = { schema: DeclarationBody, decode: decodeDeclaration }

export const releaseRoutes: ReadonlyArray<Route> = [
  defineRoute({
    method: "POST",
    path: "/api/games/:gameId/releases/upload-url",
    dependencyFailure: DEPENDENCY_FAILURE.uploadUrl,
    doc: {
      summary: "Record an upload intent and get a presigned, write-once PUT URL (1 hour) with the headers to send verbatim",
      access: "signedIn",
      credentialScopes: ["release"],
      success: [200, Wire.UploadUrl],
      errors: ["ArtifactTooLarge", "GameNotFoundOrForbidden", "NotAnEngineGame", "VersionExists", "RateLimited", "StorageNotConfigured"],
    },
    body: declaration,
    params: GamePath,
    paramsNotFound: notYourGame,
    handle: (_ctx, { principal, params, body }) => Effect.map(requestUploadUrl(principal, params.gameId, body), (upload) => json(200, upload)),
  }),
  defineRoute({
    method: "POST",
    path: "/api/games/:gameId/releases/finalize",
    dependencyFailure: DEPENDENCY_FAILURE.finalize,
    doc: {
      summary: "Re-hash the stored object, compare it with the declaration, and record the release (pending review)",
      access: "signedIn",
      credentialScopes: ["release"],
      success: [201, Wire.FinalizedRelease],
      errors: [
        "ArtifactTooLarge", "GameNotFoundOrForbidden", "NotAnEngineGame", "VersionExists", "RateLimited", "NoUploadIntent",
        "ArtifactMissing", "SizeMismatch", "ChecksumMismatch", "StorageNotConfigured",
      ],
    },
    body: declaration,
    params: GamePath,
    paramsNotFound: notYourGame,
    handle: (_ctx, { principal, params, body }) =>
      Effect.map(finalizeRelease(principal, params.gameId, body), (release) =>
        json(201, {
          gameId: release.gameId,
          version: release.version,
          sha256: release.sha256,
          sizeBytes: release.sizeBytes,
          status: release.status,
          createdAt: release.createdAt,
        })),
  }),
  defineRoute({
    method: "GET",
    path: "/api/games/:gameId/releases/:version/download-url",
    doc: {
      summary: "A presigned GET (about 5 minutes) and the sha256 read back from the content-addressed key; 404 for anyone not allowed",
      access: "signedIn",
      credentialScopes: READ_SCOPES,
      success: [200, Wire.DownloadUrl],
      errors: ["NotFound", "StorageNotConfigured"],
    },
    params: ReleasePath,
    paramsNotFound: "release",
    handle: (_ctx, { principal, params }) =>
      Effect.map(downloadUrl(principal, params.gameId, params.version), ({ url, sha256, expiresAt }) =>
        // The same text JSON.stringify gives a Date, without its slow path for objects holding one (half the cost here).
        json(200, { url, sha256, expiresAt: expiresAt.toISOString() })),
  }),
  defineRoute({
    method: "GET",
    path: "/api/games/:gameId/releases/:version/scan",
    doc: {
      summary: "The scanner's report on a release (owner and administrators); `pending` until the background scan has run",
      access: "signedIn",
      credentialScopes: READ_SCOPES,
      success: [200, Wire.ReleaseScan],
      errors: ["NotFound"],
    },
    params: ReleasePath,
    paramsNotFound: "release",
    handle: (ctx, { principal, params }) =>
      Effect.map(releaseScan(principal, params.gameId, params.version), (scan) =>
        json(200, scan.status === "pending" ? scan : { ...scan, report: { ...scan.report, findings: ctx.withDocsUrls(scan.report.findings) } })),
  }),
  defineRoute({
    method: "GET",
    path: "/api/games/:gameId/releases/:version",
    doc: {
      summary: "A release: any for its owner and administrators, only the active one for others",
      access: "public",
      credentialScopes: READ_SCOPES,
      success: [200, Wire.ReleaseDetail],
      errors: ["SignInRequired", "NotFound"],
    },
    identify: true,
    params: ReleasePath,
    paramsNotFound: "release",
    handle: (_ctx, { principal, params }) => Effect.map(releaseDetail(principal, params.gameId, params.version), (release) => json(200, release)),
  }),
]
