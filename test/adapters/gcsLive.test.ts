// The GCS store against a real bucket: runs only when GCS_TEST_BUCKET names a scratch bucket and usable credentials
// are present (GOOGLE_APPLICATION_CREDENTIALS with a service-account key holding roles/storage.objectAdmin on it, or
// a Google Cloud runtime). It leaves small objects under releases/gm_… and tmp/ — give the bucket a lifecycle rule.
import { Effect } from "effect"
import { describe, expect, test } from "vitest"
import { layerGcsStorage, resolveGcsSetup } from "../../adapters/storage-gcs/index.ts"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { objectStorageContract } from "../contract/ObjectStorage.contract.ts"
import { unique } from "../support/fixtures.ts"
import { bytes } from "../support/streams.ts"

const bucket = process.env["GCS_TEST_BUCKET"] ?? ""
const setup = bucket === "" ? null : await resolveGcsSetup({ bucket, apiEndpoint: null, env: process.env })
const skipReason = setup === null
  ? "GCS_TEST_BUCKET is not set"
  : setup.configured
  ? null
  : setup.reason

if (skipReason !== null) {
  const notice = `the live Google Cloud Storage test is SKIPPED (${skipReason}). To run it, set GCS_TEST_BUCKET to a scratch ` +
    "bucket and GOOGLE_APPLICATION_CREDENTIALS to a service-account key with roles/storage.objectAdmin on it."
  console.warn(`NOTICE gcsLive.test.ts: ${notice}`)
  test("GCS live bucket: contract and signed URLs against a real bucket", (ctx) => ctx.skip(notice))
} else if (setup !== null && setup.configured) {
  const layer = layerGcsStorage(setup)
  const run = <A, E>(f: (s: ObjectStorage["Service"]) => Effect.Effect<A, E>) => Effect.runPromise(Effect.provide(ObjectStorage.use(f), layer))

  objectStorageContract(`GCS live bucket gs://${bucket}`, () => layer)

  describe(`GCS live signed URLs on gs://${bucket}`, () => {
    test("PUT with the returned headers lands once (403 if a header changes, 412 the second time); GET returns it", async () => {
      const key = `releases/${unique("gm_live")}/1.0.0/${"f".repeat(64)}.pck`
      const body = bytes("live signed upload")
      try {
        const put = await run((s) => s.presignPut(key, { sizeBytes: body.length, now: new Date(), expiresInSeconds: 3600 }))
        const changed = await fetch(put.url, { method: "PUT", headers: { ...put.headers, "content-type": "text/plain" }, body })
        expect([changed.status, await changed.text()]).toEqual([403, expect.stringContaining("SignatureDoesNotMatch")])
        expect((await fetch(put.url, { method: "PUT", headers: put.headers, body })).status).toBe(200)
        expect((await fetch(put.url, { method: "PUT", headers: put.headers, body })).status).toBe(412)
        const get = await run((s) => s.presignGet(key, { now: new Date(), expiresInSeconds: 300, downloadName: "live-1.0.0.pck" }))
        const response = await fetch(get.url)
        expect(response.headers.get("content-disposition")).toBe('attachment; filename="live-1.0.0.pck"')
        expect(await response.text()).toBe("live signed upload")
      } finally {
        await run((s) => s.delete(key))
      }
    })
  })
}
