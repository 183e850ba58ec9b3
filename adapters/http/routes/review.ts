import { Effect } from "effect"
import { NotFound } from "../../../domain/errors.ts"
import { releaseView } from "../../../domain/game/Views.ts"
import { approveRelease, RejectBody, rejectRelease, reviewQueue } from "../../../domain/review/Review.ts"
import { ApproveBody } from "../../../domain/review/ReviewGate.ts"
import { readJsonBody, readOptionalJsonBody } from "../body.ts"
import { pageParamsOf } from "../pageParams.ts"
import * as Wire from "../openapi/schemas.ts"
import { json } from "../respond.ts"
import { gameIdParam, principalFor, type Route, type RouteContext, versionParam } from "../route.ts"

const decisionResponse = (
  outcome: Omit<Effect.Success<ReturnType<typeof approveRelease>>, "activated" | "activationNote"> & {
    readonly activated?: boolean
    readonly activationNote?: string | null
  },
) =>
  json(200, {
    gameId: outcome.release.gameId,
    ...releaseView(outcome.release),
    gameStatus: outcome.gameStatus,
    activeVersion: outcome.activeVersion,
    scan: outcome.scan,
    approvalOverride: outcome.approvalOverride,
    ...(outcome.activated === undefined ? {} : { activated: outcome.activated }),
    ...(outcome.activationNote == null ? {} : { activationNote: outcome.activationNote }),
  })

const target = (ctx: RouteContext) =>
  Effect.all([gameIdParam(ctx, () => new NotFound({ what: "release" })), versionParam(ctx)])

export const reviewRoutes: ReadonlyArray<Route> = [
  {
    method: "GET",
    path: "/api/admin/review-queue",
    doc: {
      summary: "A page of pending releases, oldest first, with waiting time (administrators; ?limit=1-100&cursor=nextCursor)",
      access: "admin",
      success: [200, Wire.ReviewQueue],
      errors: ["NotFound", "InvalidRequest"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      return json(200, yield* reviewQueue(principal, pageParamsOf(ctx.request)))
    }),
  },
  {
    method: "POST",
    path: "/api/admin/games/:gameId/releases/:version/approve",
    doc: {
      summary:
        "The review gate (claim, finished scan, error findings accepted or an override reason), then re-verify the stored bytes, publish the game and make this release active (administrators)",
      access: "admin",
      request: ApproveBody,
      success: [200, Wire.ReviewDecision],
      errors: [
        "NotFound",
        "ReleaseNotPending",
        "Claimed",
        "ScanPending",
        "FindingsUnresolved",
        "StoredChecksumMismatch",
        "StoredArtifactMissing",
        "StorageNotConfigured",
      ],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      // The body is optional: an empty one approves without an override.
      const body = yield* readOptionalJsonBody(ctx.request, ctx.bodyTimeouts)
      const [gameId, version] = yield* target(ctx)
      return decisionResponse(yield* approveRelease(principal, gameId, version, body))
    }),
  },
  {
    method: "POST",
    path: "/api/admin/games/:gameId/releases/:version/reject",
    doc: {
      summary: "Reject with a reason the creator sees; the previously approved release stays active (administrators)",
      access: "admin",
      request: RejectBody,
      success: [200, Wire.ReviewDecision],
      errors: ["NotFound", "ReleaseNotPending", "Claimed"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      const body = yield* readJsonBody(ctx.request, ctx.bodyTimeouts)
      const [gameId, version] = yield* target(ctx)
      return decisionResponse(yield* rejectRelease(principal, gameId, version, body))
    }),
  },
]
