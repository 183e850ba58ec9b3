import { DEFAULT_PUBLISHING_AUDIENCE, GITHUB_ACTIONS_ISSUER, GITLAB_ISSUER } from "../../adapters/identity/JoseCiIdentity.ts"
import { resolve } from "node:path"
import type { BudgetLimit } from "../../domain/budget/BudgetPolicy.ts"
import { readReviewWebhook, type ReviewWebhookConfig } from "../../adapters/notifier/webhookConfig.ts"

/** A CI issuer's URL: the default when unset, none when `off`. */
const issuerSetting = (value: string | undefined, fallback: string): string | null =>
  value === undefined || value === "" ? fallback : value === "off" ? null : value.replace(/\/+$/, "")

export interface OidcConfig {
  readonly jwksUrl: string
  readonly issuer: string
  readonly audience: string
}

/** The browser sign-in client at the identity provider (pages: /auth/login, /auth/callback). */
export interface OidcClientConfig {
  readonly clientId: string
  /** Confidential clients only; public clients rely on PKCE. */
  readonly clientSecret: string | null
  readonly scopes: string
}

export interface ServerConfig {
  readonly host: string
  readonly port: number
  readonly dataDir: string
  /** Public base URL; null = http://localhost:<bound port>, known once the server has bound. */
  readonly baseUrl: string | null
  readonly budget: BudgetLimit
  readonly oidc: OidcConfig | null
  /** OIDC_CLIENT_ID (+ OIDC_CLIENT_SECRET, OIDC_SCOPES): browser sign-in; null = pages offer no OIDC sign-in. */
  readonly oidcClient: OidcClientConfig | null
  readonly adminSubjects: ReadonlyArray<string>
  readonly urlSigningSecret: string | undefined
  readonly sessionSecret: string | undefined
  /** The dev issuer's private JWK, to share it between instances; otherwise kept in DATA_DIR. */
  readonly devIssuerJwk: string | undefined
  /** `{submit_api_url}`; null = `{base_url}/submit-api`. The app serves it at this URL's path. */
  readonly submitApiUrl: string | null
  /** Idle timeout of every request body (uploads, JSON, forms); JSON and form bodies must arrive within it in all. */
  readonly uploadIdleTimeoutSeconds: number
  readonly uploadDeadlineSeconds: number
  /** MAX_CONNECTIONS: connections served at once; more are refused by the server socket. */
  readonly maxConnections: number
  /** MAX_UPLOADS_PER_ACCOUNT: multipart submissions and presigned PUTs one account may run at once per instance. */
  readonly maxUploadsPerAccount: number
  /** STORAGE_DIRECT_WRITES: the local store writes multipart uploads around the page cache (O_DIRECT) where it can. */
  readonly storageDirectWrites: boolean
  /** How often releases finalized through the release API are looked for and scanned. */
  readonly scanIntervalSeconds: number
  /** The key of the submit page's short-lived upload tokens (a private ES256 JWK), to share it between instances. */
  readonly uploadTokenJwk: string | undefined
  /** The key of trusted publishing's 15-minute tokens (a private ES256 JWK), to share it between instances. */
  readonly publishTokenJwk: string | undefined
  /** Trusted publishing: the CI providers' issuers (null: that provider is off) and the audience their tokens must name. */
  readonly trustedPublishing: { readonly githubIssuer: string | null; readonly gitlabIssuer: string | null; readonly audience: string }
  /** mysql://user:pass@host:port/db; null = embedded SQLite in DATA_DIR. */
  readonly databaseUrl: string | null
  /** `local` (the embedded default, served by this app) or `gcs`. */
  readonly storage: "local" | "gcs"
  readonly gcsBucket: string | null
  /** GCS_API_ENDPOINT: emulators and tests only; GCS JSON API calls and signed URLs go to this origin. */
  readonly gcsApiEndpoint: string | null
  /**
   * GAME_VIEW_CACHE_MS: how long this instance answers download-url's game read from memory (adapters/cache), which is
   * also how long an approval made on another instance may take to show here; 0 turns the cache off.
   */
  readonly gameViewCacheMs: number
  /** METRICS_TOKEN: GET /metrics also answers callers off this machine that send it as a Bearer token. */
  readonly metricsToken: string | null
  /** DOWNLOAD_TRACE_ONE_IN: one download-url request in N gets a trace (docs/performance.md); 1 traces every one. */
  readonly downloadTraceOneIn: number
  /** OTEL_EXPORTER_OTLP_ENDPOINT (base URL; traces go to `/v1/traces` under it); null = no trace export. */
  readonly otlpEndpoint: string | null
  /** OTEL_SERVICE_NAME, default `pckgate`. */
  readonly otlpServiceName: string
  /** REVIEW_WEBHOOK_URL and REVIEW_WEBHOOK_SECRET (docs/webhooks.md); null = review requests are only logged. */
  readonly reviewWebhook: ReviewWebhookConfig | null
  /** WEBHOOK_ALLOW_PRIVATE_ADDRESSES=1 (tests only): creators' webhooks may go to http and loopback/private addresses. */
  readonly webhookAllowPrivateAddresses?: boolean
}

