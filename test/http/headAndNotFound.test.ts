// HEAD wherever GET answers, and the HTML 404 page for browsers outside the API.
import { afterAll, beforeAll, expect, test } from "vitest"
import { makeTestApp, newGame, TEST_BASE_URL, type TestApp } from "../support/testApp.ts"

let t: TestApp
beforeAll(async () => {
  t = await makeTestApp()
})
afterAll(() => t.dispose())

const call = (method: string, path: string, headers: Record<string, string> = {}) => t.app.fetch(new Request(`${TEST_BASE_URL}${path}`, { method, headers }))

test("HEAD answers GET's status and headers without a body: /healthz, the catalog, a game, pages, rule docs, an unknown path", async () => {
  const token = await t.token("header")
  const gameId = await newGame(t, token)
  for (const [path, headers] of [
    ["/healthz", {}],
    ["/api/catalog", {}],
    [`/api/games/${gameId}`, { authorization: `Bearer ${token}` }],
    ["/docs/rules/banned-api", {}],
    ["/submit", {}],
    ["/openapi.json", {}],
    ["/api/nothing-here", {}],
  ] as const) {
    const [get, head] = [await call("GET", path, headers), await call("HEAD", path, headers)]
    expect([path, head.status]).toEqual([path, get.status])
    expect([path, head.headers.get("content-type")]).toEqual([path, get.headers.get("content-type")])
    expect([path, await head.text()]).toEqual([path, ""])
    expect((await get.text()).length).toBeGreaterThan(0)
  }
})

test("an unknown path asked for as HTML gets the HTML 404 page; API paths and API clients keep JSON", async () => {
  const page = await call("GET", "/no/such/page", { accept: "text/html,application/xhtml+xml" })
  expect([page.status, page.headers.get("content-type")]).toEqual([404, "text/html; charset=utf-8"])
  expect(await page.text()).toContain("Page not found")
  for (const [path, accept] of [["/no/such/page", "application/json"], ["/no/such/page", "*/*"], ["/api/nothing", "text/html"], ["/submit-api/nothing", "text/html"]]) {
    const answer = await call("GET", path!, { accept: accept! })
    expect([path, accept, answer.status, (await answer.json()).error]).toEqual([path, accept, 404, "not_found"])
  }
  // The storage endpoint answers like a bucket, as JSON, whatever the client accepts.
  const storage = await call("GET", "/storage/nothing", { accept: "text/html" })
  expect([storage.status, storage.headers.get("content-type")?.startsWith("application/json")]).toEqual([403, true])
})
