// The public catalog pages in a real browser (playwright-core driving Debian's Chromium) against the real server
// process: an anonymous visitor searches /games with the form, pages through the results, opens a game's page, and the
// page's strict Content-Security-Policy is never violated (no inline script or style is needed).
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { type Browser, chromium, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import "../setup/provided.ts"
import { apiClient, artifact } from "../support/api.ts"
import { REPO_ROOT, type RunningServer, startServer } from "../support/server.ts"

const SCREENSHOTS = join(REPO_ROOT, "test-output", "screenshots")
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-gpu"]
const HOSTILE = `Star <img src=x onerror=alert(1)> Fighter`

let server: RunningServer
let browser: Browser
let page: Page
/** What the browser reported: CSP violations and script errors end up here. */
const problems: Array<string> = []

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true })
  ;[server, browser] = await Promise.all([
    startServer({ env: { RATE_LIMIT_COUNT: "1000" } }),
    chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: CHROMIUM_ARGS }),
  ])
  const api = apiClient(server.baseUrl)
  const owner = server.token("catalog-owner")
  const admin = server.token("catalog-admin", { admin: true })
  for (const [i, name] of ["Star Racer", "Starfield Walk", "Moon Base", HOSTILE, "Stardust"].entries()) {
    const created = await api.createGame(owner, { name })
    expect(created.status).toBe(201)
    expect((await api.uploadRelease(owner, created.body.gameId, artifact(1500 + i, "1.0.0"))).status).toBe(201)
    expect((await api.approveScanned(admin, created.body.gameId, "1.0.0")).status).toBe(200)
  }
  page = await (await browser.newContext()).newPage()
  // Failed loads are reported by URL below (the browser asks for /favicon.ico on its own, which this site lacks).
  page.on("console", (message) => message.type() === "error" && !message.text().startsWith("Failed to load resource") && problems.push(message.text()))
  page.on("response", (response) => response.status() >= 400 && !response.url().endsWith("/favicon.ico") && problems.push(`${response.status()} ${response.url()}`))
  page.on("pageerror", (error) => problems.push(error.message))
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe("/games in a browser", () => {
  test("search with the form, page through the matches, open a game; names stay text; nothing breaks the CSP", async () => {
    await page.goto(`${server.baseUrl}/games`)
    expect(await page.locator("li.game-card h2").allInnerTexts()).toEqual(["Stardust", HOSTILE, "Moon Base", "Starfield Walk", "Star Racer"])
    expect(await page.locator("img").count()).toBe(0)

    await page.getByLabel("Search by the start of a name or slug").fill("STAR")
    await page.getByRole("button", { name: "Search" }).click()
    await page.waitForURL(/\/games\?q=STAR$/)
    expect(await page.locator("li.game-card h2").allInnerTexts()).toEqual(["Stardust", HOSTILE, "Starfield Walk", "Star Racer"])
    await shot(page, "games-search")

    await page.goto(`${server.baseUrl}/games?q=star&limit=3`)
    expect(await page.locator("li.game-card").count()).toBe(3)
    await page.getByRole("link", { name: "Next page" }).click()
    expect(await page.locator("li.game-card h2").allInnerTexts()).toEqual(["Star Racer"])
    expect(await page.getByRole("link", { name: "Next page" }).count()).toBe(0)
    await page.getByRole("link", { name: "First page" }).click()
    expect(await page.locator("li.game-card h2").first().innerText()).toBe("Stardust")

    await page.getByRole("link", { name: "Games", exact: true }).click()
    await page.getByRole("link", { name: "Moon Base" }).click()
    await page.waitForURL(/\/games\/moon-base$/)
    expect(await page.locator("h1").innerText()).toBe("Moon Base")
    expect(await page.locator("#active-version").innerText()).toBe("1.0.0")
    await shot(page, "game-page")

    expect(problems).toEqual([])
    const missing = await page.goto(`${server.baseUrl}/games/not-a-game`)
    expect(missing?.status()).toBe(404)
  })
})

const shot = (p: Page, name: string) => p.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true })
