import { Webhook } from "standardwebhooks"
import { mkdtempSync } from "node:fs"
import { join } from "node:path"
import { Effect, Layer } from "effect"
import { afterEach, describe, expect, inject, test } from "vitest"
import { layerCapturedLogs, type LogLine } from "../../adapters/observability/jsonLogger.ts"
import { layerManualClock } from "../../adapters/memory/MemoryClock.ts"
import { layerMemoryRecords } from "../../adapters/memory/index.ts"
import { layerMemoryNotificationOutbox, makeMemoryNotificationOutbox } from "../../adapters/notifier/MemoryNotificationOutbox.ts"
import { enqueueMissingReviewEvents, USER_AGENT } from "../../adapters/notifier/WebhookDispatcher.ts"
import { layerWebhookReviewNotifier } from "../../adapters/notifier/WebhookReviewNotifier.ts"
import { WEBHOOK_HEADERS } from "../../adapters/notifier/webhookSignature.ts"
import { layerSqlRecords } from "../../adapters/sql/index.ts"
import { layerSystemClock } from "../../adapters/system/SystemClock.ts"
import { Unavailable } from "../../domain/errors.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { NotificationOutbox } from "../../ports/NotificationOutbox.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { ReviewNotifier } from "../../ports/ReviewNotifier.ts"
import { freshDatabase } from "../setup/mariadb.ts"
import { aGame, anIntent, aReleaseFor } from "../support/fixtures.ts"
import { type Answer, type Receiver, startReceiver, verifies } from "./receiver.ts"
import { anEvent, eventually, fastPolicy, idsIn, SECRET, type Instance, startInstance } from "./support.ts"

// Secrets a log line must never carry: the signing secret, and a token in the webhook URL's path.
const PATH_TOKEN = "T0KEN-in-the-path-7f3a"

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})
const receiverWith = async (script: (index: number) => Answer): Promise<Receiver> => {
  const receiver = await startReceiver({ path: `/hooks/${PATH_TOKEN}`, script })
  cleanups.push(receiver.close)
  return receiver
}
const started = async (...args: Parameters<typeof startInstance>): Promise<Instance> => {
  const instance = await startInstance(...args)
  cleanups.push(instance.stop)
  return instance
}

const runDir = () => mkdtempSync(join(inject("runDir"), "notifier-"))
const sqlite = () => layerSqlRecords({ target: { kind: "sqlite", path: join(runDir(), "records.sqlite") } })
const memory = () => Layer.merge(layerMemoryNotificationOutbox, layerMemoryRecords)

const expectNoSecrets = (logs: ReadonlyArray<LogLine>) => {
  const text = JSON.stringify(logs)
  expect(text).not.toContain(SECRET)
  expect(text).not.toContain(PATH_TOKEN)
  expect(text).not.toMatch(/v1=[0-9a-f]{64}/)
}

const allDelivered = (instance: Instance, receiver: Receiver, count: number) =>
  eventually(async () => {
    const ids = new Set(idsIn(receiver.accepted()))
    if (ids.size < count) return false
    const rows = await Promise.all([...ids].map(instance.delivery))
    return rows.every((row) => row?.status === "delivered")
  }, `${count} deliveries recorded as delivered`)

