import { Option } from "effect"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { makeApp } from "../../adapters/http/App.ts"
import { browserRoutes } from "../../adapters/http/pages/index.ts"
import { LOGIN_COOKIE } from "../../adapters/http/pages/loginState.ts"
import type { SignInMode } from "../../adapters/http/routes/auth.ts"
import { makeSessionCodec, SESSION_COOKIE } from "../../adapters/http/session.ts"
import { makeOidcLogin, remoteKeys } from "../../adapters/identity/OidcLogin.ts"
import { SESSION_ADMIN_TTL_SECONDS, sessionPrincipal } from "../../domain/auth/Session.ts"
import { SessionStore } from "../../ports/SessionStore.ts"
import { startOidcProvider, type OidcProvider } from "../support/oidcProvider.ts"
import { makeTestApp, TEST_BASE_URL, type TestApp } from "../support/testApp.ts"

// Browser sign-in through an identity provider: the authorization-code flow with PKCE against a real provider on
// loopback (test/support/oidcProvider.ts). The "browser" is simulated: it carries cookies and follows redirects.

const CLIENT_ID = "pckgate-web"
const CLIENT_SECRET = "s3cret with spaces & symbols"
const CALLBACK = `${TEST_BASE_URL}/auth/callback`

let t: TestApp
let idp: OidcProvider
let sessions: Awaited<ReturnType<typeof makeSessionCodec>>

const appWith = (signIn: SignInMode) =>
  makeApp({
    runtime: t.runtime,
    baseUrl: () => TEST_BASE_URL,
    sessions,
    routes: browserRoutes({ signIn, secret: crypto.getRandomValues(new Uint8Array(32)), submitApiUrl: () => `${TEST_BASE_URL}/submit-api` }),
  })

const loginFor = (issuer: string, overrides: { clientId?: string; clientSecret?: string | null; adminSubjects?: ReadonlyArray<string> } = {}) =>
  makeOidcLogin({
    issuer,
    clientId: overrides.clientId ?? CLIENT_ID,
    clientSecret: overrides.clientSecret === undefined ? CLIENT_SECRET : overrides.clientSecret,
    scopes: "openid profile",
    keys: remoteKeys(idp.jwksUrl),
    adminSubjects: overrides.adminSubjects ?? ["ops-lead"],
  })

let app: ReturnType<typeof makeApp>

beforeAll(async () => {
  t = await makeTestApp()
  sessions = await makeSessionCodec(crypto.getRandomValues(new Uint8Array(32)))
  idp = await startOidcProvider({ clients: [{ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUris: [CALLBACK] }] })
  app = appWith({ kind: "oidc", login: loginFor(idp.issuer) })
})
afterAll(async () => {
  await idp.close()
  await t.dispose()
})

