import { Effect } from "effect"
import { NotFound } from "../../../domain/errors.ts"
import { releaseDetail } from "../../../domain/game/Views.ts"
import { DeclarationBody } from "../../../domain/release/Declaration.ts"
import { downloadUrl } from "../../../domain/release/DownloadUrl.ts"
import { finalizeRelease } from "../../../domain/release/FinalizeRelease.ts"
import { requestUploadUrl } from "../../../domain/release/RequestUploadUrl.ts"
import { releaseScan } from "../../../domain/scan/ReleaseScan.ts"
import { authenticate } from "../auth.ts"
import { readJsonBody } from "../body.ts"
import { READ_SCOPES } from "../credentialAccess.ts"
import { DEPENDENCY_FAILURE } from "../errorTable.ts"
import * as Wire from "../openapi/schemas.ts"
import { json } from "../respond.ts"
import { gameIdParam, principalFor, rawParam, type Route, type RouteContext, versionParam } from "../route.ts"

export const releaseRoutes: ReadonlyArray<Route> = [
  {
    method: "POST",
    path: "/api/games/:gameId/releases/upload-url",
    dependencyFailure: DEPENDENCY_FAILURE.uploadUrl,
    doc: {
      summary: "Record an upload intent and get a presigned, write-once PUT URL (1 hour) with the headers to send verbatim",
      access: "signedIn",
      credentialScopes: ["release"],
      request: DeclarationBody,
      success: [200, Wire.UploadUrl],
      errors: ["ArtifactTooLarge", "GameNotFoundOrForbidden", "NotAnEngineGame", "VersionExists", "RateLimited", "StorageNotConfigured"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      const body = yield* readJsonBody(ctx.request, ctx.bodyTimeouts)
      return json(200, yield* requestUploadUrl(principal, rawParam(ctx, "gameId"), body))
    }),
  },
  {
    method: "POST",
    path: "/api/games/:gameId/releases/finalize",
    dependencyFailure: DEPENDENCY_FAILURE.finalize,
    doc: {
      summary: "Re-hash the stored object, compare it with the declaration, and record the release (pending review)",
      access: "signedIn",
      credentialScopes: ["release"],
      request: DeclarationBody,
      success: [201, Wire.FinalizedRelease],
      errors: [
        "ArtifactTooLarge", "GameNotFoundOrForbidden", "NotAnEngineGame", "VersionExists", "RateLimited", "NoUploadIntent",
        "ArtifactMissing", "SizeMismatch", "ChecksumMismatch", "StorageNotConfigured",
      ],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      const body = yield* readJsonBody(ctx.request, ctx.bodyTimeouts)
      const release = yield* finalizeRelease(principal, rawParam(ctx, "gameId"), body)
      return json(201, {
        gameId: release.gameId,
        version: release.version,
        sha256: release.sha256,
        sizeBytes: release.sizeBytes,
        status: release.status,
        createdAt: release.createdAt,
      })
    }),
  },
  {
    method: "GET",
    path: "/api/games/:gameId/releases/:version/download-url",
    doc: {
      summary: "A presigned GET (about 5 minutes) and the sha256 read back from the content-addressed key; 404 for anyone not allowed",
      access: "signedIn",
      credentialScopes: READ_SCOPES,
      success: [200, Wire.DownloadUrl],
      errors: ["NotFound", "StorageNotConfigured"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      const gameId = yield* gameIdParam(ctx, () => new NotFound({ what: "release" }))
      const version = yield* versionParam(ctx)
      const { url, sha256, expiresAt } = yield* downloadUrl(principal, gameId, version)
      // The same text JSON.stringify gives a Date, without its slow path for objects holding one (half the cost here).
      return json(200, { url, sha256, expiresAt: expiresAt.toISOString() })
    }),
  },
  {
    method: "GET",
    path: "/api/games/:gameId/releases/:version/scan",
    doc: {
      summary: "The scanner's report on a release (owner and administrators); `pending` until the background scan has run",
      access: "signedIn",
      credentialScopes: READ_SCOPES,
      success: [200, Wire.ReleaseScan],
      errors: ["NotFound"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      const gameId = yield* gameIdParam(ctx, () => new NotFound({ what: "release" }))
      const version = yield* versionParam(ctx)
      const scan = yield* releaseScan(principal, gameId, version)
      return json(200, scan.status === "pending" ? scan : { ...scan, report: { ...scan.report, findings: ctx.withDocsUrls(scan.report.findings) } })
    }),
  },
  {
    method: "GET",
    path: "/api/games/:gameId/releases/:version",
    doc: {
      summary: "A release: any for its owner and administrators, only the active one for others",
      access: "public",
      credentialScopes: READ_SCOPES,
      success: [200, Wire.ReleaseDetail],
      errors: ["SignInRequired", "NotFound"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* authenticate(ctx.request, ctx.auth)
      if (principal !== null) ctx.setUser(principal.userId)
      const gameId = yield* gameIdParam(ctx, () => new NotFound({ what: "release" }))
      const version = yield* versionParam(ctx)
      return json(200, yield* releaseDetail(principal, gameId, version))
    }),
  },
]
