import { type Html, html } from "./html.ts"

/**
 * Links through a paginated list, server-rendered: back to the first page, and on to the next while there is one.
 * `path` may carry other query parameters (a search); the cursor is appended.
 */
export const pager = (path: string, nextCursor: string | null, onFirstPage: boolean, label: string): Html => {
  if (onFirstPage && nextCursor === null) return html``
  const join = path.includes("?") ? "&" : "?"
  return html`<nav class="pager" aria-label="${label}">
  ${!onFirstPage && html`<a href="${path}" rel="first">First page</a>`}
  ${nextCursor !== null && html`<a href="${`${path}${join}cursor=${encodeURIComponent(nextCursor)}`}" rel="next">Next page</a>`}
</nav>`
}
