// A short in-process cache in front of SessionStore.get: every cookie-authenticated request reads its session, and a
// page load is several requests.
//
// The bound: an answer is served for at most `ttlMs` (5 s) counted from the moment it was asked of the store, not from
// when the answer arrived, so a session ended on another instance stops working here within 5 s of that instance's
// commit however slow the read was. Sessions ended on this instance drop out of the cache at once (after the store's
// write, so no read that began earlier can put the ended session back). Unknown ids are cached too: an id never turns
// into a session (a new one is random and recorded before its cookie is handed out). Expiry and the administrator
// window are judged on every request from the session's own times, so caching never extends them. Failed reads are
// not cached.
import { Cache, Clock as EffectClock, Duration, Effect, Exit, Layer, type Option } from "effect"
import type { Session } from "../../domain/auth/Session.ts"
import { SessionStore } from "../../ports/SessionStore.ts"

/** How long an instance may answer a session lookup from memory. */
export const SESSION_CACHE_MS = 5000
const DEFAULT_CAPACITY = 10_000

export interface SessionCacheOptions {
  /** How long an answer is served; also how long ending a session elsewhere may take to show here. 0 disables. */
  readonly ttlMs?: number
  /** Entries kept at most; the least recently used goes first. */
  readonly capacity?: number
  /** Milliseconds since the epoch; tests pass a clock they move by hand. */
  readonly now?: () => number
}

interface Lookup {
  readonly session: Option.Option<Session>
  /** When the store was asked. */
  readonly askedAt: number
}

/** Effect's clock with its time read from `now`; sleeping stays the real clock's. */
const clockReading = (now: () => number, real: EffectClock.Clock): EffectClock.Clock => ({
  currentTimeMillisUnsafe: now,
  currentTimeMillis: Effect.sync(now),
  currentTimeNanosUnsafe: () => BigInt(Math.floor(now())) * 1_000_000n,
  currentTimeNanos: Effect.sync(() => BigInt(Math.floor(now())) * 1_000_000n),
  monotonicTimeNanosUnsafe: () => real.monotonicTimeNanosUnsafe(),
  monotonicTimeNanos: real.monotonicTimeNanos,
  sleep: (duration) => real.sleep(duration),
})

/** Decorates the SessionStore it is given (provide one to it) with the cache. */
export const layerCachedSessions = (options: SessionCacheOptions = {}): Layer.Layer<SessionStore, never, SessionStore> =>
  Layer.effect(
    SessionStore,
    Effect.gen(function*() {
      const store = yield* SessionStore
      const ttlMs = options.ttlMs ?? SESSION_CACHE_MS
      if (ttlMs <= 0) return store
      const realClock = yield* EffectClock.Clock
      // effect's Cache reads the time from the calling fiber's clock: every cache call runs with this one.
      const clock = options.now === undefined ? realClock : clockReading(options.now, realClock)
      const cache = yield* Cache.makeWith(
        (id: string) =>
          Effect.suspend(() => {
            const askedAt = clock.currentTimeMillisUnsafe()
            return Effect.map(store.get(id), (session): Lookup => ({ session, askedAt }))
          }),
        {
          capacity: options.capacity ?? DEFAULT_CAPACITY,
          // What is left of the answer's life when it arrives (zero: not kept); failures are never kept.
          timeToLive: (exit) =>
            Exit.isSuccess(exit) ? Duration.millis(Math.max(0, exit.value.askedAt + ttlMs - clock.currentTimeMillisUnsafe())) : Duration.zero,
        },
      )
      const onClock = <A, E>(effect: Effect.Effect<A, E>) => Effect.provideService(effect, EffectClock.Clock, clock)
      return SessionStore.of({
        create: (session) => Effect.tap(store.create(session), () => Cache.invalidate(cache, session.id)),
        get: (id) => onClock(Effect.map(Cache.get(cache, id), (lookup) => lookup.session)),
        revoke: (id) => Effect.tap(store.revoke(id), () => Cache.invalidate(cache, id)),
        // Rare (an administrator's action): dropping every entry is simpler than finding the user's.
        revokeAllOf: (userId) => Effect.tap(store.revokeAllOf(userId), () => Cache.invalidateAll(cache)),
      })
    }),
  )
