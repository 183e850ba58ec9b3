// The review gate in a real browser (issue 15): playwright-core driving Debian's Chromium against the real server
// process. Approval is refused while the scan is pending; with unresolved errors it asks for the override reason; an
// accepted finding lets a plain approval through. Labels, focus and contrast are checked as in pages.test.ts.
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { type Browser, chromium, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { apiClient, artifact } from "../support/api.ts"
import { REPO_ROOT, type RunningServer, startServer } from "../support/server.ts"

const SCREENSHOTS = join(REPO_ROOT, "test-output", "screenshots")
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-gpu"]
const OVERRIDE = "Placeholder bytes from the CI smoke test; the real build follows"
const ACCEPTANCE = "Not a Godot pack on purpose: a transport test"

let server: RunningServer
let browser: Browser
let page: Page
let gameId = ""

const shot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true })
const focused = () => page.evaluate(() => document.activeElement?.id ?? null)
const textWhen = async (selector: string, pattern: RegExp) => {
  const element = page.locator(selector).filter({ hasText: pattern })
  await element.waitFor({ timeout: 15_000 })
  return element.innerText()
}
const releasePage = (version: string) => `${server.baseUrl}/admin/games/${gameId}/releases/${version}`

/** WCAG contrast of an element's text against its own background. */
const contrast = (selector: string) =>
  page.locator(selector).evaluate((element) => {
    const rgb = (color: string) => (color.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number)
    const luminance = (color: string) => {
      const [r, g, b] = rgb(color).map((v) => {
        const c = v / 255
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
      })
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
    }
    const style = getComputedStyle(element)
    const [a, b] = [luminance(style.color), luminance(style.backgroundColor)].sort((x, y) => y - x)
    return (a! + 0.05) / (b! + 0.05)
  })

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true })
  // An hour between scan passes: only a finalize on this instance wakes the scanner, so a scan taken away below stays
  // pending until the next finalize.
  ;[server, browser] = await Promise.all([
    startServer({ env: { RATE_LIMIT_COUNT: "100", SCAN_INTERVAL_SECONDS: "3600" } }),
    chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: CHROMIUM_ARGS }),
  ])
  page = await (await browser.newContext()).newPage()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe("the review gate in Chromium", () => {
  const api = () => apiClient(server.baseUrl)
  const creator = () => server.token("gate-creator")

  test("while the scan is pending, Approve is disabled and the service refuses approval", async () => {
    gameId = (await api().createGame(creator(), { name: "Gate Game" })).body.gameId
    expect((await api().uploadRelease(creator(), gameId, artifact(4096, "1.0.0"))).status).toBe(201)
    await api().scanned(creator(), gameId, "1.0.0")
    // As if the scan had not run yet: its record goes, and nothing wakes the scanner until the next finalize.
    const database = new DatabaseSync(join(server.dataDir, "pckgate.sqlite"))
    database.prepare("DELETE FROM scans WHERE game_id = ?").run(gameId)
    database.close()

    await page.goto(`${server.baseUrl}/auth/dev`)
    await page.getByLabel("User name").fill("root")
    await page.getByLabel("Sign in as an administrator").check()
    await Promise.all([page.waitForURL(/\/creator$|\/$|\/admin/), page.getByLabel("User name").press("Enter")])
    await page.goto(releasePage("1.0.0"))
    const approve = page.getByRole("button", { name: "Approve and publish 1.0.0" })
    await expect(approve.isDisabled()).resolves.toBe(true)
    await expect(approve.getAttribute("aria-describedby")).resolves.toBe("approve-help")
    await expect(page.locator("#approve-help").innerText()).resolves.toContain("The scan has not finished")
    // The same answer from the API, with this page's session cookie.
    const refused = await page.evaluate(async (path) => {
      const response = await fetch(path, { method: "POST", credentials: "same-origin" })
      return [response.status, (await response.json()).error]
    }, `/api/admin/games/${gameId}/releases/1.0.0/approve`)
    expect(refused).toEqual([409, "scan_pending"])
    // Reject is not the Approve button's blue, and stays readable.
    const colors = await page.evaluate(() =>
      ["#approve", "#reject-form button[type=submit]"].map((s) => getComputedStyle(document.querySelector(s)!).backgroundColor)
    )
    expect(colors[0]).not.toBe(colors[1])
    expect(await contrast("#reject-form button[type=submit]")).toBeGreaterThanOrEqual(4.5)
    await shot("gate-scan-pending")
  })

  test("with an unresolved error, approval is a separate step that requires the override reason", async () => {
    // The next finalize wakes the scanner, which scans both releases.
    expect((await api().uploadRelease(creator(), gameId, artifact(4096, "1.1.0"))).status).toBe(201)
    await api().scanned(creator(), gameId, "1.0.0")
    await api().scanned(creator(), gameId, "1.1.0")
    await page.goto(releasePage("1.0.0"))
    await expect(page.getByRole("button", { name: "Approve and publish 1.0.0" }).count()).resolves.toBe(0)
    const despite = page.getByRole("button", { name: "Approve despite 1 error" })
    await despite.click()
    expect(await textWhen("#review-status", /Write why/)).toContain("Write why you approve despite the errors")
    await expect(page.getByLabel(/Why approve despite 1 error/).getAttribute("aria-invalid")).resolves.toBe("true")
    expect(await focused()).toBe("override-reason")
    await page.getByLabel(/Why approve despite 1 error/).fill(OVERRIDE)
    await despite.click()
    expect(await textWhen("#review-status", /^Approved/)).toMatch(/^Approved 1\.0\.0 despite its errors/)
    expect(await focused()).toBe("review-status")
    const detail = await api().call("GET", `/api/games/${gameId}/releases/1.0.0`, { token: creator() })
    expect(detail.body.approvalOverride).toMatchObject({ reason: OVERRIDE, by: "root" })
    await shot("gate-approved-with-override")
  })

  test("a reviewer claims the release, accepts the finding with a reason, then approves without an override", async () => {
    await page.goto(releasePage("1.1.0"))
    await page.getByRole("button", { name: "Claim for 30 minutes" }).click()
    expect(await textWhen("#claim-status", /Claimed by you/)).toMatch(/^Claimed by you until \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\.$/)
    await page.goto(`${server.baseUrl}/admin`)
    await expect(page.locator("tbody tr", { hasText: "Gate Game 1.1.0" }).innerText()).resolves.toMatch(/1 error[\s\S]*root/)

    await page.goto(releasePage("1.1.0"))
    const finding = page.locator("li.finding", { hasText: "pack-not-godot" })
    await finding.getByRole("button", { name: "Accept this finding" }).click()
    expect(await textWhen("#review-status", /Write why/)).toContain("Write why this finding is acceptable")
    await finding.getByLabel(/Why this finding is acceptable/).fill(ACCEPTANCE)
    await Promise.all([page.waitForEvent("load"), finding.getByRole("button", { name: "Accept this finding" }).click()])
    await expect(page.locator("li.finding", { hasText: "pack-not-godot" }).locator(".accepted").innerText()).resolves.toBe(`Accepted by root: ${ACCEPTANCE}`)
    await shot("gate-finding-accepted")
    const approve = page.getByRole("button", { name: "Approve and publish 1.1.0" })
    await expect(approve.isEnabled()).resolves.toBe(true)
    await approve.click()
    expect(await textWhen("#review-status", /^Approved/)).toMatch(/^Approved 1\.1\.0\. The game is now published\. Active version: 1\.1\.0\./)
    expect(await focused()).toBe("review-status")
    const detail = await api().call("GET", `/api/games/${gameId}/releases/1.1.0`, { token: creator() })
    expect(detail.body).toMatchObject({ status: "approved", approvalOverride: null, scan: { status: "scanned", errors: 1 } })
  })
})
