import { Cause, Context, Effect, type Exit, Option } from "effect"
import { getRouterParams, H3, type H3Event, type HTTPError } from "h3"
import { type DomainError, StaticAnalysisFailed } from "../../domain/errors.ts"
import type { Finding } from "../../domain/scan/Finding.ts"
import type { Policy as ScanPolicy } from "../scanner/policy/Policy.ts"
import { defaultPolicy } from "../scanner/policy/defaultPolicy.ts"
import { withDocsUrls } from "../scanner/policy/ruleDocs.ts"
import { notFoundPage, ruleDocsRoute } from "./pages/rulePage.ts"
import { type HttpMetrics, makeHttpMetrics } from "../observability/httpMetrics.ts"
import { dependencyUnavailable, type RequestNote, requestLogged, unhandledFailure } from "../observability/requestLog.ts"
import type { UrlSigner } from "../signed-urls/UrlSigner.ts"
import type { AuthContext } from "./auth.ts"
import { admission } from "./credentialAccess.ts"
import { type BodyTimeouts, DEFAULT_BODY_TIMEOUTS } from "./bodyTimeouts.ts"
import { metricsRoute } from "./routes/metrics.ts"
import { DEFAULT_MAX_UPLOADS_PER_ACCOUNT, makeUploadSlots } from "./uploadSlots.ts"
import { drainThenClose, rawNodeResponse } from "./nodeBody.ts"
import { json, errorResponse, renderDomainError } from "./respond.ts"
import { adminCaller, type AppServices, type Route, type RouteContext } from "./route.ts"
import { decodeRouteInput } from "./routeInput.ts"
import { openApiDocument } from "./openapi/document.ts"
import { apiKeyRoutes } from "./routes/apiKeys.ts"
import { catalogRoutes } from "./routes/catalog.ts"
import { gameRoutes } from "./routes/games.ts"
import { trustedPublishingRoutes } from "./routes/trustedPublishing.ts"
import { releaseRoutes } from "./routes/releases.ts"
import { reviewRoutes } from "./routes/review.ts"
import { reviewGateRoutes } from "./routes/reviewGate.ts"
import { lifecycleRoutes } from "./routes/lifecycle.ts"
import { reviewFileRoutes } from "./routes/reviewFiles.ts"
import { timelineRoutes } from "./routes/timeline.ts"
import { webhookRoutes } from "./routes/webhooks.ts"
import { sessionRoutes } from "./routes/session.ts"
import { handleSignedStorage } from "./routes/storage.ts"
import { userSessionRoutes } from "./routes/userSessions.ts"
import { rescanRoutes } from "./routes/rescan.ts"
import type { SessionCodec } from "./session.ts"

/** Runs Effects that need the app's ports (a ManagedRuntime built from the adapter layers satisfies it). */
export interface Runner<R> {
  // Function properties, not methods: methods are checked bivariantly, which would accept a runtime missing services.
  readonly runPromiseExit: <A, E>(effect: Effect.Effect<A, E, R>) => Promise<Exit.Exit<A, E>>
  readonly runSync: <A, E>(effect: Effect.Effect<A, E, R>) => A
}

export interface AppOptions {
  readonly runtime: Runner<AppServices>
  /** Public base URL without a trailing slash; read per request so it can be set after the server binds. */
  readonly baseUrl: () => string
  readonly sessions: SessionCodec
  /** Present when the store is self-served (memory, local disk): mounts the presigned /storage/ endpoint. */
  readonly signer?: UrlSigner
  /** Extra routes (later capabilities plug in here). */
  readonly routes?: ReadonlyArray<Route>
  /** Idle timeout and deadline of upload bodies; JSON and form bodies get the idle period as their whole deadline. */
  readonly bodyTimeouts?: BodyTimeouts
  /** Uploads (multipart and presigned PUT) one account may run at once on this instance. */
  readonly maxUploadsPerAccount?: number
  /** GET /metrics also answers callers off this machine that send `Authorization: Bearer <metricsToken>`. */
  readonly metricsToken?: string | null
  /**
   * Routes (`"GET /api/…/:version/download-url"`, as in the request log) of which only one request in N is traced; the
   * others run without spans. Every route is traced when absent. docs/performance.md has the figure behind it.
   */
  readonly traceOneIn?: Readonly<Record<string, number>>
  /** The scanner's active policy: GET /docs/rules/{id} explains its patterns, findings link there (default: the shipped one). */
  readonly policy?: ScanPolicy
}

export const API_ROUTES: ReadonlyArray<Route> = [
  ...gameRoutes,
  ...releaseRoutes,
  ...reviewRoutes,
  ...sessionRoutes,
  ...userSessionRoutes,
  ...rescanRoutes,
  ...reviewFileRoutes,
  ...lifecycleRoutes,
  ...timelineRoutes,
  ...webhookRoutes,
  ...apiKeyRoutes,
  ...trustedPublishingRoutes,
  ...catalogRoutes,
  ...reviewGateRoutes,
]

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/

/** The app's own GET endpoints outside the routes (below in makeApp). */
const FIXED_GET_PATHS = ["/openapi.json", "/healthz", "/metrics"]

