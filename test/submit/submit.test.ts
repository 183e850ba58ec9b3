import { withDocsUrls } from "../../adapters/scanner/policy/ruleDocs.ts"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { makeJwtUploadTokens } from "../../adapters/identity/JwtUploadTokens.ts"
import { withFileByteSource } from "../../adapters/scanner/fileByteSource.ts"
import { makePackScanner } from "../../adapters/scanner/layer.ts"
import { nodeDecompressors } from "../../adapters/scanner/nodeDecompressors.ts"
import { defaultPolicy } from "../../adapters/scanner/policy/defaultPolicy.ts"
import { apiClient } from "../support/api.ts"
import { type Outcome, type Part, sendMultipart } from "../support/multipart.ts"
import { type RunningServer, startServer } from "../support/server.ts"
import { sha256Hex } from "../support/streams.ts"
import { pack } from "./fixtures.ts"

const parts = (p: { bytes: Uint8Array; manifestText: string }, manifestAs: "file" | "field" = "field", filename = "game.pck"): Array<Part> => [
  { name: "pck", filename, contentType: "application/octet-stream", body: p.bytes },
  manifestAs === "file"
    ? { name: "manifest", filename: "manifest.json", contentType: "application/json", body: p.manifestText }
    : { name: "manifest", body: p.manifestText },
]

const answered = (outcome: Outcome) => {
  if (outcome.kind !== "answered") throw new Error(`no answer: ${outcome.error}`)
  return outcome
}

/** Leftovers of uploads: nothing may stay in the store's incoming folder or under tmp/ once a request is over. */
const leftovers = (server: RunningServer) =>
  ["incoming", join("objects", "tmp")].flatMap((dir) => {
    try {
      return readdirSync(join(server.dataDir, "storage", dir))
    } catch {
      return []
    }
  })

