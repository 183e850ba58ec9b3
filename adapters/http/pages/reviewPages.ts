import { Effect, Option } from "effect"
import { type Principal, requireAdmin } from "../../../domain/auth/Principal.ts"
import { NotFound } from "../../../domain/errors.ts"
import { gameDetail } from "../../../domain/game/Views.ts"
import { reviewQueue } from "../../../domain/review/Review.ts"
import type { ScanReport } from "../../../domain/scan/ScanReport.ts"
import { Clock } from "../../../ports/Clock.ts"
import { ScanStore } from "../../../ports/ScanStore.ts"
import { RELEASE_STATUS_LABEL } from "./creatorPage.ts"
import { activeReasonNote, takedownPanel, timelineSection } from "./lifecyclePanels.ts"
import { FIRST_PAGE } from "../../../domain/paging/lists.ts"
import type { PageParams } from "../../../domain/paging/Page.ts"
import { scanSummaryText } from "./findings.ts"
import { gateFindings, gateState, pendingDecision } from "./reviewGateSections.ts"
import { type Html, html } from "./html.ts"
import { pager } from "./pager.ts"
import { formatBytes, formatDuration, htmlResponse, page, timestamp } from "./layout.ts"
import { capabilitiesAddedSection, diffSection, filesSection, packReadingSections } from "./packReadingPages.ts"

// {base_url}/admin: the review queue, oldest first, and one release's scan findings, file list and decision.
// Approve and reject are the JSON API's (assets/review.js posts them with the session cookie). Administrators only:
// the use cases answer NotFound to anyone else, which the pages render as 404.

const releasePath = (gameId: string, version: string) => `/admin/games/${encodeURIComponent(gameId)}/releases/${encodeURIComponent(version)}`

/** The queue's scan column, from the stored counts (the queue never reads reports). */
const queueScanText = (scan: { readonly status: "pending" | "scanned"; readonly errors: number | null; readonly warnings: number | null }) => {
  if (scan.status === "pending") return html`<span class="muted">Scan pending</span>`
  const errors = scan.errors ?? 0
  const warnings = scan.warnings ?? 0
  if (errors === 0 && warnings === 0) return "No problems found"
  return [errors > 0 ? `${errors} ${errors === 1 ? "error" : "errors"}` : null, warnings > 0 ? `${warnings} ${warnings === 1 ? "warning" : "warnings"}` : null]
    .filter((part) => part !== null).join(", ")
}

export const queuePage = Effect.fnUntraced(function*(principal: Principal, pageParams: PageParams = FIRST_PAGE) {
  const { items, nextCursor } = yield* reviewQueue(principal, pageParams)
  const onFirstPage = pageParams.cursor === null
  const rows = items.map((item) =>
    html`<tr>
  <th scope="row"><a href="${releasePath(item.gameId, item.version)}">${item.gameName} ${item.version}</a></th>
  <td>${item.ownerId}</td>
  <td>${item.source === "multipart" ? "submit page / multipart" : "release API"}</td>
  <td>${timestamp(item.submittedAt)}</td>
  <td data-waiting-seconds="${item.waitingSeconds}">${formatDuration(item.waitingSeconds)}</td>
  <td>${queueScanText(item.scan)}</td>
  <td>${item.capabilitiesAdded.length === 0 ? html`<span class="muted">none</span>` : item.capabilitiesAdded.join(", ")}</td>
  <td>${item.claimedBy ?? html`<span class="muted">nobody</span>`}</td>
</tr>`
  )
  return htmlResponse(200, page({
    title: "Review queue",
    principal,
    section: "admin",
    main: items.length === 0
      ? html`<p role="status">${onFirstPage ? "Nothing is waiting for review." : "No more releases are waiting."}</p>${pager("/admin", null, onFirstPage, "Review queue pages")}`
      : html`<p>${onFirstPage ? "" : "More "}${nextCursor === null ? `${items.length} ` : `${items.length} of many `}${items.length === 1 ? "release is" : "releases are"} waiting, oldest first. Open one to see its scan and files and to decide.</p>
<table>
  <caption>Releases waiting for review</caption>
  <thead><tr><th scope="col">Game and version</th><th scope="col">Creator</th><th scope="col">Submitted through</th><th scope="col">Submitted</th><th scope="col">Waiting</th><th scope="col">Scan</th><th scope="col">Capabilities added</th><th scope="col">Claimed by</th></tr></thead>
  <tbody>${rows}</tbody>
</table>
${pager("/admin", nextCursor, onFirstPage, "Review queue pages")}`,
  }))
})

