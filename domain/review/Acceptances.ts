import { Effect } from "effect"
import { Clock } from "../../ports/Clock.ts"
import { type FindingAcceptance, ReviewGateStore } from "../../ports/ReviewGateStore.ts"
import { ScanStore } from "../../ports/ScanStore.ts"
import { actorOf } from "../auth/Actor.ts"
import type { Principal } from "../auth/Principal.ts"
import { NotFound } from "../errors.ts"
import type { Finding } from "../scan/Finding.ts"
import { existingGame, requireAdmin } from "./Review.ts"
import { type AcceptFindingBody, FINGERPRINT_PATTERN } from "./ReviewGate.ts"

/** Who accepted a finding for its game, when and why: shown with the finding everywhere, never hiding it. */
export interface Acceptance {
  readonly by: string
  readonly at: Date
  readonly reason: string
}

export type WithAcceptance<F> = F & { readonly accepted: Acceptance | null }

/**
 * The findings, each with its game's acceptance or null. An acceptance is the game's, by fingerprint, so it holds for
 * every version whose scan has that finding (README: "Accepted findings"); a finding without a fingerprint has none.
 */
export const attachAcceptances = <F extends Finding>(
  findings: ReadonlyArray<F>,
  acceptances: ReadonlyArray<FindingAcceptance>,
): Array<WithAcceptance<F>> => {
  const byFingerprint = new Map(acceptances.map((a) => [a.fingerprint, a]))
  return findings.map((finding) => {
    const found = finding.fingerprint === undefined ? undefined : byFingerprint.get(finding.fingerprint)
    return { ...finding, accepted: found === undefined ? null : { by: found.by, at: found.at, reason: found.reason } }
  })
}

/** The game's acceptances, to attach to findings read from its scans. */
export const gameAcceptances = (gameId: string) => ReviewGateStore.use((g) => g.acceptances(gameId))

/** The game must exist, and the fingerprint must name a finding of one of its scans. */
const findingOfGame = Effect.fnUntraced(function*(gameId: string, fingerprint: string) {
  yield* existingGame(gameId)
  if (!FINGERPRINT_PATTERN.test(fingerprint)) return yield* new NotFound({ what: "finding" })
  const scans = yield* ScanStore.use((s) => s.listByGame(gameId))
  if (!scans.some((scan) => scan.report.findings.some((f) => f.fingerprint === fingerprint))) return yield* new NotFound({ what: "finding" })
})

/**
 * POST /api/admin/games/{gameId}/findings/{fingerprint}/accept `{reason}`: the finding no longer blocks approval of
 * this or any later version of the game that has it; it stays listed as "accepted by X: reason".
 */
export const acceptFinding = Effect.fn("acceptFinding")(function*(principal: Principal, gameId: string, fingerprint: string, body: AcceptFindingBody) {
  yield* requireAdmin(principal)
  const { reason } = body
  yield* findingOfGame(gameId, fingerprint)
  const at = yield* Clock.use((c) => c.now)
  // The store appends the "finding_accepted" event in the same step.
  const accepted = yield* ReviewGateStore.use((g) => g.accept({ gameId, fingerprint, by: principal.userId, at, reason: reason.trim() }, actorOf(principal)))
  return { gameId, fingerprint, accepted: { by: accepted.by, at: accepted.at, reason: accepted.reason } }
})

/** DELETE of the same path: withdraws the acceptance; none to withdraw → 404. */
export const withdrawAcceptance = Effect.fn("withdrawAcceptance")(function*(principal: Principal, gameId: string, fingerprint: string) {
  yield* requireAdmin(principal)
  yield* existingGame(gameId)
  const at = yield* Clock.use((c) => c.now)
  // The store appends the "finding_acceptance_withdrawn" event in the same step.
  const withdrawn = yield* ReviewGateStore.use((g) => g.withdraw(gameId, fingerprint, { actor: actorOf(principal), at }))
  if (!withdrawn) return yield* new NotFound({ what: "acceptance" })
})
