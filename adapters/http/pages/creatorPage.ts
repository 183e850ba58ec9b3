import { Effect } from "effect"
import type { Principal } from "../../../domain/auth/Principal.ts"
import type { ActiveReason } from "../../../domain/game/Game.ts"
import { myGames, type releaseView } from "../../../domain/game/Views.ts"
import { positionIn, queueSnapshot } from "../../../domain/review/QueuePosition.ts"
import { compareVersions } from "../../../domain/release/VersionOrder.ts"
import { activateButton, activeReasonNote, queueNote, type QueueFacts, timelineSection } from "./lifecyclePanels.ts"
import { ScanStore, type ScanRecord } from "../../../ports/ScanStore.ts"
import { listApiKeys } from "../../../domain/credentials/ManageApiKeys.ts"
import { apiKeysSection } from "./apiKeysSection.ts"
import { FIRST_PAGE } from "../../../domain/paging/lists.ts"
import type { PageParams } from "../../../domain/paging/Page.ts"
import { type FindingAcceptance, ReviewGateStore } from "../../../ports/ReviewGateStore.ts"
import { findingsList, scanSummaryText } from "./findings.ts"
import { attachAcceptances } from "../../../domain/review/Acceptances.ts"
import { type Html, html } from "./html.ts"
import { pager } from "./pager.ts"
import { htmlResponse, page, timestamp } from "./layout.ts"

// {base_url}/creator: the signed-in creator's games, every version with its status, rejection reason and scan, and a
// download button (assets/creator.js asks GET /api/games/{id}/releases/{v}/download-url, then follows the URL).

type ReleaseRow = ReturnType<typeof releaseView>

export const RELEASE_STATUS_LABEL: Readonly<Record<ReleaseRow["status"], string>> = {
  pending_review: "pending review",
  approved: "approved",
  rejected: "rejected",
  withdrawn: "withdrawn",
  taken_down: "taken down",
}

const scanCell = (scan: ScanRecord | undefined, acceptances: ReadonlyArray<FindingAcceptance>): Html => {
  if (scan === undefined) return html`<span class="muted">Scan pending</span>`
  const { report } = scan
  return html`<p>${scanSummaryText(report)}</p>${
    report.findings.length > 0 &&
    html`<details><summary>Findings (${report.findings.length})</summary>${findingsList(attachAcceptances(report.findings, acceptances))}</details>`
  }`
}

interface RowContext {
  readonly activeVersion: string | null
  readonly activeReason: ActiveReason | null
  readonly queue: QueueFacts | null
  readonly acceptances: ReadonlyArray<FindingAcceptance>
}

/** Why a release stands where it does: the rejection or takedown reason, why an approved one is not active, the queue. */
const standingCell = (gameId: string, release: ReleaseRow, row: RowContext): Html => {
  if (release.rejectionReason !== null) return html`<p class="reason">${release.rejectionReason}</p>`
  if (release.takedownReason !== null) return html`<p class="reason">Taken down: ${release.takedownReason}</p>`
  if (release.status === "pending_review" && row.queue !== null) return queueNote(row.queue)
  if (release.status !== "approved") return html`<span class="muted">—</span>`
  if (release.version === row.activeVersion) {
    return html`<p><strong>Active</strong>: players get this version.${activeReasonNote(row.activeReason)}</p>`
  }
  const newer = row.activeVersion === null || compareVersions(release.version, row.activeVersion) > 0
  const why = release.publishMode === "manual" && newer ? "Staged: approved, waiting for you to make it live." : newer ? "Approved, not active." : "Approved, older than the active version."
  return html`<p>${why}</p>${activateButton(gameId, release.version, row.activeVersion, newer)}`
}

const releaseRow = (gameId: string, gameName: string, release: ReleaseRow, scan: ScanRecord | undefined, row: RowContext): Html =>
  html`<tr>
  <th scope="row">${release.version}</th>
  <td><span class="status status-${release.status}">${RELEASE_STATUS_LABEL[release.status]}</span></td>
  <td>${timestamp(release.createdAt)}</td>
  <td>${scanCell(scan, row.acceptances)}</td>
  <td>${standingCell(gameId, release, row)}</td>
  <td><button type="button" class="download" data-game-id="${gameId}" data-version="${release.version}"
    aria-label="Download ${gameName} version ${release.version}">Download</button></td>
</tr>`

