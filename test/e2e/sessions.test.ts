// Browser sessions against the real server process (SQLite records, the session cache), over loopback: signing out
// and an administrator's DELETE end sessions on the server, so a copied cookie stops working.
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { apiClient } from "../support/api.ts"
import { type RunningServer, startServer } from "../support/server.ts"

describe("sessions on the real server", () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(async () => {
    expect(await server.stop()).toBe(0)
  })

  /** Signs in on the dev sign-in page as a browser on this machine would; returns the `name=value` session cookie. */
  const devSignIn = async (user: string) => {
    const response = await fetch(`${server.baseUrl}/auth/dev`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.baseUrl },
      body: new URLSearchParams({ user, return_to: "/creator" }).toString(),
    })
    expect(response.status).toBe(303)
    return response.headers.getSetCookie().find((c) => c.startsWith("pckgate_session="))!.split(";")[0]!
  }

  const myGames = (cookie: string) => fetch(`${server.baseUrl}/api/me/games`, { headers: { cookie } }).then((r) => r.status)

  test("signing out on the pages ends the session: the copied cookie replayed afterwards is 401", async () => {
    const cookie = await devSignIn("e2e-leaver")
    expect(await myGames(cookie)).toBe(200)
    const out = await fetch(`${server.baseUrl}/auth/logout`, { method: "POST", redirect: "manual", headers: { cookie, origin: server.baseUrl } })
    expect([out.status, out.headers.get("location")]).toEqual([303, "/auth/logout"])
    expect(await myGames(cookie)).toBe(401)
  })

  test("DELETE /api/session ends the session as well", async () => {
    const cookie = await devSignIn("e2e-api-leaver")
    expect(await myGames(cookie)).toBe(200)
    const api = apiClient(server.baseUrl)
    expect((await api.call("DELETE", "/api/session", { headers: { cookie, origin: server.baseUrl } })).status).toBe(204)
    expect(await myGames(cookie)).toBe(401)
  })

  test("an administrator ends every session of a user; others get 404, anonymous callers 401", async () => {
    const api = apiClient(server.baseUrl)
    const laptop = await devSignIn("e2e-victim")
    const phone = await devSignIn("e2e-victim")
    const path = "/api/admin/users/e2e-victim/sessions"
    const anonymous = await api.call("DELETE", path)
    expect([anonymous.status, anonymous.body.error]).toEqual([401, "sign_in_required"])
    const refused = await api.call("DELETE", path, { token: server.token("e2e-victim") })
    expect([refused.status, refused.body.error]).toEqual([404, "not_found"])
    expect([await myGames(laptop), await myGames(phone)]).toEqual([200, 200])

    expect((await api.call("DELETE", path, { token: server.token("e2e-root", { admin: true }) })).status).toBe(204)
    expect([await myGames(laptop), await myGames(phone)]).toEqual([401, 401])
  })
})
