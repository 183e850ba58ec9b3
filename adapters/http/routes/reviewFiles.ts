import { Effect } from "effect"
import { diffRelease } from "../../../domain/review/DiffReleases.ts"
import { listReleaseFiles, readReleaseFile } from "../../../domain/review/ReadPack.ts"
import * as Wire from "../openapi/reviewFileSchemas.ts"
import { json } from "../respond.ts"
import { principalFor, type Route, type RouteContext } from "../route.ts"
import { adminRelease } from "./reviewGate.ts"

// Reading a release's pack (issue 15): administrators only; the admin guard answers 404 not_found to anyone else.

const query = (ctx: RouteContext) => new URL(ctx.request.url).searchParams

const RELEASE = "/api/admin/games/:gameId/releases/:version"

export const reviewFileRoutes: ReadonlyArray<Route> = [
  {
    method: "GET",
    path: `${RELEASE}/files`,
    doc: {
      summary: "Every entry of the pack by the creator's path, with kind, SHA-256 and finding count; `limit` 1-1000 (default 1000), `cursor` (administrators)",
      access: "admin",
      success: [200, Wire.ReleaseFiles],
      errors: ["GameNotFoundOrForbidden", "NotFound", "InvalidRequest"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      const [gameId, version] = yield* adminRelease(ctx)
      const params = query(ctx)
      return json(200, yield* listReleaseFiles(principal, gameId, version, { limit: params.get("limit"), cursor: params.get("cursor") }))
    }),
  },
  {
    method: "GET",
    path: `${RELEASE}/file`,
    doc: {
      summary: "One entry's text (or the first 64 bytes, hex, of a binary one) and its findings; `path` as listed by /files (administrators)",
      access: "admin",
      success: [200, Wire.ReleaseFile],
      errors: ["GameNotFoundOrForbidden", "NotFound", "InvalidRequest"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      const [gameId, version] = yield* adminRelease(ctx)
      const file = yield* readReleaseFile(principal, gameId, version, query(ctx).get("path"))
      return json(200, { ...file, findings: ctx.withDocsUrls(file.findings) })
    }),
  },
  {
    method: "GET",
    path: `${RELEASE}/diff`,
    doc: {
      summary: "Files changed against `against` (default: the active release), with unified diffs, capabilities and findings compared (administrators)",
      access: "admin",
      success: [200, Wire.ReleaseDiff],
      errors: ["GameNotFoundOrForbidden", "NotFound", "InvalidRequest"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      const [gameId, version] = yield* adminRelease(ctx)
      const diff = yield* diffRelease(principal, gameId, version, query(ctx).get("against"))
      const { new: fresh, carried, fixed } = diff.findings
      return json(200, { ...diff, findings: { new: ctx.withDocsUrls(fresh), carried: ctx.withDocsUrls(carried), fixed: ctx.withDocsUrls(fixed) } })
    }),
  },
]
