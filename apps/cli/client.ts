// The CLI's HTTP client. Replies are decoded with the server's own wire Schemas (adapters/http/openapi/schemas.ts):
// a reply this CLI cannot read is an `unexpected_response` failure, never a value of the wrong shape.
import { execFileSync } from "node:child_process"
import { Result, Schema } from "effect"
import { ErrorBody, PageCursor } from "../../adapters/http/openapi/schemas.ts"
import type { SERVICE_OPTIONS, Values } from "./args.ts"
import { cliError } from "./failure.ts"
import type { CliIo } from "./io.ts"
import { exchangeIdToken, idTokenSource } from "./trustedPublishing.ts"
import { userDirectory } from "./userPath.ts"

export const DEFAULT_URL = "http://localhost:8080"

/** A failed call: the service's `{error, detail}`, or status 0 when no answer came (`network`). */
export interface ServiceError {
  readonly status: number
  readonly code: string
  readonly detail: string
  readonly retryAfterSeconds?: number
}

export type Reply<A> = { readonly ok: true; readonly status: number; readonly value: A } | { readonly ok: false; readonly error: ServiceError }

export const failureFrom = (error: ServiceError) =>
  cliError(error.code, error.detail, {
    status: error.status,
    ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
  }, error.status)

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The service's error body; anything else (a proxy's HTML page) becomes `http_<status>` with the start of the text. */
export const serviceErrorFrom = (status: number, text: string, retryAfter: string | null): ServiceError => {
  const body = Schema.decodeUnknownResult(ErrorBody)(parseJson(text))
  const seconds = Number(retryAfter ?? Number.NaN)
  return {
    status,
    ...(Result.isSuccess(body) ? { code: body.success.error, detail: body.success.detail } : { code: `http_${status}`, detail: text.slice(0, 200) || `the service answered ${status}` }),
    ...(Number.isFinite(seconds) ? { retryAfterSeconds: seconds } : {}),
  }
}

/** A successful reply's body as `schema` says, or an `unexpected_response` failure naming what did not fit. */
export const decodeReply = <S extends Schema.ConstraintDecoder<unknown>>(schema: S, what: string, status: number, text: string): S["Type"] => {
  const decoded = Schema.decodeUnknownResult(schema)(parseJson(text))
  if (Result.isSuccess(decoded)) return decoded.success
  throw cliError(
    "unexpected_response",
    `${what} answered ${status} with a body this CLI cannot read (${decoded.failure.message.split("\n").join(" ")}); is --url a pckgate service of this version?`,
  )
}

export interface ClientOptions {
  readonly url: string
  readonly token: string | undefined
  /** Run to get a fresh token when the service answers 401 (tokens last an hour; reviews take days). */
  readonly tokenCommand: string | undefined
  /** The game a trusted-publishing exchange names (needed when the workflow publishes several games). */
  readonly gameId?: string | undefined
}

export const clientOptions = (values: Values<typeof SERVICE_OPTIONS>, io: CliIo): ClientOptions => ({
  url: (values.url ?? io.env["PCKGATE_URL"] ?? DEFAULT_URL).replace(/\/+$/, "") || DEFAULT_URL,
  token: values.token ?? (io.env["PCKGATE_TOKEN"] || undefined),
  tokenCommand: values["token-command"] ?? (io.env["PCKGATE_TOKEN_COMMAND"] || undefined),
})

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export interface CallOptions {
  readonly body?: unknown
  /** Print when a 429 may be retried; with `wait`, sleep until then and retry. */
  readonly rateLimit?: { readonly wait: boolean }
}

