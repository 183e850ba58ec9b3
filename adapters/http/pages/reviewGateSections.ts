// The review gate on the release page (issue 15): the claim, the decision (Approve disabled while the scan is pending;
// with unresolved errors a separate "Approve despite N errors" step that asks for the override reason; Reject styled
// apart) and an accept action per finding. assets/review.js drives them through the JSON API with the session cookie.
import { Effect, Option } from "effect"
import type { Principal } from "../../../domain/auth/Principal.ts"
import { countsAsError, unresolvedErrors } from "../../../domain/review/ReviewGate.ts"
import { releaseScan } from "../../../domain/scan/ReleaseScan.ts"
import { Clock } from "../../../ports/Clock.ts"
import { ReviewGateStore } from "../../../ports/ReviewGateStore.ts"
import { findingsList, type ShownFinding } from "./findings.ts"
import { type Html, html } from "./html.ts"
import { timestamp } from "./layout.ts"

/** What the page needs to know about the gate for one release. */
export const gateState = Effect.fnUntraced(function*(principal: Principal, gameId: string, version: string) {
  const scan = yield* releaseScan(principal, gameId, version)
  const findings: ReadonlyArray<ShownFinding> = scan.status === "scanned" ? scan.report.findings : []
  const accepted = new Set(findings.flatMap((f) => (f.accepted != null && f.fingerprint !== undefined ? [f.fingerprint] : [])))
  const unresolved = scan.status === "scanned" ? unresolvedErrors({ ...scan.report, findings }, accepted) : null
  const now = yield* Clock.use((c) => c.now)
  const claim = Option.getOrNull(yield* ReviewGateStore.use((g) => g.getClaim(gameId, version)))
  const liveClaim = claim !== null && claim.until.getTime() > now.getTime() ? claim : null
  return { scanned: scan.status === "scanned", findings, unresolved, claim: liveClaim, me: principal.userId }
})

export type GateState = Effect.Success<ReturnType<typeof gateState>>

/**
 * The "accept" action of one finding: a form assets/review.js posts to the accept endpoint with the reason, for error
 * findings nobody accepted yet of a pending release (`key` keeps the field's id unique on the page). The release page's
 * findings list and the code view both use it.
 */
export const acceptAction = (gameId: string, finding: ShownFinding, key: string, pending: boolean): Html | null => {
  if (!pending || finding.fingerprint === undefined || finding.accepted != null || !countsAsError(finding)) return null
  const id = `accept-reason-${key}`
  return html`<form class="accept-form stack" data-game-id="${gameId}" data-fingerprint="${finding.fingerprint}" novalidate>
  <div class="field">
    <label for="${id}">Why this finding is acceptable (kept for this game: every version that has this finding)</label>
    <input id="${id}" name="reason" type="text" required maxlength="2000">
  </div>
  <button type="submit" class="secondary">Accept this finding</button>
</form>`
}

/** The findings with an "accept" form on each error finding nobody accepted yet (pending releases only). */
export const gateFindings = (gameId: string, state: GateState, pending: boolean): Html =>
  findingsList(state.findings, (finding, index) => acceptAction(gameId, finding, String(index), pending))

const claimLine = (state: GateState): Html =>
  state.claim === null
    ? html`<p id="claim-status">Nobody has claimed this release.</p>`
    : html`<p id="claim-status">Claimed by ${state.claim.by === state.me ? "you" : state.claim.by} until ${timestamp(state.claim.until)}.</p>`

const approveControls = (state: GateState, version: string): Html => {
  if (!state.scanned) {
    return html`<button type="button" id="approve" disabled aria-describedby="approve-help">Approve and publish ${version}</button>
  <p class="help" id="approve-help">The scan has not finished; approval waits for it. Reload this page in a moment.</p>`
  }
  if (state.unresolved === 0) return html`<button type="button" id="approve">Approve and publish ${version}</button>`
  const n = state.unresolved ?? 0
  return html`<p class="help" id="approve-help">${n} error ${n === 1 ? "finding is" : "findings are"} not accepted. Accept ${
    n === 1 ? "it" : "each"
  } above, reject the release, or approve despite ${n === 1 ? "it" : "them"} with a reason that is kept with the decision.</p>
  <form id="override-form" class="stack override" novalidate>
  <div class="field">
    <label for="override-reason">Why approve despite ${n} ${n === 1 ? "error" : "errors"} (kept with the decision)</label>
    <textarea id="override-reason" name="reason" required maxlength="2000" rows="3" aria-describedby="approve-help"></textarea>
  </div>
  <button type="submit" id="approve-override">Approve despite ${n} ${n === 1 ? "error" : "errors"}</button>
  </form>`
}

/** The decision section's controls for a pending release. */
export const pendingDecision = (gameId: string, version: string, state: GateState): Html =>
  html`<div class="decision" data-game-id="${gameId}" data-version="${version}">
  <p id="review-status" class="status-message" role="status" aria-live="polite" tabindex="-1"></p>
  <div class="claim">
  ${claimLine(state)}
  <button type="button" id="claim" class="secondary">${state.claim?.by === state.me ? "Renew your claim (30 minutes)" : "Claim for 30 minutes"}</button>
  </div>
  ${approveControls(state, version)}
  <form id="reject-form" class="stack">
  <div class="field">
    <label for="reason">Reason for rejecting (the creator sees it)</label>
    <textarea id="reason" name="reason" required maxlength="2000" rows="4" aria-describedby="reason-help"></textarea>
    <p class="help" id="reason-help">Required. Say what to change, e.g. which finding to fix.</p>
  </div>
  <button type="submit" class="danger">Reject ${version}</button>
  </form>
</div>`
