import { Schema } from "effect"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { makeApp } from "../../adapters/http/App.ts"
import { browserRoutes } from "../../adapters/http/pages/index.ts"
import { makeSessionCodec, SESSION_COOKIE } from "../../adapters/http/session.ts"
import { ScanReport } from "../../domain/scan/ScanReport.ts"
import { ScanStore } from "../../ports/ScanStore.ts"
import { artifact } from "../support/api.ts"
import { makeTestApp, newGame, release, TEST_BASE_URL, type TestApp } from "../support/testApp.ts"

// Reports outlive scanner versions: one stored by pckgate-scanner/1 (no capability summary, no fingerprints) still
// decodes, and the review page says which scanner wrote the report it shows.

/** A report as pckgate-scanner/1 stored it (JSON text), before the capability summary and fingerprints existed. */
const SCANNER_1_REPORT = JSON.stringify({
  ok: false,
  findings: [{ file: "res://game/main.gd", line: 5, column: 2, rule: "banned-api", pattern: "OS.execute", message: "OS.execute: starts programs.", severity: "error" }],
  summary: { countsByRule: { "banned-api": 1 }, errors: 1, warnings: 0, packFormat: 1, engineVersion: "3.2.3", entryCount: 4, packBytes: 4096, bytesRead: 900 },
  files: [{ path: "res://game/main.gd", sizeBytes: 120 }],
  manifest: null,
  scannerVersion: "pckgate-scanner/1",
})

let t: TestApp
let pages: { fetch: (request: Request) => Promise<Response> }

beforeAll(async () => {
  t = await makeTestApp({ scanWorker: false })
  pages = makeApp({
    runtime: t.runtime,
    baseUrl: () => TEST_BASE_URL,
    sessions: await makeSessionCodec(crypto.getRandomValues(new Uint8Array(32))),
    routes: browserRoutes({ signIn: { kind: "dev" }, secret: crypto.getRandomValues(new Uint8Array(32)), submitApiUrl: () => `${TEST_BASE_URL}/submit-api` }),
  })
})
afterAll(() => t.dispose())

describe("reports of older scanners", () => {
  test("a pckgate-scanner/1 report without capabilities or fingerprints decodes as it was stored", () => {
    const decoded = Schema.decodeUnknownSync(ScanReport)(JSON.parse(SCANNER_1_REPORT))
    expect(decoded.capabilities).toBeUndefined()
    expect(decoded.findings.map((f) => [f.file, f.line, f.fingerprint])).toEqual([["res://game/main.gd", 5, undefined]])
    expect(decoded.scannerVersion).toBe("pckgate-scanner/1")
  })

  test("the review page names the scanner version of the report it shows", async () => {
    const token = await t.token("version-creator")
    const gameId = await newGame(t, token, "Versioned Game")
    expect((await release(t, token, gameId, artifact(4096, "1.0.0"))).status).toBe(201)
    const report = Schema.decodeUnknownSync(ScanReport)(JSON.parse(SCANNER_1_REPORT))
    await t.runtime.runPromise(ScanStore.use((s) => s.save({ gameId, version: "1.0.0", report, scannedAt: new Date() })))

    const signedIn = await pages.fetch(
      new Request(`${TEST_BASE_URL}/auth/dev`, {
        method: "POST",
        headers: { origin: TEST_BASE_URL, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ user: "version-admin", admin: "1", return_to: "/admin" }).toString(),
      }),
    )
    const cookie = signedIn.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`))?.split(";")[0]
    expect(cookie).toBeDefined()
    const page = await pages.fetch(new Request(`${TEST_BASE_URL}/admin/games/${gameId}/releases/1.0.0`, { headers: { cookie: cookie ?? "" } }))
    expect(page.status).toBe(200)
    const markup = await page.text()
    expect(markup).toMatch(/<h2 id="scan-heading">Scan findings<\/h2>\s*<p>[^<]*\(scanner pckgate-scanner\/1\)\.<\/p>/)
    expect(markup).toContain("res://game/main.gd")
  })
})
