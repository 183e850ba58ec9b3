import { Effect } from "effect"
import type { Claimed } from "../../../domain/errors.ts"
import { GamePath } from "../../../domain/game/GamePath.ts"
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
import { ReleasePath } from "../../../domain/release/ReleasePath.ts"
import type { CatalogStatus } from "../../../domain/game/Game.ts"
import * as Wire from "../openapi/schemas.ts"
import { json } from "../respond.ts"
import type { Route } from "../route.ts"
import { notYourGame, notYourGameOrRelease } from "../pathRefusals.ts"
import { defineRoute } from "../routeInput.ts"

// Withdraw, activate (go-live or rollback), takedown and reinstate (issue 16). Every answer says which release is
// active afterwards. A path that cannot name one of ours is answered like the review routes' (pathRefusals.ts): a game
// id that cannot be ours as an unknown game, an impossible version of a game as an unknown release.

interface Outcome {
  readonly releases: ReadonlyArray<Release>
  readonly gameStatus: CatalogStatus
  readonly activeVersion: string | null
  readonly activated?: boolean
}

const outcomeResponse = (gameId: string, outcome: Outcome) =>
  json(200, {
    gameId,
    gameStatus: outcome.gameStatus,
    activeVersion: outcome.activeVersion,
    ...(outcome.activated === undefined ? {} : { activated: outcome.activated }),
    releases: outcome.releases.map(releaseView),
  })

/**
 * The answer of a lifecycle step. The store checks review claims on approve and reject only (ports/ReleaseStore.ts), so
 * these steps never meet one: a claim here would be a defect, not an answer to document.
 */
const answered = <E, R>(gameId: string, step: Effect.Effect<Outcome, E | Claimed, R>) =>
  step.pipe(Effect.catchTag("Claimed", (claimed) => Effect.die(claimed)), Effect.map((outcome) => outcomeResponse(gameId, outcome)))

export const lifecycleRoutes: ReadonlyArray<Route> = [
  defineRoute({
    method: "POST",
    path: "/api/games/:gameId/releases/:version/withdraw",
    doc: {
      summary: "Withdraw a pending release from the review queue (owner); its version stays used",
      access: "signedIn",
      success: [200, Wire.LifecycleOutcome],
      errors: ["GameNotFoundOrForbidden", "NotFound", "ReleaseNotPending"],
    },
    params: ReleasePath,
    paramsNotFound: notYourGameOrRelease,
    handle: (_ctx, { principal, params: { gameId, version } }) =>
      answered(gameId, withdrawRelease(principal, gameId, version)),
  }),
  defineRoute({
    method: "POST",
    path: "/api/games/:gameId/releases/:version/activate",
    doc: {
      summary: "Make an approved release active without a new review: a staged go-live or a rollback (owner or administrator); re-verifies the stored bytes",
      access: "signedIn",
      success: [200, Wire.LifecycleOutcome],
      errors: ["GameNotFoundOrForbidden", "NotFound", "ReleaseNotActivatable", "StoredChecksumMismatch", "StoredArtifactMissing", "StorageNotConfigured"],
    },
    // The reason is optional: an absent or empty body activates without one.
    body: ActivateBody,
    optionalBody: true,
    params: ReleasePath,
    paramsNotFound: notYourGameOrRelease,
    handle: (_ctx, { principal, params: { gameId, version }, body }) =>
      answered(gameId, activateRelease(principal, gameId, version, body)),
  }),
  defineRoute({
    method: "POST",
    path: "/api/admin/games/:gameId/releases/:version/takedown",
    doc: {
      summary: "Take an approved release down (administrators): its object moves to quarantine at once; the game falls back to the newest approved release that was live before or asked to go live on approval",
      access: "admin",
      success: [200, Wire.LifecycleOutcome],
      errors: ["GameNotFoundOrForbidden", "NotFound", "ReleaseNotApproved", "StoredArtifactMissing", "StorageNotConfigured"],
    },
    body: TakedownBody,
    params: ReleasePath,
    paramsNotFound: notYourGameOrRelease,
    handle: (_ctx, { principal, params: { gameId, version }, body }) =>
      answered(gameId, takeDownRelease(principal, gameId, version, body)),
  }),
  defineRoute({
    method: "POST",
    path: "/api/admin/games/:gameId/releases/:version/reinstate",
    doc: {
      summary: "Reinstate a taken-down release (administrators): moved back and re-verified, approved again, not active until activated",
      access: "admin",
      success: [200, Wire.LifecycleOutcome],
      errors: ["GameNotFoundOrForbidden", "NotFound", "ReleaseNotTakenDown", "StoredChecksumMismatch", "StoredArtifactMissing", "StorageNotConfigured"],
    },
    body: TakedownBody,
    params: ReleasePath,
    paramsNotFound: notYourGameOrRelease,
    handle: (_ctx, { principal, params: { gameId, version }, body }) =>
      answered(gameId, reinstateRelease(principal, gameId, version, body)),
  }),
  defineRoute({
    method: "POST",
    path: "/api/admin/games/:gameId/takedown",
    doc: {
      summary: "Take every approved release of a game down at once (administrators); the game leaves the catalog",
      access: "admin",
      success: [200, Wire.LifecycleOutcome],
      errors: ["GameNotFoundOrForbidden", "ReleaseNotApproved", "StoredArtifactMissing", "StorageNotConfigured"],
    },
    body: TakedownBody,
    params: GamePath,
    paramsNotFound: notYourGame,
    handle: (_ctx, { principal, params: { gameId }, body }) =>
      answered(gameId, takeDownGame(principal, gameId, body)),
  }),
  defineRoute({
    method: "POST",
    path: "/api/admin/games/:gameId/reinstate",
    doc: {
      summary: "Reverse a game-wide takedown (administrators): only the releases the game-wide takedown took are approved again (a release taken down on its own stays down), and the release that was active then is active again if no release is active now",
      access: "admin",
      success: [200, Wire.LifecycleOutcome],
      errors: ["GameNotFoundOrForbidden", "ReleaseNotTakenDown", "StoredChecksumMismatch", "StoredArtifactMissing", "StorageNotConfigured"],
    },
    body: TakedownBody,
    params: GamePath,
    paramsNotFound: notYourGame,
    handle: (_ctx, { principal, params: { gameId }, body }) =>
      answered(gameId, reinstateGame(principal, gameId, body)),
  }),
]