/** Where a request's note lives while it is handled: h3's per-request context (set before h3 sees the request). */
const NOTE = "pckgate.note"

export interface App {
  readonly fetch: (request: Request) => Promise<Response>
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

// Browsers asking for a page; API clients (and curl, which accepts anything) keep JSON.
const wantsHtml = (request: Request): boolean => (request.headers.get("accept") ?? "").includes("text/html")
/** Paths whose 404 stays JSON whatever the client accepts. */
const isApiPath = (path: string): boolean => /^\/(api|storage)(\/|$)|\/submit-api(\/|$)/.test(path)

const internalError = (note: RequestNote) =>
  errorResponse(500, "internal", `Something went wrong on our side; retry later, and quote request id ${note.requestId} if it persists.`)

export const makeApp = (options: AppOptions): App => {
  const runtime = options.runtime
  /** Log lines are synchronous (the logger buffers them; see jsonLogger.ts); a logger that fails never fails a request. */
  const log = (line: Effect.Effect<void, never, AppServices>): void => {
    try {
      runtime.runSync(line)
    } catch {
      // nothing sensible to do: the answer matters more than its log line
    }
  }
  const bodyTimeouts = options.bodyTimeouts ?? DEFAULT_BODY_TIMEOUTS
  const uploads = makeUploadSlots(options.maxUploadsPerAccount ?? DEFAULT_MAX_UPLOADS_PER_ACCOUNT)
  const metrics: HttpMetrics = makeHttpMetrics(Context.empty() as Context.Context<never>)
  const auth: AuthContext = { sessions: options.sessions, ownOrigin: () => new URL(options.baseUrl()).origin }
  const noteFor = (event: H3Event): RequestNote => {
    const context = event.context as Record<string, unknown>
    const note = context[NOTE] as RequestNote | undefined
    if (note !== undefined) return note
    const created: RequestNote = { route: "unknown", userId: null, requestId: crypto.randomUUID(), startedAt: performance.now() }
    context[NOTE] = created
    return created
  }

  /** Turns an Effect's exit into a response: domain errors through the table, anything else a logged 500. */
  const respond = (exit: Exit.Exit<Response, DomainError>, note: RequestNote, route: Route | null): Response => {
    if (exit._tag === "Success") return exit.value
    const error = Cause.findErrorOption(exit.cause)
    if (Option.isSome(error)) {
      if (error.value._tag === "Unavailable") log(dependencyUnavailable(note, error.value.dependency, error.value.reason))
      const failure = error.value._tag === "StaticAnalysisFailed"
        ? new StaticAnalysisFailed({ violations: withDocsUrls(error.value.violations as ReadonlyArray<Finding>, options.baseUrl(), policy) })
        : error.value
      return renderDomainError(failure, { dependencyFailure: route?.dependencyFailure, okEnvelope: route?.okEnvelope })
    }
    log(unhandledFailure(note, exit.cause))
    return internalError(note)
  }

  /** Requests seen per sampled route, for `traceOneIn`. */
  const traceCounters = new Map(Object.entries(options.traceOneIn ?? {}).map(([route, n]) => [route, { every: Math.max(1, Math.floor(n)), seen: 0 }]))
  const traced = (route: string): boolean => {
    const counter = traceCounters.get(route)
    return counter === undefined || counter.seen++ % counter.every === 0
  }

  /** Runs a route's Effect inside a span named after the route (exported over OTLP when configured). */
  const run = (effect: Effect.Effect<Response, DomainError, AppServices>, note: RequestNote, request: Request) =>
    runtime.runPromiseExit(
      traced(note.route)
        ? Effect.withSpan(effect, note.route, {
          kind: "server",
          attributes: { "http.request.method": request.method, "http.route": note.route, "pckgate.request_id": note.requestId },
          // Always this line of App.ts: capturing it would cost an Error per request and say nothing.
          captureStackTrace: false,
        })
        : Effect.withTracerEnabled(effect, false),
    )

  /**
   * A route's shortcut (route.ts), made on the route's first request (the runtime may still be starting when the app is
   * made) and used from the next one on. Until then, for good if making it failed, and for any request it throws on
   * (each logged as an unhandled failure), the route's handler answers.
   */
  const shortcutOf = (route: Route): ((request: Request, note: RequestNote) => Response | null) => {
    const make = route.shortcut
    if (make === undefined) return () => null
    let made: ((request: Request) => Response | null) | null = null
    let making = false
    return (request, note) => {
      if (made === null) {
        if (!making) {
          making = true
          void runtime.runPromiseExit(make).then((exit) => {
            if (exit._tag === "Success") made = exit.value
            else log(unhandledFailure(note, exit.cause))
          })
        }
        return null
      }
      try {
        const response = made(request)
        if (response !== null) for (const [name, value] of Object.entries(route.headers ?? {})) response.headers.set(name, value)
        return response
      } catch (error) {
        log(unhandledFailure(note, String(error)))
        return null
      }
    }
  }

  const h3 = new H3({
    silent: true,
    // Malformed percent-encoding reaches the routes, which answer it like any unknown id (404), not 400.
    allowMalformedURL: true,
    onError: (error: HTTPError, event) => {
      const note = noteFor(event)
      if (error.status >= 500) {
        log(unhandledFailure(note, String(error.cause ?? error)))
        return internalError(note)
      }
      return error.status === 400
        ? errorResponse(400, "invalid_request", "The request URL is malformed; check its percent-encoding.")
        : errorResponse(error.status, "not_found", "No such endpoint; see the API description in the README.")
    },
  })

  const policy = options.policy ?? defaultPolicy
  const allRoutes = [...API_ROUTES, ruleDocsRoute(policy), ...(options.routes ?? [])]
  for (const route of allRoutes) {
    const shortcut = shortcutOf(route)
    const handle = async (event: H3Event, note: RequestNote) => {
      const params = getRouterParams(event)
      const ctx: RouteContext = {
        request: event.req,
        params,
        auth: { ...auth, admit: admission({ scopes: route.doc?.credentialScopes, allGames: route.doc?.credentialGames === "all" }, params) },
        baseUrl: options.baseUrl,
        requestId: note.requestId,
        setUser: (userId) => void (note.userId = userId),
        bodyTimeouts,
        uploads,
        withDocsUrls: (findings) => withDocsUrls(findings, options.baseUrl(), policy),
      }
      // Declared routes: the caller (with the admin guard), the body, the path and the query, decoded before the handler
      // runs. Undeclared routes (pages, browser flows, the multipart endpoint) read their own input; the admin guard runs
      // before any of them that says `access: "admin"` all the same.
      const spec = route.input
      const handled = spec !== undefined
        ? Effect.flatMap(decodeRouteInput(route, spec, ctx), (decoded) => route.handle({ ...ctx, decoded }))
        : route.doc?.access === "admin"
        ? Effect.andThen(adminCaller(ctx), route.handle(ctx))
        : route.handle(ctx)
      const response = respond(await run(handled, note, event.req), note, route)
      for (const [name, value] of Object.entries(route.headers ?? {})) response.headers.set(name, value)
      return response
    }
    // Synchronous up to the handler: a shortcut's answer goes out without a promise of its own.
    h3.on(route.method, route.path, (event) => {
      const note = noteFor(event)
      note.route = `${route.method} ${route.path}`
      return shortcut(event.req, note) ?? handle(event, note)
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
  h3.get("/metrics", async (event) => {
    const note = noteFor(event)
    note.route = "GET /metrics"
    return respond(await runtime.runPromiseExit(metricsRoute(event.req, options.metricsToken ?? null)), note, null)
  })
  // Any other method on a known path: 405 with the methods it accepts (HEAD wherever GET is: fetch below answers it).
  const methodsByPath = new Map<string, Array<string>>(FIXED_GET_PATHS.map((path) => [path, ["GET"]]))
  for (const route of allRoutes) methodsByPath.set(route.path, [...(methodsByPath.get(route.path) ?? []), route.method])
  for (const [path, methods] of methodsByPath) {
    const allow = methods.flatMap((method) => (method === "GET" ? ["GET", "HEAD"] : [method])).join(", ")
    h3.all(path, (event) => {
      noteFor(event).route = `* ${path}`
      return errorResponse(405, "method_not_allowed", `This endpoint accepts ${allow}.`, { headers: { allow } })
    })
  }
  const signer = options.signer
  if (signer !== undefined) {
    h3.all("/storage/**", async (event) => {
      const note = noteFor(event)
      note.route = `${event.req.method} /storage/**`
      return respond(await run(handleSignedStorage(event.req, signer, { bodyTimeouts, uploads }), note, event.req), note, null)
    })
  }
  h3.all("/**", (event) =>
    wantsHtml(event.req) && !isApiPath(new URL(event.req.url).pathname)
      ? notFoundPage()
      : errorResponse(404, "not_found", "No such endpoint; see the API description in the README."))

  const answer = async (request: Request): Promise<Response> => {
    const incoming = request.headers.get("x-request-id")
    const note: RequestNote = {
      route: "unknown",
      userId: null,
      requestId: incoming !== null && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID(),
      startedAt: performance.now(),
    }
    // h3 takes the request's `context` as the event's: the note is there for every handler.
    ;(request as { context?: Record<string, unknown> }).context = { [NOTE]: note }
    const response = await h3.fetch(request)
    response.headers.set("x-request-id", note.requestId)
    for (const [name, value] of Object.entries(securityHeaders(options.baseUrl()))) response.headers.set(name, value)
    lingerOnUnreadBody(request)
    const durationMs = performance.now() - note.startedAt
    metrics.record(note.route, response.status, durationMs / 1000)
    log(requestLogged(note, request, response.status, durationMs))
    return response
  }

  return {
    // HEAD answers wherever GET does: the GET's status and headers, without its body.
    async fetch(request) {
      if (request.method !== "HEAD") return answer(request)
      const response = await answer(new Request(request.url, { method: "GET", headers: request.headers }))
      await response.body?.cancel()
      return new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers })
    },
  }
}
