// API keys on the creator page in a real browser (Chromium through playwright-core) against the real server: create
// a key, use it from outside the browser, see it listed with its last use, revoke it and see it refused.
import { type Browser, chromium, type Page } from "playwright-core"
import { afterAll, beforeAll, expect, test } from "vitest"
import "../setup/provided.ts"
import { type RunningServer, startServer } from "../support/server.ts"

const CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-gpu"]

let server: RunningServer
let browser: Browser
let page: Page

beforeAll(async () => {
  ;[server, browser] = await Promise.all([
    startServer({ env: { RATE_LIMIT_COUNT: "100" } }),
    chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: CHROMIUM_ARGS }),
  ])
  page = await (await browser.newContext()).newPage()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const withKey = (key: string) => fetch(`${server.baseUrl}/api/me/games`, { headers: { authorization: `Bearer ${key}` } })

test("the creator page creates a key shown once, lists it with its last use, and revokes it", async () => {
  await page.goto(`${server.baseUrl}/creator`)
  await page.getByLabel("User name").fill("key-holder")
  await Promise.all([page.waitForURL(`${server.baseUrl}/creator`), page.getByLabel("User name").press("Enter")])
  await expect(page.locator("#no-keys").innerText()).resolves.toContain("no API keys")

  await page.getByLabel("Key name").fill("Build server")
  await page.getByLabel("read").check()
  await page.getByRole("button", { name: "Create the key" }).click()
  await page.locator("#new-key-box:not([hidden])").waitFor()
  const key = await page.locator("#new-key").innerText()
  expect(key).toMatch(/^pckg_[0-9A-Za-z]{32}_[0-9A-Za-z]{6}$/)
  await expect(page.locator("#api-key-status").innerText()).resolves.toContain("Created the key Build server")
  expect((await withKey(key)).status).toBe(200)

  await page.reload()
  const row = page.locator("#api-key-list tbody tr")
  await expect(row.count()).resolves.toBe(1)
  const cells = await row.locator("th, td").allInnerTexts()
  expect(cells.slice(0, 3)).toEqual(["Build server", `${key.slice(0, 13)}…`, "read, release"])
  expect(cells[5]).not.toBe("never")
  expect(await page.content()).not.toContain(key)

  await page.getByRole("button", { name: "Revoke the key Build server" }).click()
  await page.locator("#api-key-status", { hasText: "revoked" }).waitFor()
  await expect(row.count()).resolves.toBe(0)
  const refused = await withKey(key)
  expect([refused.status, (await refused.json()).error]).toEqual([401, "sign_in_required"])
})
