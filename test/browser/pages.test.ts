// The pages in a real browser: playwright-core driving Debian's Chromium against the real server process, with the
// real packs Godot exported in the global setup. One browser for the file; each person gets a browser context.
import { createHash } from "node:crypto"
import { mkdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import { fixturePackPath, fixtureProjectPath } from "../setup/godot.ts"
import "../setup/provided.ts"
import { startOidcProvider } from "../support/oidcProvider.ts"
import { REPO_ROOT, type RunningServer, startServer } from "../support/server.ts"

const SCREENSHOTS = join(REPO_ROOT, "test-output", "screenshots")
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-gpu"]
const REASON = `Remove the <b>sdk</b> "stubs" & export again </textarea>`

const fixtures = inject("godotFixtures")
const packFile = (name: string) => fixturePackPath(fixtures, name)
const manifestFile = (name: string) => join(fixtureProjectPath(fixtures, name), "manifest.json")

let server: RunningServer
let browser: Browser
let creator: BrowserContext
let admin: BrowserContext
let creatorPage: Page
let adminPage: Page

const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true })

/** The id of the element that has keyboard focus. */
const focused = (page: Page) => page.evaluate(() => document.activeElement?.id ?? null)

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true })
  ;[server, browser] = await Promise.all([
    startServer({ env: { RATE_LIMIT_COUNT: "100", SCAN_INTERVAL_SECONDS: "1" } }),
    chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: CHROMIUM_ARGS }),
  ])
  creator = await browser.newContext({ acceptDownloads: true })
  admin = await browser.newContext()
  creatorPage = await creator.newPage()
  adminPage = await admin.newPage()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

/** The dev sign-in page, by keyboard: type the name, tick the box, press Enter. */
const devSignIn = async (page: Page, path: string, user: string, asAdmin: boolean) => {
  await page.goto(`${server.baseUrl}${path}`)
  expect(new URL(page.url()).pathname).toBe("/auth/dev")
  await expect(page.locator(".dev-banner").innerText()).resolves.toContain("Development sign-in — not for production")
  await page.getByLabel("User name").fill(user)
  if (asAdmin) await page.getByLabel("Sign in as an administrator").check()
  await Promise.all([page.waitForURL(`${server.baseUrl}${path}`), page.getByLabel("User name").press("Enter")])
  await expect(page.locator("header .account").innerText()).resolves.toContain(`Signed in as ${user}`)
}

/** Chooses the files and submits; resolves with the result region's heading once the answer is shown. */
const submit = async (page: Page, pack: string, manifest: string) => {
  await page.getByLabel("Game package (.pck)").setInputFiles(packFile(pack))
  await page.getByLabel("Manifest (manifest.json)").setInputFiles(manifestFile(manifest))
  // Record what the progress bar showed during the upload (it is hidden again once the answer is in).
  await page.evaluate(() => {
    const seen: Array<string> = []
    ;(window as unknown as { progressSeen: Array<string> }).progressSeen = seen
    const box = document.getElementById("upload-progress")!
    const bar = document.getElementById("progress-bar") as HTMLProgressElement
    new MutationObserver(() => seen.push(`${box.hidden ? "hidden" : "shown"}:${bar.value}`)).observe(box, { attributes: true, subtree: true })
  })
  await page.getByRole("button", { name: "Submit for review" }).click()
  const heading = page.locator("#result h2")
  await heading.waitFor({ timeout: 30_000 })
  return heading
}

/**
 * Waits until the element's text matches (the pages update it after a request), then returns the text. When it never
 * does, the failure says what the element shows instead and what the server printed last (an approval that waited
 * past 15 s twice in a full CI run, and never alone, left nothing else to go on).
 */
const textWhen = async (page: Page, selector: string, pattern: RegExp) => {
  const element = page.locator(selector).filter({ hasText: pattern })
  try {
    await element.waitFor({ timeout: 15_000 })
  } catch (cause) {
    const shown = await page.locator(selector).innerText().catch(() => "(not found)")
    throw new Error(`${selector} never matched ${pattern}; it shows ${JSON.stringify(shown)}; the server printed last:\n${server.output().slice(-3000)}`, { cause })
  }
  return element.innerText()
}

