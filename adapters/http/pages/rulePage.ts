import { Effect } from "effect"
import { ALL_RULES, RULE, type RuleId } from "../../../domain/scan/RuleId.ts"
import type { Policy, PolicyPattern } from "../../scanner/policy/Policy.ts"
import { type Html, html } from "./html.ts"
import { htmlResponse, page } from "./layout.ts"
import { RULE_HELP } from "./ruleHelp.ts"
import type { Route, RouteContext } from "../route.ts"

// GET /docs/rules/{id}: what a finding means and how to fix it, for every rule id and every pattern id of the active
// policy (findings' `docsUrl` points here). Public: the rules are no secret, and creators arrive from the CLI.

const isRule = (id: string): id is RuleId => (ALL_RULES as ReadonlyArray<string>).includes(id)

const rulePage = (id: RuleId, policy: Policy): Html => {
  const patterns = id === RULE.bannedApi
    ? html`<h2>Patterns of the active policy (${policy.version})</h2>
<ul>${policy.patterns.map((p) => html`<li><a href="/docs/rules/${p.id}"><code>${p.id}</code></a>: ${p.pattern}</li>`)}</ul>`
    : ""
  return html`<p>${RULE_HELP[id]}</p>
<p>Rule id: <code>${id}</code>. The full description of every rule is in the service's <code>docs/scanner.md</code> (anchor
<code>#${id}</code>); run <code>pckgate check game.pck</code> to see the findings before you submit.</p>
${patterns}`
}

const patternPage = (entry: PolicyPattern, policy: Policy): Html =>
  html`<dl class="facts">
<dt>Matches</dt><dd><code>${entry.pattern}</code></dd>
<dt>Severity</dt><dd>${entry.severity === "error" ? "error: blocks the submission" : "warning: shown to the reviewer"}</dd>
${entry.capability !== undefined ? html`<dt>Capability</dt><dd>${entry.capability}</dd>` : ""}
<dt>Policy</dt><dd>${policy.version}</dd>
</dl>
<h2>Why</h2>
<p>${entry.rationale}</p>
<h2>How to fix it</h2>
<p>${entry.fix !== undefined ? `${entry.fix}.` : html`${RULE_HELP[RULE.bannedApi]} Code that uses it inside a branch that never runs is flagged too, so delete the call
rather than guarding it.`} Findings of this pattern carry the rule <a href="/docs/rules/${RULE.bannedApi}"><code>${RULE.bannedApi}</code></a>.</p>`

/** A page for a path nobody serves: HTML for browsers (API clients keep the JSON body). */
export const notFoundPage = (): Response =>
  htmlResponse(404, page({
    title: "Page not found",
    principal: null,
    section: "home",
    main: html`<p>There is no page at this address. Go to <a href="/">the start page</a>, <a href="/creator">your games</a> or
<a href="/submit">submit a game</a>.</p>`,
  }))

export const ruleDocsRoute = (policy: Policy): Route => ({
  method: "GET",
  path: "/docs/rules/:id",
  handle: (ctx: RouteContext) =>
    Effect.sync(() => {
      const raw = ctx.params["id"] ?? ""
      let id = raw
      try {
        id = decodeURIComponent(raw)
      } catch {
        return notFoundPage()
      }
      if (isRule(id)) return htmlResponse(200, page({ title: `Rule ${id}`, principal: null, section: "home", main: rulePage(id, policy) }), { "cache-control": "public, max-age=300" })
      const entry = policy.patterns.find((p) => p.id === id)
      if (entry === undefined) return notFoundPage()
      return htmlResponse(200, page({ title: `Policy pattern ${entry.id}`, principal: null, section: "home", main: patternPage(entry, policy) }), { "cache-control": "public, max-age=300" })
    }),
})
