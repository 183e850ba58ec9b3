// The h3 app on memory adapters, driven through app.fetch (no port), with real jose tokens and a manual clock.
import { Effect, Layer, ManagedRuntime } from "effect"
import { layerMemoizedDownloadUrls } from "../../adapters/cache/MemoizedDownloadUrls.ts"
import { makeApp } from "../../adapters/http/App.ts"
import { layerCapturedLogs, type LogLine } from "../../adapters/observability/jsonLogger.ts"
import type { SubmissionLimits } from "../../adapters/http/multipart/receiveSubmission.ts"
import { DEFAULT_SUBMISSION_LIMITS, submitRoutes } from "../../adapters/http/routes/submit.ts"
import type { AppServices, Route } from "../../adapters/http/route.ts"
import { makeSessionCodec } from "../../adapters/http/session.ts"
import { DEV_AUDIENCE, DEV_ISSUER, generateDevJwk, makeDevIssuerFromJwk } from "../../adapters/identity/DevIssuer.ts"
import { layerJwtIdentity } from "../../adapters/identity/JwtIdentity.ts"
import { layerEphemeralUploadTokens } from "../../adapters/identity/JwtUploadTokens.ts"
import { layerEphemeralPublishTokens } from "../../adapters/identity/JwtPublishTokens.ts"
import { layerNoCiIdentity } from "../../adapters/identity/JoseCiIdentity.ts"
import { layer as scannerLayer } from "../../adapters/scanner/layer.ts"
import { layerPackFiles } from "../../adapters/scanner/packFiles/layer.ts"
import { layerManualClock, ManualClock } from "../../adapters/memory/MemoryClock.ts"
import { layerMemoryRecords } from "../../adapters/memory/MemoryRecords.ts"
import { layerSequentialIds } from "../../adapters/memory/MemoryIds.ts"
import { makeMemoryObjectStorage } from "../../adapters/memory/MemoryObjectStorage.ts"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { layerMemoryReviewNotifier, ReviewInbox } from "../../adapters/memory/MemoryReviewNotifier.ts"
import { layerMemorySha256Hasher } from "../../adapters/memory/MemorySha256Hasher.ts"
import { layerWebCryptoSecretRandom } from "../../adapters/memory/MemorySecretRandom.ts"
import { SignedUrls } from "../../adapters/signed-urls/SignedUrls.ts"
import { makeUrlSigner } from "../../adapters/signed-urls/UrlSigner.ts"
import type { BudgetLimit } from "../../domain/budget/BudgetPolicy.ts"
import { DEFAULT_POLICY, Policy } from "../../domain/Policy.ts"
import { layerScanWake } from "../../adapters/memory/MemoryScanWake.ts"
import { layerScanWorker } from "../../apps/server/scanWorker.ts"
import { apiClient } from "./api.ts"

export const TEST_BASE_URL = "http://pckgate.test"

export interface TestAppOptions {
  readonly budget?: BudgetLimit
  /** Alters the memory object store (e.g. to make one operation fail). */
  readonly wrapStorage?: (storage: ObjectStorage["Service"]) => ObjectStorage["Service"]
  readonly submissionLimits?: Partial<SubmissionLimits>
  /** Replaces adapters (e.g. a failing store) on top of the memory defaults. */
  readonly override?: Layer.Layer<never, never, never> | Layer.Layer<any, never, never>
  /** The session cookies' key: instances that share it (and a session store) accept each other's cookies. */
  readonly sessionKey?: Uint8Array<ArrayBuffer>
  /** GET /metrics for callers off this machine with this Bearer token. */
  readonly metricsToken?: string
  /** The background scan worker, woken by finalize as on the server (default on; off leaves release-API scans pending). */
  readonly scanWorker?: boolean
  /** Extra routes, after the submit routes (AppOptions.routes). */
  readonly routes?: ReadonlyArray<Route>
}

