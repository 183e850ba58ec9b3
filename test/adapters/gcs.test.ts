// The GCS object store through the real @google-cloud/storage library, pointed (apiEndpoint) at the GCS test double
// on a loopback port: the shared contract, then what is particular to GCS — signed URLs answered by the double's XML
// endpoint, a bucket that disappears at run time, offline configuration checks, and bounded waits.
import { createServer, type Server, type Socket } from "node:net"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import { afterAll, expect, test } from "vitest"
import { layerGcsStorage, resolveGcsSetup } from "../../adapters/storage-gcs/index.ts"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { objectStorageContract } from "../contract/ObjectStorage.contract.ts"
import { unique } from "../support/fixtures.ts"
import { makeFakeServiceAccount } from "../support/gcsDouble/fakeServiceAccount.ts"
import { startGcsDouble } from "../support/gcsDouble/GcsDouble.ts"
import { bytes, streamOf } from "../support/streams.ts"

const serviceAccount = makeFakeServiceAccount()
// Application default credentials: the library reads the key file from the environment, as in production.
const previousCredentials = process.env["GOOGLE_APPLICATION_CREDENTIALS"]
process.env["GOOGLE_APPLICATION_CREDENTIALS"] = serviceAccount.keyFile
const double = await startGcsDouble()
double.trustServiceAccount(serviceAccount.clientEmail, serviceAccount.publicKeyPem)
afterAll(async () => {
  await double.stop()
  if (previousCredentials === undefined) delete process.env["GOOGLE_APPLICATION_CREDENTIALS"]
  else process.env["GOOGLE_APPLICATION_CREDENTIALS"] = previousCredentials
})

const setupFor = (bucket: string, apiEndpoint = double.endpoint) =>
  resolveGcsSetup({ bucket, apiEndpoint, env: process.env, onComputeEngine: () => false })

const storeOn = async (bucket: string) => {
  double.createBucket(bucket)
  return layerGcsStorage(await setupFor(bucket))
}

const contractLayer = await storeOn("pckgate-contract")
objectStorageContract("GCS (library → test double)", () => contractLayer, { largeObjectBytes: 256 * 2 ** 20 })

const storage = <A, E>(layer: Layer.Layer<ObjectStorage>, f: (s: ObjectStorage["Service"]) => Effect.Effect<A, E>) =>
  Effect.runPromise(Effect.provide(ObjectStorage.use(f), layer))
const failureOf = <A, E>(layer: Layer.Layer<ObjectStorage>, f: (s: ObjectStorage["Service"]) => Effect.Effect<A, E>) =>
  storage(layer, (s) => Effect.flip(f(s)))

const key = () => `releases/${unique("gm_")}/1.0.0/${"d".repeat(64)}.pck`
const putHeaders = (headers: Readonly<Record<string, string>>, overrides: Record<string, string | null> = {}) => {
  const out: Record<string, string> = { ...headers }
  for (const [name, value] of Object.entries(overrides)) {
    if (value === null) delete out[name]
    else out[name] = value
  }
  return out
}