const cookieOf = (response: Response, name: string) => response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`)) ?? null

/** Starts a sign-in: /auth/login → the provider's authorize URL, and the login cookie the browser now holds. */
const begin = async (target = app, returnTo = "/creator") => {
  const response = await target.fetch(new Request(`${TEST_BASE_URL}/auth/login?return_to=${encodeURIComponent(returnTo)}`))
  expect(response.status, await response.clone().text()).toBe(303)
  const loginCookie = cookieOf(response, LOGIN_COOKIE)!
  return { authorize: new URL(response.headers.get("location")!), loginCookie, cookie: loginCookie.split(";")[0]! }
}

/** The provider signs the user in and redirects back: the callback URL the browser would open. */
const authorize = async (authorizeUrl: URL) => {
  const response = await fetch(authorizeUrl, { redirect: "manual" })
  expect(response.status).toBe(302)
  return response.headers.get("location")!
}

const callback = (url: string, cookie: string | null) =>
  app.fetch(new Request(url, { headers: cookie === null ? {} : { cookie } }))

/** The whole round trip; the callback's response. */
const signInThroughProvider = async () => {
  const started = await begin()
  return callback(await authorize(started.authorize), started.cookie)
}

/** Who the session started by the response names now, read from the session store as the app reads it. */
const sessionOf = async (response: Response) => {
  const cookie = cookieOf(response, SESSION_COOKIE)
  if (cookie === null || cookie.includes("Max-Age=0")) return null
  const sessionId = await sessions.open(cookie.split(";")[0]!.slice(SESSION_COOKIE.length + 1))
  if (sessionId === null) return null
  const stored = await t.runtime.runPromise(SessionStore.use((store) => store.get(sessionId)))
  return Option.isNone(stored) ? null : sessionPrincipal(stored.value, t.clock.current())
}

describe("OIDC sign-in for people (authorization code + PKCE)", () => {
  test("/auth/login sends the browser to the provider with state, nonce and an S256 challenge; /auth/callback sets the session", async () => {
    idp.signInAs({ sub: "alice" })
    const page = await app.fetch(new Request(`${TEST_BASE_URL}/submit`))
    expect(page.headers.get("location")).toBe("/auth/login?return_to=%2Fsubmit")

    const started = await begin(app, "/submit")
    expect(started.loginCookie).toMatch(new RegExp(`^${LOGIN_COOKIE}=[^;]+; Path=/auth; HttpOnly; SameSite=Lax; Max-Age=600$`))
    const q = started.authorize.searchParams
    expect(`${started.authorize.origin}${started.authorize.pathname}`).toBe(`${idp.origin}/authorize`)
    expect(Object.fromEntries(q)).toMatchObject({
      response_type: "code",
      client_id: CLIENT_ID,
      redirect_uri: CALLBACK,
      scope: "openid profile",
      code_challenge_method: "S256",
    })
    expect(q.get("state")!.length).toBeGreaterThanOrEqual(43)
    expect(q.get("nonce")!.length).toBeGreaterThanOrEqual(43)
    expect(q.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/)
    // Nothing secret is in the cookie in clear form beyond what this browser needs; the verifier never leaves it.
    expect(started.authorize.toString()).not.toContain(started.cookie.split("=")[1]!.split(".")[0]!)

    const back = await callback(await authorize(started.authorize), started.cookie)
    expect([back.status, back.headers.get("location")]).toEqual([303, "/submit"])
    expect(await sessionOf(back)).toEqual({ userId: "alice", isAdmin: false })
    expect(cookieOf(back, LOGIN_COOKIE)).toContain("Max-Age=0")
    const exchange = idp.tokenRequests().at(-1)!
    expect(exchange.authorization).toMatch(/^Basic /)
    expect(Object.fromEntries(exchange.params)).toMatchObject({ grant_type: "authorization_code", redirect_uri: CALLBACK, client_id: CLIENT_ID })
    expect(exchange.params.get("code_verifier")!.length).toBeGreaterThanOrEqual(43)

    const signedIn = await app.fetch(new Request(`${TEST_BASE_URL}/creator`, { headers: { cookie: cookieOf(back, SESSION_COOKIE)!.split(";")[0]! } }))
    expect(signedIn.status).toBe(200)
    expect(await signedIn.text()).toContain("Signed in as <strong>alice</strong>")
  })

  test("administrators come from the id token's roles or from ADMIN_SUBJECTS", async () => {
    idp.signInAs({ sub: "reviewer", roles: ["admin"] })
    expect(await sessionOf(await signInThroughProvider())).toEqual({ userId: "reviewer", isAdmin: true })
    idp.signInAs({ sub: "ops-lead" })
    expect(await sessionOf(await signInThroughProvider())).toEqual({ userId: "ops-lead", isAdmin: true })
    idp.signInAs({ sub: "alice" })
  })

  test("removing someone from ADMIN_SUBJECTS takes effect within 10 minutes: the session's administrator role lapses", async () => {
    idp.signInAs({ sub: "ops-lead" })
    const back = await signInThroughProvider()
    const cookie = cookieOf(back, SESSION_COOKIE)!.split(";")[0]!
    const before = await app.fetch(new Request(`${TEST_BASE_URL}/admin`, { headers: { cookie } }))
    expect([before.status, await before.text()]).toEqual([200, expect.stringContaining("Signed in as <strong>ops-lead</strong> (administrator)")])
    // The operator removes ops-lead from ADMIN_SUBJECTS (a restart with a new list): new sign-ins are not administrators…
    const demoted = appWith({ kind: "oidc", login: loginFor(idp.issuer, { adminSubjects: [] }) })
    const started = await begin(demoted)
    const demotedBack = await demoted.fetch(new Request(await authorize(started.authorize), { headers: { cookie: started.cookie } }))
    expect(await sessionOf(demotedBack)).toEqual({ userId: "ops-lead", isAdmin: false })
    // …and the session started before loses the role 10 minutes after its sign-in, while it still signs ops-lead in.
    t.clock.advance(SESSION_ADMIN_TTL_SECONDS - 1)
    expect(await sessionOf(back)).toEqual({ userId: "ops-lead", isAdmin: true })
    t.clock.advance(1)
    expect(await sessionOf(back)).toEqual({ userId: "ops-lead", isAdmin: false })
    const admin = await app.fetch(new Request(`${TEST_BASE_URL}/admin`, { headers: { cookie } }))
    expect(admin.status).toBe(404)
    expect(await admin.text()).toContain("Signed in as <strong>ops-lead</strong></span>")
    idp.signInAs({ sub: "alice" })
  })

  test("refuses id tokens with another nonce, audience or issuer, expired ones, and unpinned or unknown keys", async () => {
    idp.signInAs({ sub: "alice" })
    const cases = [
      [{ nonce: "someone-elses-nonce" }, "nonce mismatch"],
      [{ audience: "another-client" }, "ERR_JWT_CLAIM_VALIDATION_FAILED"],
      [{ audience: ["another-client", CLIENT_ID] }, "azp"],
      [{ issuer: "https://other-idp.example" }, "ERR_JWT_CLAIM_VALIDATION_FAILED"],
      [{ expiresIn: "-1h" }, "ERR_JWT_EXPIRED"],
      [{ alg: "HS256" }, "ERR_JOSE_ALG_NOT_ALLOWED"],
      [{ alg: "none" }, "ERR_JOSE_ALG_NOT_ALLOWED"],
      [{ foreignKey: true }, "ERR_JWS_SIGNATURE_VERIFICATION_FAILED"],
    ] as const
    for (const [tampering, reason] of cases) {
      idp.tamperNextIdToken(tampering)
      const refused = await signInThroughProvider()
      const markup = await refused.text()
      expect(refused.status, JSON.stringify(tampering)).toBe(401)
      expect(markup, JSON.stringify(tampering)).toContain(reason)
      expect(await sessionOf(refused)).toBeNull()
      expect(cookieOf(refused, LOGIN_COOKIE)).toContain("Max-Age=0")
    }
  })

  test("refuses answers that do not belong to this browser's sign-in: state, missing or forged cookie, replayed code", async () => {
    idp.signInAs({ sub: "alice" })
    const mine = await begin()
    const theirs = await begin()
    // A code obtained in another sign-in (login CSRF / code injection) does not match this browser's state.
    const foreign = await callback(await authorize(theirs.authorize), mine.cookie)
    expect(foreign.status).toBe(401)
    expect(await foreign.text()).toContain("state mismatch")

    const url = await authorize(mine.authorize)
    expect((await callback(url, null)).status).toBe(400)
    const [body, signature] = mine.cookie.slice(LOGIN_COOKIE.length + 1).split(".")
    const forged = `${LOGIN_COOKIE}=${body!.slice(0, -2)}AA.${signature}`
    expect((await callback(url, forged)).status).toBe(400)

    const first = await callback(url, mine.cookie)
    expect(await sessionOf(first)).toEqual({ userId: "alice", isAdmin: false })
    // The browser dropped the login cookie; a replay with a copy of it finds the code already used.
    const replay = await callback(url, mine.cookie)
    expect(replay.status).toBe(401)
    expect(await replay.text()).toContain("invalid_grant")
  })

  test("shows the provider's error, escaped, when the person declines", async () => {
    idp.signInAs({ error: "access_denied", description: `<script>alert("x")</script> declined` })
    const refused = await signInThroughProvider()
    const markup = await refused.text()
    expect(refused.status).toBe(401)
    expect(markup).toContain("access_denied — &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; declined")
    expect(markup).not.toContain("<script>alert")
    expect(await sessionOf(refused)).toBeNull()
    idp.signInAs({ sub: "alice" })
  })

  test("PKCE binds the code to the verifier: a code redeemed with another verifier is refused by the provider", async () => {
    const login = loginFor(idp.issuer)
    const a = await login.begin(CALLBACK, "/")
    const url = new URL(await authorize(new URL(a.url)))
    await expect(login.complete(url.searchParams, { ...a.pending, verifier: "x".repeat(64) }, CALLBACK)).rejects.toMatchObject({ kind: "refused", message: expect.stringContaining("invalid_grant") })
  })

  test("with OIDC the dev sign-in is gone (404); without a browser client /auth/login explains; an unreachable provider is a 503", async () => {
    for (const path of ["/auth/dev"]) {
      expect((await app.fetch(new Request(`${TEST_BASE_URL}${path}`))).status).toBe(404)
      const posted = await app.fetch(new Request(`${TEST_BASE_URL}${path}`, {
        method: "POST",
        headers: { origin: TEST_BASE_URL, "content-type": "application/x-www-form-urlencoded" },
        body: "user=root&admin=1",
      }))
      expect(posted.status).toBe(404)
      expect(cookieOf(posted, SESSION_COOKIE)).toBeNull()
    }
    const apiOnly = appWith({ kind: "oidc", login: null })
    const unconfigured = await apiOnly.fetch(new Request(`${TEST_BASE_URL}/auth/login`))
    expect(unconfigured.status).toBe(503)
    expect(await unconfigured.text()).toContain("OIDC_CLIENT_ID")
    expect((await apiOnly.fetch(new Request(`${TEST_BASE_URL}/auth/dev`))).status).toBe(404)

    // Discovery must name the configured issuer; a provider that is down answers 503, not a crash.
    const mismatched = appWith({ kind: "oidc", login: loginFor(`${idp.origin}/`) })
    expect((await mismatched.fetch(new Request(`${TEST_BASE_URL}/auth/login`))).status).toBe(503)
    const down = appWith({ kind: "oidc", login: loginFor("http://127.0.0.1:9") })
    const unavailable = await down.fetch(new Request(`${TEST_BASE_URL}/auth/login`))
    expect(unavailable.status).toBe(503)
    expect(await unavailable.text()).toContain("cannot be reached")
  })
})
