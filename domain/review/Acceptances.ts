import { Effect, Option } from "effect"
import { Clock } from "../../ports/Clock.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { ReviewGateStore } from "../../ports/ReviewGateStore.ts"
import { ScanStore } from "../../ports/ScanStore.ts"
import { actorOf } from "../auth/Actor.ts"
import type { Principal } from "../auth/Principal.ts"
import { decodeInput } from "../decode.ts"
import { GameNotFoundOrForbidden, NotFound } from "../errors.ts"
import { requireAdmin } from "./Review.ts"
import { AcceptFindingBody, FINGERPRINT_PATTERN } from "./ReviewGate.ts"

/** The game must exist, and the fingerprint must name a finding of one of its scans. */
const findingOfGame = Effect.fnUntraced(function*(gameId: string, fingerprint: string) {
  if (Option.isNone(yield* GameStore.use((g) => g.get(gameId)))) return yield* new GameNotFoundOrForbidden({ gameId })
  if (!FINGERPRINT_PATTERN.test(fingerprint)) return yield* new NotFound({ what: "finding" })
  const scans = yield* ScanStore.use((s) => s.listByGame(gameId))
  if (!scans.some((scan) => scan.report.findings.some((f) => f.fingerprint === fingerprint))) return yield* new NotFound({ what: "finding" })
})

/**
 * POST /api/admin/games/{gameId}/findings/{fingerprint}/accept `{reason}`: the finding no longer blocks approval of
 * this or any later version of the game that has it; it stays listed as "accepted by X: reason".
 */
export const acceptFinding = Effect.fn("acceptFinding")(function*(principal: Principal, gameId: string, fingerprint: string, body: unknown) {
  yield* requireAdmin(principal)
  const { reason } = yield* decodeInput(AcceptFindingBody, body)
  yield* findingOfGame(gameId, fingerprint)
  const at = yield* Clock.use((c) => c.now)
  // The store appends the "finding_accepted" event in the same step.
  const accepted = yield* ReviewGateStore.use((g) => g.accept({ gameId, fingerprint, by: principal.userId, at, reason: reason.trim() }, actorOf(principal)))
  return { gameId, fingerprint, accepted: { by: accepted.by, at: accepted.at, reason: accepted.reason } }
})

/** DELETE of the same path: withdraws the acceptance; none to withdraw → 404. */
export const withdrawAcceptance = Effect.fn("withdrawAcceptance")(function*(principal: Principal, gameId: string, fingerprint: string) {
  yield* requireAdmin(principal)
  if (Option.isNone(yield* GameStore.use((g) => g.get(gameId)))) return yield* new GameNotFoundOrForbidden({ gameId })
  const at = yield* Clock.use((c) => c.now)
  // The store appends the "finding_acceptance_withdrawn" event in the same step.
  const withdrawn = yield* ReviewGateStore.use((g) => g.withdraw(gameId, fingerprint, { actor: actorOf(principal), at }))
  if (!withdrawn) return yield* new NotFound({ what: "acceptance" })
})
