// The GCS store's signed URLs, fully offline: a fresh RSA key plays the service account, the adapter signs with the
// real library against the real endpoint name (no request is made), and an independent implementation of Google's
// documented V4 algorithm (test/support/gcsDouble/v4Signature.ts) verifies them with the public key.
import { createPublicKey } from "node:crypto"
import { Effect } from "effect"
import { afterAll, describe, expect, test } from "vitest"
import { layerGcsStorage, resolveGcsSetup } from "../../adapters/storage-gcs/index.ts"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { makeFakeServiceAccount } from "../support/gcsDouble/fakeServiceAccount.ts"
import { type SignedRequest, verifyV4 } from "../support/gcsDouble/v4Signature.ts"

const account = makeFakeServiceAccount("signer")
const stranger = makeFakeServiceAccount("stranger")
const previousCredentials = process.env["GOOGLE_APPLICATION_CREDENTIALS"]
process.env["GOOGLE_APPLICATION_CREDENTIALS"] = account.keyFile
afterAll(() => {
  if (previousCredentials === undefined) delete process.env["GOOGLE_APPLICATION_CREDENTIALS"]
  else process.env["GOOGLE_APPLICATION_CREDENTIALS"] = previousCredentials
})

const BUCKET = "pckgate-artifacts"
const KEY = `releases/gm_abc/1.2.3/${"e".repeat(64)}.pck`
const setup = await resolveGcsSetup({ bucket: BUCKET, apiEndpoint: null, env: process.env, onComputeEngine: () => false })
const sign = <A>(f: (s: ObjectStorage["Service"]) => Effect.Effect<A, unknown>) =>
  Effect.runPromise(Effect.provide(ObjectStorage.use(f), layerGcsStorage(setup)))

const publicKeyOf = (pem: string) => createPublicKey(pem)
const verify = (request: SignedRequest, options: { now: Date; signerPem?: string }) =>
  verifyV4(request, {
    now: options.now,
    publicKeyFor: (email) => (email === account.clientEmail ? publicKeyOf(options.signerPem ?? account.publicKeyPem) : undefined),
  })

