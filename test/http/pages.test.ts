import { decodeJwt } from "jose"
import { Effect, Schema } from "effect"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { makeApp } from "../../adapters/http/App.ts"
import { browserRoutes } from "../../adapters/http/pages/index.ts"
import { makeSessionCodec, SESSION_COOKIE } from "../../adapters/http/session.ts"
import { ScanReport } from "../../domain/scan/ScanReport.ts"
import { ScanStore } from "../../ports/ScanStore.ts"
import { UploadTokens } from "../../ports/UploadTokens.ts"
import { artifact } from "../support/api.ts"
import { makeTestApp, newGame, release, TEST_BASE_URL, type TestApp } from "../support/testApp.ts"

// The pages over app.fetch: the memory adapters of makeTestApp, plus the browser routes on a second app over the same
// runtime (so releases made through the release API show up in the pages). Browsers are simulated with headers.

const HOSTILE = `<script>alert("x")</script>"'</textarea>`
const ORIGIN = TEST_BASE_URL

let t: TestApp
let pages: { fetch: (request: Request) => Promise<Response> }

beforeAll(async () => {
  // No scan worker: these tests save the scans they need, and 1.2.0 below stays "Scan pending".
  t = await makeTestApp({ scanWorker: false })
  pages = makeApp({
    runtime: t.runtime,
    baseUrl: () => TEST_BASE_URL,
    sessions: await makeSessionCodec(crypto.getRandomValues(new Uint8Array(32))),
    routes: browserRoutes({ signIn: { kind: "dev" }, secret: crypto.getRandomValues(new Uint8Array(32)), submitApiUrl: () => `${TEST_BASE_URL}/submit-api` }),
  })
})
afterAll(() => t.dispose())

const get = (path: string, cookie?: string) =>
  pages.fetch(new Request(`${TEST_BASE_URL}${path}`, { headers: cookie === undefined ? {} : { cookie } }))

const post = (path: string, options: { cookie?: string; origin?: string | null; form?: Record<string, string>; headers?: Record<string, string> } = {}) => {
  const headers: Record<string, string> = { ...options.headers }
  if (options.cookie !== undefined) headers["cookie"] = options.cookie
  if (options.origin !== null) headers["origin"] = options.origin ?? ORIGIN
  if (options.form !== undefined) headers["content-type"] = "application/x-www-form-urlencoded"
  return pages.fetch(new Request(`${TEST_BASE_URL}${path}`, {
    method: "POST",
    headers,
    ...(options.form !== undefined ? { body: new URLSearchParams(options.form).toString() } : {}),
  }))
}

/** The `name=value` of a Set-Cookie for `name`, and its attributes. */
const setCookie = (response: Response, name: string) => {
  const header = response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`))
  return header === undefined ? null : { pair: header.split(";")[0]!, header }
}

/** Signs in through the dev sign-in page, as a browser would; returns the session cookie to send. */
const signIn = async (user: string, admin = false) => {
  const response = await post("/auth/dev", { form: { user, ...(admin ? { admin: "1" } : {}), return_to: "/creator" } })
  expect(response.status).toBe(303)
  return setCookie(response, SESSION_COOKIE)!.pair
}

const report = (overrides: Partial<ScanReport> = {}): ScanReport => ({
  ok: false,
  findings: [{
    file: `res://game/${HOSTILE}.gd`,
    line: 7,
    column: 2,
    rule: "banned-api",
    pattern: `OS.execute${HOSTILE}`,
    message: `OS.execute: ${HOSTILE}`,
    severity: "error",
  }],
  summary: { countsByRule: { "banned-api": 1 }, errors: 1, warnings: 0, packFormat: 1, engineVersion: "3.2.3", entryCount: 2, packBytes: 4096, bytesRead: 512 },
  files: [{ path: `res://game/${HOSTILE}.gd`, sizeBytes: 120 }, { path: "res://manifest.json", sizeBytes: 180 }],
  manifest: null,
  scannerVersion: "test",
  ...overrides,
})

const saveScan = (gameId: string, version: string, scan: ScanReport) =>
  t.runtime.runPromise(ScanStore.use((s) => s.save({ gameId, version, report: scan, scannedAt: new Date() })))