const progressSeen = (page: Page) => page.evaluate(() => (window as unknown as { progressSeen: Array<string> }).progressSeen)

describe("the pages in Chromium", () => {
  test("a creator signs in on the dev sign-in page and lands back on /submit", async () => {
    await devSignIn(creatorPage, "/submit", "ada", false)
    await expect(creatorPage.locator("h1").innerText()).resolves.toBe("Submit a game")
  })

  test("submitting the violating pack shows its findings with file:line and each rule's explanation", async () => {
    const heading = await submit(creatorPage, "violations", "violations")
    await expect(heading.innerText()).resolves.toBe("Static analysis failed")
    expect(await focused(creatorPage)).toBe("result-heading")
    const findings = await creatorPage.locator("#result li.finding").allInnerTexts()
    expect(findings.length).toBeGreaterThan(3)
    const all = findings.join("\n")
    expect(all).toMatch(/res:\/\/sdk\/\S+/) // reserved path, a whole-file finding
    expect(all).toMatch(/res:\/\/game\/\S+\.(gd|tscn):\d+/) // banned API with its line
    expect(all).toContain("Infrastructure folders (sdk/, core/, server/, client/) must not be shipped")
    expect(all).toContain("Blocked pattern:")
    expect((await progressSeen(creatorPage)).some((s) => s.startsWith("shown:"))).toBe(true)
    await shot(creatorPage, "submit-violations")
  })

  test("submitting the clean real pack shows the submission id and status review", async () => {
    const heading = await submit(creatorPage, "clean", "clean")
    await expect(heading.innerText()).resolves.toBe("Submitted for review")
    expect(await focused(creatorPage)).toBe("result-heading")
    const facts = await creatorPage.locator("#result dl").innerText()
    expect(facts).toMatch(/Submission id\s+\S+/)
    expect(facts).toMatch(/Status\s+review/)
    const seen = await progressSeen(creatorPage)
    expect(seen).toContain("shown:0")
    expect(seen.some((s) => s.endsWith(":100"))).toBe(true)
    await shot(creatorPage, "submit-clean")
  })

  test("an administrator approves it in /admin after seeing the queue, the scan and the file list", async () => {
    await devSignIn(adminPage, "/admin", "root", true)
    const row = adminPage.locator("tbody tr", { hasText: "Fixture Game 1.0.0" })
    await expect(row.innerText()).resolves.toMatch(/ada[\s\S]*submit page[\s\S]*(less than a minute|\d+ min)[\s\S]*No problems found/)
    await shot(adminPage, "admin-queue")
    await row.getByRole("link").click()
    await expect(adminPage.locator("h1").innerText()).resolves.toBe("Review Fixture Game 1.0.0")
    await expect(adminPage.locator("#scan-heading + p").innerText()).resolves.toMatch(/^No problems found/)
    const files = await adminPage.getByRole("navigation", { name: "Files in the pack" }).innerText()
    expect(files).toContain("manifest.json")
    expect(files).toMatch(/game\/\s+[\s\S]*main\.tscn/)
    await adminPage.getByRole("button", { name: "Approve and publish 1.0.0" }).click()
    expect(await textWhen(adminPage, "#review-status", /^Approved/)).toMatch(/^Approved 1\.0\.0\. The game is now published\. Active version: 1\.0\.0\./)
    expect(await focused(adminPage)).toBe("review-status")
    await expect(adminPage.getByRole("button", { name: /Approve/ }).isHidden()).resolves.toBe(true)
    await expect(adminPage.locator("#reject-form").isHidden()).resolves.toBe(true)
    await expect(adminPage.locator("#release-status").innerText()).resolves.toBe("approved")
    await expect(adminPage.locator("#catalog-status").innerText()).resolves.toBe("published (active version 1.0.0)")
    await shot(adminPage, "admin-approved")
  })

  test("the creator sees published in /creator and downloads exactly the submitted pack", async () => {
    await creatorPage.goto(`${server.baseUrl}/creator`)
    const game = creatorPage.locator("section.game", { hasText: "Fixture Game" })
    await expect(game.locator("[data-game-status]").innerText()).resolves.toBe("published")
    const [download] = await Promise.all([
      creatorPage.waitForEvent("download"),
      game.getByRole("button", { name: "Download Fixture Game version 1.0.0" }).click(),
    ])
    const saved = join(server.dataDir, "downloaded.pck")
    await download.saveAs(saved)
    const sha = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex")
    expect(sha(saved)).toBe(sha(packFile("clean")))
    expect(await textWhen(creatorPage, "#download-status", /SHA-256/)).toContain(`SHA-256 is ${sha(saved)}`)
    await shot(creatorPage, "creator-published")
  })

  test("a rejected update shows its reason in /creator, and the approved version stays active", async () => {
    await creatorPage.goto(`${server.baseUrl}/submit`)
    await expect((await submit(creatorPage, "clean-update", "clean-update")).innerText()).resolves.toBe("Submitted for review")

    await adminPage.goto(`${server.baseUrl}/admin`)
    await adminPage.locator("tbody tr", { hasText: "1.1.0" }).getByRole("link").click()
    // A blank reason is refused on the page, with the field marked and focused.
    await adminPage.getByLabel(/Reason for rejecting/).fill("   ")
    await adminPage.getByRole("button", { name: "Reject 1.1.0" }).click()
    expect(await textWhen(adminPage, "#review-status", /reason/)).toContain("Write a reason before rejecting")
    expect(await adminPage.getByLabel(/Reason for rejecting/).getAttribute("aria-invalid")).toBe("true")
    expect(await focused(adminPage)).toBe("reason")
    await adminPage.getByLabel(/Reason for rejecting/).fill(REASON)
    await adminPage.getByRole("button", { name: "Reject 1.1.0" }).click()
    expect(await textWhen(adminPage, "#review-status", /^Rejected/)).toMatch(/^Rejected 1\.1\.0; the creator sees the reason\. The game is published\. Active version: 1\.0\.0\./)

    await creatorPage.goto(`${server.baseUrl}/creator`)
    const rejected = creatorPage.locator("tbody tr", { hasText: "1.1.0" })
    await expect(rejected.locator(".status").innerText()).resolves.toBe("rejected")
    // The reason reads exactly as typed: shown as text, never interpreted as markup.
    await expect(rejected.locator(".reason").innerText()).resolves.toBe(REASON.trim())
    await expect(rejected.locator(".reason b").count()).resolves.toBe(0)
    await expect(creatorPage.locator("[data-game-status]").innerText()).resolves.toBe("published")
    await shot(creatorPage, "creator-rejected")
  })

  test("with an identity provider, /auth/login runs the code flow through the provider and back with a session", async () => {
    const idp = await startOidcProvider()
    const oidcServer = await startServer({
      env: {
        OIDC_JWKS_URL: idp.jwksUrl,
        OIDC_ISSUER: idp.issuer,
        OIDC_AUDIENCE: "pckgate-api",
        OIDC_CLIENT_ID: "pckgate-web",
        OIDC_CLIENT_SECRET: "browser-test-secret",
      },
    })
    try {
      idp.registerClient({ clientId: "pckgate-web", clientSecret: "browser-test-secret", redirectUris: [`${oidcServer.baseUrl}/auth/callback`] })
      idp.signInAs({ sub: "grace", roles: ["admin"] })
      const context = await browser.newContext()
      const page = await context.newPage()
      const visited: Array<string> = []
      page.on("request", (request) => void visited.push(request.url()))
      await page.goto(`${oidcServer.baseUrl}/admin`).catch((error: Error) => {
        throw new Error(`${error.message}\nvisited: ${visited.join("\n  ")}\nserver: ${oidcServer.output().slice(-3000)}`)
      })
      expect(page.url()).toBe(`${oidcServer.baseUrl}/admin`)
      await expect(page.locator("header .account").innerText()).resolves.toContain("Signed in as grace (administrator)")
      await expect(page.locator("h1").innerText()).resolves.toBe("Review queue")
      const response = await page.goto(`${oidcServer.baseUrl}/auth/dev`)
      expect(response?.status()).toBe(404)
      await context.close()
    } finally {
      await oidcServer.stop()
      await idp.close()
    }
  })
})
