import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { type ClaimedDelivery, NotificationOutbox, type OutboxEvent } from "../../ports/NotificationOutbox.ts"
import { unique } from "../support/fixtures.ts"

const T0 = new Date("2026-05-01T10:00:00.000Z")
const YEAR_MS = 365 * 86_400_000

/**
 * The cases of a suite share one store, and whatever one leaves pending would be due for the next. So each case
 * works in its own window, ten years before the previous case's: rows left behind are always in the future of
 * every later case, which never looks more than a year ahead.
 */
let windows = 0
const window = () => new Date(T0.getTime() - ++windows * 10 * YEAR_MS)

const anEvent = (createdAt: Date, overrides: Partial<OutboxEvent> = {}): OutboxEvent => {
  const id = overrides.id ?? unique("evt_")
  return {
    id,
    dedupeKey: `release:${unique("gm_")}:1.0.0`,
    type: "release.finalized",
    createdAt,
    body: JSON.stringify({ id, type: "release.finalized", createdAt: createdAt.toISOString(), data: { gameId: "g", version: "1.0.0" } }),
    ...overrides,
  }
}

const claim = (now: Date, limit = 100, leaseMs = 60_000) =>
  NotificationOutbox.use((outbox) => outbox.claimDue({ now, limit, lease: unique("lease_"), leasedUntil: new Date(now.getTime() + leaseMs) }))

const ids = (claimed: ReadonlyArray<ClaimedDelivery>) => claimed.map((d) => d.id)

