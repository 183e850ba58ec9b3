import { Effect } from "effect"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { GameStore } from "../../ports/GameStore.ts"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { makeTestApp, type TestApp, TEST_BASE_URL } from "../support/testApp.ts"

// Hostile multipart bodies at the submit endpoint: always a 4xx {ok: false, error, detail}, never a crash or a 500,
// and nothing stored — no object (temporary or final), no game, no release.

const encoder = new TextEncoder()
const BOUNDARY = "fuzz-boundary-1234"

const partText = fc.record({
  name: fc.oneof(fc.constantFrom("pck", "manifest", "other", ""), fc.string({ maxLength: 20 })),
  filename: fc.option(fc.oneof(fc.constantFrom("game.pck", "x.PCK", "a.zip", "", "../../etc/passwd.pck", "\"q\".pck"), fc.string({ maxLength: 30 })), { nil: undefined }),
  contentType: fc.option(fc.constantFrom("application/json", "application/octet-stream", "text/plain", "multipart/mixed"), { nil: undefined }),
  body: fc.oneof(
    fc.uint8Array({ maxLength: 3000 }),
    fc.jsonValue().map((v) => encoder.encode(JSON.stringify(v))),
    fc.constant(encoder.encode('{"id":"fuzz","name":"Fuzz","version":"1.0.0","engine_sdk":"1","entry_scene":"res://a.tscn","min_players":1,"max_players":2}')),
    fc.constant(encoder.encode("GDPC\u0001\u0000\u0000\u0000")),
  ),
})

const assemble = (parts: ReadonlyArray<{ name: string; filename: string | undefined; contentType: string | undefined; body: Uint8Array }>, closing: boolean) => {
  const chunks: Array<Uint8Array> = []
  for (const p of parts) {
    chunks.push(encoder.encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename === undefined ? "" : `; filename="${p.filename}"`}\r\n${p.contentType === undefined ? "" : `Content-Type: ${p.contentType}\r\n`}\r\n`))
    chunks.push(p.body, encoder.encode("\r\n"))
  }
  if (closing) chunks.push(encoder.encode(`--${BOUNDARY}--\r\n`))
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0))
  let offset = 0
  for (const c of chunks) {
    out.set(c, offset)
    offset += c.length
  }
  return out
}

describe("fuzzing the multipart submit endpoint", () => {
  let t: TestApp
  let token: string
  beforeAll(async () => {
    t = await makeTestApp({ submissionLimits: { maxPckBytes: 4096, maxManifestBytes: 512 } })
    token = await t.token("fuzzer")
  })
  afterAll(() => t.dispose())

  const nothingStored = () =>
    t.runtime.runPromise(Effect.gen(function*() {
      const objects = yield* ObjectStorage.use((s) => s.list(""))
      const games = yield* GameStore.use((g) => g.listByOwner("fuzzer"))
      const pending = yield* ReleaseStore.use((r) => r.listPending())
      return { objects: objects.map((o) => o.key), games: games.length, pending: pending.length }
    }))

  const post = (body: Uint8Array | string, contentType: string) =>
    t.app.fetch(new Request(`${TEST_BASE_URL}/submit-api/games/submit`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": contentType },
      body: body as BodyInit,
    }))

  const refused = async (response: Response) => {
    expect(response.status).toBeGreaterThanOrEqual(400)
    expect(response.status).toBeLessThan(500)
    const body = await response.json()
    expect(body).toMatchObject({ ok: false, error: expect.any(String), detail: expect.any(String) })
  }

  test("random parts, names, file names, content types and bodies, closed or cut short", async () => {
    await fc.assert(fc.asyncProperty(fc.array(partText, { maxLength: 5 }), fc.boolean(), fc.nat(200), async (parts, closing, cut) => {
      const body = assemble(parts, closing)
      await refused(await post(cut > 0 && cut < body.length ? body.subarray(0, body.length - cut) : body, `multipart/form-data; boundary=${BOUNDARY}`))
    }), { numRuns: 300 })
    expect(await nothingStored()).toEqual({ objects: [], games: 0, pending: 0 })
  })

  test("bodies that are not multipart at all, and broken content types", async () => {
    await fc.assert(fc.asyncProperty(
      fc.oneof(fc.uint8Array({ maxLength: 2000 }), fc.string().map((s) => encoder.encode(s))),
      fc.constantFrom("multipart/form-data", "multipart/form-data; boundary=", "multipart/form-data; boundary=\"unterminated", "application/json", "text/plain", `multipart/form-data; boundary=${BOUNDARY}`, "multipart/form-data; boundary=" + "x".repeat(200)),
      async (body, contentType) => {
        await refused(await post(body, contentType))
      },
    ), { numRuns: 200 })
    expect(await nothingStored()).toEqual({ objects: [], games: 0, pending: 0 })
  })

  test("oversized parts: a package above the limit is 413 and a manifest above its limit 400, nothing kept", async () => {
    const manifest = '{"id":"big","name":"Big","version":"1.0.0","engine_sdk":"1","entry_scene":"res://a.tscn","min_players":1,"max_players":2}'
    const bigPck = assemble([{ name: "manifest", filename: undefined, contentType: undefined, body: encoder.encode(manifest) }, { name: "pck", filename: "big.pck", contentType: undefined, body: new Uint8Array(4097) }], true)
    const tooBig = await post(bigPck, `multipart/form-data; boundary=${BOUNDARY}`)
    expect([tooBig.status, (await tooBig.json()).error]).toEqual([413, "artifact_too_large"])
    const atLimit = assemble([{ name: "manifest", filename: undefined, contentType: undefined, body: encoder.encode(manifest) }, { name: "pck", filename: "limit.pck", contentType: undefined, body: new Uint8Array(4096) }], true)
    const exact = await post(atLimit, `multipart/form-data; boundary=${BOUNDARY}`)
    expect([exact.status, (await exact.json()).error], "exactly the limit passes the size gate; the scanner refuses zeros").toEqual([422, "Static analysis failed"])
    const bigManifest = assemble([{ name: "manifest", filename: undefined, contentType: undefined, body: new Uint8Array(513).fill(32) }], true)
    expect((await post(bigManifest, `multipart/form-data; boundary=${BOUNDARY}`)).status).toBe(400)
    expect(await nothingStored()).toEqual({ objects: [], games: 0, pending: 0 })
  })
})