/** Inline script or style would need 'unsafe-inline'; pages have neither. */
const expectNoInlineCode = (markup: string) => {
  expect(markup).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/i)
  expect(markup).not.toMatch(/\sstyle=|<style|\son[a-z]+=/i)
}

describe("sign-in for people (embedded default: the dev sign-in page)", () => {
  test("pages send visitors to sign in and back; the dev page is clearly marked; only a same-origin post signs in", async () => {
    const submit = await get("/submit")
    expect([submit.status, submit.headers.get("location")]).toEqual([303, "/auth/login?return_to=%2Fsubmit"])
    const login = await get("/auth/login?return_to=%2Fsubmit")
    expect([login.status, login.headers.get("location")]).toEqual([303, "/auth/dev?return_to=%2Fsubmit"])
    const devPage = await get("/auth/dev?return_to=%2Fsubmit")
    const markup = await devPage.text()
    expect(devPage.status).toBe(200)
    expect(markup).toContain("Development sign-in — not for production")
    expect(markup).toMatch(/<label for="user">User name<\/label>\s*<input id="user" name="user" required/)
    expect(markup).toMatch(/<input type="checkbox" id="admin" name="admin" value="1">\s*<label for="admin">/)

    // Cross-site or origin-less posts do not sign anyone in (login CSRF).
    for (const origin of [null, "http://evil.example"]) {
      const refused = await post("/auth/dev", { origin, form: { user: "mallory" } })
      expect(refused.status).toBe(403)
      expect(setCookie(refused, SESSION_COOKIE)).toBeNull()
    }

    // Invalid names are answered on the form, escaped, with the field marked and focused.
    const invalid = await post("/auth/dev", { form: { user: HOSTILE, return_to: "/submit" } })
    const invalidMarkup = await invalid.text()
    expect(invalid.status).toBe(400)
    expect(invalidMarkup).toContain('aria-invalid="true" autofocus')
    expect(invalidMarkup).toContain("value=\"&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&quot;&#39;&lt;/textarea&gt;\"")
    expect(invalidMarkup).not.toContain("<script>alert")

    const signedIn = await post("/auth/dev", { form: { user: "ada", admin: "1", return_to: "/submit" } })
    expect([signedIn.status, signedIn.headers.get("location")]).toEqual([303, "/submit"])
    const cookie = setCookie(signedIn, SESSION_COOKIE)!
    expect(cookie.header).toMatch(/; Path=\/; HttpOnly; SameSite=Lax; Max-Age=28800$/)
    const home = await (await get("/", cookie.pair)).text()
    expect(home).toContain("Signed in as <strong>ada</strong> (administrator)")
    expect(home).toContain('<a href="/admin">Review queue</a>')
  })

  test("return_to only ever leads to a path of this site", async () => {
    for (const hostile of ["//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)", "/ok path", ""]) {
      const response = await post("/auth/dev", { form: { user: "ada", return_to: hostile } })
      expect(response.headers.get("location"), hostile).toBe("/creator")
      const login = await get(`/auth/login?return_to=${encodeURIComponent(hostile)}`)
      expect(login.headers.get("location"), hostile).toBe("/auth/dev?return_to=%2Fcreator")
    }
  })

  test("/auth/logout ends the session on the server, from the site's own pages only: a copy of the cookie stops working", async () => {
    const cookie = await signIn("leaving")
    const form = await (await get("/auth/logout", cookie)).text()
    expect(form).toContain('<form method="post" action="/auth/logout"><button type="submit">Sign out of pckgate</button></form>')
    expect((await post("/auth/logout", { cookie, origin: "http://evil.example" })).status).toBe(403)
    expect((await get("/creator", cookie)).status).toBe(200)
    const out = await post("/auth/logout", { cookie })
    expect([out.status, out.headers.get("location")]).toEqual([303, "/auth/logout"])
    expect(setCookie(out, SESSION_COOKIE)!.header).toContain(`${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`)
    expect(await (await get("/auth/logout")).text()).toContain("You are signed out.")
    // The browser dropped the cookie; someone who copied it before is not signed in with it either.
    expect(await (await get("/auth/logout", cookie)).text()).toContain("You are signed out.")
    const creator = await get("/creator", cookie)
    expect([creator.status, creator.headers.get("location")]).toEqual([303, "/auth/login?return_to=%2Fcreator"])
    expect((await post("/api/session/upload-token", { cookie })).status).toBe(401)
  })

  test("the OIDC callback does not exist without an identity provider", async () => {
    expect((await get("/auth/callback?code=x&state=y")).status).toBe(404)
  })
})

