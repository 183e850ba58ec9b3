// A TEST DOUBLE of Google Cloud Storage, for tests only: on a loopback port it serves the JSON API calls
// @google-cloud/storage makes (point the library at it with `apiEndpoint`) and the XML endpoint its V4 signed URLs
// point at. It follows GCS's documented protocol — generation preconditions, JSON and XML error bodies, signature
// checks with the service account's public key — and keeps object bytes on disk, not in memory.
import { createPublicKey, type KeyObject } from "node:crypto"
import { mkdtempSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type Blob, Blobs } from "./blobs.ts"
import { jsonError } from "./http.ts"
import { handleJsonApi, type JsonApiContext } from "./jsonApi.ts"
import { handleXmlApi } from "./xmlApi.ts"

export interface GcsDouble {
  /** `http://127.0.0.1:<port>`: the `apiEndpoint` for the library. */
  readonly endpoint: string
  createBucket(name: string): void
  /** Deletes a bucket with its objects, as an operator might behind the service's back. */
  deleteBucket(name: string): void
  /** Trusts signatures made with this service account's key (GCS knows each account's public keys). */
  trustServiceAccount(clientEmail: string, publicKeyPem: string): void
  /** The stored object, if any. */
  object(bucket: string, name: string): Blob | undefined
  objectNames(bucket: string): ReadonlyArray<string>
  /** Moves the double's clock (signed-URL expiry) by `seconds`. */
  advanceClock(seconds: number): void
  stop(): Promise<void>
}

export const startGcsDouble = async (): Promise<GcsDouble> => {
  const blobs = new Blobs(mkdtempSync(join(tmpdir(), "gcs-double-")))
  const publicKeys = new Map<string, KeyObject>()
  let clockOffsetMs = 0
  let endpoint = ""
  const jsonContext: JsonApiContext = { blobs, baseUrl: () => endpoint, sessions: new Map() }
  const xmlContext = { blobs, now: () => new Date(Date.now() + clockOffsetMs), publicKeyFor: (email: string) => publicKeys.get(email) }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", endpoint)
    const handled = handleJsonApi(req, res, url, jsonContext)
      .then((done) => (done ? undefined : handleXmlApi(req, res, url, xmlContext)))
    handled.catch((error: unknown) => {
      if (!res.headersSent) jsonError(res, 500, "backendError", `test double failure: ${String(error)}`)
      else res.destroy()
    })
  })
  // Uploads of hundreds of MiB must not be cut by Node's default request timeout.
  server.requestTimeout = 0
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    endpoint,
    createBucket: (name) => blobs.createBucket(name),
    deleteBucket: (name) => blobs.deleteBucket(name),
    trustServiceAccount: (email, pem) => void publicKeys.set(email, createPublicKey(pem)),
    object: (bucket, name) => blobs.get(bucket, name),
    objectNames: (bucket) => blobs.list(bucket).map((b) => b.name),
    advanceClock: (seconds) => void (clockOffsetMs += seconds * 1000),
    stop: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      blobs.close()
    },
  }
}
