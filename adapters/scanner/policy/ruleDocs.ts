import type { Policy } from "./Policy.ts"

// Every finding points at a page that explains it: the policy pattern it matched (banned APIs), otherwise its rule.
// The service serves the page at `{BASE_URL}/docs/rules/{id}`; the CLI prints that URL when it knows the service.

const byPatternText = new WeakMap<Policy, ReadonlyMap<string, string>>()

/** The docs id of a finding: the id of the policy pattern whose text it carries, else its rule id. */
export const ruleDocsId = (finding: { readonly rule: string; readonly pattern: string }, policy: Policy): string => {
  let index = byPatternText.get(policy)
  if (index === undefined) {
    index = new Map(policy.patterns.map((entry) => [entry.pattern, entry.id]))
    byPatternText.set(policy, index)
  }
  return index.get(finding.pattern) ?? finding.rule
}

export const ruleDocsUrl = (baseUrl: string, id: string): string => `${baseUrl.replace(/\/+$/, "")}/docs/rules/${encodeURIComponent(id)}`

/** The findings as answered to a client: each with the URL of its page (computed when answering, never stored). */
export const withDocsUrls = <F extends { readonly rule: string; readonly pattern: string }>(
  findings: ReadonlyArray<F>,
  baseUrl: string,
  policy: Policy,
): Array<F & { readonly docsUrl: string }> => findings.map((finding) => ({ ...finding, docsUrl: ruleDocsUrl(baseUrl, ruleDocsId(finding, policy)) }))