describe("security headers and static files", () => {
  test("every page and script carries a strict CSP, nosniff and a same-origin referrer policy, and pages have no inline code", async () => {
    const cookie = await signIn("headers", true)
    const paths = ["/", "/submit", "/creator", "/admin", "/auth/dev", "/auth/logout", "/admin/games/nope/releases/1.0.0"]
    for (const path of paths) {
      const response = await get(path, cookie)
      const csp = response.headers.get("content-security-policy")!
      expect(csp, path).toContain("default-src 'none'")
      expect(csp, path).toContain("script-src 'self';")
      expect(csp, path).toContain("frame-ancestors 'none'")
      expect(csp, path).not.toContain("unsafe")
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff")
      expect(response.headers.get("referrer-policy"), path).toBe("same-origin")
      expect(response.headers.get("content-type"), path).toBe("text/html; charset=utf-8")
      expect(response.headers.get("cache-control"), path).toBe("no-store")
      expectNoInlineCode(await response.text())
    }
    const submit = await (await get("/submit", cookie)).text()
    const scripts = [...submit.matchAll(/<script src="([^"]+)" defer><\/script>/g)].map((m) => m[1]!)
    const styles = [...submit.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1]!)
    expect(scripts).toEqual([expect.stringMatching(/^\/assets\/submit\.js\?v=[0-9a-f]{8}$/)])
    for (const [url, type] of [[scripts[0]!, "text/javascript; charset=utf-8"], [styles[0]!, "text/css; charset=utf-8"]] as const) {
      const asset = await get(url)
      expect([asset.status, asset.headers.get("content-type"), asset.headers.get("x-content-type-options")]).toEqual([200, type, "nosniff"])
      expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
    }
    expect((await get("/assets/submit.js")).headers.get("cache-control")).toBe("no-cache")
    expect((await get("/assets/..%2Fhtml.ts")).status).toBe(404)
    expect((await get("/assets/html.ts")).status).toBe(404)
  })

  test("the submit page posts to {submit_api_url}/games/submit and names the rules' explanations", async () => {
    const markup = await (await get("/submit", await signIn("submitter"))).text()
    expect(markup).toContain(`data-submit-url="${TEST_BASE_URL}/submit-api/games/submit"`)
    expect(markup).toMatch(/<label for="pck">Game package \(\.pck\)<\/label>\s*<input type="file" id="pck" name="pck" accept="\.pck" required/)
    expect(markup).toMatch(/<label for="manifest">Manifest \(manifest\.json\)<\/label>\s*<input type="file" id="manifest" name="manifest"/)
    expect(markup).toContain('<progress id="progress-bar" max="100" value="0"')
    expect(markup).toContain('<section id="result" class="result" aria-live="polite">')
    const help = JSON.parse(/data-rule-help="([^"]*)"/.exec(markup)![1]!.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&"))
    expect(help["banned-api"]).toContain("Remove the call")
  })
})

