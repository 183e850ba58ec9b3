// The review gate's own endpoints (issue 15): claiming a release, accepting a finding for a game.
import { Effect } from "effect"
import { GameNotFoundOrForbidden } from "../../../domain/errors.ts"
import { acceptFinding, withdrawAcceptance } from "../../../domain/review/Acceptances.ts"
import { claimRelease, releaseClaim } from "../../../domain/review/Claims.ts"
import { AcceptFindingBody } from "../../../domain/review/ReviewGate.ts"
import { readJsonBody } from "../body.ts"
import * as Wire from "../openapi/schemas.ts"
import { json } from "../respond.ts"
import { gameIdParam, principalFor, rawParam, type Route, type RouteContext, versionParam } from "../route.ts"

// An administrator's unknown game is 404 game_not_found_or_forbidden, an unknown version 404 not_found (everyone else
// gets not_found from the admin guard before this runs).
const game = (ctx: RouteContext) => gameIdParam(ctx, () => new GameNotFoundOrForbidden({ gameId: rawParam(ctx, "gameId") }))
/** The game and version of an administrator's release path. */
export const adminRelease = (ctx: RouteContext) => Effect.all([game(ctx), versionParam(ctx)])

const CLAIM_PATH = "/api/admin/games/:gameId/releases/:version/claim"
const ACCEPT_PATH = "/api/admin/games/:gameId/findings/:fingerprint/accept"

export const reviewGateRoutes: ReadonlyArray<Route> = [
  {
    method: "POST",
    path: CLAIM_PATH,
    doc: {
      summary: "Claim a pending release for 30 minutes so no other administrator decides it meanwhile; claiming again renews your own claim (administrators)",
      access: "admin",
      success: [200, Wire.ReviewClaim],
      errors: ["GameNotFoundOrForbidden", "NotFound", "ReleaseNotPending", "Claimed"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      const [gameId, version] = yield* adminRelease(ctx)
      return json(200, yield* claimRelease(principal, gameId, version))
    }),
  },
  {
    method: "DELETE",
    path: CLAIM_PATH,
    doc: {
      summary: "End your own claim of a release (nothing to end is fine); another administrator's live claim answers 409 claimed (administrators)",
      access: "admin",
      success: [204, null],
      errors: ["GameNotFoundOrForbidden", "NotFound", "ReleaseNotPending", "Claimed"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      const [gameId, version] = yield* adminRelease(ctx)
      yield* releaseClaim(principal, gameId, version)
      return new Response(null, { status: 204 })
    }),
  },
  {
    method: "POST",
    path: ACCEPT_PATH,
    doc: {
      summary:
        "Accept a finding for this game, in this and later versions, with a reason; it stays listed as accepted and no longer blocks approval (administrators)",
      access: "admin",
      request: AcceptFindingBody,
      success: [200, Wire.AcceptedFinding],
      errors: ["GameNotFoundOrForbidden", "NotFound"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      const body = yield* readJsonBody(ctx.request, ctx.bodyTimeouts)
      const gameId = yield* game(ctx)
      return json(200, yield* acceptFinding(principal, gameId, rawParam(ctx, "fingerprint"), body))
    }),
  },
  {
    method: "DELETE",
    path: ACCEPT_PATH,
    doc: {
      summary: "Withdraw the acceptance of a finding; it blocks approval again (administrators)",
      access: "admin",
      success: [204, null],
      errors: ["GameNotFoundOrForbidden", "NotFound"],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* principalFor(ctx)
      const gameId = yield* game(ctx)
      yield* withdrawAcceptance(principal, gameId, rawParam(ctx, "fingerprint"))
      return new Response(null, { status: 204 })
    }),
  },
]