describe.each([["memory", memory], ["SQLite", sqlite]] as const)("webhook dispatcher on the %s outbox", (_name, stores) => {
  test("a receiver that fails its first calls gets every event exactly once, signed, with the same body on every attempt", async () => {
    // 503, a dropped connection, 500 and 429 first; then it accepts.
    const first: ReadonlyArray<Answer> = [503, "drop", 500, 429]
    const receiver = await receiverWith((i) => first[i] ?? 204)
    const instance = await started(stores(), receiver.url, fastPolicy({ batchSize: 2 }))
    const events = Array.from({ length: 5 }, (_, i) => anEvent({ version: `1.${i}.0`, sizeBytes: 4096 + i }))
    for (const event of events) await instance.notify(event)
    await allDelivered(instance, receiver, 5)

    const accepted = receiver.accepted()
    expect(accepted).toHaveLength(5) // exactly once each, after retries
    expect(receiver.calls.length).toBe(9)
    expect(receiver.calls.slice(0, 4).map((c) => c.answer)).toEqual([503, "drop", 500, 429])
    for (const call of accepted) {
      const body = JSON.parse(call.body)
      const event = events.find((e) => e.gameId === body.data.gameId)!
      expect(body).toEqual({
        id: call.headers[WEBHOOK_HEADERS.id],
        type: "release.finalized",
        createdAt: event.at.toISOString(),
        data: { gameId: event.gameId, version: event.version, sha256: event.sha256, sizeBytes: event.sizeBytes },
      })
      expect([call.method, call.path, call.headers["content-type"], call.headers["user-agent"], call.headers[WEBHOOK_HEADERS.event]]).toEqual([
        "POST",
        `/hooks/${PATH_TOKEN}`,
        "application/json",
        USER_AGENT,
        "release.finalized",
      ])
      expect(call.headers[WEBHOOK_HEADERS.signature]).toMatch(/^v1=[0-9a-f]{64}$/)
      expect(verifies(call, SECRET)).toBe(true)
      expect(verifies(call, SECRET, call.body.replace(event.gameId, "gm_forged"))).toBe(false)
      expect(verifies(call, "another-secret-another-secret-0000")).toBe(false)
      // The Standard Webhooks headers verify with its library, the raw secret's UTF-8 bytes being the key.
      expect(new Webhook(SECRET, { format: "raw" }).verify(call.body, call.headers)).toEqual(body)
      expect(() => new Webhook(SECRET, { format: "raw" }).verify(call.body.replace(event.gameId, "gm_forged"), call.headers)).toThrow()
      // Every attempt of a delivery carried the same id and body; the attempt header counts up.
      const attempts = receiver.calls.filter((c) => c.headers[WEBHOOK_HEADERS.id] === body.id)
      expect(new Set(attempts.map((c) => c.body))).toEqual(new Set([call.body]))
      expect(attempts.map((c) => c.headers[WEBHOOK_HEADERS.attempt])).toEqual(attempts.map((_, i) => String(i + 1)))
      expect((await instance.delivery(body.id))?.attempts).toBe(attempts.length)
    }

    const messages = instance.logs.map((l) => l.msg)
    expect(messages.filter((m) => m === "review requested")).toHaveLength(5)
    expect(messages.filter((m) => m === "webhook attempt failed")).toHaveLength(4)
    expect(messages.filter((m) => m === "webhook delivered")).toHaveLength(5)
    // A dropped connection is named by the HTTP client's error code (undici: UND_ERR_SOCKET), never by its message.
    const errors = instance.logs.filter((l) => l.msg === "webhook attempt failed").map((l) => String(l["error"]))
    expect(errors.slice().sort()).toEqual(["HTTP 429", "HTTP 500", "HTTP 503", expect.stringMatching(/^network error [A-Z0-9_]+$/)])
    expectNoSecrets(instance.logs)
  })

  test("a receiver that does not answer in time: the attempt is cut at the request timeout and retried", async () => {
    // The timeout leaves a loaded machine ample time for the answers that do come (each attempt opens its own connection).
    const receiver = await receiverWith((i) => (i === 0 ? "hang" : 200))
    const instance = await started(stores(), receiver.url, fastPolicy({ requestTimeoutMs: 1500 }))
    await instance.notify(anEvent())
    await allDelivered(instance, receiver, 1)
    const [id] = idsIn(receiver.accepted())
    expect(receiver.calls[0]!.answer).toBe("hang")
    expect(await instance.delivery(id!)).toMatchObject({ status: "delivered", attempts: receiver.calls.length, lastError: "no response within 1500 ms" })
  })

  test("a redirect is a failure and is not followed", async () => {
    const receiver = await receiverWith((i) => (i === 0 ? 307 : 200))
    const instance = await started(stores(), receiver.url)
    await instance.notify(anEvent())
    await allDelivered(instance, receiver, 1)
    expect(receiver.calls.map((c) => [c.path, c.answer])).toEqual([[`/hooks/${PATH_TOKEN}`, 307], [`/hooks/${PATH_TOKEN}`, 200]])
    expect((await instance.delivery(idsIn(receiver.calls)[0]!))?.lastError).toBe("HTTP 307")
  })

  test("past the maximum age a failing delivery is given up, logged as an error, and never sent again", async () => {
    const receiver = await receiverWith(() => 500)
    const instance = await started(stores(), receiver.url, fastPolicy({ maxAgeMs: 0 }))
    await instance.notify(anEvent())
    await receiver.until((r) => r.calls.length > 0, "the first attempt")
    const [id] = idsIn(receiver.calls)
    await eventually(async () => (await instance.delivery(id!))?.status === "abandoned", "the delivery given up")
    expect(await instance.delivery(id!)).toMatchObject({ status: "abandoned", attempts: 1, lastError: "HTTP 500" })
    expect(instance.logs.find((l) => l.msg === "webhook delivery given up")).toMatchObject({ level: "error", deliveryId: id, error: "HTTP 500", attempt: 1 })
    await instance.stop()
    expect(receiver.calls).toHaveLength(1)
    expectNoSecrets(instance.logs)
  })
})

