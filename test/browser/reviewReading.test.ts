// A reviewer reads a release in Chromium (issue 15): the real server, packs exported by godot3-server in this run.
// The code view shows the flagged line highlighted (server-side tokens, no script, strict CSP kept), the update's
// diff shows the changed lines, and the page stays usable by keyboard with readable contrast.
import { mkdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { type Browser, chromium, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import "../setup/provided.ts"
import { apiClient } from "../support/api.ts"
import { readingPackBytes, shipReadingPack } from "../support/readingPacks.ts"
import { sha256Hex } from "../support/streams.ts"
import { MAIN_V1, readingPack } from "../review/support.ts"
import { utf8 } from "../scanner/support/bytes.ts"
import { REPO_ROOT, type RunningServer, startServer } from "../support/server.ts"

const SCREENSHOTS = join(REPO_ROOT, "test-output", "screenshots")
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-gpu"]
const fixtures = inject("godotFixtures")

let server: RunningServer
let browser: Browser
let page: Page
let gameId: string
const cspViolations: Array<string> = []

/** WCAG contrast ratio of an element's text against the first opaque background behind it. */
const contrastOf = (page: Page, selector: string) =>
  page.locator(selector).first().evaluate((element) => {
    const rgb = (css: string) => (css.match(/[\d.]+/g) ?? []).map(Number)
    const luminance = ([r = 0, g = 0, b = 0]: Array<number>) => {
      const [R, G, B] = [r, g, b].map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4))
      return 0.2126 * (R ?? 0) + 0.7152 * (G ?? 0) + 0.0722 * (B ?? 0)
    }
    let node: Element | null = element
    let background = [255, 255, 255]
    while (node !== null) {
      const value = rgb(getComputedStyle(node).backgroundColor)
      if (value.length === 3 || (value.length === 4 && value[3] === 1)) {
        background = value.slice(0, 3)
        break
      }
      node = node.parentElement
    }
    const [a, b] = [luminance(rgb(getComputedStyle(element).color)), luminance(background)]
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)
  })

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true })
  ;[server, browser] = await Promise.all([
    startServer({ env: { RATE_LIMIT_COUNT: "100", SCAN_INTERVAL_SECONDS: "1" } }),
    chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: CHROMIUM_ARGS }),
  ])
  const api = apiClient(server.baseUrl)
  const owner = server.token("reading-owner")
  const admin = server.token("reading-admin", { admin: true })
  gameId = (await api.createGame(owner, { name: "Reading Game" })).body.gameId
  await shipReadingPack(server.baseUrl, fixtures, owner, gameId, "1.0.0")
  expect((await api.approveScanned(admin, gameId, "1.0.0")).status).toBe(200)
  await shipReadingPack(server.baseUrl, fixtures, owner, gameId, "1.1.0")
  page = await (await browser.newContext({ acceptDownloads: true })).newPage()
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text())
  })
  await page.goto(`${server.baseUrl}/admin`)
  await page.getByLabel("User name").fill("root")
  await page.getByLabel("Sign in as an administrator").check()
  await Promise.all([page.waitForURL(`${server.baseUrl}/admin`), page.getByLabel("User name").press("Enter")])
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const releasePage = (version: string) => `${server.baseUrl}/admin/games/${gameId}/releases/${version}`

