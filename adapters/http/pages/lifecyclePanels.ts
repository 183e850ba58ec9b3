// The release lifecycle on the pages (issue 16): the creator's queue position, activate/roll-back buttons and the
// game's timeline; the administrators' takedown and reinstate form. assets/lifecycle.js posts them to the JSON API.
import { Effect } from "effect"
import type { Principal } from "../../../domain/auth/Principal.ts"
import type { ActiveReason } from "../../../domain/game/Game.ts"
import { gameTimeline } from "../../../domain/timeline/GameTimeline.ts"
import { type Html, html } from "./html.ts"
import { formatDuration, timestamp } from "./layout.ts"

export interface QueueFacts {
  readonly position: number
  readonly ahead: number
  readonly waitingSeconds: number
  readonly estimatedWaitSeconds: number | null
}

export const queueNote = (queue: QueueFacts): Html =>
  html`<p class="queue" data-queue-position="${queue.position}">In the review queue: position ${queue.position} (${queue.ahead} ahead), waiting ${
    formatDuration(queue.waitingSeconds)
  }. ${
    queue.estimatedWaitSeconds === null
      ? html`No estimate yet: it needs at least 5 review decisions.`
      : html`Estimated wait: about ${formatDuration(queue.estimatedWaitSeconds)} more.`
  } <span class="help">The estimate is the median time from submission to decision of the last 50 decisions, less the time already waited.</span></p>`

const ACTIVE_CAUSE_TEXT: Readonly<Record<ActiveReason["cause"], string>> = {
  approval: "activated on approval",
  activation: "made active",
  takedown_fallback: "active again after the release above it was taken down",
  game_reinstate: "active again since the game was reinstated",
}

/** Why the active release is active (the API's `activeReason`): the cause, by whom, when. */
export const activeReasonNote = (reason: ActiveReason | null): Html =>
  reason === null
    ? html``
    : html` <span class="active-reason" data-active-cause="${reason.cause}">${ACTIVE_CAUSE_TEXT[reason.cause]} by <code>${reason.actor}</code>, ${
      timestamp(reason.at)
    }.</span>`

/** An approved release that is not active can be activated: a staged go-live, or a roll-back to an earlier build. */
export const activateButton = (gameId: string, version: string, activeVersion: string | null, newer: boolean): Html =>
  html`<button type="button" class="activate" data-game-id="${gameId}" data-version="${version}">${
    activeVersion === null ? `Make ${version} active` : newer ? `Go live with ${version}` : `Roll back to ${version}`
  }</button>`

export const timelineSection = Effect.fnUntraced(function*(principal: Principal, gameId: string, headingId: string) {
  const { events } = yield* gameTimeline(principal, gameId, { cursor: null, limit: "100" })
  return html`<details class="timeline"><summary id="${headingId}">Timeline (${events.length}${events.length === 100 ? "+" : ""} events)</summary>
  <ol>${
    events.map((e) =>
      html`<li>${timestamp(e.at)}: <strong>${e.kind.replaceAll("_", " ")}</strong>${e.version === null ? "" : ` ${e.version}`} by <code>${e.actor}</code>${
        e.reason !== null && html` — <q>${e.reason}</q>`
      }</li>`
    )
  }</ol></details>`
})

/** The administrators' takedown (approved releases) or reinstate (taken-down ones) form. */
export const takedownPanel = (gameId: string, version: string, status: string, takedownReason: string | null): Html => {
  const action = status === "approved" ? "takedown" : status === "taken_down" ? "reinstate" : null
  if (action === null) return html``
  return html`<section aria-labelledby="takedown-heading">
  <h2 id="takedown-heading">${action === "takedown" ? "Take down" : "Reinstate"}</h2>
  ${takedownReason !== null && html`<p>Taken down: <q class="reason">${takedownReason}</q></p>`}
  <form id="takedown-form" class="stack" data-game-id="${gameId}" data-version="${version}" data-action="${action}">
  <p id="takedown-status" class="status-message" role="status" aria-live="polite" tabindex="-1"></p>
  <div class="field">
    <label for="takedown-reason">${action === "takedown" ? "Reason for taking it down (the creator sees it)" : "Reason for reinstating it"}</label>
    <textarea id="takedown-reason" name="reason" required maxlength="2000" rows="3"></textarea>
  </div>
  <button type="submit">${action === "takedown" ? `Take ${version} down` : `Reinstate ${version}`}</button>
  </form>
</section>`
}