describe("POST /api/session/upload-token", () => {
  test("gives a signed-in browser on this site a 5-minute token for the submit endpoint, and nobody else", async () => {
    const cookie = await signIn("uploader")
    const granted = await post("/api/session/upload-token", { cookie })
    expect(granted.status).toBe(200)
    expect(granted.headers.get("cache-control")).toBe("no-store")
    const { token, expiresAt } = await granted.json() as { token: string; expiresAt: string }
    const claims = decodeJwt(token)
    expect(claims).toMatchObject({ sub: "uploader", aud: "pckgate-upload" })
    expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(300)
    expect(Math.floor(new Date(expiresAt).getTime() / 1000)).toBe(claims.exp)
    const principal = await t.runtime.runPromise(UploadTokens.use((tokens) => tokens.verify(token)))
    expect(principal).toEqual({ userId: "uploader", isAdmin: false })

    // Narrow: the release API does not take it as an access token.
    expect((await t.api.call("GET", "/api/me/games", { token })).status).toBe(401)

    const refusals = [
      await post("/api/session/upload-token", { cookie, origin: "http://evil.example" }),
      await post("/api/session/upload-token", { cookie, origin: null }),
      await post("/api/session/upload-token", {}),
      await post("/api/session/upload-token", { headers: { authorization: `Bearer ${await t.token("uploader")}` } }),
      await post("/api/session/upload-token", { cookie, headers: { authorization: "Bearer junk" } }),
    ]
    for (const refused of refusals) {
      expect(refused.status).toBe(401)
      expect(await refused.json()).toMatchObject({ error: "sign_in_required" })
    }
    expect((await get("/api/session/upload-token", cookie)).status).toBe(405)
  })
})