describe("a reviewer reads a release", () => {
  test("opens the release, follows the file tree to the script and sees the flagged line highlighted with its finding", async () => {
    await page.goto(releasePage("1.0.0"))
    const tree = page.getByRole("navigation", { name: "Files in the pack" })
    await expect(tree.innerText()).resolves.toMatch(/main\.gd script, \d+ bytes 1 finding/)
    // By keyboard: focus the script's link and press Enter.
    await tree.getByRole("link", { name: "main.gd" }).focus()
    await Promise.all([page.waitForURL(/\/code\?path=res%3A%2F%2Fgame%2Fmain\.gd$/), page.keyboard.press("Enter")])
    await expect(page.locator("h2").first().innerText()).resolves.toBe("res://game/main.gd")
    const flagged = page.locator("tr.flagged")
    await expect(flagged.count()).resolves.toBe(1)
    await expect(flagged.locator("th").innerText()).resolves.toBe("5")
    await expect(flagged.locator("td").innerText()).resolves.toBe('\tOS.execute("ls", [])')
    const describedBy = await flagged.getAttribute("aria-describedby")
    await expect(page.locator(`#${describedBy}`).innerText()).resolves.toMatch(/^Error banned-api .*OS\.execute/)
    expect(await flagged.evaluate((row) => getComputedStyle(row).backgroundColor)).not.toBe("rgba(0, 0, 0, 0)")
    // Highlighting came from the server as classes: keywords are coloured, nothing carries an inline style.
    await expect(page.locator("tr#L3 .tok-keyword").first().innerText()).resolves.toBe("func")
    await expect(page.locator("[style]").count()).resolves.toBe(0)
    await expect(page.locator("script:not([src])").count()).resolves.toBe(0)
    for (const selector of [".tok-keyword", ".tok-string", ".tok-comment, .tok-function", "tr.flagged .line-number", ".line-finding .rule"]) {
      expect(await contrastOf(page, selector), selector).toBeGreaterThanOrEqual(4.5)
    }
    await page.screenshot({ path: join(SCREENSHOTS, "review-code-view.png"), fullPage: true })
  })

  test("opens the update and sees its diff against the active release, the changed lines marked, the new capability on top", async () => {
    await page.goto(releasePage("1.1.0"))
    await expect(page.locator("#capabilities-heading").innerText()).resolves.toBe("Capabilities added since 1.0.0")
    await expect(page.locator(".capabilities-added").innerText()).resolves.toContain("file-writes")
    await expect(page.locator("#diff-heading").innerText()).resolves.toBe("Changes since 1.0.0")
    const main = page.locator("details.diff-file-block", { hasText: "res://game/main.gd" })
    await expect(main.locator("del.diff-del").allTextContents()).resolves.toEqual(['removed: -\tprint("round one")'])
    await expect(main.locator("ins.diff-add").allTextContents()).resolves.toEqual([
      'added: +\tprint("round two")', "added: +\tvar save = File.new()", 'added: +\tsave.open("user://save.dat", File.WRITE)',
    ])
    expect(await contrastOf(page, "ins.diff-add")).toBeGreaterThanOrEqual(4.5)
    expect(await contrastOf(page, "del.diff-del")).toBeGreaterThanOrEqual(4.5)
    // The comparison can be changed with a labelled control.
    await expect(page.getByLabel("Compare with").inputValue()).resolves.toBe("1.0.0")
    await page.screenshot({ path: join(SCREENSHOTS, "review-diff.png"), fullPage: true })
  })

  test("downloads the pack it reviews", async () => {
    await page.goto(releasePage("1.1.0"))
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download the pack (1.1.0)" }).click()])
    const saved = await download.path()
    expect(sha256Hex(new Uint8Array(readFileSync(saved)))).toBe(sha256Hex(readingPackBytes(fixtures, "1.1.0")))
  })

  test("accepts the flagged line's finding from the code view with a reason, sees who accepted it there, then approves", async () => {
    const reason = "The level editor lists files on purpose"
    await page.goto(`${releasePage("1.1.0")}/code?path=${encodeURIComponent("res://game/main.gd")}`)
    const flagged = page.locator("#F5")
    await expect(flagged.locator(".accepted").count()).resolves.toBe(0)
    // By keyboard, through the field's label: an empty reason is refused on the page, with the field marked.
    const field = flagged.getByLabel("Why this finding is acceptable (kept for this game: every version that has this finding)")
    await field.focus()
    await field.press("Enter")
    await expect(field.getAttribute("aria-invalid")).resolves.toBe("true")
    await expect(page.locator("#review-status").innerText()).resolves.toContain("Write why this finding is acceptable")
    await expect(page.evaluate(() => document.activeElement?.getAttribute("name"))).resolves.toBe("reason")
    await page.screenshot({ path: join(SCREENSHOTS, "review-code-view-accept.png"), fullPage: true })
    await field.fill(reason)
    await Promise.all([page.waitForEvent("load"), field.press("Enter")])
    await expect(page.locator("#F5 .accepted").innerText()).resolves.toBe(`Accepted by root: ${reason}`)
    await expect(page.locator("#F5 .accept-form").count()).resolves.toBe(0)
    expect(await contrastOf(page, "#F5 .accepted")).toBeGreaterThanOrEqual(4.5)
    await page.screenshot({ path: join(SCREENSHOTS, "review-code-view-accepted.png"), fullPage: true })

    // The release page shows it accepted too, and with nothing unresolved a plain approval goes through.
    await page.goto(releasePage("1.1.0"))
    await expect(page.locator(".finding-accepted .accepted").first().innerText()).resolves.toBe(`Accepted by root: ${reason}`)
    const approve = page.getByRole("button", { name: "Approve and publish 1.1.0" })
    await expect(approve.isEnabled()).resolves.toBe(true)
    await approve.click()
    await page.locator("#review-status", { hasText: "Approved 1.1.0" }).waitFor({ timeout: 15_000 })
    await expect(page.locator("#release-status").innerText()).resolves.toBe("approved")
  })

  test("a path with a bidirectional control reads as a labelled mark in the tree, the code page's heading and its title", async () => {
    const api = apiClient(server.baseUrl)
    const owner = server.token("reading-owner")
    const hidden = (await api.createGame(owner, { name: "Hidden Path" })).body.gameId as string
    const bytes = readingPack("1.0.0", MAIN_V1, [{ path: "res://evil\u202Edir/run.gd", data: utf8("extends Node\n") }])
    expect((await api.uploadRelease(owner, hidden, { bytes, declaration: { version: "1.0.0", sha256: sha256Hex(bytes), sizeBytes: bytes.length } })).status).toBe(201)
    await api.scanned(owner, hidden, "1.0.0", 30_000)
    await page.goto(`${server.baseUrl}/admin/games/${hidden}/releases/1.0.0`)
    const tree = page.getByRole("navigation", { name: "Files in the pack" })
    await expect(tree.locator(".folder", { hasText: "evil" }).innerText()).resolves.toBe("evilU+202Edir/")
    await Promise.all([page.waitForURL(/\/code\?path=/), tree.getByRole("link", { name: "run.gd" }).click()])
    await expect(page.locator("h2").first().innerText()).resolves.toBe("res://evilU+202Edir/run.gd")
    await expect(page.title()).resolves.toBe("res://evil<U+202E>dir/run.gd in 1.0.0 · pckgate")
    await expect(page.locator("h2 mark.hidden-char").getAttribute("title")).resolves.toBe("U+202E RIGHT-TO-LEFT OVERRIDE")
  })

  test("no page broke the Content-Security-Policy", () => {
    expect(cspViolations).toEqual([])
  })
})
