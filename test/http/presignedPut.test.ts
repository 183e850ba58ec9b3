import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { artifact } from "../support/api.ts"
import { brokenStreamOf } from "../support/streams.ts"
import { makeTestApp, newGame, type TestApp } from "../support/testApp.ts"

describe("PUT {uploadUrl} on the self-served store", () => {
  let t: TestApp
  let owner: string
  let gameId: string
  beforeAll(async () => {
    t = await makeTestApp()
    owner = await t.token("owner")
    gameId = await newGame(t, owner)
  })
  afterAll(() => t.dispose())

  const presign = async (version: string, size = 2048) => {
    const pck = artifact(size, version)
    const reply = await t.api.uploadUrl(owner, gameId, pck.declaration)
    return { pck, url: reply.body.uploadUrl as string, headers: reply.body.headers as Record<string, string> }
  }
  const finalizeStatus = async (declaration: object) => (await t.api.finalize(owner, gameId, declaration)).body.error

  test("needs no Authorization, answers 200 with an empty body, and a second PUT is 412", async () => {
    const { pck, url, headers } = await presign("1.0.0")
    const first = await t.api.put(url, headers, pck.bytes)
    expect([first.status, first.body]).toEqual([200, null])
    const second = await t.api.put(url, headers, pck.bytes)
    expect([second.status, second.body.error]).toEqual([412, "PreconditionFailed"])
  })

  test("a missing or changed signed header, a tampered URL or key, or an extra signed header is 403 SignatureDoesNotMatch", async () => {
    const { pck, url, headers } = await presign("1.1.0")
    const attempts: Array<[string, string, Record<string, string>]> = [
      ["missing if-none-match", url, { "content-type": headers["content-type"]! }],
      ["missing content-type", url, { "if-none-match": "*" }],
      ["changed content-type", url, { ...headers, "content-type": "application/zip" }],
      ["changed if-none-match", url, { ...headers, "if-none-match": "\"etag\"" }],
      ["other key", url.replace("/1.1.0/", "/1.1.1/"), headers],
      ["other game", url.replace(gameId, "gm_000099"), headers],
      ["later expiry", url.replace(/X-Pckgate-Expires=(\d+)/, (_, e) => `X-Pckgate-Expires=${Number(e) + 3600}`), headers],
      ["larger size", url.replace("X-Pckgate-Size=2048", "X-Pckgate-Size=4096"), headers],
      ["extra signed header", url.replace("content-type%3Bif-none-match", "content-type%3Bif-none-match%3Bx-extra"), { ...headers, "x-extra": "1" }],
      ["dropped signed header", url.replace("content-type%3Bif-none-match", "content-type"), headers],
      ["no signature", url.replace(/&X-Pckgate-Signature=[0-9a-f]+/, ""), headers],
    ]
    for (const [what, target, sent] of attempts) {
      const reply = await t.api.put(target, sent, pck.bytes)
      expect([what, reply.status, reply.body.error]).toEqual([what, 403, "SignatureDoesNotMatch"])
    }
    expect(await finalizeStatus(pck.declaration)).toBe("artifact_missing")
    expect((await t.api.put(url, headers, pck.bytes)).status).toBe(200)
  })

  test("an expired URL is 403 with a detail that says to request a new one", async () => {
    const { pck, url, headers } = await presign("1.2.0")
    t.clock.advance(3601)
    const reply = await t.api.put(url, headers, pck.bytes)
    expect([reply.status, reply.body.error]).toEqual([403, "SignatureDoesNotMatch"])
    expect(reply.body.detail).toContain("expired")
  })

  test("a body longer than declared is refused and nothing is stored", async () => {
    const { pck, url, headers } = await presign("1.3.0")
    const longer = new Uint8Array(pck.bytes.length + 1)
    longer.set(pck.bytes)
    const reply = await t.api.put(url, headers, longer)
    expect(reply.status).toBe(413)
    expect(await finalizeStatus(pck.declaration)).toBe("artifact_missing")
    // Without Content-Length (chunked), the store stops reading at the limit.
    const chunked = await t.app.fetch(new Request(url, {
      method: "PUT",
      headers,
      body: new ReadableStream({ start: (c) => (c.enqueue(longer), c.close()) }),
      duplex: "half",
    } as RequestInit))
    expect(chunked.status).toBe(413)
    expect(await finalizeStatus(pck.declaration)).toBe("artifact_missing")
  })

  test("an upload cut off midway leaves nothing, and the key stays free", async () => {
    const { pck, url, headers } = await presign("1.4.0")
    const reply = await t.app.fetch(new Request(url, {
      method: "PUT",
      headers,
      body: brokenStreamOf(pck.bytes.subarray(0, 1000)),
      duplex: "half",
    } as RequestInit))
    expect(reply.status).toBe(400)
    expect(await finalizeStatus(pck.declaration)).toBe("artifact_missing")
    expect((await t.api.put(url, headers, pck.bytes)).status).toBe(200)
    expect((await t.api.finalize(owner, gameId, pck.declaration)).status).toBe(201)
  })

  test("methods other than PUT, GET and HEAD are refused", async () => {
    const { url } = await presign("1.5.0")
    expect((await t.app.fetch(new Request(url, { method: "DELETE" }))).status).toBe(403)
  })
})
