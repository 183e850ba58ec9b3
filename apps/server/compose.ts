// The server as one layer graph: configuration → the listener (bound first) → the ports (records, storage, identity,
// notifications, scanner, …) → the app handed to the listener, with the background workers (sweeper, scan worker,
// webhook dispatcher) as scoped layers beside it and Effect's JSON logger (and OTLP tracing when configured) under it
// all. `Layer.launch` runs it until interrupted; closing its scope stops the listener, interrupts the workers, flushes
// the logs and closes the database, in that order of dependence.
import { join } from "node:path"
import { Context, Effect, Layer } from "effect"
import { createRemoteJWKSet } from "jose"
import { type App, makeApp } from "../../adapters/http/App.ts"
import { makeSessionCodec } from "../../adapters/http/session.ts"
import { DEV_AUDIENCE, DEV_ISSUER, loadDevIssuer } from "../../adapters/identity/DevIssuer.ts"
import { layerJwtIdentity } from "../../adapters/identity/JwtIdentity.ts"
import { makeOidcLogin, remoteKeys } from "../../adapters/identity/OidcLogin.ts"
import { layerMemoizedDownloadUrls } from "../../adapters/cache/MemoizedDownloadUrls.ts"
import { browserRoutes } from "../../adapters/http/pages/index.ts"
import type { AppServices } from "../../adapters/http/route.ts"
import type { SignInMode } from "../../adapters/http/routes/auth.ts"
import type { UrlSigner } from "../../adapters/signed-urls/UrlSigner.ts"
import { layerScanWake } from "../../adapters/memory/MemoryScanWake.ts"
import { layerJwtUploadTokens } from "../../adapters/identity/JwtUploadTokens.ts"
import { layerMeteredPackScanner } from "../../adapters/observability/meteredScanner.ts"
import { layerLazyPackScanner as scannerLayer } from "../../adapters/scanner/lazyLayer.ts"
import { layerLazyPackFiles } from "../../adapters/scanner/packFiles/lazyLayer.ts"
import { layerNodeSha256Hasher } from "../../adapters/system/NodeSha256Hasher.ts"
import { layerRandomIds } from "../../adapters/system/RandomIds.ts"
import { ciIssuer, type CiIssuer, layerJoseCiIdentity } from "../../adapters/identity/JoseCiIdentity.ts"
import { layerJwtPublishTokens } from "../../adapters/identity/JwtPublishTokens.ts"
import { layerNodeSecretRandom } from "../../adapters/system/NodeSecretRandom.ts"
import { loadSecret } from "../../adapters/system/secretFiles.ts"
import { layerSystemClock } from "../../adapters/system/SystemClock.ts"
import { DEFAULT_POLICY, Policy } from "../../domain/Policy.ts"
import type { ServerConfig } from "./config.ts"
import { HttpListener, layerHttpListener } from "./httpListener.ts"
import { selectNotifications } from "./notifications.ts"
import { layerObservability } from "./observability.ts"
import { selectRecords } from "./records.ts"
import { layerScanWorker } from "./scanWorker.ts"
import { layerRescanOnUpgrade } from "./rescanOnUpgrade.ts"
import { selectStorage } from "./storage.ts"
import { layerSweeper } from "./sweeper.ts"
import { DEFAULT_SUBMISSION_LIMITS, submitRoutes } from "../../adapters/http/routes/submit.ts"

const identityLayer = async (config: ServerConfig) =>
  config.oidc !== null
    ? layerJwtIdentity({
      keys: createRemoteJWKSet(new URL(config.oidc.jwksUrl), { timeoutDuration: 5000 }),
      issuer: config.oidc.issuer,
      audience: config.oidc.audience,
      adminSubjects: config.adminSubjects,
    })
    : layerJwtIdentity({
      keys: (await loadDevIssuer(config.dataDir, config.devIssuerJwk)).keys,
      issuer: DEV_ISSUER,
      audience: DEV_AUDIENCE,
      adminSubjects: config.adminSubjects,
    })

/** How people sign in on the pages: the identity provider's code flow with OIDC, the dev sign-in page without. */
const signInMode = (config: ServerConfig): SignInMode =>
  config.oidc === null
    ? { kind: "dev" }
    : {
      kind: "oidc",
      login: config.oidcClient === null ? null : makeOidcLogin({
        issuer: config.oidc.issuer,
        clientId: config.oidcClient.clientId,
        clientSecret: config.oidcClient.clientSecret,
        scopes: config.oidcClient.scopes,
        keys: remoteKeys(config.oidc.jwksUrl),
        adminSubjects: config.adminSubjects,
      }),
    }

/** What the server says about itself when it starts (what a newcomer needs, no secret). */
/** The CI issuers trusted publishing accepts (a provider configured `off` has none). */
const ciIssuers = (settings: ServerConfig["trustedPublishing"]): ReadonlyArray<CiIssuer> => [
  ...(settings.githubIssuer === null ? [] : [ciIssuer("github", settings.githubIssuer)]),
  ...(settings.gitlabIssuer === null ? [] : [ciIssuer("gitlab", settings.gitlabIssuer)]),
]

export class StartupLines extends Context.Service<StartupLines, ReadonlyArray<string>>()("pckgate/server/StartupLines") {}

/** The presigned-URL signer when the store is self-served (local disk): the app mounts /storage/ with it. */
export class SelfServedSigner extends Context.Service<SelfServedSigner, UrlSigner | null>()("pckgate/server/SelfServedSigner") {}