export const makeClient = (options: ClientOptions, io: CliIo) => {
  let token = options.token
  // Trusted publishing: only when no token was given at all.
  const publishing = options.token === undefined && options.tokenCommand === undefined ? idTokenSource(io.env) : null
  const exchangeCiToken = async (): Promise<boolean> => {
    if (publishing === null) return false
    token = await exchangeIdToken(options.url, publishing, options.gameId)
    return true
  }
  const refreshToken = async (): Promise<boolean> => {
    if (publishing !== null) return exchangeCiToken()
    if (options.tokenCommand !== undefined) {
      const output = execFileSync("sh", ["-c", options.tokenCommand], { cwd: userDirectory(io.env), encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })
      const fresh = output.trim().split("\n").at(-1) ?? ""
      if (fresh !== "" && fresh !== token) return void (token = fresh), true
    }
    const fromEnv = io.env["PCKGATE_TOKEN"]
    if (fromEnv !== undefined && fromEnv !== "" && fromEnv !== token) return void (token = fromEnv), true
    return false
  }

  /** One call, its successful reply read by `decode`. A 401 is retried once with a fresh token. */
  const exchange = async <A>(method: string, path: string, decode: (text: string, status: number) => A, body?: unknown): Promise<Reply<A>> => {
    if (token === undefined && publishing !== null) await exchangeCiToken()
    for (let retriedAuth = false;; retriedAuth = true) {
      const headers: Record<string, string> = {}
      if (token !== undefined) headers["authorization"] = `Bearer ${token}`
      if (body !== undefined) headers["content-type"] = "application/json"
      let response: Response
      let text: string
      try {
        response = await fetch(`${options.url}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) })
        text = await response.text()
      } catch (cause) {
        const reason = cause instanceof Error ? String(cause.cause ?? cause.message) : String(cause)
        return { ok: false, error: { status: 0, code: "network", detail: `could not reach ${options.url}: ${reason}` } }
      }
      if (response.ok) return { ok: true, status: response.status, value: decode(text, response.status) }
      if (response.status === 401 && !retriedAuth && await refreshToken()) continue
      return { ok: false, error: serviceErrorFrom(response.status, text, response.headers.get("retry-after")) }
    }
  }

  /** One call as `exchange` makes it; a 429 is announced and, when `rateLimit.wait` says so, slept through and retried. */
  const exchangeWaiting = async <A>(method: string, path: string, decode: (text: string, status: number) => A, callOptions: CallOptions): Promise<Reply<A>> => {
    for (;;) {
      const reply = await exchange(method, path, decode, callOptions.body)
      const seconds = reply.ok ? undefined : reply.error.retryAfterSeconds
      if (reply.ok || reply.error.status !== 429 || seconds === undefined || callOptions.rateLimit === undefined) return reply
      const wait = callOptions.rateLimit.wait
      io.stderr(`rate limited: retry in ${seconds} s${wait ? " (waiting)" : " (pass --wait to wait and retry)"}\n`)
      if (!wait) return reply
      await sleep(seconds * 1000)
    }
  }

  /** The body of a successful reply, as `decode` reads it; any failure ends the command with its exit code. */
  const exchangeOrFail = async <A>(method: string, path: string, decode: (text: string, status: number) => A, callOptions: CallOptions): Promise<A> => {
    const reply = await exchangeWaiting(method, path, decode, callOptions)
    if (reply.ok) return reply.value
    throw failureFrom(reply.error)
  }

  const as = <S extends Schema.ConstraintDecoder<unknown>>(schema: S, what: string) => (text: string, status: number): S["Type"] =>
    decodeReply(schema, what, status, text)

  return {
    url: options.url,
    /** The reply decoded with `schema`, or the service's error for the caller to weigh. */
    attempt: <S extends Schema.ConstraintDecoder<unknown>>(method: string, path: string, schema: S, callOptions: CallOptions = {}) =>
      exchangeWaiting(method, path, as(schema, `${method} ${path}`), callOptions),
    /** The decoded body of a successful reply; any failure ends the command. */
    call: <S extends Schema.ConstraintDecoder<unknown>>(method: string, path: string, schema: S, callOptions: CallOptions = {}) =>
      exchangeOrFail(method, path, as(schema, `${method} ${path}`), callOptions),
    /** One page of a list: its body decoded with `schema`, and the cursor of the next page (null on the last). */
    page: <S extends Schema.ConstraintDecoder<unknown>>(path: string, schema: S) =>
      exchangeOrFail("GET", path, (text, status) => ({
        value: decodeReply(schema, `GET ${path}`, status, text),
        nextCursor: decodeReply(PageCursor, `GET ${path}`, status, text).nextCursor ?? null,
      }), {}),
  }
}

export type Client = ReturnType<typeof makeClient>
