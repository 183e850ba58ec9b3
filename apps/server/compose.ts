import { join } from "node:path"
import { Effect, Layer, ManagedRuntime } from "effect"
import { createRemoteJWKSet } from "jose"
import { type App, defaultLog, type LogEntry, makeApp } from "../../adapters/http/App.ts"
import { makeSessionCodec } from "../../adapters/http/session.ts"
import { DEV_AUDIENCE, DEV_ISSUER, loadDevIssuer } from "../../adapters/identity/DevIssuer.ts"
import { layerJwtIdentity } from "../../adapters/identity/JwtIdentity.ts"
import { makeOidcLogin, remoteKeys } from "../../adapters/identity/OidcLogin.ts"
import { layerMemoizedDownloadUrls } from "../../adapters/cache/MemoizedDownloadUrls.ts"
import { browserRoutes } from "../../adapters/http/pages/index.ts"
import type { SignInMode } from "../../adapters/http/routes/auth.ts"
import { layerJwtUploadTokens } from "../../adapters/identity/JwtUploadTokens.ts"
import { layerLazyPackScanner as scannerLayer } from "../../adapters/scanner/lazyLayer.ts"
import { layerNodeSha256Hasher } from "../../adapters/system/NodeSha256Hasher.ts"
import { layerRandomIds } from "../../adapters/system/RandomIds.ts"
import { loadSecret } from "../../adapters/system/secretFiles.ts"
import { layerSystemClock } from "../../adapters/system/SystemClock.ts"
import { DEFAULT_POLICY, Policy } from "../../domain/Policy.ts"
import type { ServerConfig } from "./config.ts"
import { selectNotifications } from "./notifications.ts"
import { selectRecords } from "./records.ts"
import { selectStorage } from "./storage.ts"
import { startScanWorker } from "./scanWorker.ts"
import { startSweeper } from "./sweeper.ts"
import { DEFAULT_SUBMISSION_LIMITS, submitRoutes } from "../../adapters/http/routes/submit.ts"

export interface Composed {
  readonly app: App
  readonly describe: ReadonlyArray<string>
  readonly dispose: () => Promise<void>
}

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

/** Config → layers → runtime → app. `baseUrl` is read per request, so it may be settled after binding. */
export const compose = async (
  config: ServerConfig,
  baseUrl: () => string,
  log: (entry: LogEntry) => void = defaultLog,
): Promise<Composed> => {
  const sessionSecret = await loadSecret(config.sessionSecret, "SESSION_SECRET", join(config.dataDir, "keys", "session.key"))
  const records = await selectRecords(config)
  const storage = await selectStorage(config, baseUrl)
  const notifications = selectNotifications(config.reviewWebhook, records, log)
  const layer = Layer.mergeAll(
    records.layer,
    // Downloads of one release within one second share one signature (adapters/cache/MemoizedDownloadUrls.ts).
    layerMemoizedDownloadUrls.pipe(Layer.provide(storage.layer)),
    await identityLayer(config),
    notifications.layer,
    layerNodeSha256Hasher,
    layerRandomIds,
    scannerLayer,
    layerJwtUploadTokens(config.dataDir, config.uploadTokenJwk),
    Layer.succeed(Policy, { ...DEFAULT_POLICY, budget: config.budget }),
  ).pipe(Layer.provideMerge(layerSystemClock))

  // Layers are built now, so a broken configuration fails at start-up rather than on the first request.
  const runtime = ManagedRuntime.make(Layer.orDie(layer))
  await runtime.runPromise(Effect.void)
  const stopSweeper = startSweeper(runtime, log)
  const stopNotifications = notifications.start(runtime)
  const stopScanWorker = startScanWorker(runtime, log, config.scanIntervalSeconds * 1000)
  const submitUrl = new URL(config.submitApiUrl ?? `${baseUrl()}/submit-api`)
  const pagesOrigin = new URL(baseUrl()).origin
  const app = makeApp({
    runtime,
    baseUrl,
    sessions: await makeSessionCodec(sessionSecret),
    ...(storage.signer !== undefined ? { signer: storage.signer } : {}),
    log,
    bodyTimeouts: { idleMs: config.uploadIdleTimeoutSeconds * 1000, deadlineMs: config.uploadDeadlineSeconds * 1000 },
    maxUploadsPerAccount: config.maxUploadsPerAccount,
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
  return {
    app,
    describe: [
      records.describe,
      storage.describe,
      notifications.describe,
      config.oidc !== null ? `identity: OIDC issuer ${config.oidc.issuer}` : `identity: dev issuer (key in ${join(config.dataDir, "keys")})`,
      config.oidc === null
        ? "browser sign-in: dev sign-in page /auth/dev, from this machine only (it signs anyone in as anyone, administrators included; configure OIDC before exposing the server)"
        : config.oidcClient !== null ? `browser sign-in: OIDC client ${config.oidcClient.clientId}` : "browser sign-in: off (set OIDC_CLIENT_ID)",
    ],
    // The sweeper stops first; disposing the runtime then closes the database (pool ended, SQLite file closed).
    dispose: async () => {
      await stopSweeper()
      await stopNotifications()
      await stopScanWorker()
      await runtime.dispose()
    },
  }
}