export const makeTestApp = async (options: TestAppOptions = {}) => {
  const issuer = await makeDevIssuerFromJwk(await generateDevJwk())
  const signer = await makeUrlSigner(crypto.getRandomValues(new Uint8Array(32)), () => TEST_BASE_URL)
  const clockLayer = layerManualClock(new Date())
  const base = Layer.mergeAll(
    layerMemoryRecords,
    layerSequentialIds,
    layerMemoryReviewNotifier,
    layerMemorySha256Hasher,
    layerWebCryptoSecretRandom,
    // Memoized download URLs, as the server composes them (they are what signs at whole seconds).
    layerMemoizedDownloadUrls.pipe(Layer.provide(
      Layer.effect(ObjectStorage, Effect.map(makeMemoryObjectStorage, options.wrapStorage ?? ((s) => s))).pipe(
        Layer.provide(Layer.succeed(SignedUrls, signer)),
        Layer.provide(clockLayer),
      ),
    )),
    layerJwtIdentity({ keys: issuer.keys, issuer: DEV_ISSUER, audience: DEV_AUDIENCE }),
    scannerLayer,
    layerPackFiles,
    layerEphemeralUploadTokens,
    layerEphemeralPublishTokens,
    layerNoCiIdentity,
    Layer.succeed(Policy, { ...DEFAULT_POLICY, budget: options.budget ?? { count: 1000, windowSeconds: 3600 } }),
    layerScanWake,
  ).pipe(Layer.provideMerge(clockLayer))
  const withOverride = options.override === undefined ? base : Layer.merge(base, options.override as Layer.Layer<never>)
  const withWorker = options.scanWorker === false ? withOverride : Layer.provideMerge(layerScanWorker(60_000), withOverride)
  // What the app logs through Effect's logger, kept for assertions.
  const logs: Array<LogLine> = []
  const layer = Layer.merge(withWorker, layerCapturedLogs(logs))
  const runtime = ManagedRuntime.make(layer as Layer.Layer<AppServices | ManualClock | ReviewInbox>)
  const sessions = await makeSessionCodec(options.sessionKey ?? crypto.getRandomValues(new Uint8Array(32)))
  const app = makeApp({
    runtime,
    baseUrl: () => TEST_BASE_URL,
    sessions,
    signer,
    metricsToken: options.metricsToken ?? null,
    routes: [
      ...submitRoutes({ basePath: "/submit-api", corsOrigin: null, limits: { ...DEFAULT_SUBMISSION_LIMITS, ...options.submissionLimits } }),
      ...(options.routes ?? []),
    ],
  })
  const clock = await runtime.runPromise(ManualClock.use(Effect.succeed))
  const inbox = await runtime.runPromise(ReviewInbox.use(Effect.succeed))
  return {
    app,
    api: apiClient(TEST_BASE_URL, app.fetch),
    token: (userId: string, tokenOptions: { admin?: boolean; ttlSeconds?: number; audience?: string } = {}) =>
      issuer.issue({ userId, ...tokenOptions }),
    issuer,
    /** The session cookie codec the app uses (to find the session a cookie names). */
    sessions,
    clock,
    inbox,
    logs,
    runtime,
    dispose: () => runtime.dispose(),
  }
}

export type TestApp = Awaited<ReturnType<typeof makeTestApp>>

/** Creates an engine game and returns its id. */
export const newGame = async (t: TestApp, token: string, name = "Test Game") => {
  const created = await t.api.createGame(token, { name })
  if (created.status !== 201) throw new Error(`create failed: ${JSON.stringify(created.body)}`)
  return created.body.gameId as string
}

/** upload-url + PUT + finalize of `pck`; returns the finalize reply. */
export const release = async (t: TestApp, token: string, gameId: string, pck: { bytes: Uint8Array; declaration: object }) => {
  const presigned = await t.api.uploadUrl(token, gameId, pck.declaration)
  if (presigned.status !== 200) throw new Error(`upload-url failed: ${JSON.stringify(presigned.body)}`)
  const put = await t.api.put(presigned.body.uploadUrl, presigned.body.headers, pck.bytes)
  if (put.status !== 200) throw new Error(`PUT failed: ${JSON.stringify(put.body)}`)
  return t.api.finalize(token, gameId, pck.declaration)
}

/** POST /submit-api/games/submit: a pack and its manifest in one multipart request, as the submit page sends them. */
export const submitPack = async (t: TestApp, token: string, p: { readonly bytes: Uint8Array; readonly manifestText: string }) => {
  const form = new FormData()
  form.append("pck", new Blob([p.bytes as Uint8Array<ArrayBuffer>], { type: "application/octet-stream" }), "game.pck")
  form.append("manifest", p.manifestText)
  const response = await t.app.fetch(new Request(`${TEST_BASE_URL}/submit-api/games/submit`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  }))
  return { status: response.status, body: await response.json() }
}
