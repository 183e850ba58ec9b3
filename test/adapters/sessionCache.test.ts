// The session cache (adapters/cache/CachedSessions.ts): it keeps the SessionStore contract, and a session ended on
// another instance (here: on the store underneath) stops being served within 5 s of the read, on a clock the test moves.
import { assert, describe, it } from "@effect/vitest"
import { Context, Deferred, Effect, Exit, Fiber, Layer, Option } from "effect"
import { layerCachedSessions, SESSION_CACHE_MS } from "../../adapters/cache/CachedSessions.ts"
import { layerMemorySessionStore } from "../../adapters/memory/MemorySessionStore.ts"
import { newSession } from "../../domain/auth/Session.ts"
import { Unavailable } from "../../domain/errors.ts"
import { SessionStore } from "../../ports/SessionStore.ts"
import { sessionStoreContract } from "../contract/SessionStore.contract.ts"
import { unique } from "../support/fixtures.ts"

sessionStoreContract("memory behind the session cache", () => layerCachedSessions().pipe(Layer.provide(layerMemorySessionStore)))

const T0 = new Date("2026-06-01T08:00:00.000Z")
const aSession = () => newSession(unique("ses_"), { userId: unique("user-"), isAdmin: false }, T0)

/** The cache over `store`, on a clock the test moves by hand. */
const cachedOver = (store: SessionStore["Service"]) =>
  Effect.gen(function*() {
    let now = 1_000_000
    const context = yield* Layer.build(layerCachedSessions({ now: () => now }).pipe(Layer.provide(Layer.succeed(SessionStore, store))))
    return { cached: Context.get(context, SessionStore), advance: (ms: number) => void (now += ms) }
  })

/** The store underneath, whose reads wait at a gate after reading (an answer that is slow to arrive). */
const slowAnswers = (store: SessionStore["Service"]) => {
  let gate: Deferred.Deferred<void> | null = null
  return {
    slow: SessionStore.of({
      ...store,
      get: (id) => Effect.flatMap(store.get(id), (answer) => (gate === null ? Effect.succeed(answer) : Effect.as(Deferred.await(gate), answer))),
    }),
    /** Answers wait from now on… */
    hold: () => void (gate = Deferred.makeUnsafe<void>()),
    /** …until this lets the waiting ones through. */
    release: () => {
      if (gate !== null) Deferred.doneUnsafe(gate, Exit.void)
      gate = null
    },
  }
}

const isLive = (answer: Option.Option<unknown>) => Option.isSome(answer)

describe("CachedSessions", () => {
  it.effect("a session ended on another instance is served for at most 5 s after the read, then refused", () =>
    Effect.gen(function*() {
      const store = yield* SessionStore
      const session = aSession()
      yield* store.create(session)
      const { cached, advance } = yield* cachedOver(store)
      assert.isTrue(isLive(yield* cached.get(session.id)))
      yield* store.revoke(session.id) // another instance signs out
      advance(SESSION_CACHE_MS - 1)
      assert.isTrue(isLive(yield* cached.get(session.id)), "within the bound, the answer read before may still be served")
      advance(1)
      assert.isFalse(isLive(yield* cached.get(session.id)))
    }).pipe(Effect.scoped, Effect.provide(layerMemorySessionStore)))

  it.effect("the 5 s count from when the store was asked, not from when a slow answer arrived", () =>
    Effect.gen(function*() {
      const store = yield* SessionStore
      const session = aSession()
      yield* store.create(session)
      const { slow, hold, release } = slowAnswers(store)
      const { cached, advance } = yield* cachedOver(slow)
      hold()
      const reading = yield* Effect.forkChild(cached.get(session.id))
      yield* Effect.yieldNow
      yield* store.revoke(session.id) // ended elsewhere while the answer (read before) is on its way
      advance(4000)
      release()
      assert.isTrue(isLive(yield* Fiber.join(reading)))
      advance(SESSION_CACHE_MS - 4000 - 1)
      assert.isTrue(isLive(yield* cached.get(session.id)))
      advance(1)
      assert.isFalse(isLive(yield* cached.get(session.id)))
    }).pipe(Effect.scoped, Effect.provide(layerMemorySessionStore)))

  it.effect("ending a session on this instance takes effect at once, even over a read that was under way", () =>
    Effect.gen(function*() {
      const store = yield* SessionStore
      const [one, other] = [aSession(), aSession()]
      yield* store.create(one)
      yield* store.create(other)
      const { slow, hold, release } = slowAnswers(store)
      const { cached } = yield* cachedOver(slow)
      assert.isTrue(isLive(yield* cached.get(other.id)))
      hold()
      const reading = yield* Effect.forkChild(cached.get(one.id))
      yield* Effect.yieldNow
      assert.isTrue(yield* cached.revoke(one.id))
      release()
      yield* Fiber.join(reading)
      assert.isFalse(isLive(yield* cached.get(one.id)), "the read that began before the sign-out did not put it back")
      assert.strictEqual(yield* cached.revokeAllOf(other.userId), 1)
      assert.isFalse(isLive(yield* cached.get(other.id)))
    }).pipe(Effect.scoped, Effect.provide(layerMemorySessionStore)))

  it.effect("a failed read is not kept: the next request asks the store again", () =>
    Effect.gen(function*() {
      const store = yield* SessionStore
      const session = aSession()
      yield* store.create(session)
      let failing = true
      const flaky = SessionStore.of({
        ...store,
        get: (id) => (failing ? Effect.fail(new Unavailable({ dependency: "database", reason: "down" })) : store.get(id)),
      })
      const { cached } = yield* cachedOver(flaky)
      const error = yield* Effect.flip(cached.get(session.id))
      assert.strictEqual(error._tag, "Unavailable")
      failing = false
      assert.isTrue(isLive(yield* cached.get(session.id)))
    }).pipe(Effect.scoped, Effect.provide(layerMemorySessionStore)))
})
