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

/** Which page of a game's timeline a page shows: from `cursor` (null: the first events), with links built by `href`. */
export interface TimelinePaging {
  readonly cursor: string | null
  /** The page's own URL showing the timeline from `cursor` (null: from the first event). */
  readonly href: (cursor: string | null) => string
}

const TIMELINE_PAGE = 100

/**
 * The game's timeline, 100 events at a time, oldest first: a "More events" link follows `nextCursor`, and a later page
 * links back to the first events. A page past the first opens the section.
 */
export const timelineSection = Effect.fnUntraced(function*(principal: Principal, gameId: string, headingId: string, paging: TimelinePaging) {
  const { events, nextCursor } = yield* gameTimeline(principal, gameId, { cursor: paging.cursor, limit: String(TIMELINE_PAGE) })
  const shown = paging.cursor === null ? `${events.length}${nextCursor === null ? "" : "+"} events` : `${events.length} later events`
  return html`<details class="timeline"${paging.cursor === null ? "" : html` open`}><summary id="${headingId}">Timeline (${shown})</summary>
  <ol>${
    events.map((e) =>
      html`<li>${timestamp(e.at)}: <strong>${e.kind.replaceAll("_", " ")}</strong>${e.version === null ? "" : ` ${e.version}`} by <code>${e.actor}</code>${
        e.reason !== null && html` — <q>${e.reason}</q>`
      }</li>`
    )
  }</ol>
  ${
    (paging.cursor !== null || nextCursor !== null) &&
    html`<nav class="pager" aria-label="Timeline pages">${paging.cursor !== null && html`<a href="${paging.href(null)}#${headingId}" rel="first">First events</a>`}
  ${nextCursor !== null && html`<a href="${paging.href(nextCursor)}#${headingId}" rel="next">More events</a>`}</nav>`
  }</details>`
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