describe("GCS signed URLs, answered by the double's XML endpoint", () => {
  test("PUT with the two returned headers stores the bytes once; changed or missing headers, a second PUT and expiry are refused like GCS", async () => {
    const layer = contractLayer
    const k = key()
    const body = bytes("signed upload ".repeat(100))
    const put = await storage(layer, (s) => s.presignPut(k, { sizeBytes: body.length, now: new Date(), expiresInSeconds: 3600 }))
    expect(put.headers).toEqual({ "content-type": "application/octet-stream", "x-goog-if-generation-match": "0" })
    expect(new URL(put.url).origin).toBe(double.endpoint)

    const changed = await fetch(put.url, { method: "PUT", headers: putHeaders(put.headers, { "content-type": "text/plain" }), body })
    expect([changed.status, await changed.text()]).toEqual([403, expect.stringContaining("<Code>SignatureDoesNotMatch</Code>")])
    const withoutPrecondition = await fetch(put.url, { method: "PUT", headers: putHeaders(put.headers, { "x-goog-if-generation-match": null }), body })
    expect(withoutPrecondition.status).toBe(403)
    expect(double.object("pckgate-contract", k)).toBeUndefined()

    expect((await fetch(put.url, { method: "PUT", headers: put.headers, body })).status).toBe(200)
    const again = await fetch(put.url, { method: "PUT", headers: put.headers, body: bytes("overwrite attempt") })
    expect([again.status, await again.text()]).toEqual([412, expect.stringContaining("<Code>PreconditionFailed</Code>")])
    expect(double.object("pckgate-contract", k)?.size).toBe(body.length)

    const other = await storage(layer, (s) => s.presignPut(key(), { sizeBytes: 10, now: new Date(Date.now() - 3601_000 + 5_000), expiresInSeconds: 3600 }))
    double.advanceClock(10)
    try {
      const expired = await fetch(other.url, { method: "PUT", headers: other.headers, body: bytes("late") })
      expect([expired.status, await expired.text()]).toEqual([400, expect.stringContaining("<Code>ExpiredToken</Code>")])
    } finally {
      double.advanceClock(-10)
    }
  })

  test("GET serves the bytes with the signed download name; a tampered URL is refused", async () => {
    const layer = contractLayer
    const k = key()
    await storage(layer, (s) => s.put(k, streamOf(bytes("download me")), { maxBytes: 100 }))
    const get = await storage(layer, (s) => s.presignGet(k, { now: new Date(), expiresInSeconds: 300, downloadName: "my-game-1.0.0.pck" }))
    const response = await fetch(get.url)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="my-game-1.0.0.pck"')
    expect(await response.text()).toBe("download me")

    const renamed = new URL(get.url)
    renamed.searchParams.set("response-content-disposition", 'attachment; filename="evil.exe"')
    expect((await fetch(renamed)).status).toBe(403)
    const otherPath = new URL(get.url)
    otherPath.pathname = otherPath.pathname.replace("1.0.0", "1.0.1")
    expect((await fetch(otherPath)).status).toBe(403)
  })
})

describe("GCS bucket missing at run time", () => {
  it.effect("every operation fails with Unavailable(storage), never as a missing object", () =>
    Effect.gen(function*() {
      const bucket = "pckgate-vanishing"
      const layer = yield* Effect.promise(() => storeOn(bucket))
      const k = key()
      yield* Effect.provide(ObjectStorage.use((s) => s.put(k, streamOf(bytes("x")), { maxBytes: 10 })), layer)
      double.deleteBucket(bucket)
      const failures = yield* Effect.provide(
        Effect.gen(function*() {
          const s = yield* ObjectStorage
          return [
            yield* Effect.flip(s.head(k)),
            yield* Effect.flip(s.digest(k)),
            yield* Effect.flip(s.readRange(k, 0, 1)),
            yield* Effect.flip(s.read(k)),
            yield* Effect.flip(s.delete(k)),
            yield* Effect.flip(s.list("releases/")),
            yield* Effect.flip(s.put(key(), streamOf(bytes("y")), { maxBytes: 10 })),
            yield* Effect.flip(s.move(k, key())),
          ]
        }),
        layer,
      )
      for (const failure of failures) {
        assert.strictEqual(failure._tag, "Unavailable")
        if (failure._tag === "Unavailable") {
          assert.strictEqual(failure.dependency, "storage")
          assert.include(failure.reason, `gs://${bucket} does not exist`)
        }
      }
    }))
})

