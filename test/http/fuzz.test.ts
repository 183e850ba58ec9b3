import { Effect, Result, Schema } from "effect"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { CreateGameBody } from "../../domain/game/CreateGame.ts"
import { DeclarationBody } from "../../domain/release/Declaration.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { artifact } from "../support/api.ts"
import { makeTestApp, newGame, release, type TestApp, TEST_BASE_URL } from "../support/testApp.ts"

// Random and hostile input at every endpoint: always a 4xx {error, detail}, never a 500, and nothing changes.

const accepts = (schema: Schema.Decoder<unknown>) => (value: unknown) =>
  Result.isSuccess(Schema.decodeUnknownResult(schema)(value, { onExcessProperty: "ignore" }))

const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme", maxLength: 200 }),
  fc.constantFrom("..", "../../etc/passwd", "%2e%2e%2f", "a/../b", "\u0000", "%00", "\\..\\", "<script>", "' OR 1=1 --", "😀".repeat(100), "x".repeat(10_000), "%ZZ", "1.0.0/../../x"),
)
const anyJson = fc.oneof(fc.jsonValue(), fc.dictionary(fc.constantFrom("name", "slug", "version", "sha256", "sizeBytes", "contentType", "reason"), fc.jsonValue()))
const declarationLike = fc.record({
  version: fc.oneof(hostileString, fc.jsonValue()),
  sha256: fc.oneof(fc.stringMatching(/^[0-9a-fA-F]{60,70}$/), hostileString),
  sizeBytes: fc.oneof(fc.integer(), fc.double(), fc.constantFrom(1023, 536870913, -1, 0, 1e300), fc.jsonValue()),
  contentType: fc.oneof(fc.constant("application/octet-stream"), hostileString),
}, { requiredKeys: [] })

describe("fuzzing every endpoint with bad input", () => {
  let t: TestApp
  let owner: string, admin: string
  let gameId: string
  let snapshot: () => Promise<string>
  beforeAll(async () => {
    t = await makeTestApp({ budget: { count: 1, windowSeconds: 3600 } })
    owner = await t.token("owner")
    admin = await t.token("admin", { admin: true })
    gameId = await newGame(t, owner)
    snapshot = () =>
      t.runtime.runPromise(Effect.gen(function*() {
        const games = yield* GameStore.use((s) => s.listByOwner("owner"))
        const pending = yield* ReleaseStore.use((s) => s.listPending())
        const approved = yield* ReleaseStore.use((s) => s.listApproved())
        const objects = yield* ObjectStorage.use((s) => s.list(""))
        return JSON.stringify({ games, pending, approved, objects: objects.map((o) => o.key).sort() })
      }))
  })
  afterAll(() => t.dispose())

  const expectRefusal = async (response: Response) => {
    expect(response.status).toBeGreaterThanOrEqual(400)
    expect(response.status).toBeLessThan(500)
    const body = await response.json()
    expect(typeof body.error).toBe("string")
    expect(typeof body.detail).toBe("string")
    expect(body.detail.length).toBeGreaterThan(10)
  }
  const send = (method: string, path: string, body?: string, token: string = owner) =>
    t.app.fetch(new Request(`${TEST_BASE_URL}${path}`, { method, headers: { authorization: `Bearer ${token}` }, ...(body === undefined ? {} : { body }) }))
  const property = async (arbitrary: fc.Arbitrary<unknown>, run: (value: any) => Promise<void>, numRuns = 150) => {
    const before = await snapshot()
    await fc.assert(fc.asyncProperty(arbitrary, run), { numRuns })
    expect(await snapshot()).toBe(before)
  }

  test("create game: any body the schema refuses", () =>
    property(anyJson.filter((v) => !accepts(CreateGameBody)(v)), async (body) => {
      await expectRefusal(await send("POST", "/api/games/engine", JSON.stringify(body)))
    }))

  test("upload-url and finalize: any declaration the schema refuses, on the owner's game", () =>
    property(fc.oneof(declarationLike, anyJson).filter((v) => !accepts(DeclarationBody)(v) || (v as { sizeBytes: number }).sizeBytes > 536870912), async (body) => {
      for (const endpoint of ["upload-url", "finalize"]) {
        await expectRefusal(await send("POST", `/api/games/${gameId}/releases/${endpoint}`, JSON.stringify(body)))
      }
    }))

  test("every game route with odd ids and versions", () =>
    property(fc.tuple(hostileString, hostileString), async ([id, version]) => {
      const encodedId = encodeURIComponent(id)
      const encodedVersion = encodeURIComponent(version)
      const valid = JSON.stringify(artifact(2048).declaration)
      await expectRefusal(await send("POST", `/api/games/${encodedId}/releases/upload-url`, valid))
      await expectRefusal(await send("POST", `/api/games/${encodedId}/releases/finalize`, valid))
      await expectRefusal(await send("GET", `/api/games/${encodedId}/releases/${encodedVersion}/download-url`))
      await expectRefusal(await send("GET", `/api/games/${encodedId}/releases/${encodedVersion}`))
      await expectRefusal(await send("GET", `/api/games/${encodedId}`))
      await expectRefusal(await send("POST", `/api/admin/games/${encodedId}/releases/${encodedVersion}/approve`, undefined, admin))
      await expectRefusal(await send("POST", `/api/admin/games/${encodedId}/releases/${encodedVersion}/reject`, JSON.stringify({ reason: "no" }), admin))
    }, 60))

  test("raw bodies that are not JSON, and JSON of the wrong shape, on every POST", () =>
    property(fc.oneof(fc.string(), fc.string().map((s) => `{"name": ${s}`), anyJson.map((v) => JSON.stringify(v))), async (raw) => {
      for (const path of ["/api/games/engine", `/api/games/${gameId}/releases/upload-url`, `/api/games/${gameId}/releases/finalize`]) {
        let parsed: unknown = undefined
        try {
          parsed = JSON.parse(raw)
        } catch {
          // not JSON
        }
        if (path === "/api/games/engine" && accepts(CreateGameBody)(parsed)) continue
        if (path !== "/api/games/engine" && accepts(DeclarationBody)(parsed)) continue
        await expectRefusal(await send("POST", path, raw))
      }
      await expectRefusal(await send("POST", `/api/admin/games/${gameId}/releases/1.0.0/reject`, raw.length > 0 && raw.trim().startsWith("{") && raw.includes("reason") ? "{" : raw, admin))
    }, 100))

  test("presigned storage URLs with forged query strings and paths", () =>
    property(fc.tuple(fc.string(), fc.string(), hostileString), async ([query, signature, key]) => {
      const url = `${TEST_BASE_URL}/storage/${encodeURIComponent(key)}?${query}&X-Pckgate-Signature=${encodeURIComponent(signature)}`
      await expectRefusal(await t.app.fetch(new Request(url, { method: "PUT", body: "x", headers: { "content-type": "application/octet-stream", "if-none-match": "*" } })))
      await expectRefusal(await t.app.fetch(new Request(url)))
    }, 100))

  test("none of it spent budget: with a budget of 1, the owner's upload-url and finalize still succeed", async () => {
    expect((await release(t, owner, gameId, artifact(2048, "1.0.0"))).status).toBe(201)
  })
})
