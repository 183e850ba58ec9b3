// Scans counted and timed for GET /metrics: a decorator over whichever PackScanner is provided, so the scanner itself
// stays free of observability. A scan is rare next to requests, so plain Effect metric updates are cheap enough here.
import { Effect, Layer, Metric } from "effect"
import { PackScanner } from "../../ports/PackScanner.ts"

const scans = Metric.counter("pckgate_scans_total", { description: "Packs scanned, by outcome (clean, findings, failed)" })
const scanDuration = Metric.histogram("pckgate_scan_duration_seconds", {
  description: "Time to scan a pack",
  boundaries: Array.from({ length: 14 }, (_, i) => 0.005 * 2 ** i),
})

export const layerMeteredPackScanner: Layer.Layer<PackScanner, never, PackScanner> = Layer.effect(
  PackScanner,
  Effect.gen(function*() {
    const scanner = yield* PackScanner
    return PackScanner.of({
      scan: (source, expectations) =>
        Effect.suspend(() => {
          const started = performance.now()
          const done = (outcome: string) =>
            Effect.andThen(
              Metric.update(Metric.withAttributes(scans, { outcome, path: expectations.path }), 1),
              Metric.update(scanDuration, (performance.now() - started) / 1000),
            )
          return scanner.scan(source, expectations).pipe(
            Effect.tap((report) => done(report.ok ? "clean" : "findings")),
            Effect.tapError(() => done("failed")),
          )
        }).pipe(Effect.withSpan("PackScanner.scan", { attributes: { "pckgate.scan.path": expectations.path } })),
    })
  }),
)
