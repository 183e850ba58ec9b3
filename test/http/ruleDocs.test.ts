// GET /docs/rules/{id} for every rule and every pattern of the active policy, and findings' docsUrl pointing there.
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { defaultPolicy } from "../../adapters/scanner/policy/defaultPolicy.ts"
import { ALL_RULES } from "../../domain/scan/RuleId.ts"
import { makeTestApp, TEST_BASE_URL, type TestApp } from "../support/testApp.ts"

let t: TestApp
beforeAll(async () => {
  t = await makeTestApp()
})
afterAll(() => t.dispose())

const escapeHtml = (text: string): string => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;")

const get = async (path: string, accept = "text/html") => {
  const response = await t.app.fetch(new Request(`${TEST_BASE_URL}${path}`, { headers: { accept } }))
  return { status: response.status, type: response.headers.get("content-type"), text: await response.text() }
}

describe("GET /docs/rules/{id}", () => {
  test("every rule id answers an HTML page with what it means and how to fix it", async () => {
    for (const rule of ALL_RULES) {
      const page = await get(`/docs/rules/${rule}`)
      expect([rule, page.status, page.type]).toEqual([rule, 200, "text/html; charset=utf-8"])
      expect(page.text).toContain(`<h1>Rule ${rule} · pckgate`.slice(0, 0) + `Rule ${rule}`)
    }
    const banned = await get("/docs/rules/banned-api")
    for (const pattern of defaultPolicy.patterns) expect(banned.text).toContain(`href="/docs/rules/${pattern.id}"`)
  })

  test("every pattern id of the active policy answers its rationale, severity and fix", async () => {
    for (const pattern of defaultPolicy.patterns) {
      const page = await get(`/docs/rules/${pattern.id}`)
      expect([pattern.id, page.status]).toEqual([pattern.id, 200])
      const escaped = escapeHtml(pattern.rationale)
      expect(page.text).toContain(escaped)
      expect(page.text).toContain("How to fix it")
      if (pattern.fix !== undefined) expect(page.text).toContain(escapeHtml(pattern.fix))
    }
  })

  test("an unknown id is an HTML 404 page", async () => {
    const page = await get("/docs/rules/no-such-rule")
    expect([page.status, page.type]).toEqual([404, "text/html; charset=utf-8"])
    expect(page.text).toContain("Page not found")
  })
})

test("multipart violations carry docsUrl under BASE_URL, and each one resolves", async () => {
  const form = new FormData()
  form.append("manifest", new Blob([JSON.stringify({ id: "docs-game", name: "Docs", version: "1.0.0", engine_sdk: "4.2", entry_scene: "res://main.tscn", min_players: 1, max_players: 2 })], { type: "application/json" }), "manifest.json")
  form.append("pck", new Blob([new Uint8Array(4096).fill(7)]), "game.pck")
  const response = await t.app.fetch(new Request(`${TEST_BASE_URL}/submit-api/games/submit`, {
    method: "POST",
    headers: { authorization: `Bearer ${await t.token("docs-user")}` },
    body: form,
  }))
  const body = await response.json() as { error: string; violations: Array<{ rule: string; docsUrl: string }> }
  expect([response.status, body.error]).toEqual([422, "Static analysis failed"])
  expect(body.violations.length).toBeGreaterThan(0)
  for (const violation of body.violations) {
    expect(violation.docsUrl).toBe(`${TEST_BASE_URL}/docs/rules/${violation.rule}`)
    expect((await get(new URL(violation.docsUrl).pathname)).status).toBe(200)
  }
})
