// Text from users on the memory store (the same suite runs on SQLite and MariaDB in test/adapters/userTextStores.test.ts),
// and token subjects, which become owner ids: one with a control or bidirectional character is refused at sign-in.
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { subjectProblem } from "../../adapters/identity/subject.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { makeTestApp, type TestApp } from "../support/testApp.ts"
import { label, validIdentifier, withForbidden } from "../support/userTextArbitraries.ts"
import { userTextSuite } from "../support/userTextSuite.ts"

userTextSuite("memory", { runs: 60 })

describe("token subjects (JWT sub) become owner ids", () => {
  let t: TestApp
  beforeAll(async () => {
    t = await makeTestApp()
  })
  afterAll(() => t.dispose())

  test("a subject with a forbidden code point is 401 sign_in_required naming it; nothing is created for it", async () => {
    await fc.assert(fc.asyncProperty(withForbidden(validIdentifier, "single"), async ({ text, forbidden }) => {
      const reply = await t.api.createGame(await t.token(text), { name: "Signed Oddly" })
      expect([reply.status, reply.body.error]).toEqual([401, "sign_in_required"])
      expect(forbidden.map(label)).toContain(/contains (U\+[0-9A-F]{4})/.exec(reply.body.detail)?.[1])
      expect(await t.runtime.runPromise(GameStore.use((g) => g.listByOwner(text)))).toEqual([])
    }), { numRuns: 100 })
    const bidi = await t.api.call("GET", "/api/me/games", { token: await t.token("admin\u202Enimda") })
    expect(bidi.body.detail).toContain("The access token names a subject that contains U+202E (a bidirectional control)")
  })

  test("the subject rule shared by Bearer tokens and browser sign-in (OIDC id tokens)", () => {
    expect(subjectProblem("auth0|5f1c0ffee")).toBeNull()
    expect(subjectProblem("e\u0301")).toBeNull()
    expect(subjectProblem("bob\u2066")).toBe("names a subject that contains U+2066 (a bidirectional control), which a user id may not hold")
    expect(subjectProblem("\uDC00")).toBe("names a subject that contains U+DC00 (a lone surrogate), which a user id may not hold")
    for (const sub of ["", "x".repeat(256), 42, undefined]) expect(subjectProblem(sub)).toBe("names no usable subject")
  })

  test("a subject without one (any script, emoji, not normalised) signs in as itself", async () => {
    await fc.assert(fc.asyncProperty(validIdentifier, async (sub) => {
      const reply = await t.api.createGame(await t.token(sub), { name: "Signed Fine" })
      expect([reply.status, reply.body.ownerId]).toEqual([201, sub])
    }), { numRuns: 50 })
  })
})

describe("URLs follow the text rules too", () => {
  let t: TestApp
  beforeAll(async () => {
    t = await makeTestApp()
  })
  afterAll(() => t.dispose())

  test("a webhook URL with a bidirectional or control character is 400 naming the code point; nothing is stored", async () => {
    const owner = await t.token("url-owner")
    for (const [url, codePoint] of [["https://hooks.example/\u202Egnp.exe", "U+202E"], ["https://hooks.example/a\u0007", "U+0007"], ["https://hooks.example/\u2066x", "U+2066"]]) {
      const refused = await t.api.call("POST", "/api/me/webhooks", { token: owner, body: { url } })
      expect([refused.status, refused.body.error]).toEqual([400, "invalid_request"])
      expect(refused.body.detail).toContain(`url: contains ${codePoint}`)
    }
    expect((await t.api.call("GET", "/api/me/webhooks", { token: owner })).body.webhooks).toEqual([])
    expect((await t.api.call("POST", "/api/me/webhooks", { token: owner, body: { url: "https://hooks.example/%E2%80%AE" } })).status).toBe(201)
  })
})