type Env = Readonly<Record<string, string | undefined>>

/** An integer setting of at least `min` (1 or 0); a bad value is reported in `errors`. */
const intSetting = (env: Env, name: string, fallback: number, min: 0 | 1, errors: Array<string>): number => {
  const raw = env[name]
  if (raw === undefined || raw === "") return fallback
  const value = Number(raw)
  if (!Number.isSafeInteger(value) || value < min) errors.push(`${name} must be ${min === 1 ? "a positive integer" : "0 or a positive integer"} (got '${raw}')`)
  return value
}
const positiveInt = (env: Env, name: string, fallback: number, errors: Array<string>) => intSetting(env, name, fallback, 1, errors)

/** DOWNLOAD_TRACE_ONE_IN when unset. */
export const DEFAULT_DOWNLOAD_TRACE_ONE_IN = 100

/** GAME_VIEW_CACHE_MS when unset. */
export const DEFAULT_GAME_VIEW_CACHE_MS = 5000

/** Reads the environment; every problem is reported at once so an operator can fix them in one go. */
export const readConfig = (env: Env): { readonly config: ServerConfig } | { readonly errors: ReadonlyArray<string> } => {
  const errors: Array<string> = []
  const portRaw = env["PORT"] ?? "8080"
  const port = Number(portRaw)
  if (!Number.isInteger(port) || port < 0 || port > 65535) errors.push(`PORT must be 0-65535 (got '${portRaw}')`)
  const baseUrl = env["BASE_URL"]?.replace(/\/+$/, "") || null
  if (baseUrl !== null && !/^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(baseUrl)) errors.push(`BASE_URL must be an http(s) URL (got '${baseUrl}')`)
  const oidcParts = [env["OIDC_JWKS_URL"], env["OIDC_ISSUER"], env["OIDC_AUDIENCE"]]
  const oidcSet = oidcParts.filter((v) => v !== undefined && v !== "").length
  if (oidcSet > 0 && oidcSet < 3) errors.push("OIDC needs all of OIDC_JWKS_URL, OIDC_ISSUER and OIDC_AUDIENCE")
  const config: ServerConfig = {
    host: env["HOST"] || "127.0.0.1",
    port,
    dataDir: resolve(env["DATA_DIR"] || "./data"),
    baseUrl,
    budget: {
      count: positiveInt(env, "RATE_LIMIT_COUNT", 1, errors),
      windowSeconds: positiveInt(env, "RATE_LIMIT_WINDOW_SECONDS", 3600, errors),
    },
    oidc: oidcSet === 3 ? { jwksUrl: oidcParts[0]!, issuer: oidcParts[1]!, audience: oidcParts[2]! } : null,
    oidcClient: env["OIDC_CLIENT_ID"]
      ? { clientId: env["OIDC_CLIENT_ID"], clientSecret: env["OIDC_CLIENT_SECRET"] || null, scopes: env["OIDC_SCOPES"] || "openid" }
      : null,
    adminSubjects: (env["ADMIN_SUBJECTS"] ?? "").split(",").map((s) => s.trim()).filter((s) => s !== ""),
    urlSigningSecret: env["URL_SIGNING_SECRET"],
    sessionSecret: env["SESSION_SECRET"],
    devIssuerJwk: env["DEV_ISSUER_JWK"],
    uploadTokenJwk: env["UPLOAD_TOKEN_JWK"],
    publishTokenJwk: env["PUBLISH_TOKEN_JWK"],
    trustedPublishing: {
      githubIssuer: issuerSetting(env["TRUSTED_PUBLISHING_GITHUB_ISSUER"], GITHUB_ACTIONS_ISSUER),
      gitlabIssuer: issuerSetting(env["TRUSTED_PUBLISHING_GITLAB_ISSUER"], GITLAB_ISSUER),
      audience: env["TRUSTED_PUBLISHING_AUDIENCE"] || DEFAULT_PUBLISHING_AUDIENCE,
    },
    submitApiUrl: env["SUBMIT_API_URL"]?.replace(/\/+$/, "") || null,
    uploadIdleTimeoutSeconds: positiveInt(env, "UPLOAD_IDLE_TIMEOUT_SECONDS", 60, errors),
    uploadDeadlineSeconds: positiveInt(env, "UPLOAD_DEADLINE_SECONDS", 7200, errors),
    scanIntervalSeconds: positiveInt(env, "SCAN_INTERVAL_SECONDS", 5, errors),
    maxConnections: positiveInt(env, "MAX_CONNECTIONS", 4096, errors),
    maxUploadsPerAccount: positiveInt(env, "MAX_UPLOADS_PER_ACCOUNT", 4, errors),
    storageDirectWrites: env["STORAGE_DIRECT_WRITES"] !== "off",
    databaseUrl: env["DATABASE_URL"] || null,
    storage: env["STORAGE"] === "gcs" ? "gcs" : "local",
    gcsBucket: env["GCS_BUCKET"] || null,
    gcsApiEndpoint: env["GCS_API_ENDPOINT"]?.replace(/\/+$/, "") || null,
    reviewWebhook: readReviewWebhook(env, errors),
    webhookAllowPrivateAddresses: env["WEBHOOK_ALLOW_PRIVATE_ADDRESSES"] === "1",
    metricsToken: env["METRICS_TOKEN"] || null,
    otlpEndpoint: env["OTEL_EXPORTER_OTLP_ENDPOINT"]?.replace(/\/+$/, "") || null,
    otlpServiceName: env["OTEL_SERVICE_NAME"] || "pckgate",
    gameViewCacheMs: intSetting(env, "GAME_VIEW_CACHE_MS", DEFAULT_GAME_VIEW_CACHE_MS, 0, errors),
    downloadTraceOneIn: positiveInt(env, "DOWNLOAD_TRACE_ONE_IN", DEFAULT_DOWNLOAD_TRACE_ONE_IN, errors),
  }
  if (config.submitApiUrl !== null && !/^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(config.submitApiUrl)) {
    errors.push(`SUBMIT_API_URL must be an http(s) URL (got '${config.submitApiUrl}')`)
  }
  if (config.otlpEndpoint !== null && !/^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(config.otlpEndpoint)) {
    errors.push(`OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL (got '${config.otlpEndpoint}')`)
  }
  if (config.metricsToken !== null && config.metricsToken.length < 32) errors.push("METRICS_TOKEN must be at least 32 characters")
  if (!["", "on", "off", undefined].includes(env["STORAGE_DIRECT_WRITES"])) {
    errors.push(`STORAGE_DIRECT_WRITES must be 'on' or 'off' (got '${env["STORAGE_DIRECT_WRITES"]}')`)
  }
  if (config.oidcClient !== null && config.oidc === null) errors.push("OIDC_CLIENT_ID needs OIDC_JWKS_URL, OIDC_ISSUER and OIDC_AUDIENCE")
  if (config.oidcClient !== null && !config.oidcClient.scopes.split(" ").includes("openid")) errors.push(`OIDC_SCOPES must include 'openid' (got '${config.oidcClient.scopes}')`)
  if (env["STORAGE"] !== undefined && env["STORAGE"] !== "" && env["STORAGE"] !== "local" && env["STORAGE"] !== "gcs") {
    errors.push(`STORAGE must be 'local' or 'gcs' (got '${env["STORAGE"]}')`)
  }
  for (const [name, value] of [["URL_SIGNING_SECRET", config.urlSigningSecret], ["SESSION_SECRET", config.sessionSecret]] as const) {
    if (value !== undefined && value !== "" && value.length < 32) errors.push(`${name} must be at least 32 characters`)
  }
  return errors.length > 0 ? { errors } : { config }
}
