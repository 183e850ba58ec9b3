// A route's shortcut (adapters/http/route.ts, App.ts): the synchronous answer ahead of the Effect runtime that kept
// catalog pages use. It answers once it is made (from the route's first request on), leaves every other request to the
// handler, falls back to the handler when it throws (logged), and its answers get the route's and the app's headers and
// are counted on GET /metrics like any other.
import { Effect } from "effect"
import { expect, test } from "vitest"
import type { Route } from "../../adapters/http/route.ts"
import { makeTestApp, TEST_BASE_URL } from "../support/testApp.ts"

const METRICS_TOKEN = "shortcut-metrics-token"

test("a route's shortcut answers ahead of the handler once made; null, a throw and the first request go to the handler", async () => {
  let made = 0
  const route: Route = {
    method: "GET",
    path: "/shortcut-test",
    headers: { "x-route": "shortcut-test" },
    handle: () => Effect.succeed(new Response("handler")),
    shortcut: Effect.sync(() => {
      made++
      return (request: Request) => {
        const mode = new URL(request.url).searchParams.get("mode")
        if (mode === "throw") throw new Error("a bug in the shortcut")
        return mode === "fast" ? new Response("shortcut") : null
      }
    }),
  }
  const t = await makeTestApp({ routes: [route], metricsToken: METRICS_TOKEN })
  const get = (mode: string, method = "GET") => t.app.fetch(new Request(`${TEST_BASE_URL}/shortcut-test?mode=${mode}`, { method }))

  // The first request starts making the shortcut; the handler answers it.
  expect(await (await get("fast")).text()).toBe("handler")
  for (let i = 0; i < 100 && made === 0; i++) await new Promise((resolve) => setTimeout(resolve, 1))
  expect(made).toBe(1)

  const fast = await get("fast")
  expect([fast.status, await fast.text(), fast.headers.get("x-route"), fast.headers.get("x-content-type-options")]).toEqual([200, "shortcut", "shortcut-test", "nosniff"])
  expect(fast.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
  const head = await get("fast", "HEAD")
  expect([head.status, await head.text(), head.headers.get("x-route")]).toEqual([200, "", "shortcut-test"])
  expect(await (await get("none")).text()).toBe("handler")
  expect(await (await get("throw")).text()).toBe("handler")
  expect(t.logs.some((line) => line.msg === "unhandled failure" && String(line["cause"]).includes("a bug in the shortcut"))).toBe(true)
  expect(made).toBe(1)

  // Every one of the five requests is counted and logged, whoever answered it.
  const metrics = await t.app.fetch(new Request(`${TEST_BASE_URL}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }))
  expect(await metrics.text()).toMatch(/pckgate_http_requests_total\{[^}]*route="GET \/shortcut-test"[^}]*\} 5\b/)
  expect(t.logs.filter((line) => line.msg === "request" && line["route"] === "GET /shortcut-test")).toHaveLength(5)
  await t.dispose()
})
