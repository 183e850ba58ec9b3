import { Effect, Schema } from "effect"
import { ReleasePath, requestRescan } from "../../../domain/scan/Rescans.ts"
import { json } from "../respond.ts"
import type { Route } from "../route.ts"
import { defineRoute } from "../routeInput.ts"

/** What POST …/rescan answers: the release is back in the scan queue. */
export const RescanQueued = Schema.Struct({ gameId: Schema.String, version: Schema.String, scan: Schema.Literal("queued") })

export const rescanRoutes: ReadonlyArray<Route> = [
  defineRoute({
    method: "POST",
    path: "/api/admin/games/:gameId/releases/:version/rescan",
    doc: {
      summary: "Scan a release again with the current scanner, in the background; its scan reads `pending` until then (administrators)",
      access: "admin",
      success: [202, RescanQueued],
      errors: ["NotFound"],
    },
    params: ReleasePath,
    paramsNotFound: "release",
    handle: (_ctx, { principal, params }) =>
      Effect.map(requestRescan(principal, params), (release) => json(202, { gameId: release.gameId, version: release.version, scan: "queued" })),
  }),
]
