import { resolve } from "node:path"
import type { BudgetLimit } from "../../domain/budget/BudgetPolicy.ts"

export interface OidcConfig {
  readonly jwksUrl: string
  readonly issuer: string
  readonly audience: string
}

export interface ServerConfig {
  readonly host: string
  readonly port: number
  readonly dataDir: string
  /** Public base URL; null = http://localhost:<bound port>, known once the server has bound. */
  readonly baseUrl: string | null
  readonly budget: BudgetLimit
  readonly oidc: OidcConfig | null
  readonly adminSubjects: ReadonlyArray<string>
  readonly urlSigningSecret: string | undefined
  readonly sessionSecret: string | undefined
  /** The dev issuer's private JWK, to share it between instances; otherwise kept in DATA_DIR. */
  readonly devIssuerJwk: string | undefined
  /** mysql://user:pass@host:port/db; null = embedded SQLite in DATA_DIR. */
  readonly databaseUrl: string | null
  /** `local` (the embedded default, served by this app) or `gcs`. */
  readonly storage: "local" | "gcs"
  readonly gcsBucket: string | null
  /** GCS_API_ENDPOINT: emulators and tests only; GCS JSON API calls and signed URLs go to this origin. */
  readonly gcsApiEndpoint: string | null
}

type Env = Readonly<Record<string, string | undefined>>

const positiveInt = (env: Env, name: string, fallback: number, errors: Array<string>): number => {
  const raw = env[name]
  if (raw === undefined || raw === "") return fallback
  const value = Number(raw)
  if (!Number.isSafeInteger(value) || value < 1) errors.push(`${name} must be a positive integer (got '${raw}')`)
  return value
}

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
    adminSubjects: (env["ADMIN_SUBJECTS"] ?? "").split(",").map((s) => s.trim()).filter((s) => s !== ""),
    urlSigningSecret: env["URL_SIGNING_SECRET"],
    sessionSecret: env["SESSION_SECRET"],
    devIssuerJwk: env["DEV_ISSUER_JWK"],
    databaseUrl: env["DATABASE_URL"] || null,
    storage: env["STORAGE"] === "gcs" ? "gcs" : "local",
    gcsBucket: env["GCS_BUCKET"] || null,
    gcsApiEndpoint: env["GCS_API_ENDPOINT"]?.replace(/\/+$/, "") || null,
  }
  if (env["STORAGE"] !== undefined && env["STORAGE"] !== "" && env["STORAGE"] !== "local" && env["STORAGE"] !== "gcs") {
    errors.push(`STORAGE must be 'local' or 'gcs' (got '${env["STORAGE"]}')`)
  }
  for (const [name, value] of [["URL_SIGNING_SECRET", config.urlSigningSecret], ["SESSION_SECRET", config.sessionSecret]] as const) {
    if (value !== undefined && value !== "" && value.length < 32) errors.push(`${name} must be at least 32 characters`)
  }
  return errors.length > 0 ? { errors } : { config }
}
