import { join } from "node:path"
import { Effect, Layer, ManagedRuntime } from "effect"
import { createRemoteJWKSet } from "jose"
import { type App, defaultLog, type LogEntry, makeApp } from "../../adapters/http/App.ts"
import { makeSessionCodec } from "../../adapters/http/session.ts"
import { DEV_AUDIENCE, DEV_ISSUER, loadDevIssuer } from "../../adapters/identity/DevIssuer.ts"
import { layerJwtIdentity } from "../../adapters/identity/JwtIdentity.ts"
import { layerLogReviewNotifier } from "../../adapters/notifier/LogReviewNotifier.ts"
import { layerNodeSha256Hasher } from "../../adapters/system/NodeSha256Hasher.ts"
import { layerRandomIds } from "../../adapters/system/RandomIds.ts"
import { loadSecret } from "../../adapters/system/secretFiles.ts"
import { layerSystemClock } from "../../adapters/system/SystemClock.ts"
import { DEFAULT_POLICY, Policy } from "../../domain/Policy.ts"
import type { ServerConfig } from "./config.ts"
import { selectRecords } from "./records.ts"
import { selectStorage } from "./storage.ts"
import { startSweeper } from "./sweeper.ts"

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

/** Config → layers → runtime → app. `baseUrl` is read per request, so it may be settled after binding. */
export const compose = async (
  config: ServerConfig,
  baseUrl: () => string,
  log: (entry: LogEntry) => void = defaultLog,
): Promise<Composed> => {
  const sessionSecret = await loadSecret(config.sessionSecret, "SESSION_SECRET", join(config.dataDir, "keys", "session.key"))
  const records = await selectRecords(config)
  const storage = await selectStorage(config, baseUrl)
  const layer = Layer.mergeAll(
    records.layer,
    storage.layer,
    await identityLayer(config),
    layerLogReviewNotifier(log),
    layerNodeSha256Hasher,
    layerRandomIds,
    Layer.succeed(Policy, { ...DEFAULT_POLICY, budget: config.budget }),
  ).pipe(Layer.provideMerge(layerSystemClock))

  // Layers are built now, so a broken configuration fails at start-up rather than on the first request.
  const runtime = ManagedRuntime.make(Layer.orDie(layer))
  await runtime.runPromise(Effect.void)
  const stopSweeper = startSweeper(runtime, log)
  const app = makeApp({
    runtime,
    baseUrl,
    sessions: await makeSessionCodec(sessionSecret),
    ...(storage.signer !== undefined ? { signer: storage.signer } : {}),
    log,
  })
  return {
    app,
    describe: [
      records.describe,
      storage.describe,
      config.oidc !== null ? `identity: OIDC issuer ${config.oidc.issuer}` : `identity: dev issuer (key in ${join(config.dataDir, "keys")})`,
    ],
    // The sweeper stops first; disposing the runtime then closes the database (pool ended, SQLite file closed).
    dispose: async () => {
      await stopSweeper()
      await runtime.dispose()
    },
  }
}
