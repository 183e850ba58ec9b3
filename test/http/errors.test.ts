import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { makeTestApp, type TestApp, TEST_BASE_URL } from "../support/testApp.ts"

describe("every error has the shape {error, detail}", () => {
  let t: TestApp
  let token: string
  beforeAll(async () => {
    t = await makeTestApp()
    token = await t.token("alice")
  })
  afterAll(() => t.dispose())

  const raw = (method: string, path: string, init: RequestInit = {}) =>
    t.app.fetch(new Request(`${TEST_BASE_URL}${path}`, { method, ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } }))

  test("unknown routes are 404 not_found; known routes with the wrong method are 405 with Allow", async () => {
    const unknown = await raw("GET", "/api/nothing/here")
    expect([unknown.status, await unknown.json()]).toEqual([404, { error: "not_found", detail: expect.stringContaining("endpoint") }])
    const wrong = await raw("PUT", "/api/games/engine")
    expect([wrong.status, wrong.headers.get("allow"), (await wrong.json()).error]).toEqual([405, "POST", "method_not_allowed"])
    // HEAD is allowed wherever GET is; the app's own endpoints answer other methods the same way.
    for (const [method, path, allow] of [
      ["PUT", "/api/catalog", "GET, HEAD"],
      ["PUT", "/api/session", "POST, DELETE"],
      ["POST", "/healthz", "GET, HEAD"],
      ["DELETE", "/openapi.json", "GET, HEAD"],
      ["POST", "/metrics", "GET, HEAD"],
    ] as const) {
      const refused = await raw(method, path)
      const body = await refused.json()
      expect([path, refused.status, refused.headers.get("allow"), body.error]).toEqual([path, 405, allow, "method_not_allowed"])
      expect(body.detail).toBe(`This endpoint accepts ${allow}.`)
    }
  })

  test("malformed JSON, empty bodies and non-objects are 400 invalid_request", async () => {
    for (const body of ["{", "", "[]", "42", "null", "\"name\"", "{\"name\": \"x\",}"]) {
      const reply = await raw("POST", "/api/games/engine", { body })
      const parsed = await reply.json()
      expect([body, reply.status, parsed.error, typeof parsed.detail]).toEqual([body, 400, "invalid_request", "string"])
    }
  })

  test("a JSON body that is not UTF-8 is 400 invalid_request saying so; nothing is created", async () => {
    const before = (await t.api.call("GET", "/api/me/games", { token })).body.games.length
    // {"name":"Caf<0xE9>"}: Latin-1, and a lone continuation byte.
    for (const bytes of [[...new TextEncoder().encode('{"name":"Caf'), 0xe9, ...new TextEncoder().encode('"}')], [0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x80, 0x7d]]) {
      const reply = await raw("POST", "/api/games/engine", { body: new Uint8Array(bytes), headers: { "content-type": "application/json" } })
      expect([reply.status, await reply.json()]).toEqual([400, { error: "invalid_request", detail: expect.stringContaining("body: not valid UTF-8") }])
    }
    expect((await t.api.call("GET", "/api/me/games", { token })).body.games.length).toBe(before)
    // A byte order mark is still fine.
    const bom = await raw("POST", "/api/games/engine", { body: new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"name":"With BOM"}')]) })
    expect(bom.status).toBe(201)
  })

  test("a JSON body over 64 KiB is 413 request_too_large, declared or streamed", async () => {
    const big = JSON.stringify({ name: "x".repeat(70_000) })
    const declared = await raw("POST", "/api/games/engine", { body: big })
    expect([declared.status, (await declared.json()).error]).toEqual([413, "request_too_large"])
    const streamed = await raw("POST", "/api/games/engine", {
      body: new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode(big)), c.close()) }),
      duplex: "half",
    } as RequestInit)
    expect(streamed.status).toBe(413)
  })

  test("responses carry a request id, echoing a well-formed incoming one", async () => {
    const reply = await raw("GET", "/api/catalog", { headers: { "x-request-id": "trace-123" } })
    expect(reply.headers.get("x-request-id")).toBe("trace-123")
    const generated = await raw("GET", "/api/catalog", { headers: { "x-request-id": "bad id with spaces" } })
    expect(generated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
  })

  test("GET /healthz answers ok", async () => {
    expect(await (await raw("GET", "/healthz")).json()).toEqual({ ok: true })
  })
})

describe("the request log", () => {
  test("one structured line per request, and no token, cookie or URL signature in it", async () => {
    const t = await makeTestApp()
    const token = await t.token("alice")
    const gameId = (await t.api.createGame(token, { name: "Logged" })).body.gameId
    const presigned = await t.api.uploadUrl(token, gameId, { version: "1.0.0", sha256: "a".repeat(64), sizeBytes: 2048 })
    await t.api.put(presigned.body.uploadUrl, presigned.body.headers, new Uint8Array(2048))
    const session = await t.api.call("POST", "/api/session", { token })
    const cookie = session.headers.get("set-cookie")!.split(";")[0]!
    await t.api.call("GET", "/api/me/games", { headers: { cookie } })
    await t.api.call("GET", "/api/me/games", { token: `${token}tampered` })
    const requests = t.logs.filter((l) => l.msg === "request")
    expect(requests).toHaveLength(6)
    expect(requests[0]).toMatchObject({ level: "info", method: "POST", route: "POST /api/games/engine", status: 201, userId: "alice", path: "/api/games/engine" })
    expect(requests[2]).toMatchObject({ route: "PUT /storage/**", status: 200 })
    for (const entry of requests) expect(Object.keys(entry).sort()).toEqual(["durationMs", "level", "method", "msg", "path", "requestId", "route", "status", "ts", "userId"])
    const text = JSON.stringify(t.logs)
    expect(text).not.toContain(token)
    expect(text).not.toContain(token.split(".")[2]!)
    expect(text).not.toContain(cookie.split("=")[1]!)
    expect(text).not.toContain(new URL(presigned.body.uploadUrl).searchParams.get("X-Pckgate-Signature")!)
    await t.dispose()
  })
})
