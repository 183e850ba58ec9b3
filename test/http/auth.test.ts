import { Effect, ManagedRuntime } from "effect"
import { createRemoteJWKSet, base64url } from "jose"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { layerJwtIdentity } from "../../adapters/identity/JwtIdentity.ts"
import { Identity } from "../../ports/Identity.ts"
import { startOidcProvider } from "../support/oidcProvider.ts"
import { makeTestApp, type TestApp, TEST_BASE_URL } from "../support/testApp.ts"

const cookieFrom = (response: { headers: Headers }) => response.headers.get("set-cookie")!.split(";")[0]!

describe("authentication precedence (spec §5)", () => {
  let t: TestApp
  let token: string
  let cookie: string
  beforeAll(async () => {
    t = await makeTestApp()
    token = await t.token("alice")
    const session = await t.api.call("POST", "/api/session", { token })
    expect(session.status).toBe(200)
    const setCookie = session.headers.get("set-cookie")!
    expect(setCookie).toMatch(/HttpOnly/)
    expect(setCookie).toMatch(/SameSite=Lax/)
    expect(setCookie).not.toMatch(/Secure/) // http base URL; https ones get Secure
    cookie = cookieFrom(session)
  })
  afterAll(() => t.dispose())

  test("a session cookie authenticates reads", async () => {
    const mine = await t.api.call("GET", "/api/me/games", { headers: { cookie } })
    expect(mine.status).toBe(200)
  })

  test("a present but invalid Bearer is a hard 401 even with a valid cookie", async () => {
    for (const authorization of ["Bearer not-a-jwt", "Bearer ", "Basic YWxpY2U6cHc=", "bearer", `Bearer ${token}x`]) {
      const reply = await t.api.call("GET", "/api/me/games", { headers: { cookie, authorization } })
      expect([authorization, reply.status, reply.body.error]).toEqual([authorization, 401, "sign_in_required"])
    }
  })

  test("cookie-authenticated state changes must come from the service's own origin", async () => {
    const body = { name: "Via Cookie" }
    expect((await t.api.call("POST", "/api/games/engine", { headers: { cookie }, body })).status).toBe(401)
    expect((await t.api.call("POST", "/api/games/engine", { headers: { cookie, origin: "https://evil.example" }, body })).status).toBe(401)
    const same = await t.api.call("POST", "/api/games/engine", { headers: { cookie, origin: new URL(TEST_BASE_URL).origin }, body })
    expect([same.status, same.body.ownerId]).toEqual([201, "alice"])
  })

  test("a forged or expired session cookie is ignored", async () => {
    const [name, value] = cookie.split("=")
    const forged = `${name}=${value!.slice(0, -4)}AAAA`
    expect((await t.api.call("GET", "/api/me/games", { headers: { cookie: forged } })).status).toBe(401)
    t.clock.advance(8 * 3600 + 1)
    expect((await t.api.call("GET", "/api/me/games", { headers: { cookie } })).status).toBe(401)
    t.clock.advance(-(8 * 3600 + 1))
  })

  test("POST /api/session needs a Bearer token; DELETE /api/session ends the session and clears the cookie, from the service's own origin only", async () => {
    expect((await t.api.call("POST", "/api/session", { headers: { cookie } })).status).toBe(401)
    const crossSite = await t.api.call("DELETE", "/api/session", { headers: { cookie, origin: "https://evil.example" } })
    expect([crossSite.status, crossSite.body.error, crossSite.headers.get("set-cookie")]).toEqual([401, "sign_in_required", null])
    expect((await t.api.call("GET", "/api/me/games", { headers: { cookie } })).status).toBe(200)
    const ended = await t.app.fetch(new Request(`${TEST_BASE_URL}/api/session`, { method: "DELETE", headers: { cookie, origin: TEST_BASE_URL } }))
    expect(ended.status).toBe(204)
    expect(ended.headers.get("set-cookie")).toMatch(/^pckgate_session=; .*Max-Age=0/)
    expect((await t.api.call("GET", "/api/me/games", { headers: { cookie } })).status).toBe(401)
  })

  test("tokens for another audience, expired ones and unsigned ones are refused", async () => {
    const wrongAudience = await t.token("alice", { audience: "someone-else" })
    const expired = await t.token("alice", { ttlSeconds: -120 })
    const [header, payload] = token.split(".")
    const unsigned = `${base64url.encode(JSON.stringify({ alg: "none", typ: "JWT" }))}.${payload}.`
    const swappedAlg = `${base64url.encode(JSON.stringify({ alg: "HS256", typ: "JWT" }))}.${payload}.${token.split(".")[2]}`
    for (const [what, bad] of [["audience", wrongAudience], ["expired", expired], ["alg none", unsigned], ["HS256", swappedAlg], ["header only", header!]] as const) {
      const reply = await t.api.call("GET", "/api/me/games", { token: bad })
      expect([what, reply.status]).toEqual([what, 401])
    }
    expect((await t.api.call("GET", "/api/me/games", { token: expired })).body.detail).toContain("expired")
  })
})

