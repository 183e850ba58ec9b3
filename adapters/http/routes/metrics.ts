// GET /metrics: Prometheus text for operators — requests by route and status with latencies (recorded by the app),
// the review queue's length (read at scrape time), and whatever the adapters count (scans, cache hits and misses,
// the webhook outbox). Internal figures: answered to this machine, or to a caller with METRICS_TOKEN; 404 otherwise.
import { Effect, Metric, Option } from "effect"
import { PrometheusMetrics } from "effect/observability"
import { timingSafeEqualText } from "../../shared/timingSafe.ts"
import { NotificationOutbox } from "../../../ports/NotificationOutbox.ts"
import { ReleaseStore } from "../../../ports/ReleaseStore.ts"
import { bearerTokenOf } from "../auth.ts"
import { fromThisMachine } from "../peer.ts"
import { errorResponse } from "../respond.ts"

const reviewQueueLength = Metric.gauge("pckgate_review_queue_length", { description: "Releases waiting for review" })
const outboxBacklog = Metric.gauge("pckgate_webhook_outbox_backlog", { description: "Webhook deliveries not yet delivered or given up" })

const allowed = (request: Request, token: string | null): boolean => {
  const bearer = bearerTokenOf(request.headers.get("authorization"))
  if (token !== null && bearer !== null) return timingSafeEqualText(bearer, token)
  return fromThisMachine(request)
}

export const metricsRoute = (request: Request, token: string | null) =>
  Effect.gen(function*() {
    if (!allowed(request, token)) return errorResponse(404, "not_found", "No such endpoint; see the API description in the README.")
    yield* Metric.update(reviewQueueLength, (yield* ReleaseStore.use((r) => r.listPending())).length)
    // The outbox is part of the server's records; an embedder's app may run without one.
    const outbox = yield* Effect.serviceOption(NotificationOutbox)
    if (Option.isSome(outbox)) yield* Metric.update(outboxBacklog, yield* outbox.value.countPending())
    const text = yield* PrometheusMetrics.format()
    return new Response(text, { status: 200, headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8", "cache-control": "no-store" } })
  })
