// The release flow against the real server process with STORAGE=gcs, the library pointed at the GCS test double
// (GCS_API_ENDPOINT, test-only) and a made-up service account (GOOGLE_APPLICATION_CREDENTIALS). The client PUTs to
// the double's XML endpoint, which checks the V4 signature and the two returned headers as GCS does.
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { apiClient, artifact } from "../support/api.ts"
import { makeFakeServiceAccount } from "../support/gcsDouble/fakeServiceAccount.ts"
import { type GcsDouble, startGcsDouble } from "../support/gcsDouble/GcsDouble.ts"
import { type RunningServer, startServer } from "../support/server.ts"
import { sha256Hex } from "../support/streams.ts"

const BUCKET = "pckgate-e2e"

describe("release flow with STORAGE=gcs against the GCS test double", () => {
  let double: GcsDouble
  let server: RunningServer
  const account = makeFakeServiceAccount("e2e")
  beforeAll(async () => {
    double = await startGcsDouble()
    double.createBucket(BUCKET)
    double.trustServiceAccount(account.clientEmail, account.publicKeyPem)
    server = await startServer({
      env: {
        STORAGE: "gcs",
        GCS_BUCKET: BUCKET,
        GCS_API_ENDPOINT: double.endpoint,
        GOOGLE_APPLICATION_CREDENTIALS: account.keyFile,
        RATE_LIMIT_COUNT: "100",
      },
    })
  })
  afterAll(async () => {
    expect(await server.stop()).toBe(0)
    await double.stop()
  })

  test("create → upload-url → PUT to the bucket → finalize → approve → download-url → GET returns the exact bytes", async () => {
    // The startup lines may reach the test after the address does: wait for the one asserted.
    expect(await server.outputContaining(`objects: Google Cloud Storage bucket gs://${BUCKET}`)).toContain(`objects: Google Cloud Storage bucket gs://${BUCKET}`)
    const api = apiClient(server.baseUrl)
    const creator = server.token("creator-gcs")
    const admin = server.token("admin-gcs", { admin: true })
    const gameId: string = (await api.createGame(creator, { name: "Cloud Game" })).body.gameId
    const pck = artifact(300_000)

    const presigned = await api.uploadUrl(creator, gameId, pck.declaration)
    expect(presigned.status).toBe(200)
    expect(presigned.body.headers).toEqual({ "content-type": "application/octet-stream", "x-goog-if-generation-match": "0" })
    const uploadUrl = new URL(presigned.body.uploadUrl)
    expect(uploadUrl.origin).toBe(double.endpoint)
    expect(uploadUrl.searchParams.get("X-Goog-Expires")).toBe("3600")

    const changed = await api.put(presigned.body.uploadUrl, { ...presigned.body.headers, "content-type": "text/plain" }, pck.bytes)
    expect([changed.status, changed.body]).toEqual([403, expect.stringContaining("<Code>SignatureDoesNotMatch</Code>")])
    expect((await api.put(presigned.body.uploadUrl, presigned.body.headers, pck.bytes)).status).toBe(200)
    const again = await api.put(presigned.body.uploadUrl, presigned.body.headers, pck.bytes)
    expect([again.status, again.body]).toEqual([412, expect.stringContaining("<Code>PreconditionFailed</Code>")])

    const finalized = await api.finalize(creator, gameId, pck.declaration)
    expect(finalized.status).toBe(201)
    expect(finalized.body).toMatchObject({ gameId, version: "1.0.0", sha256: pck.declaration.sha256, status: "pending_review" })

    const stranger = server.token("stranger-gcs")
    expect((await api.downloadUrl(stranger, gameId, "1.0.0")).status).toBe(404)
    expect((await api.approveScanned(admin, gameId, "1.0.0")).body.gameStatus).toBe("published")

    const download = await api.downloadUrl(stranger, gameId, "1.0.0")
    expect(download.status).toBe(200)
    expect(download.body.sha256).toBe(pck.declaration.sha256)
    const downloadUrl = new URL(download.body.url)
    expect([downloadUrl.origin, downloadUrl.searchParams.get("X-Goog-Expires")]).toEqual([double.endpoint, "300"])
    const response = await api.get(download.body.url)
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="cloud-game[^"]*-1\.0\.0\.pck"$/)
    expect(sha256Hex(new Uint8Array(await response.arrayBuffer()))).toBe(pck.declaration.sha256)
  })

  test("finalize before the PUT: artifact_missing; a wrong upload: checksum_mismatch deletes it, and a corrected one finalizes", async () => {
    const api = apiClient(server.baseUrl)
    const creator = server.token("creator-gcs-mismatch")
    const gameId: string = (await api.createGame(creator, { name: "Mismatch In The Cloud" })).body.gameId
    const pck = artifact(8192)
    const presigned = await api.uploadUrl(creator, gameId, pck.declaration)
    expect((await api.finalize(creator, gameId, pck.declaration)).body.error).toBe("artifact_missing")

    const wrong = pck.bytes.slice()
    wrong[7] = wrong[7]! ^ 0xff
    expect((await api.put(presigned.body.uploadUrl, presigned.body.headers, wrong)).status).toBe(200)
    const refused = await api.finalize(creator, gameId, pck.declaration)
    expect([refused.status, refused.body.error]).toEqual([400, "checksum_mismatch"])
    const objectKey = `releases/${gameId}/1.0.0/${pck.declaration.sha256}.pck`
    expect(double.object(BUCKET, objectKey)).toBeUndefined()
    expect((await api.put(presigned.body.uploadUrl, presigned.body.headers, pck.bytes)).status).toBe(200)
    expect((await api.finalize(creator, gameId, pck.declaration)).status).toBe(201)
  })

  test("a bucket gone at run time fails finalize with 502 finalize_failed, never artifact_missing; logs carry no signatures or keys", async () => {
    const api = apiClient(server.baseUrl)
    const creator = server.token("creator-gcs-gone")
    const gameId: string = (await api.createGame(creator, { name: "Gone Bucket" })).body.gameId
    const pck = artifact(2048)
    const presigned = await api.uploadUrl(creator, gameId, pck.declaration)
    expect((await api.put(presigned.body.uploadUrl, presigned.body.headers, pck.bytes)).status).toBe(200)
    double.deleteBucket(BUCKET)
    try {
      const finalized = await api.finalize(creator, gameId, pck.declaration)
      expect([finalized.status, finalized.body.error]).toEqual([502, "finalize_failed"])
    } finally {
      double.createBucket(BUCKET)
    }
    const log = await server.outputContaining(`gs://${BUCKET} does not exist`)
    expect(log).not.toMatch(/X-Goog-Signature=[0-9a-f]{16}/)
    expect(log).not.toContain("PRIVATE KEY")
  })
})

