// Logs and traces: Effect's logger writes one JSON line per entry (batched); with OTEL_EXPORTER_OTLP_ENDPOINT set,
// every request's span tree (the route, the use case, its store and storage calls) is exported over OTLP/HTTP JSON.
import { Layer } from "effect"
import { FetchHttpClient } from "effect/http"
import { OtlpSerialization, OtlpTracer } from "effect/observability"
import { layerJsonLogger } from "../../adapters/observability/jsonLogger.ts"
import type { ServerConfig } from "./config.ts"

/** Spans are sent in batches at this interval (and when the server stops). */
const EXPORT_INTERVAL = "1 second"

export const layerObservability = (config: ServerConfig, write: (chunk: string) => void) => {
  const logger = layerJsonLogger(write)
  if (config.otlpEndpoint === null) return logger
  const tracer = OtlpTracer.layer({
    url: `${config.otlpEndpoint}/v1/traces`,
    resource: { serviceName: config.otlpServiceName },
    exportInterval: EXPORT_INTERVAL,
  }).pipe(Layer.provide(OtlpSerialization.layerJson), Layer.provide(FetchHttpClient.layer))
  return Layer.merge(logger, tracer)
}