describe("GCS V4 signed URLs (offline, verified independently)", () => {
  test("the configuration signs with the key file, locally", () => {
    expect(setup.configured && setup.settings.signer).toEqual({ kind: "keyFile", path: account.keyFile, clientEmail: account.clientEmail })
  })

  test("PUT: valid 3600 s, both returned headers signed; a changed header, path, method or key does not verify", async () => {
    const now = new Date()
    const put = await sign((s) => s.presignPut(KEY, { sizeBytes: 4096, now, expiresInSeconds: 3600 }))
    const url = new URL(put.url)
    expect(url.origin).toBe("https://storage.googleapis.com")
    expect(url.pathname).toBe(`/${BUCKET}/${KEY}`)
    expect(url.searchParams.get("X-Goog-Algorithm")).toBe("GOOG4-RSA-SHA256")
    expect(url.searchParams.get("X-Goog-Credential")).toMatch(new RegExp(`^${account.clientEmail}/\\d{8}/auto/storage/goog4_request$`))
    expect(url.searchParams.get("X-Goog-Expires")).toBe("3600")
    expect(url.searchParams.get("X-Goog-SignedHeaders")).toBe("content-type;host;x-goog-if-generation-match")
    expect(put.headers).toEqual({ "content-type": "application/octet-stream", "x-goog-if-generation-match": "0" })
    expect(put.expiresAt.getTime()).toBe(now.getTime() + 3600_000)

    const request = (overrides: Partial<SignedRequest> = {}, headers: Record<string, string | undefined> = {}): SignedRequest => ({
      method: "PUT",
      url,
      headers: { host: "storage.googleapis.com", ...put.headers, ...headers },
      ...overrides,
    })
    expect(verify(request(), { now })).toMatchObject({ ok: true, clientEmail: account.clientEmail })
    expect(verify(request(), { now: new Date(now.getTime() + 3599_000) }).ok).toBe(true)
    expect(verify(request(), { now: new Date(now.getTime() + 3601_000) })).toMatchObject({ ok: false, code: "ExpiredToken" })

    const refused = (r: SignedRequest, signerPem?: string) =>
      verify(r, { now, ...(signerPem === undefined ? {} : { signerPem }) })
    expect(refused(request({}, { "content-type": "text/plain" }))).toMatchObject({ ok: false, code: "SignatureDoesNotMatch" })
    expect(refused(request({}, { "x-goog-if-generation-match": undefined }))).toMatchObject({ ok: false, code: "SignatureDoesNotMatch" })
    expect(refused(request({}, { "x-goog-if-generation-match": "1" }))).toMatchObject({ ok: false, code: "SignatureDoesNotMatch" })
    const otherPath = new URL(url)
    otherPath.pathname = otherPath.pathname.replace("1.2.3", "1.2.4")
    expect(refused(request({ url: otherPath }))).toMatchObject({ ok: false, code: "SignatureDoesNotMatch" })
    expect(refused(request({ method: "GET" }))).toMatchObject({ ok: false, code: "SignatureDoesNotMatch" })
    expect(refused(request({}, { host: "evil.example" }))).toMatchObject({ ok: false, code: "SignatureDoesNotMatch" })
    expect(refused(request(), stranger.publicKeyPem)).toMatchObject({ ok: false, code: "SignatureDoesNotMatch" })
    const longer = new URL(url)
    longer.searchParams.set("X-Goog-Expires", "7200")
    expect(refused(request({ url: longer }))).toMatchObject({ ok: false, code: "SignatureDoesNotMatch" })
  })

  test("GET: valid 300 s, signed over host only, with the download name as a signed response parameter", async () => {
    const now = new Date()
    const get = await sign((s) => s.presignGet(KEY, { now, expiresInSeconds: 300, downloadName: "space game-1.2.3.pck" }))
    const url = new URL(get.url)
    expect(url.searchParams.get("X-Goog-Expires")).toBe("300")
    expect(url.searchParams.get("X-Goog-SignedHeaders")).toBe("host")
    expect(url.searchParams.get("response-content-disposition")).toBe('attachment; filename="space_game-1.2.3.pck"')
    expect(get.expiresAt.getTime()).toBe(now.getTime() + 300_000)
    const request = (u: URL): SignedRequest => ({ method: "GET", url: u, headers: { host: "storage.googleapis.com" } })
    expect(verify(request(url), { now }).ok).toBe(true)
    expect(verify(request(url), { now: new Date(now.getTime() + 301_000) })).toMatchObject({ ok: false, code: "ExpiredToken" })
    const renamed = new URL(url)
    renamed.searchParams.set("response-content-disposition", 'attachment; filename="other.exe"')
    expect(verify(request(renamed), { now })).toMatchObject({ ok: false, code: "SignatureDoesNotMatch" })
    expect(verify({ ...request(url), method: "PUT" }, { now })).toMatchObject({ ok: false, code: "SignatureDoesNotMatch" })
  })

  test("keys with characters that need encoding are signed over their canonical form", async () => {
    const now = new Date()
    const key = "tmp/upload id+(1)*~é"
    const put = await sign((s) => s.presignPut(key, { sizeBytes: 1024, now, expiresInSeconds: 3600 }))
    const request: SignedRequest = { method: "PUT", url: new URL(put.url), headers: { host: "storage.googleapis.com", ...put.headers } }
    expect(decodeURIComponent(new URL(put.url).pathname)).toBe(`/${BUCKET}/${key}`)
    expect(verify(request, { now }).ok).toBe(true)
  })

  test("a failure to sign is the signer's (→ 502 upload_url_failed) and carries no key material", async () => {
    const failure = await Effect.runPromise(
      Effect.flip(Effect.provide(
        ObjectStorage.use((s) => s.presignPut(KEY, { sizeBytes: 1, now: new Date(Date.now() - 86_400_000), expiresInSeconds: 60 })),
        layerGcsStorage(setup),
      )),
    )
    expect(failure._tag).toBe("Unavailable")
    expect(failure._tag === "Unavailable" && failure.dependency).toBe("signer")
    expect(JSON.stringify(failure)).not.toContain("PRIVATE KEY")
  })
})