describe("STORAGE=gcs that cannot work", () => {
  const servers: Array<RunningServer> = []
  afterAll(async () => {
    for (const server of servers) expect(await server.stop()).toBe(0)
  })

  test("no bucket: the server starts and upload-url answers 503 storage_not_configured", async () => {
    const server = await startServer({ env: { STORAGE: "gcs", GCS_BUCKET: "", GOOGLE_APPLICATION_CREDENTIALS: "" } })
    servers.push(server)
    expect(await server.outputContaining("Google Cloud Storage is NOT configured (GCS_BUCKET is not set)")).toContain("Google Cloud Storage is NOT configured (GCS_BUCKET is not set)")
    const api = apiClient(server.baseUrl)
    const creator = server.token("creator-unconfigured")
    const gameId: string = (await api.createGame(creator, { name: "Nowhere To Go" })).body.gameId
    const presigned = await api.uploadUrl(creator, gameId, artifact(2048).declaration)
    expect([presigned.status, presigned.body.error]).toEqual([503, "storage_not_configured"])
  })

  test("keyless signing that fails (metadata server unreachable): upload-url answers 502 upload_url_failed", async () => {
    const server = await startServer({
      env: { STORAGE: "gcs", GCS_BUCKET: BUCKET, GOOGLE_APPLICATION_CREDENTIALS: "", GCE_METADATA_HOST: "127.0.0.1:9" },
    })
    servers.push(server)
    expect(await server.outputContaining("URLs signed through IAM signBlob")).toContain("URLs signed through IAM signBlob")
    const api = apiClient(server.baseUrl)
    const creator = server.token("creator-keyless")
    const gameId: string = (await api.createGame(creator, { name: "Keyless" })).body.gameId
    const presigned = await api.uploadUrl(creator, gameId, artifact(2048).declaration)
    expect([presigned.status, presigned.body.error]).toEqual([502, "upload_url_failed"])
  })
})
