import { Effect } from "effect"
import { releaseView } from "../../../domain/game/Views.ts"
import { ReleasePath } from "../../../domain/release/ReleasePath.ts"
import { approveRelease, RejectBody, rejectRelease, reviewQueue } from "../../../domain/review/Review.ts"
import { ApproveBody } from "../../../domain/review/ReviewGate.ts"
import { pageParamsOf } from "../pageParams.ts"
import { notYourGameOrRelease } from "../pathRefusals.ts"
import * as Wire from "../openapi/schemas.ts"
import { json } from "../respond.ts"
import type { Route } from "../route.ts"
import { defineRoute } from "../routeInput.ts"

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

export const reviewRoutes: ReadonlyArray<Route> = [
  defineRoute({
    method: "GET",
    path: "/api/admin/review-queue",
    doc: {
      summary: "A page of pending releases, oldest first, with waiting time (administrators; ?limit=1-100&cursor=nextCursor)",
      access: "admin",
      success: [200, Wire.ReviewQueue],
      errors: ["NotFound", "InvalidRequest"],
    },
    handle: (ctx, { principal }) => Effect.map(reviewQueue(principal, pageParamsOf(ctx.request)), (page) => json(200, page)),
  }),
  defineRoute({
    method: "POST",
    path: "/api/admin/games/:gameId/releases/:version/approve",
    doc: {
      summary:
        "The review gate (claim, finished scan, error findings accepted or an override reason), then re-verify the stored bytes, publish the game and make this release active (administrators)",
      access: "admin",
      success: [200, Wire.ReviewDecision],
      errors: [
        "GameNotFoundOrForbidden",
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
    // The body is optional: an empty one approves without an override.
    body: ApproveBody,
    optionalBody: true,
    params: ReleasePath,
    paramsNotFound: notYourGameOrRelease,
    handle: (_ctx, { principal, params, body }) => Effect.map(approveRelease(principal, params.gameId, params.version, body), decisionResponse),
  }),
  defineRoute({
    method: "POST",
    path: "/api/admin/games/:gameId/releases/:version/reject",
    doc: {
      summary: "Reject with a reason the creator sees; the previously approved release stays active (administrators)",
      access: "admin",
      success: [200, Wire.ReviewDecision],
      errors: ["GameNotFoundOrForbidden", "NotFound", "ReleaseNotPending", "Claimed"],
    },
    body: RejectBody,
    params: ReleasePath,
    paramsNotFound: notYourGameOrRelease,
    handle: (_ctx, { principal, params, body }) => Effect.map(rejectRelease(principal, params.gameId, params.version, body), decisionResponse),
  }),
]