/** Which game's timeline the page shows past its first events (`?timeline=<gameId>&timelineCursor=<nextCursor>`). */
export interface TimelineAt {
  readonly gameId: string | null
  readonly cursor: string | null
}

/** `/creator` with this page's own list parameters, showing `gameId`'s timeline from `cursor`. */
const creatorHref = (pageParams: PageParams, gameId: string, cursor: string | null): string => {
  const query = new URLSearchParams()
  if (pageParams.cursor !== null) query.set("cursor", pageParams.cursor)
  if (pageParams.limit !== null) query.set("limit", pageParams.limit)
  if (cursor !== null) {
    query.set("timeline", gameId)
    query.set("timelineCursor", cursor)
  }
  const search = query.toString()
  return search === "" ? "/creator" : `/creator?${search}`
}

export const creatorPage = Effect.fnUntraced(function*(
  principal: Principal,
  pageParams: PageParams = FIRST_PAGE,
  timelineAt: TimelineAt = { gameId: null, cursor: null },
) {
  const { games, nextCursor } = yield* myGames(principal, pageParams)
  const onFirstPage = pageParams.cursor === null
  // The queue and the estimate's decisions are read once for the page, and only if it shows a pending release.
  const pageQueue = yield* Effect.cached(queueSnapshot())
  const scans = yield* ScanStore
  const gate = yield* ReviewGateStore
  const sections = yield* Effect.forEach(games, (game) =>
    Effect.gen(function*() {
      const records = yield* scans.listByGame(game.gameId)
      const acceptances = yield* gate.acceptances(game.gameId)
      const queues = new Map<string, QueueFacts>()
      for (const r of game.releases.filter((r) => r.status === "pending_review")) {
        const queue = positionIn(yield* pageQueue, { ...r, gameId: game.gameId })
        if (queue !== null) queues.set(r.version, queue)
      }
      const timeline = yield* timelineSection(principal, game.gameId, `timeline-${game.gameId}`, {
        cursor: timelineAt.gameId === game.gameId ? timelineAt.cursor : null,
        href: (cursor) => creatorHref(pageParams, game.gameId, cursor),
      })
      const byVersion = new Map(records.map((record) => [record.version, record]))
      const headingId = `game-${game.gameId}`
      // Newest first (the store lists oldest first; ties keep that order reversed): a new version is on top.
      const releases = [...game.releases].reverse().sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
      return html`<section class="game" aria-labelledby="${headingId}">
  <h2 id="${headingId}">${game.name}</h2>
  <dl class="facts">
  <dt>Catalog status</dt><dd><span class="status status-${game.status}" data-game-status>${game.status}</span></dd>
  <dt>Active version</dt><dd>${game.activeVersion ?? "none yet"}</dd>
  <dt>Game id</dt><dd><code>${game.gameId}</code></dd>
  <dt>Slug</dt><dd><code>${game.slug}</code></dd>
  </dl>
  ${
        releases.length === 0
          ? html`<p>No version uploaded yet.</p>`
          : html`<table>
  <caption>Versions of ${game.name}</caption>
  <thead><tr><th scope="col">Version</th><th scope="col">Status</th><th scope="col">Submitted</th><th scope="col">Scan</th><th scope="col">Reason, queue, activation</th><th scope="col">Download</th></tr></thead>
  <tbody>${
            releases.map((release) =>
              releaseRow(game.gameId, game.name, release, byVersion.get(release.version), {
                activeVersion: game.activeVersion,
                activeReason: game.activeReason,
                queue: queues.get(release.version) ?? null,
                acceptances,
              })
            )
          }</tbody>
  </table>`
      }
  ${timeline}
</section>`
    }))
  const keys = principal.credential === undefined ? yield* listApiKeys(principal) : []
  return htmlResponse(200, page({
    title: "My games",
    principal,
    section: "creator",
    scripts: ["creator.js", "lifecycle.js", "apiKeys.js"],
    main: html`<p>Every game you submitted, each version with its review status. Approval publishes a version in the catalog;
a rejection names the reason, and the previously approved version stays active.</p>
<p id="download-status" class="status-message" role="status" aria-live="polite" tabindex="-1"></p>
<p id="lifecycle-status" class="status-message" role="status" aria-live="polite" tabindex="-1"></p>
${sections.length === 0 && onFirstPage ? html`<p>You have not submitted a game yet. <a href="/submit">Submit your first game</a>.</p>` : sections}
${pager("/creator", nextCursor, onFirstPage, "Pages of your games")}
${apiKeysSection(keys, games)}`,
  }))
})
