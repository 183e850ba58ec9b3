import { Effect } from "effect"
import { NotFound } from "../../../domain/errors.ts"
import { releaseView } from "../../../domain/game/Views.ts"
import {
  ActivateBody,
  activateRelease,
  reinstateGame,
  reinstateRelease,
  TakedownBody,
  takeDownGame,
  takeDownRelease,
  withdrawRelease,
} from "../../../domain/release/Lifecycle.ts"
import type { Release } from "../../../domain/release/Release.ts"
import type { CatalogStatus } from "../../../domain/game/Game.ts"
import { readJsonBody } from "../body.ts"
import * as Wire from "../openapi/schemas.ts"
import { json } from "../respond.ts"
import { gameIdParam, principalFor, type Route, type RouteContext, versionParam } from "../route.ts"

// Withdraw, activate (go-live or rollback), takedown and reinstate (issue 16). Every answer says which release is
// active afterwards.

const outcomeResponse = (
  gameId: string,
  outcome: { releases: ReadonlyArray<Release>; gameStatus: CatalogStatus; activeVersion: string | null; activated?: boolean },
) =>
  json(200, {
    gameId,
    gameStatus: outcome.gameStatus,
    activeVersion: outcome.activeVersion,
    ...(outcome.activated === undefined ? {} : { activated: outcome.activated }),
    releases: outcome.releases.map(releaseView),
  })

const gameOf = (ctx: RouteContext) => gameIdParam(ctx, () => new NotFound({ what: "release" }))
const target = (ctx: RouteContext) => Effect.all([gameOf(ctx), versionParam(ctx)])

/** A JSON body, or none at all (activate's reason is optional). */
const optionalBody = (ctx: RouteContext) =>
  ctx.request.headers.get("content-length") === "0" || !ctx.request.headers.has("content-type")
    ? Effect.succeed({})
    : readJsonBody(ctx.request, ctx.bodyTimeouts)

export const lifecycleRoutes: ReadonlyArray<Route> = [
  {
    method: "POST",
    path: "/api/games/:gameId/releases/:version/withdraw",
    doc: {
      summary: "Withdraw a pending release from the review queue (owner); its version stays used",
      access: "signedIn",
      success: [200, Wire.LifecycleOutcome],
      errors: ["GameNotFoundOrForbidden", "NotFound", "ReleaseNotPending"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      const [gameId, version] = yield* target(ctx)
      return outcomeResponse(gameId, yield* withdrawRelease(principal, gameId, version))
    }),
  },
  {
    method: "POST",
    path: "/api/games/:gameId/releases/:version/activate",
    doc: {
      summary: "Make an approved release active without a new review: a staged go-live or a rollback (owner or administrator); re-verifies the stored bytes",
      access: "signedIn",
      request: ActivateBody,
      success: [200, Wire.LifecycleOutcome],
      errors: ["GameNotFoundOrForbidden", "NotFound", "ReleaseNotActivatable", "StoredChecksumMismatch", "StoredArtifactMissing", "StorageNotConfigured"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      const body = yield* optionalBody(ctx)
      const [gameId, version] = yield* target(ctx)
      const outcome = yield* activateRelease(principal, gameId, version, body)
      return outcomeResponse(gameId, outcome)
    }),
  },
  {
    method: "POST",
    path: "/api/admin/games/:gameId/releases/:version/takedown",
    doc: {
      summary: "Take an approved release down (administrators): its object moves to quarantine at once; the game falls back to the newest approved release",
      access: "admin",
      request: TakedownBody,
      success: [200, Wire.LifecycleOutcome],
      errors: ["GameNotFoundOrForbidden", "NotFound", "ReleaseNotApproved", "StoredArtifactMissing", "StorageNotConfigured"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      const body = yield* readJsonBody(ctx.request, ctx.bodyTimeouts)
      const [gameId, version] = yield* target(ctx)
      return outcomeResponse(gameId, yield* takeDownRelease(principal, gameId, version, body))
    }),
  },
  {
    method: "POST",
    path: "/api/admin/games/:gameId/releases/:version/reinstate",
    doc: {
      summary: "Reinstate a taken-down release (administrators): moved back and re-verified, approved again, not active until activated",
      access: "admin",
      request: TakedownBody,
      success: [200, Wire.LifecycleOutcome],
      errors: ["GameNotFoundOrForbidden", "NotFound", "ReleaseNotTakenDown", "StoredChecksumMismatch", "StoredArtifactMissing", "StorageNotConfigured"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      const body = yield* readJsonBody(ctx.request, ctx.bodyTimeouts)
      const [gameId, version] = yield* target(ctx)
      return outcomeResponse(gameId, yield* reinstateRelease(principal, gameId, version, body))
    }),
  },
  {
    method: "POST",
    path: "/api/admin/games/:gameId/takedown",
    doc: {
      summary: "Take every approved release of a game down at once (administrators); the game leaves the catalog",
      access: "admin",
      request: TakedownBody,
      success: [200, Wire.LifecycleOutcome],
      errors: ["GameNotFoundOrForbidden", "ReleaseNotApproved", "StoredArtifactMissing", "StorageNotConfigured"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      const body = yield* readJsonBody(ctx.request, ctx.bodyTimeouts)
      const gameId = yield* gameOf(ctx)
      return outcomeResponse(gameId, yield* takeDownGame(principal, gameId, body))
    }),
  },
  {
    method: "POST",
    path: "/api/admin/games/:gameId/reinstate",
    doc: {
      summary: "Reverse a game-wide takedown (administrators): every taken-down release approved again, the newest active",
      access: "admin",
      request: TakedownBody,
      success: [200, Wire.LifecycleOutcome],
      errors: ["GameNotFoundOrForbidden", "ReleaseNotTakenDown", "StoredChecksumMismatch", "StoredArtifactMissing", "StorageNotConfigured"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      const body = yield* readJsonBody(ctx.request, ctx.bodyTimeouts)
      const gameId = yield* gameOf(ctx)
      return outcomeResponse(gameId, yield* reinstateGame(principal, gameId, body))
    }),
  },
]
