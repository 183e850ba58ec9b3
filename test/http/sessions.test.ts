// Browser sessions live on the server: signing out and administrators end them there, so a copied cookie stops working,
// and a session's administrator role lasts 10 minutes from sign-in. Over app.fetch on the memory adapters.
import { Option } from "effect"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { SESSION_COOKIE } from "../../adapters/http/session.ts"
import { SESSION_ADMIN_TTL_SECONDS } from "../../domain/auth/Session.ts"
import { SessionStore } from "../../ports/SessionStore.ts"
import { makeTestApp, TEST_BASE_URL, type TestApp } from "../support/testApp.ts"

let t: TestApp
beforeAll(async () => {
  t = await makeTestApp()
})
afterAll(() => t.dispose())

/** Starts a browser session with a Bearer token (POST /api/session); returns the `name=value` cookie to send. */
const signIn = async (userId: string, admin = false) => {
  const started = await t.api.call("POST", "/api/session", { token: await t.token(userId, { admin }) })
  expect(started.status).toBe(200)
  return started.headers.get("set-cookie")!.split(";")[0]!
}

/** The session the cookie names, as stored; null when there is none. */
const storedSession = async (cookie: string) => {
  const sessionId = await t.sessions.open(cookie.slice(SESSION_COOKIE.length + 1))
  expect(sessionId).not.toBeNull()
  return Option.getOrNull(await t.runtime.runPromise(SessionStore.use((store) => store.get(sessionId!))))
}

const myGames = (cookie: string) => t.api.call("GET", "/api/me/games", { headers: { cookie } })
const reviewQueue = (cookie: string) => t.api.call("GET", "/api/admin/review-queue", { headers: { cookie } })
const endSessionsOf = (userId: string, options: { token?: string; headers?: Record<string, string> } = {}) =>
  t.api.call("DELETE", `/api/admin/users/${encodeURIComponent(userId)}/sessions`, options)

describe("signing out", () => {
  test("DELETE /api/session ends the session on the server: the same cookie replayed afterwards is 401", async () => {
    const cookie = await signIn("sam")
    const copied = cookie
    expect((await myGames(cookie)).status).toBe(200)
    expect(await storedSession(cookie)).toMatchObject({ userId: "sam", adminUntil: null })

    const ended = await t.api.call("DELETE", "/api/session", { headers: { cookie, origin: TEST_BASE_URL } })
    expect([ended.status, ended.body]).toEqual([204, null])
    expect(ended.headers.get("set-cookie")).toMatch(new RegExp(`^${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0$`))
    expect(await storedSession(copied)).toBeNull()

    const replayed = await myGames(copied)
    expect([replayed.status, replayed.body.error]).toEqual([401, "sign_in_required"])
    const change = await t.api.call("POST", "/api/games/engine", { headers: { cookie: copied, origin: TEST_BASE_URL }, body: { name: "After Sign-out" } })
    expect([change.status, change.body.error]).toEqual([401, "sign_in_required"])
    // Signing out twice, or without a session, is harmless.
    expect((await t.api.call("DELETE", "/api/session", { headers: { cookie: copied, origin: TEST_BASE_URL } })).status).toBe(204)
    expect((await t.api.call("DELETE", "/api/session")).status).toBe(204)
  })

  test("ending one session leaves the person's other sessions (another browser) working", async () => {
    const laptop = await signIn("tess")
    const phone = await signIn("tess")
    expect((await t.api.call("DELETE", "/api/session", { headers: { cookie: laptop, origin: TEST_BASE_URL } })).status).toBe(204)
    expect((await myGames(laptop)).status).toBe(401)
    expect((await myGames(phone)).status).toBe(200)
  })
})