export const notificationOutboxContract = (name: string, makeLayer: () => Layer.Layer<NotificationOutbox, unknown>) =>
  layer(makeLayer(), { timeout: 120_000 })(`NotificationOutbox contract: ${name}`, (it) => {
    it.effect("enqueue stores the event exactly (body to the byte, times to the millisecond), pending and due at its creation", () =>
      Effect.gen(function*() {
        const outbox = yield* NotificationOutbox
        const createdAt = new Date(window().getTime() + 123)
        const event = anEvent(createdAt, { body: JSON.stringify({ name: "Jeu d'été — 夏のゲーム 😀", pad: "x".repeat(20_000) }) })
        assert.deepStrictEqual(yield* outbox.enqueue([event]), [event])
        const stored = Option.getOrThrow(yield* outbox.get(event.id))
        assert.deepStrictEqual(stored, { ...event, status: "pending", attempts: 0, nextAttemptAt: createdAt, lastError: null, finishedAt: null })
        assert.isTrue(Option.isNone(yield* outbox.get(unique("evt_"))))
        assert.deepStrictEqual(yield* outbox.enqueue([]), [])
      }))

    it.effect("one delivery per dedupe key: a second event for the same key is ignored, in another call or the same one", () =>
      Effect.gen(function*() {
        const outbox = yield* NotificationOutbox
        const now = window()
        const first = anEvent(now)
        const again = anEvent(now, { dedupeKey: first.dedupeKey })
        const other = anEvent(now)
        const twin = anEvent(now, { dedupeKey: other.dedupeKey })
        assert.deepStrictEqual(yield* outbox.enqueue([first]), [first])
        assert.deepStrictEqual(yield* outbox.enqueue([again, other, twin]), [other])
        assert.isTrue(Option.isNone(yield* outbox.get(again.id)))
        assert.isTrue(Option.isNone(yield* outbox.get(twin.id)))
        assert.deepStrictEqual(ids(yield* claim(now)), [first.id, other.id].sort())
      }))

    it.effect("claimDue leases due deliveries oldest first, up to the limit, counting an attempt; leased ones are not claimed again", () =>
      Effect.gen(function*() {
        const outbox = yield* NotificationOutbox
        const base = window()
        const events = [3, 1, 2, 5].map((offset) => anEvent(new Date(base.getTime() + offset)))
        const future = anEvent(new Date(base.getTime() + 10_000))
        yield* outbox.enqueue([...events, future])
        const now = new Date(base.getTime() + 5)
        const first = yield* claim(now, 2)
        assert.deepStrictEqual(ids(first), [events[1]!.id, events[2]!.id])
        for (const delivery of first) {
          assert.strictEqual(delivery.attempts, 1)
          assert.strictEqual(delivery.status, "pending")
          assert.deepStrictEqual(delivery.leasedUntil, new Date(now.getTime() + 60_000))
          assert.strictEqual(delivery.body, events.find((e) => e.id === delivery.id)!.body)
        }
        assert.deepStrictEqual(ids(yield* claim(now)), [events[0]!.id, events[3]!.id], "the rest; the leased two and the future one are skipped")
        assert.deepStrictEqual(ids(yield* claim(now)), [])
        assert.deepStrictEqual(ids(yield* claim(new Date(base.getTime() + 10_000), 100, 1)), [future.id], "due at its time")
      }))

    it.effect("a lease that ran out can be claimed again; then only the new holder can record the outcome", () =>
      Effect.gen(function*() {
        const outbox = yield* NotificationOutbox
        const now = window()
        const event = anEvent(now)
        yield* outbox.enqueue([event])
        const [old] = yield* claim(now, 1, 1000)
        assert.deepStrictEqual(ids(yield* claim(new Date(now.getTime() + 999))), [], "still leased")
        const [fresh] = yield* claim(new Date(now.getTime() + 1000))
        assert.strictEqual(fresh!.attempts, 2)
        assert.isFalse(yield* outbox.markDelivered(old!, now), "the old holder lost its lease")
        assert.isFalse(yield* outbox.markFailed(old!, { at: now, error: "x", retryAt: null }))
        assert.isTrue(yield* outbox.markDelivered(fresh!, new Date(now.getTime() + 1500)))
        const stored = Option.getOrThrow(yield* outbox.get(event.id))
        assert.deepStrictEqual([stored.status, stored.attempts, stored.finishedAt], ["delivered", 2, new Date(now.getTime() + 1500)])
      }))

    it.effect("a delivered delivery is final: never claimed again, and recording it twice reports false", () =>
      Effect.gen(function*() {
        const outbox = yield* NotificationOutbox
        const now = window()
        const event = anEvent(now)
        yield* outbox.enqueue([event])
        const [held] = yield* claim(now)
        assert.isTrue(yield* outbox.markDelivered(held!, now))
        assert.isFalse(yield* outbox.markDelivered(held!, now))
        assert.isFalse(yield* outbox.markFailed(held!, { at: now, error: "late", retryAt: now }))
        assert.deepStrictEqual(ids(yield* claim(new Date(now.getTime() + YEAR_MS))), [])
        assert.deepStrictEqual(yield* outbox.enqueue([anEvent(now, { dedupeKey: event.dedupeKey })]), [], "its key stays taken")
      }))

    it.effect("pruneFinished deletes delivered and given-up deliveries of older events only, and frees their keys", () =>
      Effect.gen(function*() {
        const outbox = yield* NotificationOutbox
        const now = window()
        const before = new Date(now.getTime() + 1000)
        const [delivered, abandoned, pending, younger] = [anEvent(now), anEvent(now), anEvent(now), anEvent(before)]
        yield* outbox.enqueue([delivered, abandoned, pending, younger])
        const held = new Map((yield* claim(before)).map((d) => [d.id, d]))
        assert.isTrue(yield* outbox.markDelivered(held.get(delivered.id)!, before))
        assert.isTrue(yield* outbox.markFailed(held.get(abandoned.id)!, { at: before, error: "HTTP 410", retryAt: null }))
        assert.isTrue(yield* outbox.markDelivered(held.get(younger.id)!, before))
        assert.isTrue(yield* outbox.markFailed(held.get(pending.id)!, { at: before, error: "HTTP 503", retryAt: new Date(before.getTime() + YEAR_MS) }))
        assert.strictEqual(yield* outbox.pruneFinished(before), 2)
        for (const [event, kept] of [[delivered, false], [abandoned, false], [pending, true], [younger, true]] as const) {
          assert.strictEqual(Option.isSome(yield* outbox.get(event.id)), kept, event.id)
        }
        assert.deepStrictEqual((yield* outbox.enqueue([anEvent(now, { dedupeKey: delivered.dedupeKey })])).length, 1, "its key is free again")
        assert.strictEqual(yield* outbox.pruneFinished(before), 0)
      }))

    it.effect("a failure releases the lease and makes the delivery due again at retryAt, keeping the error", () =>
      Effect.gen(function*() {
        const outbox = yield* NotificationOutbox
        const now = window()
        const event = anEvent(now)
        yield* outbox.enqueue([event])
        const [held] = yield* claim(now)
        const retryAt = new Date(now.getTime() + 30_000)
        assert.isTrue(yield* outbox.markFailed(held!, { at: now, error: "HTTP 503", retryAt }))
        assert.deepStrictEqual(ids(yield* claim(new Date(retryAt.getTime() - 1))), [], "not before retryAt (the lease is gone, the time is not)")
        const stored = Option.getOrThrow(yield* outbox.get(event.id))
        assert.deepStrictEqual([stored.status, stored.attempts, stored.lastError, stored.nextAttemptAt, stored.finishedAt], ["pending", 1, "HTTP 503", retryAt, null])
        const [again] = yield* claim(retryAt)
        assert.deepStrictEqual([again!.id, again!.attempts], [event.id, 2])
      }))

    it.effect("a failure without retryAt gives the delivery up for good", () =>
      Effect.gen(function*() {
        const outbox = yield* NotificationOutbox
        const now = window()
        const event = anEvent(now)
        yield* outbox.enqueue([event])
        const [held] = yield* claim(now)
        const end = new Date(now.getTime() + 7)
        assert.isTrue(yield* outbox.markFailed(held!, { at: end, error: "network error ECONNREFUSED", retryAt: null }))
        const stored = Option.getOrThrow(yield* outbox.get(event.id))
        assert.deepStrictEqual([stored.status, stored.lastError, stored.finishedAt], ["abandoned", "network error ECONNREFUSED", end])
        assert.deepStrictEqual(ids(yield* claim(new Date(now.getTime() + YEAR_MS))), [])
      }))

    it.effect("claims racing for the same deliveries never share one: 30 due, 12 concurrent claimers, then one more picks up the rest", () =>
      Effect.gen(function*() {
        const outbox = yield* NotificationOutbox
        const now = window()
        const events = Array.from({ length: 30 }, (_, i) => anEvent(new Date(now.getTime() - i)))
        yield* outbox.enqueue(events)
        const claims = yield* Effect.all(Array.from({ length: 12 }, () => claim(now, 7)), { concurrency: "unbounded" })
        for (const batch of claims) assert.isAtMost(batch.length, 7)
        const claimed = claims.flatMap(ids)
        assert.strictEqual(new Set(claimed).size, claimed.length, "no delivery leased twice")
        assert.isAtLeast(claimed.length, 7)
        // Whoever lost every race (allowed: safety first) leaves work due; a later claim takes exactly that.
        const rest = ids(yield* claim(now))
        assert.deepStrictEqual([...claimed, ...rest].sort(), events.map((e) => e.id).sort(), "every delivery leased exactly once")
      }))

    it.effect("concurrent enqueues of one fact keep exactly one delivery", () =>
      Effect.gen(function*() {
        const outbox = yield* NotificationOutbox
        const now = window()
        const key = `release:${unique("gm_")}:2.0.0`
        const attempts = Array.from({ length: 10 }, () => anEvent(now, { dedupeKey: key }))
        const added = (yield* Effect.all(attempts.map((e) => outbox.enqueue([e])), { concurrency: "unbounded" })).flat()
        assert.strictEqual(added.length, 1)
        assert.deepStrictEqual(ids(yield* claim(now)), [added[0]!.id])
      }))
    it.effect("countPending counts pending deliveries, leased or not, due or not; delivered and given-up ones leave the count", () =>
      Effect.gen(function*() {
        const outbox = yield* NotificationOutbox
        const now = window()
        // Earlier cases leave deliveries behind in this shared store: the case checks what its own changes add.
        const before = yield* outbox.countPending()
        const events = [0, 1, 2, 3].map((offset) => anEvent(new Date(now.getTime() + offset)))
        const later = anEvent(new Date(now.getTime() + YEAR_MS))
        yield* outbox.enqueue([...events, later])
        assert.strictEqual(yield* outbox.countPending(), before + 5)
        const held = yield* claim(new Date(now.getTime() + 3))
        assert.strictEqual(held.length, 4)
        assert.strictEqual(yield* outbox.countPending(), before + 5, "a leased delivery is still pending")
        assert.isTrue(yield* outbox.markDelivered(held[0]!, now))
        assert.isTrue(yield* outbox.markFailed(held[1]!, { at: now, error: "HTTP 410", retryAt: null }))
        assert.isTrue(yield* outbox.markFailed(held[2]!, { at: now, error: "HTTP 503", retryAt: new Date(now.getTime() + 1000) }))
        assert.strictEqual(yield* outbox.countPending(), before + 3, "the delivered and the given-up one are no longer pending")
      }))
  })
