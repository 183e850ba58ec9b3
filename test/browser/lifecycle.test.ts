// The release lifecycle in a real browser (issue 16): a creator sees the queue position and rolls back from /creator;
// an administrator takes a release down from its review page, and the creator sees the reason; the page says why the
// active release is active.
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import "../setup/provided.ts"
import { apiClient, artifact } from "../support/api.ts"
import { type RunningServer, startServer } from "../support/server.ts"

const CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-gpu"]

let server: RunningServer
let browser: Browser
let creator: BrowserContext
let admin: BrowserContext
let creatorPage: Page
let adminPage: Page
let gameId: string

const devSignIn = async (page: Page, path: string, user: string, asAdmin: boolean) => {
  await page.goto(`${server.baseUrl}${path}`)
  expect(new URL(page.url()).pathname).toBe("/auth/dev")
  await page.getByLabel("User name").fill(user)
  if (asAdmin) await page.getByLabel("Sign in as an administrator").check()
  await Promise.all([page.waitForURL(`${server.baseUrl}${path}`), page.getByLabel("User name").press("Enter")])
}

beforeAll(async () => {
  ;[server, browser] = await Promise.all([
    startServer({ env: { RATE_LIMIT_COUNT: "100" } }),
    chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: CHROMIUM_ARGS }),
  ])
  creator = await browser.newContext()
  admin = await browser.newContext()
  creatorPage = await creator.newPage()
  adminPage = await admin.newPage()
  const api = apiClient(server.baseUrl)
  const owner = server.token("cleo")
  const root = server.token("root", { admin: true })
  gameId = (await api.createGame(owner, { name: "Lifecycle in the browser" })).body.gameId
  for (const version of ["1.0.0", "2.0.0", "3.0.0"]) expect((await api.uploadRelease(owner, gameId, artifact(2048, version))).status).toBe(201)
  for (const version of ["1.0.0", "2.0.0"]) expect((await api.approveScanned(root, gameId, version)).status).toBe(200)
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const activeVersion = (page: Page) => page.locator("dt:text-is('Active version') + dd").innerText()

describe("the release lifecycle on the pages", () => {
  test("the creator sees the pending release's queue position and how the estimate is computed", async () => {
    await devSignIn(creatorPage, "/creator", "cleo", false)
    const queue = creatorPage.locator("p.queue")
    await expect(queue.innerText()).resolves.toContain("In the review queue: position 1 (0 ahead)")
    await expect(queue.innerText()).resolves.toContain("median time from submission to decision of the last 50 decisions")
    await expect(activeVersion(creatorPage)).resolves.toBe("2.0.0")
  })

  test("the creator rolls back to 1.0.0 from /creator", async () => {
    await Promise.all([creatorPage.waitForEvent("load"), creatorPage.getByRole("button", { name: "Roll back to 1.0.0" }).click()])
    await expect(activeVersion(creatorPage)).resolves.toBe("1.0.0")
    await expect(creatorPage.getByRole("button", { name: "Go live with 2.0.0" }).isVisible()).resolves.toBe(true)
    await expect(creatorPage.locator(".active-reason").innerText()).resolves.toMatch(/^made active by user:cleo, \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\.$/)
  })

  test("an administrator takes 1.0.0 down and the creator sees the reason", async () => {
    await devSignIn(adminPage, `/admin/games/${gameId}/releases/1.0.0`, "root", true)
    await adminPage.getByLabel("Reason for taking it down (the creator sees it)").fill("Contains a keylogger in menu.gd")
    await Promise.all([adminPage.waitForEvent("load"), adminPage.getByRole("button", { name: "Take 1.0.0 down" }).click()])
    await adminPage.getByRole("heading", { name: "Reinstate" }).waitFor()
    await expect(adminPage.locator("#release-status").innerText()).resolves.toBe("taken down")
    await expect(adminPage.locator(".timeline").textContent()).resolves.toContain("taken down 1.0.0 by user:root — Contains a keylogger in menu.gd")

    await creatorPage.reload()
    await expect(creatorPage.locator("p.reason").innerText()).resolves.toBe("Taken down: Contains a keylogger in menu.gd")
    await expect(activeVersion(creatorPage)).resolves.toBe("2.0.0")
    await expect(creatorPage.locator(".active-reason").getAttribute("data-active-cause")).resolves.toBe("takedown_fallback")
  })
})
