// Requests by route and status, with a latency histogram, as Effect metrics served at GET /metrics. Pushing an update
// into Effect's registry costs about 3 µs (measured: docs/performance.md), a tenth of a whole download-url request, so
// each series keeps plain counters that the request path bumps in well under a microsecond, and the registry reads them
// through hooks when metrics are snapshotted (Metric.registerUnsafe): the numbers are the same, the cost moves to the
// scrape.
import { type Context, Metric } from "effect"

/** Latency buckets in seconds: 0.5 ms to about 8 s, doubling. */
export const LATENCY_BOUNDARIES: ReadonlyArray<number> = Array.from({ length: 15 }, (_, i) => 0.0005 * 2 ** i)

const requests = Metric.counter("pckgate_http_requests_total", { description: "HTTP requests answered, by route and status" })
const latency = Metric.histogram("pckgate_http_request_duration_seconds", {
  description: "Time to answer an HTTP request (until the response is ready), by route",
  boundaries: LATENCY_BOUNDARIES,
})

interface LatencySeries {
  readonly counts: Array<number>
  count: number
  sum: number
  min: number
  max: number
}

export interface HttpMetrics {
  /** Counts one answered request. `route` is the route pattern (never the raw path: ids would make series unbounded). */
  readonly record: (route: string, status: number, seconds: number) => void
}

/** Registers the series lazily in the registry of `context` (the runtime's), the first time each is seen. */
export const makeHttpMetrics = (context: Context.Context<never>): HttpMetrics => {
  const counts = new Map<string, { count: number }>()
  const latencies = new Map<string, LatencySeries>()

  const countFor = (route: string, status: number) => {
    const key = `${status} ${route}`
    let series = counts.get(key)
    if (series === undefined) {
      const created = { count: 0 }
      series = created
      counts.set(key, created)
      Metric.registerUnsafe(Metric.withAttributes(requests, { route, status: String(status) }), context, {
        get: () => ({ count: created.count, incremental: false }),
        update: () => undefined,
        modify: () => undefined,
      })
    }
    return series
  }

  const latencyFor = (route: string) => {
    let series = latencies.get(route)
    if (series === undefined) {
      const created: LatencySeries = { counts: LATENCY_BOUNDARIES.map(() => 0), count: 0, sum: 0, min: Number.POSITIVE_INFINITY, max: 0 }
      series = created
      latencies.set(route, created)
      Metric.registerUnsafe(Metric.withAttributes(latency, { route }), context, {
        get: () => {
          let cumulative = 0
          const buckets = LATENCY_BOUNDARIES.map((boundary, i): [number, number] => [boundary, (cumulative += created.counts[i]!)])
          return { buckets, count: created.count, sum: created.sum, min: created.count === 0 ? 0 : created.min, max: created.max }
        },
        update: () => undefined,
        modify: () => undefined,
      })
    }
    return series
  }

  return {
    record: (route, status, seconds) => {
      countFor(route, status).count++
      const series = latencyFor(route)
      series.count++
      series.sum += seconds
      if (seconds < series.min) series.min = seconds
      if (seconds > series.max) series.max = seconds
      const bucket = LATENCY_BOUNDARIES.findIndex((boundary) => seconds <= boundary)
      if (bucket >= 0) series.counts[bucket]!++
    },
  }
}