const scanSection = (report: ScanReport | null, findings: Html) =>
  html`<section aria-labelledby="scan-heading">
  <h2 id="scan-heading">Scan findings</h2>
  ${
    report === null
      ? html`<p>The scan has not run yet; reload in a moment.</p>`
      : html`<p>${scanSummaryText(report)} (scanner ${report.scannerVersion}).</p>${report.findings.length > 0 && findings}`
  }
</section>`

export const reviewReleasePage = Effect.fnUntraced(function*(
  principal: Principal,
  gameId: string,
  version: string,
  against: string | null = null,
  timelineCursor: string | null = null,
) {
  yield* requireAdmin(principal)
  const game = yield* gameDetail(principal, gameId)
  if (!("releases" in game)) return yield* new NotFound({ what: "release" })
  const release = game.releases.find((r) => r.version === version)
  if (release === undefined) return yield* new NotFound({ what: "release" })
  const scan = Option.getOrNull(yield* ScanStore.use((s) => s.get(gameId, version)))
  const report = scan?.report ?? null
  const now = yield* Clock.use((clock) => clock.now)
  const reading = yield* packReadingSections(principal, gameId, version, against)
  const waiting = Math.max(0, Math.floor((now.getTime() - release.createdAt.getTime()) / 1000))
  const gate = yield* gateState(principal, gameId, version)
  const decision = release.status === "pending_review"
    ? pendingDecision(gameId, version, gate)
    : html`<p role="status">This version was ${RELEASE_STATUS_LABEL[release.status]} on ${timestamp(release.reviewedAt)}.${
      release.rejectionReason !== null && html` Reason: <q class="reason">${release.rejectionReason}</q>`
    }</p>`
  return htmlResponse(200, page({
    title: `Review ${game.name} ${version}`,
    principal,
    section: "admin",
    scripts: ["review.js", "lifecycle.js"],
    main: html`<p><a href="/admin">Back to the review queue</a></p>
<dl class="facts">
  <dt>Game</dt><dd>${game.name} (<code>${game.slug}</code>, id <code>${game.gameId}</code>)</dd>
  <dt>Creator</dt><dd>${game.ownerId}</dd>
  <dt>Version</dt><dd>${version}</dd>
  <dt>Status</dt><dd><span class="status status-${release.status}" id="release-status">${RELEASE_STATUS_LABEL[release.status]}</span></dd>
  <dt>Catalog status</dt><dd id="catalog-status">${game.status}${game.activeVersion !== null ? ` (active version ${game.activeVersion})` : ""}</dd>
  ${game.activeReason !== null && html`<dt>Why ${game.activeVersion} is active</dt><dd id="active-reason">${activeReasonNote(game.activeReason)}</dd>`}
  <dt>Submitted</dt><dd>${timestamp(release.createdAt)}, through the ${release.source === "multipart" ? "submit endpoint" : "release API"}</dd>
  ${release.status === "pending_review" && html`<dt>Waiting</dt><dd>${formatDuration(waiting)}</dd>`}
  <dt>Size</dt><dd>${formatBytes(release.sizeBytes)} (${release.sizeBytes} bytes)</dd>
  <dt>SHA-256</dt><dd><code class="digest">${release.sha256}</code></dd>
</dl>
${capabilitiesAddedSection(reading.diff)}
${scanSection(report, gateFindings(gameId, gate, release.status === "pending_review"))}
<section aria-labelledby="decision-heading">
  <h2 id="decision-heading">Decision</h2>
  ${decision}
</section>
${takedownPanel(gameId, version, release.status, release.takedownReason)}
${filesSection(gameId, version, reading.files)}
${diffSection(gameId, version, reading.diff, game.releases.map((r) => r.version))}
${yield* timelineSection(principal, gameId, "timeline-heading", {
      cursor: timelineCursor,
      href: (cursor) => {
        const query = new URLSearchParams()
        if (against !== null) query.set("against", against)
        if (cursor !== null) query.set("timelineCursor", cursor)
        const search = query.toString()
        return `/admin/games/${encodeURIComponent(gameId)}/releases/${encodeURIComponent(version)}${search === "" ? "" : `?${search}`}`
      },
    })}`,
  }))
})
