// Cache hits and misses for GET /metrics. A cache sits on download-url's path, where an Effect metric update would cost
// a tenth of the request (docs/performance.md), so each cache bumps two plain numbers and the registry reads them
// when metrics are snapshotted, as the HTTP series do (httpMetrics.ts).
import { type Context, Metric } from "effect"

const lookups = Metric.counter("pckgate_cache_lookups_total", {
  description: "Cache lookups by cache and result: hit (answered from memory) or miss (read from the store)",
})

export interface CacheCounters {
  /** One answer from memory. */
  readonly hit: () => void
  /** One read of the store (requests that wait for another's read of the same key count as hits). */
  readonly miss: () => void
}

/** Registers `cache`'s two series in the registry of `context` and returns their counters. */
export const makeCacheCounters = (cache: string, context: Context.Context<never>): CacheCounters => {
  const counts = { hit: 0, miss: 0 }
  for (const result of ["hit", "miss"] as const) {
    Metric.registerUnsafe(Metric.withAttributes(lookups, { cache, result }), context, {
      get: () => ({ count: counts[result], incremental: false }),
      update: () => undefined,
      modify: () => undefined,
    })
  }
  return { hit: () => void counts.hit++, miss: () => void counts.miss++ }
}
