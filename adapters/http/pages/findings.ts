import type { Acceptance } from "../../../domain/review/Acceptances.ts"
import type { Finding } from "../../../domain/scan/Finding.ts"
import type { ScanReport } from "../../../domain/scan/ScanReport.ts"
import { type Html, html } from "./html.ts"
import { formatBytes } from "./layout.ts"
import { ruleHelp } from "./ruleHelp.ts"
import { visibleText } from "./visibleText.ts"

// Scan results as people read them: `file:line`, the rule and what it means, the scanner's own message. Paths and
// messages come from the pack: hidden characters in them show as marks (visibleText.ts).
// The submit page's script renders the same structure from the endpoint's JSON (assets/submit.js).

export const findingLocation = (finding: Finding): string =>
  finding.line === null ? finding.file : `${finding.file}:${finding.line}`

/**
 * A finding as the pages show it: with who accepted it and why, when an administrator did (issue 15), as
 * domain/review/Acceptances.ts attaches it (null or absent: not accepted).
 */
export type ShownFinding = Finding & { readonly accepted?: Acceptance | null }

/** "Accepted by X: reason", wherever a finding is shown; accepted findings are never hidden. */
export const acceptedNote = (finding: ShownFinding): Html | null =>
  finding.accepted == null ? null : html`<p class="accepted">Accepted by ${finding.accepted.by}: <q>${finding.accepted.reason}</q></p>`

export const findingsList = (findings: ReadonlyArray<ShownFinding>, extra?: (finding: ShownFinding, index: number) => Html | null): Html =>
  html`<ol class="findings">${
    findings.map((finding, index) =>
      html`<li class="finding${finding.accepted != null ? " finding-accepted" : ""}">
  <p class="where"><code>${visibleText(findingLocation(finding))}</code>
    <span class="severity severity-${finding.severity}">${finding.severity === "error" ? "Error" : "Warning"}</span>
    <span class="rule">${finding.rule}</span></p>
  ${finding.embeddedIn !== undefined && html`<p class="embedded">In the built-in script ${visibleText(finding.embeddedIn.subResource)} of <code>${visibleText(finding.embeddedIn.resource)}</code>.</p>`}
  <p class="message">${visibleText(finding.message)}</p>
  <p class="explanation">${ruleHelp(finding.rule)}</p>
  <p class="pattern">Blocked pattern: <code>${visibleText(finding.pattern)}</code></p>
  ${acceptedNote(finding)}
  ${extra?.(finding, index) ?? null}
</li>`
    )
  }</ol>`

/** One line: "No problems found", "2 errors, 1 warning", plus the pack's size and file count. */
export const scanSummaryText = (report: ScanReport): string => {
  const { errors, warnings, entryCount, packBytes } = report.summary
  const counts = errors === 0 && warnings === 0
    ? "No problems found"
    : [errors > 0 ? `${errors} ${errors === 1 ? "error" : "errors"}` : null, warnings > 0 ? `${warnings} ${warnings === 1 ? "warning" : "warnings"}` : null]
      .filter((part) => part !== null).join(", ")
  return `${counts} · ${entryCount} ${entryCount === 1 ? "file" : "files"}, ${formatBytes(packBytes)}`
}