describe("verified tokens are remembered only while valid", () => {
  test("a token that verified stops working at its expiry, and a refused one stays refused", async () => {
    const t = await makeTestApp()
    const shortLived = await t.token("brief", { ttlSeconds: 2 })
    expect((await t.api.call("GET", "/api/me/games", { token: shortLived })).status).toBe(200)
    expect((await t.api.call("GET", "/api/me/games", { token: shortLived })).status).toBe(200)
    const wrong = await t.token("brief", { audience: "elsewhere" })
    expect((await t.api.call("GET", "/api/me/games", { token: wrong })).status).toBe(401)
    expect((await t.api.call("GET", "/api/me/games", { token: wrong })).status).toBe(401)
    await new Promise((r) => setTimeout(r, 2100))
    const expired = await t.api.call("GET", "/api/me/games", { token: shortLived })
    expect([expired.status, expired.body.detail]).toEqual([401, expect.stringContaining("expired")])
    await t.dispose()
  })
})

describe("OIDC identity with a remote JWKS over HTTP", () => {
  test("verifies RS256 tokens, reads admin from roles or ADMIN_SUBJECTS, and refuses HS256 signed with the public key", async () => {
    const idp = await startOidcProvider()
    const runtime = ManagedRuntime.make(layerJwtIdentity({
      keys: createRemoteJWKSet(new URL(idp.jwksUrl)),
      issuer: idp.issuer,
      audience: idp.audience,
      adminSubjects: ["ops-lead"],
    }))
    const verify = (token: string) => runtime.runPromise(Effect.result(Identity.use((i) => i.verify(token))))
    const member = await verify(await idp.sign({ sub: "user-1" }))
    expect(member).toMatchObject({ _tag: "Success", success: { userId: "user-1", isAdmin: false } })
    expect(await verify(await idp.sign({ sub: "reviewer", roles: ["admin"] }))).toMatchObject({ success: { isAdmin: true } })
    expect(await verify(await idp.sign({ sub: "ops-lead" }))).toMatchObject({ success: { isAdmin: true } })
    expect(await verify(await idp.sign({ sub: "user-1" }, { issuer: "https://other-idp/" }))).toMatchObject({ _tag: "Failure", failure: { _tag: "SignInRequired" } })
    expect(await verify(await idp.sign({ roles: ["admin"] }))).toMatchObject({ _tag: "Failure" })

    // Key confusion: an HS256 token whose secret is the RSA public key must not verify.
    const { SignJWT } = await import("jose")
    const confused = await new SignJWT({ sub: "attacker", roles: ["admin"] })
      .setProtectedHeader({ alg: "HS256", kid: "test-key" })
      .setIssuer(idp.issuer).setAudience(idp.audience).setExpirationTime("1h")
      .sign(new TextEncoder().encode(JSON.stringify(idp.publicJwk)))
    expect(await verify(confused)).toMatchObject({ _tag: "Failure", failure: { _tag: "SignInRequired" } })
    expect(idp.jwksRequests()).toBeGreaterThan(0)
    await runtime.dispose()

    // An unreachable key set is an outage (Unavailable → 503), not a bad token (401).
    const valid = await idp.sign({ sub: "user-1" })
    await idp.close()
    const offline = ManagedRuntime.make(layerJwtIdentity({ keys: createRemoteJWKSet(new URL(idp.jwksUrl)), issuer: idp.issuer, audience: idp.audience }))
    const down = await offline.runPromise(Effect.result(Identity.use((i) => i.verify(valid))))
    expect(down).toMatchObject({ _tag: "Failure", failure: { _tag: "Unavailable", dependency: "identity" } })
    await offline.dispose()
  })
})
