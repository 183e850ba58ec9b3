import { Effect } from "effect"
import { describe, expect, test } from "vitest"
import { layerCapturedLogs, layerJsonLogger, type LogLine } from "../../adapters/observability/jsonLogger.ts"
import { requestLogged, unhandledFailure } from "../../adapters/observability/requestLog.ts"

// The one log format, and what the request log line may carry: the path without its query string (presigned URLs
// carry their signature there), no header, no body.

const note = { route: "PUT /storage/**", userId: null, requestId: "req-1", startedAt: 0 }

describe("the JSON logger", () => {
  test("a request line: ts, level, msg and the request's fields; the query string never appears", async () => {
    const lines: Array<LogLine> = []
    const request = new Request("http://pckgate.test/storage/releases/gm_1/1.0.0/abc.pck?X-Pckgate-Signature=deadbeef&X-Pckgate-Expires=1", {
      method: "PUT",
      headers: { authorization: "Bearer secret-token", cookie: "pckgate_session=v2.secret.sig" },
    })
    await Effect.runPromise(requestLogged(note, request, 200, 12.345).pipe(Effect.provide(layerCapturedLogs(lines))))
    expect(lines).toEqual([{
      ts: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      level: "info",
      msg: "request",
      requestId: "req-1",
      method: "PUT",
      route: "PUT /storage/**",
      path: "/storage/releases/gm_1/1.0.0/abc.pck",
      status: 200,
      durationMs: 12.3,
      userId: null,
    }])
    expect(JSON.stringify(lines)).not.toMatch(/deadbeef|secret-token|v2\.secret/)
  })

  test("lines are written as JSON, in batches, and flushed when the logger's scope closes", async () => {
    const chunks: Array<string> = []
    await Effect.runPromise(
      Effect.gen(function*() {
        yield* unhandledFailure(note, "TypeError: boom")
        yield* Effect.logWarning("second").pipe(Effect.annotateLogs({ count: 2 }))
      }).pipe(Effect.provide(layerJsonLogger((chunk) => void chunks.push(chunk), "1 hour"))),
    )
    expect(chunks).toHaveLength(1)
    const lines = chunks[0]!.trimEnd().split("\n").map((l) => JSON.parse(l))
    expect(lines.map((l) => [l.level, l.msg])).toEqual([["error", "unhandled failure"], ["warn", "second"]])
    expect(lines[0]).toMatchObject({ requestId: "req-1", route: "PUT /storage/**", cause: "TypeError: boom" })
    expect(lines[1]).toMatchObject({ count: 2 })
  })
})
