import type { Principal } from "../../../domain/auth/Principal.ts"
import { type AssetName, assetUrl } from "./assets.ts"
import { type Html, html } from "./html.ts"

export type Section = "home" | "games" | "submit" | "creator" | "admin" | "sign-in"

export interface Shell {
  readonly title: string
  readonly principal: Principal | null
  readonly section: Section
  readonly main: Html
  readonly scripts?: ReadonlyArray<AssetName>
}

/**
 * Headers of every page. The policy allows scripts, styles and requests from the service itself only (plus the
 * submit endpoint's origin when an operator routes it elsewhere); no inline script or style, no framing. Referrers stay
 * on this site (presigned URLs live in query strings); `no-referrer` would also make browsers send `Origin: null` on
 * the site's own form posts, which the same-origin check then refuses.
 */
export const pageSecurityHeaders = (extraConnectOrigins: ReadonlyArray<string> = []): Record<string, string> => ({
  "content-security-policy": [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    `connect-src ${["'self'", ...extraConnectOrigins].join(" ")}`,
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; "),
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
})

export const htmlResponse = (status: number, body: Html, headers: Record<string, string> = {}): Response =>
  new Response(`<!doctype html>\n${body}`, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", ...pageSecurityHeaders(), ...headers },
  })

/** A 303 (see other): after a form post or to send a visitor to sign in. */
export const redirect = (location: string, headers: Record<string, string> = {}, status = 303): Response =>
  new Response(null, { status, headers: { location, "cache-control": "no-store", ...pageSecurityHeaders(), ...headers } })

const NAV: ReadonlyArray<{ readonly section: Section; readonly href: string; readonly label: string; readonly admin?: boolean }> = [
  { section: "games", href: "/games", label: "Games" },
  { section: "submit", href: "/submit", label: "Submit a game" },
  { section: "creator", href: "/creator", label: "My games" },
  { section: "admin", href: "/admin", label: "Review queue", admin: true },
]

const navigation = (shell: Shell) =>
  html`<header class="site">
  <a class="brand" href="/">pckgate</a>
  <nav aria-label="Main">
    <ul>${
    NAV.filter((item) => item.admin !== true || shell.principal?.isAdmin === true).map((item) =>
      html`<li><a href="${item.href}"${item.section === shell.section ? html` aria-current="page"` : ""}>${item.label}</a></li>`
    )
  }</ul>
  </nav>
  <div class="account">${
    shell.principal === null
      ? html`<a href="/auth/login">Sign in</a>`
      : html`<span>Signed in as <strong>${shell.principal.userId}</strong>${shell.principal.isAdmin ? " (administrator)" : ""}</span>
    <form method="post" action="/auth/logout"><button type="submit" class="link">Sign out</button></form>`
  }</div>
</header>`

export const page = (shell: Shell): Html =>
  html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${shell.title} · pckgate</title>
<link rel="stylesheet" href="${assetUrl("pages.css")}">
${(shell.scripts ?? []).map((name) => html`<script src="${assetUrl(name)}" defer></script>`)}
</head>
<body>
<a class="skip" href="#main">Skip to main content</a>
${navigation(shell)}
<main id="main" tabindex="-1">
<h1>${shell.title}</h1>
${shell.main}
</main>
</body>
</html>`

/** An error page in the site's frame (unknown pages, failures), with the same headers as any page. */
export const errorPage = (status: number, title: string, message: string | Html, principal: Principal | null = null): Response =>
  htmlResponse(status, page({ title, principal, section: "home", main: html`<p>${message}</p><p><a href="/">Back to the start page</a></p>` }))

/** `2 d 3 h`, `5 h 12 min`, `4 min`, `less than a minute`. */
export const formatDuration = (seconds: number): string => {
  const minutes = Math.floor(seconds / 60)
  if (minutes < 1) return "less than a minute"
  const days = Math.floor(minutes / 1440)
  const hours = Math.floor((minutes % 1440) / 60)
  const mins = minutes % 60
  if (days > 0) return hours > 0 ? `${days} d ${hours} h` : `${days} d`
  if (hours > 0) return mins > 0 ? `${hours} h ${mins} min` : `${hours} h`
  return `${mins} min`
}

/** `2026-01-31 14:05 UTC` inside a `<time>` carrying the exact instant. */
export const timestamp = (date: Date | null): Html =>
  date === null ? html`—` : html`<time datetime="${date.toISOString()}">${date.toISOString().slice(0, 16).replace("T", " ")} UTC</time>`

/** `4.0 KiB`, `1.5 MiB`: sizes for people. */
export const formatBytes = (bytes: number): string => {
  const units = ["bytes", "KiB", "MiB", "GiB"]
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(1)} ${units[unit]}`
}