describe("several dispatchers draining one outbox (instances behind a load balancer)", () => {
  const shared = makeMemoryNotificationOutbox()
  const sharedMemory = () => Layer.merge(Layer.succeed(NotificationOutbox, shared), layerMemoryRecords)
  const mariadb = async () => {
    const url = await freshDatabase(inject("mariadbUrl"), "webhooks")
    return () => layerSqlRecords({ target: { kind: "mysql", url } }) // a pool per instance
  }

  test.each([["memory", async () => sharedMemory], ["MariaDB", mariadb]] as const)("%s: 3 instances, 30 events, a flaky receiver: each event accepted exactly once", async (_name, makeStores) => {
    const stores = await makeStores()
    const receiver = await receiverWith((i) => (i % 4 === 1 ? 503 : i % 7 === 3 ? "drop" : 204))
    const instances = [await started(stores(), receiver.url), await started(stores(), receiver.url), await started(stores(), receiver.url)]
    await Promise.all(Array.from({ length: 30 }, (_, i) => instances[i % 3]!.notify(anEvent({ version: `2.${i}.0` }))))
    await allDelivered(instances[0]!, receiver, 30)
    const accepted = idsIn(receiver.accepted())
    expect(accepted).toHaveLength(30)
    expect(new Set(accepted).size).toBe(30)
    expect(receiver.calls.length).toBeGreaterThan(30) // some were retried
    const senders = instances.filter((instance) => instance.logs.some((l) => l.msg === "webhook delivered"))
    expect(senders.length).toBeGreaterThanOrEqual(1)
  })
})

describe("recovery: pending releases whose event was never queued", () => {
  test("at start, each recent pending release gets exactly one event (finalize or submission); reviewed and expired ones none", async () => {
    const receiver = await receiverWith(() => 204)
    const stores = sqlite()
    // Releases written straight to the store, as if the process had died between commit and enqueue.
    const seeded = await Effect.runPromise(
      Effect.gen(function*() {
        const games = yield* GameStore
        const releases = yield* ReleaseStore
        const game = aGame()
        yield* games.insert(game, "system")
        const now = Date.now()
        const add = Effect.fnUntraced(function*(version: string, ageMs: number, source: "release_api" | "multipart" = "release_api") {
          const intent = anIntent(game.id, { version })
          yield* releases.recordIntent(intent)
          return yield* releases.finalize(intent.id, aReleaseFor(intent, { source, createdAt: new Date(now - ageMs) }))
        })
        const recent = yield* add("1.0.0", 60_000)
        const submitted = yield* add("1.1.0", 30_000, "multipart")
        yield* add("0.9.0", 100 * 3_600_000) // older than the 72 h maximum age
        const reviewed = yield* add("0.8.0", 1000)
        yield* releases.review(game.id, reviewed.version, { status: "approved", by: "admin", at: new Date(now), reason: null })
        return { recent, submitted }
      }).pipe(Effect.provide(stores)),
    )
    const instance = await started(stores, receiver.url)
    await allDelivered(instance, receiver, 2)
    const bodies = receiver.accepted().map((c) => JSON.parse(c.body)).sort((a, b) => a.data.version.localeCompare(b.data.version))
    expect(bodies.map((b) => [b.type, b.data, b.createdAt])).toEqual([
      ["release.finalized", { gameId: seeded.recent.gameId, version: "1.0.0", sha256: seeded.recent.sha256, sizeBytes: seeded.recent.sizeBytes }, seeded.recent.createdAt.toISOString()],
      ["submission.received", { gameId: seeded.submitted.gameId, version: "1.1.0", sha256: seeded.submitted.sha256, sizeBytes: seeded.submitted.sizeBytes }, seeded.submitted.createdAt.toISOString()],
    ])
    expect(instance.logs.filter((l) => l.msg === "webhook event queued for a pending release that had none")).toHaveLength(2)
    // Running it again, or the late notification of the same release, adds nothing.
    expect(await instance.run(enqueueMissingReviewEvents(fastPolicy()).pipe(Effect.provide(layerSystemClock)))).toBe(0)
    await instance.notify({ kind: "release_finalized", gameId: seeded.recent.gameId, version: "1.0.0", sha256: seeded.recent.sha256, sizeBytes: 4096, at: seeded.recent.createdAt })
    expect(await instance.run(enqueueMissingReviewEvents(fastPolicy()).pipe(Effect.provide(layerSystemClock)))).toBe(0)
    // A week past the maximum age, the finished deliveries are pruned, and nothing is queued again: those releases are
    // past the age recovery looks at.
    const later = layerManualClock(new Date(Date.now() + fastPolicy().maxAgeMs + 8 * 86_400_000))
    const logs: Array<LogLine> = []
    expect(await instance.run(enqueueMissingReviewEvents(fastPolicy()).pipe(Effect.provide(later), Effect.provide(layerCapturedLogs(logs))))).toBe(0)
    expect(logs).toMatchObject([{ level: "info", msg: "finished webhook deliveries pruned", count: 2 }])
    await instance.stop()
    expect(receiver.accepted()).toHaveLength(2)
  })
})