describe("the administrator role of a session", () => {
  test("lasts 10 minutes from sign-in; the session then works on as a non-administrator until the person signs in again", async () => {
    const cookie = await signIn("ada", true)
    expect((await reviewQueue(cookie)).status).toBe(200)
    t.clock.advance(SESSION_ADMIN_TTL_SECONDS - 1)
    expect((await reviewQueue(cookie)).status).toBe(200)
    t.clock.advance(1)
    const lapsed = await reviewQueue(cookie)
    expect([lapsed.status, lapsed.body.error]).toEqual([404, "not_found"])
    expect(await myGames(cookie)).toMatchObject({ status: 200 })
    expect((await endSessionsOf("someone", { headers: { cookie, origin: TEST_BASE_URL } })).status).toBe(404)

    const again = await signIn("ada", true)
    expect((await reviewQueue(again)).status).toBe(200)
  })

  test("a non-administrator's session never has it", async () => {
    const cookie = await signIn("ben")
    expect((await reviewQueue(cookie)).status).toBe(404)
    expect(await storedSession(cookie)).toMatchObject({ userId: "ben", adminUntil: null })
  })
})

describe("DELETE /api/admin/users/{userId}/sessions", () => {
  test("401 without credentials, 404 not_found for everyone but administrators, whose call ends every session of the user", async () => {
    const victim = [await signIn("victim"), await signIn("victim")]
    const bystander = await signIn("bystander")
    const adminCookie = await signIn("root", true)

    const anonymous = await endSessionsOf("victim")
    expect([anonymous.status, anonymous.body.error]).toEqual([401, "sign_in_required"])
    for (const options of [{ token: await t.token("mallory") }, { headers: { cookie: bystander, origin: TEST_BASE_URL } }, { token: await t.token("victim") }]) {
      const refused = await endSessionsOf("victim", options)
      expect([refused.status, refused.body.error]).toEqual([404, "not_found"])
    }
    // Bearer first: an invalid one is a hard 401 even beside an administrator's cookie; without the service's Origin
    // that cookie counts as absent.
    expect((await endSessionsOf("victim", { headers: { cookie: adminCookie, origin: TEST_BASE_URL, authorization: "Bearer junk" } })).status).toBe(401)
    expect((await endSessionsOf("victim", { headers: { cookie: adminCookie } })).status).toBe(401)
    for (const cookie of victim) expect((await myGames(cookie)).status).toBe(200)

    const ended = await endSessionsOf("victim", { token: await t.token("root", { admin: true }) })
    expect([ended.status, ended.body]).toEqual([204, null])
    for (const cookie of victim) {
      expect(await storedSession(cookie)).toBeNull()
      expect(await myGames(cookie)).toMatchObject({ status: 401, body: { error: "sign_in_required" } })
    }
    expect((await myGames(bystander)).status).toBe(200)
    expect((await endSessionsOf("victim", { token: await t.token("root", { admin: true }) })).status).toBe(204)

    // From the pages: an administrator's own session, from the service's origin.
    const later = await signIn("victim")
    expect((await endSessionsOf("victim", { headers: { cookie: adminCookie, origin: TEST_BASE_URL } })).status).toBe(204)
    expect((await myGames(later)).status).toBe(401)
  })

  test("the user id is text: control and bidirectional characters are 400 naming userId and the code point (after the admin check)", async () => {
    const admin = await t.token("root", { admin: true })
    for (const [userId, codePoint] of [["ev\u202Eil", "U+202E"], ["line\nbreak", "U+000A"], ["nul\u0000", "U+0000"]] as const) {
      const refused = await endSessionsOf(userId, { token: admin })
      expect([refused.status, refused.body.error]).toEqual([400, "invalid_request"])
      expect(refused.body.detail).toContain(`userId: contains ${codePoint}`)
      expect((await endSessionsOf(userId, { token: await t.token("mallory") })).status).toBe(404)
    }
    const tooLong = await endSessionsOf("x".repeat(256), { token: admin })
    expect([tooLong.status, tooLong.body.error]).toEqual([400, "invalid_request"])
    expect(tooLong.body.detail).toContain("userId")

    // Any other subject is matched verbatim.
    const zoe = await signIn("Zoë ☃/x")
    expect((await endSessionsOf("Zoë ☃/x", { token: admin })).status).toBe(204)
    expect((await myGames(zoe)).status).toBe(401)
  })
})
