import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { apiClient, artifact } from "../support/api.ts"
import { type RunningServer, startServer } from "../support/server.ts"
import { sha256Hex } from "../support/streams.ts"

describe("release flow against the real server process (npm start)", () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({ env: { RATE_LIMIT_COUNT: "100" } })
  })
  afterAll(async () => {
    expect(await server.stop()).toBe(0)
  })

  test("create → upload-url → PUT → finalize → approve → download-url → GET returns the exact bytes", async () => {
    const api = apiClient(server.baseUrl)
    const creator = server.token("creator-e2e")
    const admin = server.token("admin-e2e", { admin: true })
    const created = await api.createGame(creator, { name: "End To End" })
    expect(created.status).toBe(201)
    expect(created.body.uploadUrlEndpoint).toBe(`${server.baseUrl}/api/games/${created.body.gameId}/releases/upload-url`)
    const gameId: string = created.body.gameId
    const pck = artifact(200_000)

    const presigned = await api.uploadUrl(creator, gameId, pck.declaration)
    expect(presigned.status).toBe(200)
    expect(Object.keys(presigned.body.headers).sort()).toEqual(["content-type", "if-none-match"])

    const changed = await api.put(presigned.body.uploadUrl, { ...presigned.body.headers, "content-type": "text/plain" }, pck.bytes)
    expect([changed.status, changed.body.error]).toEqual([403, "SignatureDoesNotMatch"])
    expect((await api.put(presigned.body.uploadUrl, presigned.body.headers, pck.bytes)).status).toBe(200)
    expect((await api.put(presigned.body.uploadUrl, presigned.body.headers, pck.bytes)).status).toBe(412)

    const finalized = await api.finalize(creator, gameId, pck.declaration)
    expect(finalized.status).toBe(201)
    expect(finalized.body).toMatchObject({ gameId, version: "1.0.0", sha256: pck.declaration.sha256, status: "pending_review" })

    const stranger = server.token("stranger-e2e")
    expect((await api.downloadUrl(stranger, gameId, "1.0.0")).status).toBe(404)
    expect((await api.approveScanned(admin, gameId, "1.0.0")).body.gameStatus).toBe("published")

    const download = await api.downloadUrl(stranger, gameId, "1.0.0")
    expect(download.status).toBe(200)
    expect(download.body.sha256).toBe(pck.declaration.sha256)
    const bytes = new Uint8Array(await (await api.get(download.body.url)).arrayBuffer())
    expect(sha256Hex(bytes)).toBe(pck.declaration.sha256)
  })

  test("checksum_mismatch deletes the object, so a corrected re-upload to the same key finalizes", async () => {
    const api = apiClient(server.baseUrl)
    const creator = server.token("creator-mismatch")
    const gameId: string = (await api.createGame(creator, { name: "Mismatch" })).body.gameId
    const pck = artifact(8192)
    const presigned = await api.uploadUrl(creator, gameId, pck.declaration)
    const wrong = pck.bytes.slice()
    wrong[100] = wrong[100]! ^ 0xff
    expect((await api.put(presigned.body.uploadUrl, presigned.body.headers, wrong)).status).toBe(200)
    const refused = await api.finalize(creator, gameId, pck.declaration)
    expect([refused.status, refused.body.error]).toEqual([400, "checksum_mismatch"])
    expect(refused.body.detail).toContain(sha256Hex(wrong))
    expect((await api.put(presigned.body.uploadUrl, presigned.body.headers, pck.bytes)).status).toBe(200)
    expect((await api.finalize(creator, gameId, pck.declaration)).status).toBe(201)
  })

  test("every request is logged, without tokens or URL signatures", async () => {
    const log = await server.outputContaining('"msg":"request"')
    expect(log).not.toMatch(/X-Pckgate-Signature/)
    expect(log).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/)
  })
})