describe("shutting down mid-request", () => {
  test("the lease is given back, so the next start sends the delivery at once", async () => {
    const receiver = await receiverWith((i) => (i === 0 ? "hang" : 204))
    const dir = runDir()
    const stores = () => layerSqlRecords({ target: { kind: "sqlite", path: join(dir, "records.sqlite") } })
    const first = await startInstance(stores(), receiver.url, fastPolicy({ requestTimeoutMs: 600_000 }))
    await first.notify(anEvent())
    await receiver.until((r) => r.calls.length === 1, "the attempt that hangs")
    const [id] = idsIn(receiver.calls)
    await first.stop()
    const second = await started(stores(), receiver.url)
    expect(await second.delivery(id!)).toMatchObject({ status: "pending", attempts: 1, lastError: "interrupted (shutting down)" })
    await allDelivered(second, receiver, 1)
    expect(await second.delivery(id!)).toMatchObject({ status: "delivered", attempts: 2 })
  })
})

describe("a database that fails while the dispatcher runs", () => {
  test("failed passes are logged with the reason and the loop carries on: the event is delivered once the store answers", async () => {
    const receiver = await receiverWith(() => 204)
    const real = makeMemoryNotificationOutbox()
    let failuresLeft = 3
    const flaky = NotificationOutbox.of({
      ...real,
      claimDue: (request) =>
        Effect.suspend(() =>
          failuresLeft-- > 0 ? Effect.fail(new Unavailable({ dependency: "database", reason: "claim due notifications: ECONNREFUSED" })) : real.claimDue(request)
        ),
    })
    const instance = await started(Layer.merge(Layer.succeed(NotificationOutbox, flaky), layerMemoryRecords), receiver.url)
    await instance.notify(anEvent())
    await allDelivered(instance, receiver, 1)
    const failed = instance.logs.filter((l) => l.msg === "webhook dispatch pass failed")
    expect(failed.length).toBeGreaterThanOrEqual(1)
    expect(failed[0]).toMatchObject({ level: "warn", reason: "database unavailable: claim due notifications: ECONNREFUSED" })
    expect(receiver.accepted()).toHaveLength(1)
  })
})

describe("the notifier", () => {
  test("logs the review request and succeeds even when the outbox is down (recovery queues it later)", async () => {
    const logs: Array<LogLine> = []
    const failing = NotificationOutbox.of({
      enqueue: () => Effect.fail(new Unavailable({ dependency: "database", reason: "connect ECONNREFUSED" })),
      claimDue: () => Effect.succeed([]),
      markDelivered: () => Effect.succeed(false),
      markFailed: () => Effect.succeed(false),
      get: () => Effect.die("unused"),
      pruneFinished: () => Effect.die("unused"),
      countPending: () => Effect.die("unused"),
    })
    let nudged = 0
    const layer = layerWebhookReviewNotifier({ onEnqueued: () => void nudged++ }).pipe(
      Layer.provide(Layer.succeed(NotificationOutbox, failing)),
      Layer.provideMerge(layerCapturedLogs(logs)),
    )
    const event = anEvent()
    await Effect.runPromise(ReviewNotifier.use((n) => n.notify(event)).pipe(Effect.provide(layer)))
    expect(logs.map((l) => [l.level, l.msg])).toEqual([
      ["info", "review requested"],
      ["warn", "webhook event not queued now; the recovery pass will queue it from the release"],
    ])
    expect(logs[0]).toMatchObject({ kind: "release_finalized", gameId: event.gameId, version: event.version })
    expect(logs[1]).toMatchObject({ gameId: event.gameId, reason: "database unavailable: connect ECONNREFUSED" })
    expect(nudged).toBe(0)
  })
})
