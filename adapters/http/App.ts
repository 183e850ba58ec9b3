import { Cause, Effect, type Exit, Option } from "effect"
import { getRouterParams, H3, type H3Event, type HTTPError } from "h3"
import type { DomainError } from "../../domain/errors.ts"
import type { UrlSigner } from "../signed-urls/UrlSigner.ts"
import type { AuthContext } from "./auth.ts"
import { type BodyTimeouts, DEFAULT_BODY_TIMEOUTS } from "./bodyTimeouts.ts"
import { DEFAULT_MAX_UPLOADS_PER_ACCOUNT, makeUploadSlots } from "./uploadSlots.ts"
import { drainThenClose, rawNodeResponse } from "./nodeBody.ts"
import { json, errorResponse, renderDomainError } from "./respond.ts"
import type { AppServices, Route, RouteContext } from "./route.ts"
import { openApiDocument } from "./openapi/document.ts"
import { gameRoutes } from "./routes/games.ts"
import { releaseRoutes } from "./routes/releases.ts"
import { reviewRoutes } from "./routes/review.ts"
import { sessionRoutes } from "./routes/session.ts"
import { handleSignedStorage } from "./routes/storage.ts"
import { userSessionRoutes } from "./routes/userSessions.ts"
import type { SessionCodec } from "./session.ts"

/** Runs an Effect that needs the app's ports (a ManagedRuntime built from the adapter layers satisfies it). */
export interface Runner<R> {
  // A function property, not a method: methods are checked bivariantly, which would accept a runtime missing services.
  readonly runPromiseExit: <A, E>(effect: Effect.Effect<A, E, R>) => Promise<Exit.Exit<A, E>>
}

export type LogEntry = Record<string, unknown> & { readonly level: "info" | "warn" | "error"; readonly msg: string }

export interface AppOptions {
  readonly runtime: Runner<AppServices>
  /** Public base URL without a trailing slash; read per request so it can be set after the server binds. */
  readonly baseUrl: () => string
  readonly sessions: SessionCodec
  /** Present when the store is self-served (memory, local disk): mounts the presigned /storage/ endpoint. */
  readonly signer?: UrlSigner
  readonly log?: (entry: LogEntry) => void
  /** Extra routes (later capabilities plug in here). */
  readonly routes?: ReadonlyArray<Route>
  /** Idle timeout and deadline of upload bodies; JSON and form bodies get the idle period as their whole deadline. */
  readonly bodyTimeouts?: BodyTimeouts
  /** Uploads (multipart and presigned PUT) one account may run at once on this instance. */
  readonly maxUploadsPerAccount?: number
}

export const API_ROUTES: ReadonlyArray<Route> = [...gameRoutes, ...releaseRoutes, ...reviewRoutes, ...sessionRoutes, ...userSessionRoutes]

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/

/** What the request log records about each request, filled in while it is handled. */
interface RequestNote {
  route: string
  userId: string | null
  requestId: string
}

export interface App {
  readonly fetch: (request: Request) => Promise<Response>
}

export const defaultLog = (entry: LogEntry): void => {
  console.log(JSON.stringify({ ts: new Date().toISOString(), ...entry }))
}

/** Headers every answer carries: no content sniffing; HSTS when the service is served over https. */
const securityHeaders = (baseUrl: string): Readonly<Record<string, string>> => ({
  "x-content-type-options": "nosniff",
  ...(baseUrl.startsWith("https://") ? { "strict-transport-security": "max-age=31536000" } : {}),
})

/**
 * An answer given before the request's body arrived whole (a refusal, a timeout) would otherwise leave the connection
 * waiting for the rest of the body for as long as the client likes: drain it until the answer is out, then cut it.
 */
const lingerOnUnreadBody = (request: Request): void => {
  const req = (request as { runtime?: { node?: { req?: { complete?: boolean; destroyed?: boolean } } } }).runtime?.node?.req
  if (req === undefined || req.complete !== false || req.destroyed === true) return
  drainThenClose(req as unknown as import("node:stream").Readable, rawNodeResponse(request))
}

