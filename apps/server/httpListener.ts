// The HTTP listener as a scoped layer: binds first (so PORT=0 works and links use the bound port), answers 503 until
// the app is handed to it, and on release stops accepting, lets in-flight requests finish (10 s at most), then closes.
import { createServer, type RequestListener, type Server } from "node:http"
import { Context, Data, Effect, Layer } from "effect"
import { toNodeHandler } from "srvx/node"
import type { App } from "../../adapters/http/App.ts"
import { batchedResponses } from "../../adapters/system/batchedResponses.ts"
import type { ServerConfig } from "./config.ts"

/** The port could not be bound (in use, not permitted): main prints `reason` and exits 2. */
export class ListenFailed extends Data.TaggedError("ListenFailed")<{ readonly port: number; readonly reason: string }> {}

export class HttpListener extends Context.Service<HttpListener, {
  readonly port: number
  /** BASE_URL, or http://localhost:<bound port>. */
  readonly baseUrl: string
  /** Starts answering with `app` (503 service_unavailable until then). */
  readonly serve: (app: App) => void
  /**
   * Stops accepting connections and waits for the requests in flight (10 s at most). The app's layer runs it when it
   * closes, before the ports it uses are released; the listener's own release runs it again (a no-op by then).
   */
  readonly drain: Effect.Effect<void>
}>()("pckgate/server/HttpListener") {}

const starting = () =>
  new Response('{"error":"service_unavailable","detail":"Starting up; retry in a moment."}', {
    status: 503,
    headers: { "content-type": "application/json" },
  })

const DRAIN_MS = 10_000

const listen = (server: Server, config: ServerConfig) =>
  Effect.callback<void, ListenFailed>((resume) => {
    const failed = (error: NodeJS.ErrnoException) =>
      resume(Effect.fail(new ListenFailed({
        port: config.port,
        reason: error.code === "EADDRINUSE"
          ? `port ${config.port} on ${config.host} is already in use; stop what uses it or choose another with PORT`
          : error.code === "EACCES"
          ? `port ${config.port} on ${config.host} needs privileges; choose a port above 1023 with PORT`
          : `cannot listen on ${config.host}:${config.port} (${error.code ?? error.message}); check HOST and PORT`,
      })))
    server.once("error", failed)
    server.listen(config.port, config.host, () => {
      server.off("error", failed)
      resume(Effect.void)
    })
  })

const close = (server: Server) =>
  Effect.callback<void>((resume) => {
    if (!server.listening) return resume(Effect.void)
    const timer = setTimeout(() => server.closeAllConnections(), DRAIN_MS)
    server.close(() => {
      clearTimeout(timer)
      resume(Effect.void)
    })
    server.closeIdleConnections()
  })

export const layerHttpListener = (config: ServerConfig) =>
  Layer.effect(
    HttpListener,
    Effect.gen(function*() {
      let app: App | null = null
      const server = createServer(
        // Uploads may take long: no whole-request timeout (bodies enforce their own idle timeouts and deadlines);
        // headers must still arrive promptly.
        { requestTimeout: 0, headersTimeout: 60_000, keepAliveTimeout: 5_000 },
        toNodeHandler(batchedResponses((request) => (app === null ? starting() : app.fetch(request)))) as RequestListener,
      )
      // Connections beyond this are refused at once, so a flood of slow clients cannot exhaust file descriptors.
      server.maxConnections = config.maxConnections
      yield* Effect.acquireRelease(listen(server, config), () => close(server))
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : config.port
      return HttpListener.of({
        port,
        baseUrl: config.baseUrl ?? `http://localhost:${port}`,
        serve: (ready) => void (app = ready),
        drain: close(server),
      })
    }),
  )
