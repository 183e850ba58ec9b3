// Random and hostile `path`, `cursor`, `limit` and `against` values at the pack-reading endpoints: always an answer
// of the documented shape (200, or a 4xx `{error, detail}`), never a 500.
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { makeTestApp, type TestApp } from "../support/testApp.ts"
import { MAIN_V1, readingGame, readingPack, shipPack } from "./support.ts"

let t: TestApp
let who: Awaited<ReturnType<typeof readingGame>>

beforeAll(async () => {
  t = await makeTestApp()
  who = await readingGame(t)
  await shipPack(t, who.owner, who.gameId, "1.0.0", readingPack("1.0.0", MAIN_V1))
})
afterAll(() => t.dispose())

const hostile = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme", maxLength: 300 }),
  fc.string({ unit: "binary", maxLength: 100 }),
  fc.constantFrom(
    "res://..", "res://../../etc/passwd", "res://main.gd/..", "res://%2e%2e/x", "res://main.tscn::", "res://main.tscn::1::2", "res:///main.gd",
    "res://main.gd\u0000", "res://\u202emain.gd", "res://" + "a/".repeat(3000), "::1", "res://main.tscn::GDScript_" + "x".repeat(200),
    "AAAA", "____", "-".repeat(9000), "%", "\uD800", "0", "1e3", "1001", "-1", "NaN",
  ),
  fc.string().map((s) => `res://${s}`),
)

const valid = (status: number, body: { error?: unknown; detail?: unknown }) =>
  status === 200 || (status >= 400 && status < 500 && typeof body.error === "string" && typeof body.detail === "string")

describe("odd inputs never reach a 500", () => {
  test("path of …/file, cursor and limit of …/files, against of …/diff", async () => {
    const base = `/api/admin/games/${who.gameId}/releases/1.0.0`
    await fc.assert(
      fc.asyncProperty(hostile, fc.constantFrom("file?path=", "files?cursor=", "files?limit=", "diff?against="), async (value, endpoint) => {
        // A lone surrogate cannot be percent-encoded as UTF-8: send its raw bytes' encoding instead.
        const encoded = value.isWellFormed() ? encodeURIComponent(value) : "%ED%A0%80"
        const reply = await t.api.call("GET", `${base}/${endpoint}${encoded}`, { token: who.admin })
        expect(valid(reply.status, reply.body ?? {}), `${endpoint}${JSON.stringify(value)} → ${reply.status} ${JSON.stringify(reply.body)}`).toBe(true)
      }),
      { numRuns: 300 },
    )
  })

  test("raw, undecodable query strings and odd versions in the path", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 60 }), fc.constantFrom("files", "file", "diff"), async (raw, endpoint) => {
        const query = raw.replace(/[#\s]/g, "")
        for (const url of [`/api/admin/games/${who.gameId}/releases/1.0.0/${endpoint}?path=${query}&cursor=${query}&against=${query}`, `/api/admin/games/${who.gameId}/releases/${encodeURIComponent(raw.toWellFormed())}/${endpoint}`]) {
          const reply = await t.api.call("GET", url, { token: who.admin })
          expect(valid(reply.status, reply.body ?? {}), `${url} → ${reply.status}`).toBe(true)
        }
      }),
      { numRuns: 150 },
    )
  })
})