describe("the creator area and the review pages", () => {
  test("/creator lists each version with status, rejection reason, scan summary and a download button; user text is inert", async () => {
    const token = await t.token("maker")
    const admin = await t.token("reviewer", { admin: true })
    const gameId = await newGame(t, token, `Game ${HOSTILE}`.slice(0, 80))
    expect((await release(t, token, gameId, artifact(4096, "1.0.0"))).status).toBe(201)
    expect((await release(t, token, gameId, artifact(4096, "1.1.0"))).status).toBe(201)
    expect((await release(t, token, gameId, artifact(4096, "1.2.0"))).status).toBe(201)
    await saveScan(gameId, "1.0.0", report({ ok: true, findings: [], summary: { ...report().summary, errors: 0, countsByRule: {} } }))
    expect((await t.api.approve(admin, gameId, "1.0.0")).status).toBe(200)
    expect((await t.api.reject(admin, gameId, "1.1.0", `Fix it ${HOSTILE}`)).status).toBe(200)
    await saveScan(gameId, "1.1.0", report())

    const response = await get("/creator", await signIn("maker"))
    const markup = await response.text()
    expect(response.status).toBe(200)
    expectNoInlineCode(markup)
    expect(markup).not.toMatch(/<script>alert|<\/textarea>/)
    expect(markup).toContain("<h2 id=\"game-" + gameId + "\">Game &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&quot;&#39;&lt;/textarea&gt;</h2>")
    expect(markup).toContain('<span class="status status-published" data-game-status>published</span>')
    expect(markup).toContain("<dt>Active version</dt><dd>1.0.0</dd>")
    const rows = [...markup.matchAll(/<tr>\s*<th scope="row">([^<]+)<\/th>([\s\S]*?)<\/tr>/g)].map((m) => [m[1], m[2]!] as const)
    expect(rows.map(([version]) => version)).toEqual(["1.2.0", "1.1.0", "1.0.0"])
    const [pending, rejected, approved] = rows.map(([, cells]) => cells)
    expect(pending).toContain("pending review")
    expect(pending).toContain("Scan pending")
    expect(rejected).toContain('<p class="reason">Fix it &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&quot;&#39;&lt;/textarea&gt;</p>')
    expect(rejected).toContain("1 error · 2 files, 4.0 KiB")
    expect(rejected).toContain("<code>res://game/&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&quot;&#39;&lt;/textarea&gt;.gd:7</code>")
    expect(rejected).toContain("The code uses an API games may not use")
    expect(approved).toContain("No problems found")
    expect(approved).toContain(`data-game-id="${gameId}" data-version="1.0.0"`)

    // Another creator sees none of it.
    expect(await (await get("/creator", await signIn("stranger"))).text()).toContain("You have not submitted a game yet.")
  })

  test("/admin lists the queue oldest first with waiting time; a release shows findings, files and the decision; others get 404", async () => {
    const token = await t.token("queue-maker")
    const first = await newGame(t, token, "First in line")
    expect((await release(t, token, first, artifact(4096, "2.0.0"))).status).toBe(201)
    t.clock.advance(3 * 3600 + 120)
    const second = await newGame(t, token, `Second ${HOSTILE}`.slice(0, 80))
    expect((await release(t, token, second, artifact(4096, "1.0.0"))).status).toBe(201)
    t.clock.advance(300)
    await saveScan(second, "1.0.0", report())

    const admin = await signIn("root", true)
    const queue = await get("/admin", admin)
    const markup = await queue.text()
    expect(queue.status).toBe(200)
    expectNoInlineCode(markup)
    const firstAt = markup.indexOf(`/admin/games/${first}/releases/2.0.0`)
    const secondAt = markup.indexOf(`/admin/games/${second}/releases/1.0.0`)
    expect(firstAt).toBeGreaterThan(0)
    expect(secondAt).toBeGreaterThan(firstAt)
    expect(markup).toMatch(new RegExp(`releases/2\\.0\\.0">First in line 2\\.0\\.0</a></th>[\\s\\S]*?<td data-waiting-seconds="11220">3 h 7 min</td>`))
    expect(markup).toContain("Second &lt;script&gt;alert(&quot;x&quot;)")
    expect(markup).not.toMatch(/<script>alert/)

    const detail = await get(`/admin/games/${second}/releases/1.0.0`, admin)
    const detailMarkup = await detail.text()
    expect(detail.status).toBe(200)
    expectNoInlineCode(detailMarkup)
    expect(detailMarkup).not.toMatch(/<script>alert|<\/textarea><script/)
    expect(detailMarkup).toContain('<script src="/assets/review.js?v=')
    expect(detailMarkup).toContain(`<div class="decision" data-game-id="${second}" data-version="1.0.0">`)
    expect(detailMarkup).toMatch(/<label for="reason">Reason for rejecting \(the creator sees it\)<\/label>\s*<textarea id="reason" name="reason" required maxlength="2000"/)
    expect(detailMarkup).toContain('role="status" aria-live="polite" tabindex="-1"')
    // The file tree reads the pack itself (issue 15); this upload is random bytes, so it has no files to list.
    expect(detailMarkup).toContain("No files could be read from this pack (see the scan findings).")
    expect(detailMarkup).toContain("OS.execute: &lt;script&gt;")
    expect(detailMarkup).toContain("<dt>Waiting</dt><dd>5 min</dd>")

    // Not an administrator: 404, like an unknown page. Not signed in: off to sign in.
    const member = await signIn("member")
    for (const path of ["/admin", `/admin/games/${second}/releases/1.0.0`]) {
      const hidden = await get(path, member)
      expect(hidden.status, path).toBe(404)
      expect(await hidden.text()).not.toContain(second)
      expect((await get(path)).status, path).toBe(303)
    }
    for (const path of [`/admin/games/${second}/releases/9.9.9`, `/admin/games/${second}/releases/..`, "/admin/games/nope/releases/1.0.0"]) {
      expect((await get(path, admin)).status, path).toBe(404)
    }

    // Decided releases show the outcome instead of the controls.
    expect((await t.api.reject(await t.token("root", { admin: true }), second, "1.0.0", "Remove OS.execute")).status).toBe(200)
    const decided = await (await get(`/admin/games/${second}/releases/1.0.0`, admin)).text()
    expect(decided).not.toContain('class="decision"')
    expect(decided).toContain('This version was rejected on <time datetime="')
    expect(decided).toContain('Reason: <q class="reason">Remove OS.execute</q>')
  })

  test("a release's page names the scanner version of its report, an old one without capabilities included", async () => {
    const token = await t.token("version-maker")
    const gameId = await newGame(t, token, "Versioned Game")
    expect((await release(t, token, gameId, artifact(4096, "1.0.0"))).status).toBe(201)
    await saveScan(gameId, "1.0.0", Schema.decodeUnknownSync(ScanReport)(JSON.parse(JSON.stringify(report({ scannerVersion: "pckgate-scanner/1" })))))
    const markup = await (await get(`/admin/games/${gameId}/releases/1.0.0`, await signIn("root", true))).text()
    expect(markup).toMatch(/<h2 id="scan-heading">Scan findings<\/h2>\s*<p>[^<]*\(scanner pckgate-scanner\/1\)\.<\/p>/)
  })
})
