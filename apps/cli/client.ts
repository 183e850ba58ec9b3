// The CLI's HTTP client: target and credentials, and service failures turned into exit codes.
import { execFileSync } from "node:child_process"
import { type CliIo, EXIT } from "./io.ts"

export const DEFAULT_URL = "http://localhost:8080"

export interface ServiceError {
  readonly status: number
  readonly code: string
  readonly detail: string
  readonly retryAfterSeconds?: number
}

/** A failure that ends the command with an exit code and a message for stderr. */
export class CliFailure extends Error {
  readonly exitCode: number
  readonly json: Record<string, unknown>
  constructor(exitCode: number, message: string, json: Record<string, unknown> = {}) {
    super(message)
    this.exitCode = exitCode
    this.json = json
  }
}

/** How a service error ends a command (documented in the README). */
export const exitCodeFor = (error: ServiceError): number => {
  if (error.status === 429) return EXIT.rateLimited
  if (error.status >= 500) return EXIT.serviceFailure
  if (error.status === 401 || error.status === 400 || error.status === 404 || error.code === "version_exists" || error.code === "slug_taken" || error.code === "not_an_engine_game") {
    return EXIT.cannotRun
  }
  return EXIT.serviceFailure
}

export const failureFrom = (error: ServiceError) =>
  new CliFailure(exitCodeFor(error), `error: ${error.code} — ${error.detail}`, { error: error.code, detail: error.detail, status: error.status, ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}) })

export interface ClientOptions {
  readonly url: string
  readonly token: string | undefined
  /** Run to get a fresh token when the service answers 401 (tokens last an hour; reviews take days). */
  readonly tokenCommand: string | undefined
}

export const clientOptions = (values: Readonly<Record<string, string | boolean | undefined>>, io: CliIo): ClientOptions => ({
  url: String(values["url"] ?? io.env["PCKGATE_URL"] ?? DEFAULT_URL).replace(/\/+$/, ""),
  token: (values["token"] as string | undefined) ?? io.env["PCKGATE_TOKEN"],
  tokenCommand: (values["token-command"] as string | undefined) ?? io.env["PCKGATE_TOKEN_COMMAND"],
})

export type Reply<T = any> = { readonly ok: true; readonly status: number; readonly body: T; readonly headers: Headers } | { readonly ok: false; readonly error: ServiceError }

export const makeClient = (options: ClientOptions, io: CliIo) => {
  let token = options.token
  const refreshToken = (): boolean => {
    if (options.tokenCommand !== undefined) {
      const output = execFileSync("sh", ["-c", options.tokenCommand], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim()
      const fresh = output.split("\n").at(-1) ?? ""
      if (fresh !== "" && fresh !== token) return void (token = fresh), true
    }
    const fromEnv = io.env["PCKGATE_TOKEN"]
    if (fromEnv !== undefined && fromEnv !== token) return void (token = fromEnv), true
    return false
  }

  const send = async (method: string, path: string, body?: unknown, retriedAuth = false): Promise<Reply> => {
    const headers: Record<string, string> = {}
    if (token !== undefined) headers["authorization"] = `Bearer ${token}`
    if (body !== undefined) headers["content-type"] = "application/json"
    let response: Response
    try {
      response = await fetch(`${options.url}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) })
    } catch (cause) {
      throw new CliFailure(EXIT.serviceFailure, `error: network — could not reach ${options.url}: ${(cause as Error).cause ?? (cause as Error).message}`, { error: "network" })
    }
    const text = await response.text()
    let parsed: any = null
    try {
      parsed = text === "" ? null : JSON.parse(text)
    } catch {
      parsed = { error: "unexpected_response", detail: text.slice(0, 200) }
    }
    if (response.ok) return { ok: true, status: response.status, body: parsed, headers: response.headers }
    if (response.status === 401 && !retriedAuth && refreshToken()) return send(method, path, body, true)
    return {
      ok: false,
      error: {
        status: response.status,
        code: String(parsed?.error ?? `http_${response.status}`),
        detail: String(parsed?.detail ?? response.statusText),
        ...(typeof parsed?.retryAfterSeconds === "number" ? { retryAfterSeconds: parsed.retryAfterSeconds } : {}),
      },
    }
  }

  return {
    url: options.url,
    send,
    /** The body of a successful reply, or a CliFailure carrying the service's error. */
    expect: async <T = any>(method: string, path: string, body?: unknown): Promise<T> => {
      const reply = await send(method, path, body)
      if (!reply.ok) throw failureFrom(reply.error)
      return reply.body as T
    },
  }
}

export type Client = ReturnType<typeof makeClient>

/** Common options of the commands that talk to the service. */
export const SERVICE_OPTIONS = ["url", "token", "token-command"] as const