describe("GCS configuration, decided offline", () => {
  const env = (extra: Record<string, string>) => ({ ...extra })

  test("no bucket, no credentials, or credentials that cannot sign: not configured, with a reason", async () => {
    const noBucket = await resolveGcsSetup({ bucket: null, apiEndpoint: null, env: env({ GOOGLE_APPLICATION_CREDENTIALS: serviceAccount.keyFile }) })
    expect(noBucket).toEqual({ configured: false, reason: "GCS_BUCKET is not set" })
    const noCredentials = await resolveGcsSetup({ bucket: "b-1", apiEndpoint: null, env: env({}), onComputeEngine: () => false })
    expect(noCredentials.configured === false && noCredentials.reason).toContain("GOOGLE_APPLICATION_CREDENTIALS")
    const dir = serviceAccount.keyFile.replace(/[^/]+$/, "")
    const userCredentials = join(dir, "user.json")
    writeFileSync(userCredentials, JSON.stringify({ type: "authorized_user", client_id: "x", client_secret: "y", refresh_token: "z" }))
    const user = await resolveGcsSetup({ bucket: "b-1", apiEndpoint: null, env: env({ GOOGLE_APPLICATION_CREDENTIALS: userCredentials }) })
    expect(user.configured === false && user.reason).toContain("cannot sign URLs")
    const brokenKey = join(dir, "broken.json")
    writeFileSync(brokenKey, JSON.stringify({ type: "service_account", client_email: "a@b", private_key: "-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----\n" }))
    const broken = await resolveGcsSetup({ bucket: "b-1", apiEndpoint: null, env: env({ GOOGLE_APPLICATION_CREDENTIALS: brokenKey }) })
    expect(broken.configured === false && broken.reason).toContain("not a usable PEM key")
    expect(broken.configured === false && broken.reason).not.toContain("nope")
    const missingFile = await resolveGcsSetup({ bucket: "b-1", apiEndpoint: null, env: env({ GOOGLE_APPLICATION_CREDENTIALS: join(dir, "absent.json") }) })
    expect(missingFile.configured === false && missingFile.reason).toContain("ENOENT")
  })

  test("on Google Cloud without a key file, signing is keyless (IAM signBlob)", async () => {
    const onRun = await resolveGcsSetup({ bucket: "b-1", apiEndpoint: null, env: env({ K_SERVICE: "pckgate" }) })
    expect(onRun.configured && onRun.settings.signer.kind).toBe("iamSignBlob")
    const onGce = await resolveGcsSetup({ bucket: "b-1", apiEndpoint: null, env: env({}), onComputeEngine: () => true })
    expect(onGce.configured && onGce.settings.signer.kind).toBe("iamSignBlob")
  })

  it.effect("an unconfigured store refuses every operation with StorageNotConfigured", () =>
    Effect.gen(function*() {
      const s = yield* ObjectStorage
      const now = new Date()
      for (const attempt of [s.presignPut(key(), { sizeBytes: 1, now, expiresInSeconds: 60 }), s.head(key()), s.digest(key()), s.delete(key())]) {
        assert.strictEqual((yield* Effect.flip(attempt))._tag, "StorageNotConfigured")
      }
    }).pipe(Effect.provide(layerGcsStorage({ configured: false, reason: "GCS_BUCKET is not set" }))))
})

describe("GCS waits are bounded", () => {
  // Far above the deadlines below and far below the suite's default timeout: a hang fails the test.
  const HANG_GUARD_MS = 15_000

  test("a server that accepts connections but never answers: Unavailable within the deadline", async () => {
    const sockets = new Set<Socket>()
    const silent: Server = createServer((socket) => void sockets.add(socket))
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve))
    const port = (silent.address() as { port: number }).port
    try {
      const setup = await setupFor("pckgate-silent", `http://127.0.0.1:${port}`)
      const layer = layerGcsStorage(setup, { callMs: 500, idleMs: 500, signMs: 500 })
      const head = await failureOf(layer, (s) => s.head(key()))
      const upload = await failureOf(layer, (s) => s.put(key(), streamOf(new Uint8Array(1 << 20)), { maxBytes: 1 << 20 }))
      const listed = await failureOf(layer, (s) => s.list("tmp/"))
      expect([head._tag, upload._tag, listed._tag]).toEqual(["Unavailable", "Unavailable", "Unavailable"])
    } finally {
      for (const socket of sockets) socket.destroy()
      silent.close()
    }
  }, HANG_GUARD_MS)

  test("nothing listening: Unavailable once the deadline passes, though the library keeps retrying", async () => {
    const layer = layerGcsStorage(await setupFor("pckgate-nowhere", "http://127.0.0.1:9"), { callMs: 1_500, idleMs: 1_500, signMs: 1_500 })
    const failure = await failureOf(layer, (s) => s.digest(key()))
    expect(failure._tag === "Unavailable" && failure.dependency).toBe("storage")
  }, HANG_GUARD_MS)
})
