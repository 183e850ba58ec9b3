import { describe, expect, test } from "vitest"
import { makeTestApp, TEST_BASE_URL } from "../support/testApp.ts"

// GET /metrics holds internal figures: this machine may read it; anyone else needs METRICS_TOKEN, and is told nothing
// exists otherwise (404, like every unauthorized read).

const TOKEN = "metrics-token-0123456789abcdef0123456789"

/** A request as Node's server hands it over, with the peer address srvx records. */
const from = (ip: string, headers: Record<string, string> = {}) => Object.assign(new Request(`${TEST_BASE_URL}/metrics`, { headers }), { ip })

describe("GET /metrics access", () => {
  test("this machine reads it; another address gets 404 unless it sends the token; a wrong token is 404 too", async () => {
    const t = await makeTestApp({ metricsToken: TOKEN })
    const local = await t.app.fetch(from("127.0.0.1"))
    expect([local.status, (await local.text()).includes("# TYPE pckgate_review_queue_length gauge")]).toEqual([200, true])
    const remote = await t.app.fetch(from("203.0.113.7"))
    expect([remote.status, (await remote.json()).error]).toEqual([404, "not_found"])
    const wrong = await t.app.fetch(from("203.0.113.7", { authorization: `Bearer ${TOKEN}x` }))
    expect(wrong.status).toBe(404)
    const withToken = await t.app.fetch(from("203.0.113.7", { authorization: `Bearer ${TOKEN}` }))
    expect(withToken.status).toBe(200)
    await t.dispose()
  })

  test("without a configured token, only this machine reads it", async () => {
    const t = await makeTestApp()
    expect((await t.app.fetch(from("::1"))).status).toBe(200)
    expect((await t.app.fetch(from("198.51.100.2", { authorization: `Bearer ${TOKEN}` }))).status).toBe(404)
    await t.dispose()
  })
})
