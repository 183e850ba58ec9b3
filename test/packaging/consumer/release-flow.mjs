// The release flow of an integrator who installed the package: create → upload-url → PUT → finalize → scan → approve
// (through the review gate, with an override: the bytes are random) → download-url, on the memory adapters, through the public subpaths only. Runs unchanged on Node 24 (against the
// installed npm package) and on Deno (against the .ts sources through deno.json). Prints one JSON line.
//
// The bytes go through the memory store's presigned URL, served by the HTTP app's `fetch`: that is the path a real
// client takes (signed headers, write-once key), and it exercises the `pckgate/http` export. The app is imported
// only after the first steps, so the modules loaded by the core (domain, ports, memory) can be reported on their own.
import { Effect, Layer, Logger, ManagedRuntime } from "effect"
import {
  ApproveBody,
  approveRelease,
  CreateGameBody,
  createGame,
  decodeDeclaration,
  downloadUrl,
  finalizeRelease,
  requestUploadUrl,
  scanUnscannedReleases,
} from "pckgate/domain"
import { layerMemory, ReviewInbox } from "pckgate/memory"
import { ObjectStorage } from "pckgate/ports"

/** Module URLs loaded so far (Node with trace-loads.mjs preloaded), or null where no trace is available. */
const loadedModules = () => {
  const loaded = globalThis.__pckgateLoadedModules
  return loaded === undefined ? null : [...loaded]
}
const check = (ok, message) => {
  if (!ok) throw new Error(message)
}
const hex = (buffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("")

const BASE_URL = "http://pckgate.example"
// The app's request log goes through Effect's logger: none here, so stdout carries only this script's report.
const runtime = ManagedRuntime.make(Layer.merge(layerMemory({ baseUrl: BASE_URL }), Logger.layer([])))
const run = (effect) => runtime.runPromise(effect)
const alice = { userId: "alice", isAdmin: false }
const admin = { userId: "root", isAdmin: true }

const bytes = crypto.getRandomValues(new Uint8Array(4096))
const sha256 = hex(await crypto.subtle.digest("SHA-256", bytes))
// The use cases take decoded input: the domain's own decoders check it, as the HTTP API does.
const declaration = await run(decodeDeclaration({ version: "1.0.0", sha256, sizeBytes: bytes.length }))
const refusedDeclaration = await run(Effect.flip(decodeDeclaration({ version: "1.0.0", sha256, sizeBytes: 2 ** 31 })))
check(refusedDeclaration._tag === "ArtifactTooLarge", `an oversized declaration decoded as ${refusedDeclaration._tag}, not ArtifactTooLarge`)

const game = await run(createGame(alice, CreateGameBody.make({ name: "Packaged Game" })))
const upload = await run(requestUploadUrl(alice, game.id, declaration))
check(upload.uploadUrl.startsWith(`${BASE_URL}/storage/`), `unexpected upload URL ${upload.uploadUrl}`)
const coreModules = loadedModules()

const { makeApp, makeSessionCodec, SignedUrls } = await import("pckgate/http")
const app = makeApp({
  runtime,
  baseUrl: () => BASE_URL,
  sessions: await makeSessionCodec(crypto.getRandomValues(new Uint8Array(32))),
  signer: await run(SignedUrls.useSync((signer) => signer)),
})
const put = await app.fetch(new Request(upload.uploadUrl, { method: "PUT", headers: upload.headers, body: bytes }))
check(put.status === 200, `PUT answered ${put.status}: ${await put.text()}`)
const again = await app.fetch(new Request(upload.uploadUrl, { method: "PUT", headers: upload.headers, body: bytes }))
check(again.status === 412, `a second PUT answered ${again.status}, not 412 (write-once)`)

const finalized = await run(finalizeRelease(alice, game.id, declaration))
const inbox = await run(ReviewInbox.useSync((inbox) => inbox))
// The review gate waits for the scan: this runtime has no scan worker, so the integrator runs a pass itself.
const { layerPackScanner } = await import("pckgate/scanner")
const scanned = await run(scanUnscannedReleases().pipe(Effect.provide(layerPackScanner)))
check(scanned.scanned.length === 1, `the scan pass scanned ${JSON.stringify(scanned)}`)
const refused = await run(Effect.flip(approveRelease(admin, game.id, "1.0.0")))
check(refused._tag === "FindingsUnresolved", `approval without an override answered ${refused._tag}, not FindingsUnresolved`)
const approved = await run(approveRelease(admin, game.id, "1.0.0", ApproveBody.make({ override: { reason: "random bytes for a packaging test" } })))
const download = await run(downloadUrl(alice, game.id, "1.0.0"))
const fetched = await app.fetch(new Request(download.url))
check(fetched.status === 200, `download answered ${fetched.status}`)
const downloadedSha256 = hex(await crypto.subtle.digest("SHA-256", await fetched.arrayBuffer()))
const stored = await run(ObjectStorage.use((storage) => storage.list("")))
const httpModules = loadedModules()

// Every other subpath loads from the package too (the scanner reads its JSON policy next to its code).
const [sql, storageLocal, storageGcs, identity, scanner, system, root] = await Promise.all([
  import("pckgate/sql"),
  import("pckgate/storage-local"),
  // @google-cloud/storage is an optional peer: the GCS subpath loads only where it is installed, and says which package.
  import("pckgate/storage-gcs").catch((error) => ({ missing: /@google-cloud\/storage/.test(String(error)) ? "@google-cloud/storage" : String(error) })),
  import("pckgate/identity"),
  import("pckgate/scanner"),
  import("pckgate/system"),
  import("pckgate"),
])
await runtime.dispose()

console.log(JSON.stringify({
  runtime: globalThis.Deno === undefined ? `node ${process.versions.node}` : `deno ${globalThis.Deno.version.deno}`,
  gameId: game.id,
  finalizedStatus: finalized.status,
  notified: inbox.events.map((event) => event.kind),
  approvedStatus: approved.release.status,
  approvalOverride: approved.approvalOverride?.reason ?? null,
  activeVersion: approved.activeVersion,
  declaredSha256: sha256,
  downloadSha256: download.sha256,
  downloadedSha256,
  storedKeys: stored.map((object) => object.key),
  subpaths: {
    sql: typeof sql.layerSqlRecords,
    storageLocal: typeof storageLocal.layerLocalDiskStorage,
    storageGcs: "missing" in storageGcs ? `needs ${storageGcs.missing}` : typeof storageGcs.layerGcsStorage,
    identity: typeof identity.layerJwtIdentity,
    scanner: typeof scanner.layerPackScanner,
    scannerPolicyPatterns: scanner.defaultPolicy.patterns.length,
    system: typeof system.layerSystemClock,
    root: typeof root.createGame,
  },
  coreModules,
  httpModules,
  allModules: loadedModules(),
}))