/** Every port of the app, from the configuration; the storage signer links to the bound address. */
const layerPorts = (config: ServerConfig) =>
  Layer.unwrap(Effect.gen(function*() {
    const listener = yield* HttpListener
    const records = yield* Effect.promise(() => selectRecords(config))
    const storage = yield* Effect.promise(() => selectStorage(config, () => listener.baseUrl))
    const notifications = selectNotifications(config.reviewWebhook, records, config.webhookAllowPrivateAddresses === true)
    const identity = yield* Effect.promise(() => identityLayer(config))
    const ports = Layer.mergeAll(
      notifications.layer,
      // Downloads of one release within one second share one signature (adapters/cache/MemoizedDownloadUrls.ts).
      layerMemoizedDownloadUrls.pipe(Layer.provide(storage.layer)),
      identity,
      layerNodeSha256Hasher,
      layerRandomIds,
      layerNodeSecretRandom,
      layerMeteredPackScanner.pipe(Layer.provide(scannerLayer)),
      layerLazyPackFiles,
      layerJwtUploadTokens(config.dataDir, config.uploadTokenJwk),
      layerJwtPublishTokens(config.dataDir, config.publishTokenJwk),
      layerJoseCiIdentity({ issuers: ciIssuers(config.trustedPublishing), audience: config.trustedPublishing.audience }),
      Layer.succeed(Policy, { ...DEFAULT_POLICY, budget: config.budget }),
      // Finalize wakes this instance's scan worker (apps/server/scanWorker.ts).
      layerScanWake,
    ).pipe(Layer.provideMerge(layerSystemClock))
    const describe = [
      records.describe,
      storage.describe,
      notifications.describe,
      config.oidc !== null ? `identity: OIDC issuer ${config.oidc.issuer}` : `identity: dev issuer (key in ${join(config.dataDir, "keys")})`,
      config.oidc === null
        ? "browser sign-in: dev sign-in page /auth/dev, from this machine only (it signs anyone in as anyone, administrators included; configure OIDC before exposing the server)"
        : config.oidcClient !== null ? `browser sign-in: OIDC client ${config.oidcClient.clientId}` : "browser sign-in: off (set OIDC_CLIENT_ID)",
    ]
    return Layer.mergeAll(ports, Layer.succeed(StartupLines, describe), Layer.succeed(SelfServedSigner, storage.signer ?? null))
  }))

/** The route whose spans are sampled (DOWNLOAD_TRACE_ONE_IN), as the app names routes. */
const DOWNLOAD_URL_ROUTE = "GET /api/games/:gameId/releases/:version/download-url"

/** The app over the ports, handed to the listener once everything below it is up. */
const layerApp = (config: ServerConfig) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const listener = yield* HttpListener
    const context = yield* Effect.context<AppServices>()
    const sessionSecret = yield* Effect.promise(() => loadSecret(config.sessionSecret, "SESSION_SECRET", join(config.dataDir, "keys", "session.key")))
    const signer = yield* SelfServedSigner
    const baseUrl = () => listener.baseUrl
    const submitUrl = new URL(config.submitApiUrl ?? `${listener.baseUrl}/submit-api`)
    const pagesOrigin = new URL(listener.baseUrl).origin
    const app: App = makeApp({
      runtime: { runPromiseExit: Effect.runPromiseExitWith(context), runSync: Effect.runSyncWith(context) },
      baseUrl,
      sessions: yield* Effect.promise(() => makeSessionCodec(sessionSecret)),
      ...(signer !== null ? { signer } : {}),
      bodyTimeouts: { idleMs: config.uploadIdleTimeoutSeconds * 1000, deadlineMs: config.uploadDeadlineSeconds * 1000 },
      maxUploadsPerAccount: config.maxUploadsPerAccount,
      metricsToken: config.metricsToken,
      traceOneIn: { [DOWNLOAD_URL_ROUTE]: config.downloadTraceOneIn },
      routes: [
        ...submitRoutes({
          basePath: submitUrl.pathname.replace(/\/+$/, ""),
          corsOrigin: submitUrl.origin === pagesOrigin ? null : pagesOrigin,
          limits: {
            ...DEFAULT_SUBMISSION_LIMITS,
            idleTimeoutMs: config.uploadIdleTimeoutSeconds * 1000,
            deadlineMs: config.uploadDeadlineSeconds * 1000,
          },
        }),
        // The pages, sign-in and the submit page's upload tokens (docs/pages.md).
        ...browserRoutes({ signIn: signInMode(config), secret: sessionSecret, submitApiUrl: () => submitUrl.toString().replace(/\/+$/, "") }),
      ],
    })
    listener.serve(app)
    // Closing: in-flight requests finish while the ports below (database, storage) are still open.
    yield* Effect.addFinalizer(() => listener.drain)
    const lines = yield* StartupLines
    yield* Effect.sync(() => {
      console.log(`pckgate listening on http://${config.host}:${listener.port} (public base URL ${listener.baseUrl})`)
      console.log(`data directory: ${config.dataDir}`)
      for (const line of lines) console.log(line)
      if (config.oidc === null) console.log("get a token: npm run -s cli -- token --user <id> [--admin]")
    })
  }))

/** The whole server. `write` receives the JSON log lines (stdout in production). */
export const serverLayer = (config: ServerConfig, write: (chunk: string) => void) => {
  const ports = layerPorts(config)
  const workers = Layer.mergeAll(layerSweeper, layerScanWorker(config.scanIntervalSeconds * 1000), layerRescanOnUpgrade(config.scanIntervalSeconds * 1000))
  return Layer.mergeAll(layerApp(config), workers).pipe(
    Layer.provide(ports),
    Layer.provide(layerHttpListener(config)),
    Layer.provide(layerObservability(config, write)),
  )
}
