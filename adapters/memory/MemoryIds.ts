import { Effect, Layer } from "effect"
import { Ids } from "../../ports/Ids.ts"

/** Sequential identifiers (`gm_000001` …): readable and deterministic in tests. */
export const layerSequentialIds = Layer.sync(Ids, () => {
  const counters = new Map<string, number>()
  return Ids.of({
    next: (prefix) =>
      Effect.sync(() => {
        const n = (counters.get(prefix) ?? 0) + 1
        counters.set(prefix, n)
        return `${prefix}_${String(n).padStart(6, "0")}`
      }),
  })
})