describe("POST /submit-api/games/submit with packs exported by the real engine", () => {
  let server: RunningServer
  let submitUrl: string
  let creator: string
  beforeAll(async () => {
    server = await startServer({ env: { RATE_LIMIT_COUNT: "100" } })
    submitUrl = `${server.baseUrl}/submit-api/games/submit`
    creator = server.token("submitter")
  })
  afterAll(() => server.stop())

  const submit = async (body: ReadonlyArray<Part>, token: string | null = creator) =>
    answered(await sendMultipart(submitUrl, body, token === null ? {} : { headers: { authorization: `Bearer ${token}` } }))

  test("a clean pack with its manifest (as a JSON file part) creates the game in review, with the scan", async () => {
    const clean = pack("clean")
    const reply = await submit(parts(clean, "file"))
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ ok: true, status: "review", scan: { ok: true, findings: [], summary: { packFormat: 1, engineVersion: "3.2.3" } } })
    expect(reply.body.submissionId).toMatch(/^sub_/)
    const api = apiClient(server.baseUrl)
    const game = (await api.call("GET", `/api/games/${reply.body.gameId}`, { token: creator })).body
    expect(game).toMatchObject({ name: "Fixture Game", slug: "fixture-game", status: "review", activeVersion: null })
    expect(game.releases).toEqual([expect.objectContaining({ version: "1.0.0", status: "pending_review", source: "multipart", sha256: sha256Hex(clean.bytes), sizeBytes: clean.bytes.length })])
    const scan = (await api.call("GET", `/api/games/${reply.body.gameId}/releases/1.0.0/scan`, { token: creator })).body
    expect(scan).toMatchObject({ status: "scanned", report: { ok: true, files: expect.arrayContaining([expect.objectContaining({ path: "res://manifest.json" })]) } })
    const admin = server.token("submit-admin", { admin: true })
    const queue = (await api.call("GET", "/api/admin/review-queue", { token: admin })).body.items
    expect(queue).toContainEqual(expect.objectContaining({ gameId: reply.body.gameId, version: "1.0.0", source: "multipart" }))
    const download = await api.downloadUrl(creator, reply.body.gameId, "1.0.0")
    expect(sha256Hex(new Uint8Array(await (await fetch(download.body.url)).arrayBuffer()))).toBe(sha256Hex(clean.bytes))
    expect(await server.outputContaining('"kind":"submission_received"')).toContain(reply.body.gameId)
  })

  test("an update keeps manifest.id and raises the version: same game and slug, new name, both versions; equal or lower is 409", async () => {
    const first = await submit(parts(pack("clean"), "field"))
    expect([first.status, first.body.error]).toEqual([409, "version_exists"]) // 1.0.0 again (first test created it)
    const update = await submit(parts(pack("clean-update")))
    expect(update.status).toBe(200)
    const game = (await apiClient(server.baseUrl).call("GET", `/api/games/${update.body.gameId}`, { token: creator })).body
    expect(game).toMatchObject({ name: "Fixture Game Deluxe", slug: "fixture-game", status: "review" })
    expect(game.releases.map((r: { version: string }) => r.version)).toEqual(["1.0.0", "1.1.0"])
    const again = await submit(parts(pack("clean-update")))
    expect([again.status, again.body]).toEqual([409, expect.objectContaining({ ok: false, error: "version_exists" })])
  })

  test("another creator's game is 404, and nothing is recorded", async () => {
    const reply = await submit(parts(pack("clean-update")), server.token("someone-else"))
    expect([reply.status, reply.body.ok, reply.body.error]).toEqual([404, false, "game_not_found_or_forbidden"])
    expect((await apiClient(server.baseUrl).call("GET", "/api/me/games", { token: server.token("someone-else") })).body.games).toEqual([])
  })

  test("a violating pack is 422 'Static analysis failed' with exactly the local scanner's blocking findings; nothing is kept", async () => {
    const violating = pack("violating-game")
    const reply = await submit(parts(violating))
    expect([reply.status, reply.body.ok, reply.body.error]).toEqual([422, false, "Static analysis failed"])
    const local = await withFileByteSource(violating.path, (source) =>
      Effect.runPromise(makePackScanner({ policy: defaultPolicy, decompressors: nodeDecompressors }).scan(source, { path: "multipart", submittedManifest: JSON.parse(violating.manifestText) })))
    const blocking = local.findings.filter((f) => f.severity === "error")
    expect(blocking.length).toBeGreaterThan(10)
    // Each with its page under the server's BASE_URL (docsUrl, computed when answering).
    expect(reply.body.violations).toEqual(JSON.parse(JSON.stringify(withDocsUrls(blocking, server.baseUrl, defaultPolicy))))
    for (const v of reply.body.violations) expect(Object.keys(v)).toEqual(expect.arrayContaining(["file", "line", "pattern"]))
    expect(reply.body.violations).toContainEqual(expect.objectContaining({ rule: "banned-api", file: expect.stringMatching(/^res:\/\//), line: expect.any(Number) }))
    const mine = (await apiClient(server.baseUrl).call("GET", "/api/me/games", { token: creator })).body.games
    expect(mine.map((g: { name: string }) => g.name)).not.toContain("Violating Game")
    expect(leftovers(server)).toEqual([])
  })

  test("the spec's messages, verbatim", async () => {
    const clean = pack("clean")
    const missing = await submit([{ name: "manifest", body: clean.manifestText }])
    expect([missing.status, missing.body.error]).toEqual([400, "Missing .pck file (multipart field: pck)"])
    const wrongName = await submit(parts(clean, "field", "game.zip"))
    expect([wrongName.status, wrongName.body.error]).toEqual([400, "Uploaded file must be a .pck"])
    const invalid = await submit([{ name: "manifest", body: JSON.stringify({ id: "x", name: "", version: "..", min_players: 3, max_players: 2 }) }, parts(clean)[0]!])
    expect([invalid.status, invalid.body.error]).toEqual([400, "Invalid manifest. Required: id, name, version, engine_sdk, entry_scene, min_players, max_players"])
    expect(invalid.body.detail).toContain("name, version, engine_sdk, entry_scene")
    const notJson = await submit([parts(clean)[0]!, { name: "manifest", body: "{not json" }])
    expect([notJson.status, notJson.body.error, notJson.body.detail]).toEqual([400, invalid.body.error, expect.stringContaining("not valid JSON")])
    const noManifest = await submit([parts(clean)[0]!])
    expect([noManifest.status, noManifest.body.detail]).toEqual([400, expect.stringContaining("no 'manifest' part")])
    // The pack's own manifest.json must be the one submitted with it (check 1: "current").
    const stale = await submit([parts(clean)[0]!, { name: "manifest", body: JSON.stringify({ ...JSON.parse(clean.manifestText), id: "another-id" }) }])
    expect([stale.status, stale.body.error]).toEqual([422, "Static analysis failed"])
    expect(stale.body.violations).toContainEqual(expect.objectContaining({ rule: "manifest-not-current" }))
    expect(leftovers(server)).toEqual([])
  })

  test("a Bearer token is required: a session cookie alone is 401; a short-lived upload token works", async () => {
    const session = await apiClient(server.baseUrl).call("POST", "/api/session", { token: creator })
    const cookie = session.headers.get("set-cookie")!.split(";")[0]!
    const cookieOnly = answered(await sendMultipart(submitUrl, parts(pack("clean")), { headers: { cookie, origin: server.baseUrl } }))
    expect([cookieOnly.status, cookieOnly.body.ok, cookieOnly.body.error]).toEqual([401, false, "sign_in_required"])
    const bad = await submit(parts(pack("clean")), "not-a-token")
    expect(bad.status).toBe(401)
    // What the submit page gets from POST /api/session/upload-token: minted here with the server's own key.
    const uploads = await makeJwtUploadTokens(JSON.parse(readFileSync(join(server.dataDir, "keys", "upload-token.jwk.json"), "utf8")))
    const { token } = await Effect.runPromise(uploads.issue({ userId: "submitter", isAdmin: false }, new Date()))
    // Accepted as the creator: the answer is about the version (already submitted), not about sign-in.
    const viaPage = await submit(parts(pack("clean")), token)
    expect([viaPage.status, viaPage.body.error]).toEqual([409, "version_exists"])
    const expired = await Effect.runPromise(uploads.issue({ userId: "submitter", isAdmin: false }, new Date(Date.now() - 3600_000)))
    expect((await submit(parts(pack("clean-update")), expired.token)).status).toBe(401)
  })

  test("an upload cut off midway leaves no object and no record", async () => {
    const big = new Uint8Array(4 * 1024 * 1024)
    const outcome = await sendMultipart(submitUrl, [{ name: "manifest", body: pack("clean-update").manifestText }, { name: "pck", filename: "cut.pck", body: big }], {
      headers: { authorization: `Bearer ${server.token("cutter")}` },
      cutAfterBytes: 1024 * 1024,
    })
    expect(outcome.kind).toBe("reset")
    const deadline = Date.now() + 10_000
    while (leftovers(server).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    expect(leftovers(server)).toEqual([])
    expect((await apiClient(server.baseUrl).call("GET", "/api/me/games", { token: server.token("cutter") })).body.games).toEqual([])
  })
})

describe("the submit budget", () => {
  test("has its own per-account budget: a second submission in the window is 429; failures do not spend", async () => {
    const server = await startServer({ env: { RATE_LIMIT_COUNT: "1", RATE_LIMIT_WINDOW_SECONDS: "3600" } })
    const token = server.token("budgeted")
    const url = `${server.baseUrl}/submit-api/games/submit`
    const send = async (body: ReadonlyArray<Part>) => answered(await sendMultipart(url, body, { headers: { authorization: `Bearer ${token}` } }))
    expect((await send(parts(pack("violating-game")))).status).toBe(422)
    expect((await send([{ name: "manifest", body: "{}" }])).status).toBe(400)
    expect((await send(parts(pack("clean")))).status).toBe(200)
    const limited = await send(parts(pack("clean-update")))
    expect([limited.status, limited.body.ok, limited.body.error]).toEqual([429, false, "rate_limited"])
    expect(limited.body.retryAfterSeconds).toBeGreaterThan(3500)
    await server.stop()
  })
})
