// The review gate's own endpoints (issue 15): claiming a release, accepting a finding for a game.
import { Effect } from "effect"
import { acceptFinding, withdrawAcceptance } from "../../../domain/review/Acceptances.ts"
import { claimRelease, releaseClaim } from "../../../domain/review/Claims.ts"
import { AcceptFindingBody, FindingPath } from "../../../domain/review/ReviewGate.ts"
import { ReleasePath } from "../../../domain/release/ReleasePath.ts"
import * as Wire from "../openapi/schemas.ts"
import { notYourGame, notYourGameOrRelease } from "../pathRefusals.ts"
import { json } from "../respond.ts"
import type { Route } from "../route.ts"
import { defineRoute } from "../routeInput.ts"

// An administrator's unknown game is 404 game_not_found_or_forbidden, an unknown version or finding 404 not_found
// (everyone else gets not_found from the admin guard before this runs).

const CLAIM_PATH = "/api/admin/games/:gameId/releases/:version/claim"
const ACCEPT_PATH = "/api/admin/games/:gameId/findings/:fingerprint/accept"

export const reviewGateRoutes: ReadonlyArray<Route> = [
  defineRoute({
    method: "POST",
    path: CLAIM_PATH,
    doc: {
      summary: "Claim a pending release for 30 minutes so no other administrator decides it meanwhile; claiming again renews your own claim (administrators)",
      access: "admin",
      success: [200, Wire.ReviewClaim],
      errors: ["GameNotFoundOrForbidden", "NotFound", "ReleaseNotPending", "Claimed"],
    },
    params: ReleasePath,
    paramsNotFound: notYourGameOrRelease,
    handle: (_ctx, { principal, params }) => Effect.map(claimRelease(principal, params.gameId, params.version), (claim) => json(200, claim)),
  }),
  defineRoute({
    method: "DELETE",
    path: CLAIM_PATH,
    doc: {
      summary: "End your own claim of a release (nothing to end is fine); another administrator's live claim answers 409 claimed (administrators)",
      access: "admin",
      success: [204, null],
      errors: ["GameNotFoundOrForbidden", "NotFound", "ReleaseNotPending", "Claimed"],
    },
    params: ReleasePath,
    paramsNotFound: notYourGameOrRelease,
    handle: (_ctx, { principal, params }) =>
      Effect.as(releaseClaim(principal, params.gameId, params.version), new Response(null, { status: 204 })),
  }),
  defineRoute({
    method: "POST",
    path: ACCEPT_PATH,
    doc: {
      summary:
        "Accept a finding for this game (every version that has it, this one and later ones) with a reason; it stays listed as accepted and no longer blocks approval (administrators)",
      access: "admin",
      success: [200, Wire.AcceptedFinding],
      errors: ["GameNotFoundOrForbidden", "NotFound"],
    },
    body: AcceptFindingBody,
    params: FindingPath,
    paramsNotFound: notYourGame,
    handle: (_ctx, { principal, params, body }) =>
      Effect.map(acceptFinding(principal, params.gameId, params.fingerprint, body), (accepted) => json(200, accepted)),
  }),
  defineRoute({
    method: "DELETE",
    path: ACCEPT_PATH,
    doc: {
      summary: "Withdraw the acceptance of a finding; it blocks approval again (administrators)",
      access: "admin",
      success: [204, null],
      errors: ["GameNotFoundOrForbidden", "NotFound"],
    },
    params: FindingPath,
    paramsNotFound: notYourGame,
    handle: (_ctx, { principal, params }) =>
      Effect.as(withdrawAcceptance(principal, params.gameId, params.fingerprint), new Response(null, { status: 204 })),
  }),
]