export const makeApp = (options: AppOptions): App => {
  const log = options.log ?? defaultLog
  const bodyTimeouts = options.bodyTimeouts ?? DEFAULT_BODY_TIMEOUTS
  const uploads = makeUploadSlots(options.maxUploadsPerAccount ?? DEFAULT_MAX_UPLOADS_PER_ACCOUNT)
  const notes = new WeakMap<Request, RequestNote>()
  const auth: AuthContext = { sessions: options.sessions, ownOrigin: () => new URL(options.baseUrl()).origin }
  const noteFor = (event: H3Event): RequestNote => {
    let note = notes.get(event.req)
    if (note === undefined) {
      note = { route: "unknown", userId: null, requestId: crypto.randomUUID() }
      notes.set(event.req, note)
    }
    return note
  }

  /** Turns an Effect's exit into a response: domain errors through the table, anything else a logged 500. */
  const respond = (exit: Exit.Exit<Response, DomainError>, note: RequestNote, route: Route | null): Response => {
    if (exit._tag === "Success") return exit.value
    const error = Cause.findErrorOption(exit.cause)
    if (Option.isSome(error)) {
      if (error.value._tag === "Unavailable") {
        log({ level: "warn", msg: "dependency unavailable", requestId: note.requestId, dependency: error.value.dependency, reason: error.value.reason })
      }
      return renderDomainError(error.value, { dependencyFailure: route?.dependencyFailure, okEnvelope: route?.okEnvelope })
    }
    log({ level: "error", msg: "unhandled failure", requestId: note.requestId, route: note.route, cause: Cause.pretty(exit.cause) })
    return errorResponse(500, "internal", `Something went wrong on our side; retry later, and quote request id ${note.requestId} if it persists.`)
  }

  const h3 = new H3({
    silent: true,
    // Malformed percent-encoding reaches the routes, which answer it like any unknown id (404), not 400.
    allowMalformedURL: true,
    onError: (error: HTTPError, event) => {
      const note = noteFor(event)
      if (error.status >= 500) {
        log({ level: "error", msg: "unhandled failure", requestId: note.requestId, route: note.route, cause: String(error.cause ?? error) })
        return errorResponse(500, "internal", `Something went wrong on our side; retry later, and quote request id ${note.requestId} if it persists.`)
      }
      return error.status === 400
        ? errorResponse(400, "invalid_request", "The request URL is malformed; check its percent-encoding.")
        : errorResponse(error.status, "not_found", "No such endpoint; see the API description in the README.")
    },
  })

  const allRoutes = [...API_ROUTES, ...(options.routes ?? [])]
  for (const route of allRoutes) {
    h3.on(route.method, route.path, async (event) => {
      const note = noteFor(event)
      note.route = `${route.method} ${route.path}`
      const ctx: RouteContext = {
        request: event.req,
        params: getRouterParams(event),
        auth,
        baseUrl: options.baseUrl,
        requestId: note.requestId,
        setUser: (userId) => void (note.userId = userId),
        bodyTimeouts,
        uploads,
      }
      const response = respond(await options.runtime.runPromiseExit(route.handle(ctx)), note, route)
      for (const [name, value] of Object.entries(route.headers ?? {})) response.headers.set(name, value)
      return response
    })
  }
  for (const path of new Set(allRoutes.map((r) => r.path))) {
    const allow = allRoutes.filter((r) => r.path === path).map((r) => r.method).join(", ")
    h3.all(path, (event) => {
      noteFor(event).route = `* ${path}`
      return errorResponse(405, "method_not_allowed", `This endpoint accepts ${allow}.`, { headers: { allow } })
    })
  }
  h3.get("/openapi.json", (event) => {
    noteFor(event).route = "GET /openapi.json"
    return json(200, openApiDocument(allRoutes, options.baseUrl()), { "cache-control": "public, max-age=300" })
  })
  h3.get("/healthz", (event) => {
    noteFor(event).route = "GET /healthz"
    return json(200, { ok: true })
  })
  const signer = options.signer
  if (signer !== undefined) {
    h3.all("/storage/**", async (event) => {
      const note = noteFor(event)
      note.route = `${event.req.method} /storage/**`
      return respond(await options.runtime.runPromiseExit(handleSignedStorage(event.req, signer, { bodyTimeouts, uploads })), note, null)
    })
  }
  h3.all("/**", () => errorResponse(404, "not_found", "No such endpoint; see the API description in the README."))

  return {
    async fetch(request) {
      const started = performance.now()
      const incoming = request.headers.get("x-request-id")
      const note: RequestNote = { route: "unknown", userId: null, requestId: incoming !== null && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID() }
      notes.set(request, note)
      const response = await h3.fetch(request)
      response.headers.set("x-request-id", note.requestId)
      for (const [name, value] of Object.entries(securityHeaders(options.baseUrl()))) response.headers.set(name, value)
      lingerOnUnreadBody(request)
      // The path only: query strings (presigned URL signatures) and credentials never reach the log.
      log({
        level: "info",
        msg: "request",
        requestId: note.requestId,
        method: request.method,
        route: note.route,
        path: new URL(request.url).pathname,
        status: response.status,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        userId: note.userId,
      })
      return response
    },
  }
}
