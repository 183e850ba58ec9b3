import { Effect } from "effect"
import { NotFound } from "../../../domain/errors.ts"
import { releaseDetail } from "../../../domain/game/Views.ts"
import { downloadUrl } from "../../../domain/release/DownloadUrl.ts"
import { finalizeRelease } from "../../../domain/release/FinalizeRelease.ts"
import { requestUploadUrl } from "../../../domain/release/RequestUploadUrl.ts"
import { authenticate } from "../auth.ts"
import { readJsonBody } from "../body.ts"
import { DEPENDENCY_FAILURE } from "../errorTable.ts"
import { json } from "../respond.ts"
import { gameIdParam, principalFor, rawParam, type Route, versionParam } from "../route.ts"

export const releaseRoutes: ReadonlyArray<Route> = [
  {
    method: "POST",
    path: "/api/games/:gameId/releases/upload-url",
    dependencyFailure: DEPENDENCY_FAILURE.uploadUrl,
    handle: (ctx) =>
      Effect.gen(function*() {
        const principal = yield* principalFor(ctx)
        const body = yield* readJsonBody(ctx.request)
        return json(200, yield* requestUploadUrl(principal, rawParam(ctx, "gameId"), body))
      }),
  },
  {
    method: "POST",
    path: "/api/games/:gameId/releases/finalize",
    dependencyFailure: DEPENDENCY_FAILURE.finalize,
    handle: (ctx) =>
      Effect.gen(function*() {
        const principal = yield* principalFor(ctx)
        const body = yield* readJsonBody(ctx.request)
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
    handle: (ctx) =>
      Effect.gen(function*() {
        const principal = yield* principalFor(ctx)
        const gameId = yield* gameIdParam(ctx, new NotFound({ what: "release" }))
        const version = yield* versionParam(ctx)
        return json(200, yield* downloadUrl(principal, gameId, version))
      }),
  },
  {
    method: "GET",
    path: "/api/games/:gameId/releases/:version",
    handle: (ctx) =>
      Effect.gen(function*() {
        const principal = yield* authenticate(ctx.request, ctx.auth)
        if (principal !== null) ctx.setUser(principal.userId)
        const gameId = yield* gameIdParam(ctx, new NotFound({ what: "release" }))
        const version = yield* versionParam(ctx)
        return json(200, yield* releaseDetail(principal, gameId, version))
      }),
  },
]
