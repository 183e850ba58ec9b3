import { createServer, type Server } from "node:http"
import parsePrometheus from "parse-prometheus-text-format"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { apiClient, artifact } from "../support/api.ts"
import { type RunningServer, startServer } from "../support/server.ts"

// Issue 14, item 2: operators get metrics and traces. The real server exports every request's span tree over OTLP to a
// local receiver (the OTLP/HTTP JSON protocol), and GET /metrics is Prometheus text that a Prometheus parser reads.

interface OtlpSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  readonly attributes?: ReadonlyArray<{ readonly key: string; readonly value: { readonly stringValue?: string } }>
}

/** A local OTLP/HTTP receiver: keeps every span posted to /v1/traces. */
const startReceiver = async () => {
  const spans: Array<OtlpSpan> = []
  const server: Server = createServer((req, res) => {
    let body = ""
    req.on("data", (d: Buffer) => (body += d.toString()))
    req.on("end", () => {
      if (req.url === "/v1/traces") {
        const payload = JSON.parse(body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<OtlpSpan> }> }> }
        for (const resource of payload.resourceSpans) for (const scope of resource.scopeSpans) spans.push(...scope.spans)
      }
      // The review webhook's receiver is down for the whole test: its deliveries stay in the outbox's backlog.
      if (req.url === "/hook") res.writeHead(503).end()
      else res.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  return { url: `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`, spans, close: () => server.close() }
}

const attribute = (span: OtlpSpan, key: string) => span.attributes?.find((a) => a.key === key)?.value.stringValue

const until = async <A>(what: string, probe: () => A | undefined | Promise<A | undefined>): Promise<A> => {
  const deadline = Date.now() + 20_000
  for (;;) {
    const found = await probe()
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

describe("metrics and traces of the real server", () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let server: RunningServer
  beforeAll(async () => {
    receiver = await startReceiver()
    server = await startServer({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        RATE_LIMIT_COUNT: "100",
        SCAN_INTERVAL_SECONDS: "1",
        REVIEW_WEBHOOK_URL: `${receiver.url}/hook`,
        REVIEW_WEBHOOK_SECRET: "observability-webhook-secret-0123456789",
        REVIEW_WEBHOOK_RETRY_BASE_MS: "600000",
        DOWNLOAD_TRACE_ONE_IN: "3",
      },
    })
  })
  afterAll(async () => {
    await server?.stop()
    receiver?.close()
  })

  test("a request's trace reaches the OTLP receiver: the route's server span and the use case's span under it", async () => {
    const creator = server.token("traced")
    const created = await fetch(`${server.baseUrl}/api/games/engine`, {
      method: "POST",
      headers: { authorization: `Bearer ${creator}`, "content-type": "application/json", "x-request-id": "trace-me-1" },
      body: JSON.stringify({ name: "Traced Game" }),
    })
    expect(created.status).toBe(201)
    const root = await until("the request's span", () => receiver.spans.find((s) => attribute(s, "pckgate.request_id") === "trace-me-1"))
    expect(root.name).toBe("POST /api/games/engine")
    expect(root.parentSpanId ?? "").toBe("")
    const useCase = await until("the use case's span", () => receiver.spans.find((s) => s.name === "createGame" && s.traceId === root.traceId))
    expect(useCase.parentSpanId).toBe(root.spanId)
  })

  test("GET /metrics is Prometheus text: requests by route and status with latencies, the review queue, scans, cache lookups, the outbox", async () => {
    const api = apiClient(server.baseUrl)
    const creator = server.token("measured")
    const gameId: string = (await api.createGame(creator, { name: "Measured Game" })).body.gameId
    expect((await api.uploadRelease(creator, gameId, artifact(4096))).status).toBe(201)
    // The background scan runs within a second or so; wait for its report, then scrape.
    await until("the background scan", async () => (await api.call("GET", `/api/games/${gameId}/releases/1.0.0/scan`, { token: creator })).body.status === "scanned" || undefined)
    // The game view and the catalog are read twice each: the first read of each goes to the store, the second is a hit.
    for (let i = 0; i < 2; i++) {
      expect((await api.call("GET", `/api/games/${gameId}/releases/1.0.0/download-url`, { token: creator })).status).toBe(200)
      expect((await api.call("GET", "/api/catalog")).status).toBe(200)
    }
    const scraped = await fetch(`${server.baseUrl}/metrics`)
    expect(scraped.status).toBe(200)
    expect(scraped.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/)
    const text = await scraped.text()
    const families = new Map(parsePrometheus(text).map((f) => [f.name, f]))

    const requests = families.get("pckgate_http_requests_total")!
    expect(requests.type).toBe("COUNTER")
    const created = requests.metrics.find((m) => m.labels?.["route"] === "POST /api/games/engine" && m.labels["status"] === "201")
    expect(Number(created?.value)).toBeGreaterThanOrEqual(1)
    const finalized = requests.metrics.find((m) => m.labels?.["route"] === "POST /api/games/:gameId/releases/finalize")
    expect(finalized?.labels?.["status"]).toBe("201")

    // The parser reads histograms' buckets but drops their labels (parse-prometheus-text-format 1.1): the buckets are
    // checked through it, the per-route count in the text itself.
    const latency = families.get("pckgate_http_request_duration_seconds")!
    expect(latency.type).toBe("HISTOGRAM")
    for (const sample of latency.metrics) {
      const counts = Object.values(sample.buckets ?? {}).map(Number)
      expect(counts).toEqual([...counts].sort((a, b) => a - b)) // cumulative
    }
    const createCount = /^pckgate_http_request_duration_seconds_count\{route="POST \/api\/games\/engine"\} (\d+)$/m.exec(text)
    expect(Number(createCount?.[1])).toBeGreaterThanOrEqual(1)
    const createInf = /^pckgate_http_request_duration_seconds_bucket\{route="POST \/api\/games\/engine",le="\+Inf"\} (\d+)$/m.exec(text)
    expect(createInf?.[1]).toBe(createCount?.[1])

    expect(families.get("pckgate_review_queue_length")).toMatchObject({ type: "GAUGE", metrics: [{ value: "1" }] })
    const scans = families.get("pckgate_scans_total")!
    expect(scans.metrics.find((m) => m.labels?.["path"] === "release_api")?.value).toBe("1")
    expect(Number(families.get("pckgate_scan_duration_seconds")?.metrics[0]?.count)).toBe(1)

    const lookups = families.get("pckgate_cache_lookups_total")!
    expect(lookups.type).toBe("COUNTER")
    const lookupCount = (cache: string, result: string) =>
      Number(lookups.metrics.find((m) => m.labels?.["cache"] === cache && m.labels["result"] === result)?.value)
    for (const cache of ["game_views", "catalog"]) {
      expect(lookupCount(cache, "miss"), `${cache} misses`).toBeGreaterThanOrEqual(1)
      expect(lookupCount(cache, "hit"), `${cache} hits`).toBeGreaterThanOrEqual(1)
    }
    // The release's review event could not be delivered (the receiver answers 503): it waits in the outbox.
    const backlog = families.get("pckgate_webhook_outbox_backlog")!
    expect(backlog.type).toBe("GAUGE")
    expect(Number(backlog.metrics[0]?.value)).toBeGreaterThanOrEqual(1)
  })
  test("download-url is traced one request in DOWNLOAD_TRACE_ONE_IN; other routes every time", async () => {
    const api = apiClient(server.baseUrl)
    const creator = server.token("sampled")
    const gameId: string = (await api.createGame(creator, { name: "Sampled Game" })).body.gameId
    expect((await api.uploadRelease(creator, gameId, artifact(4096))).status).toBe(201)
    const ids = Array.from({ length: 6 }, (_, i) => `sampled-download-${i}`)
    for (const id of ids) {
      const reply = await fetch(`${server.baseUrl}/api/games/${gameId}/releases/1.0.0/download-url`, {
        headers: { authorization: `Bearer ${creator}`, "x-request-id": id },
      })
      expect(reply.status).toBe(200)
    }
    // A traced request after them: once its span has arrived, so have theirs (spans are exported in the order they end).
    // Not the catalog: a page it keeps is answered without a span (docs/performance.md).
    const after = await fetch(`${server.baseUrl}/api/games/${gameId}`, { headers: { authorization: `Bearer ${creator}`, "x-request-id": "sampled-after" } })
    expect(after.status).toBe(200)
    await until("the game request's span", () => receiver.spans.find((s) => attribute(s, "pckgate.request_id") === "sampled-after"))
    const traced = ids.filter((id) => receiver.spans.some((s) => attribute(s, "pckgate.request_id") === id))
    expect(traced).toHaveLength(2)
  })
})
