import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { newSession, type Session, SESSION_TTL_SECONDS } from "../../domain/auth/Session.ts"
import { SessionStore } from "../../ports/SessionStore.ts"
import { unique } from "../support/fixtures.ts"

const T0 = new Date("2026-06-01T08:00:00.123Z")
const plusSeconds = (at: Date, seconds: number) => new Date(at.getTime() + seconds * 1000)

const aSession = (userId: string, createdAt = T0, isAdmin = false): Session =>
  newSession(unique("ses_"), { userId, isAdmin }, createdAt)

/** The stored session, or null once it is gone. */
const stored = (id: string) => Effect.map(SessionStore.use((store) => store.get(id)), Option.getOrNull)

export const sessionStoreContract = (name: string, makeLayer: () => Layer.Layer<SessionStore, unknown>) =>
  layer(makeLayer(), { timeout: 120_000 })(`SessionStore contract: ${name}`, (it) => {
    it.effect("create stores the session exactly (times to the millisecond, the administrator window or none); unknown ids are none", () =>
      Effect.gen(function*() {
        const store = yield* SessionStore
        const admin = aSession(unique("Ada ☃ "), T0, true)
        const plain = aSession(unique("bob-"), plusSeconds(T0, 1))
        yield* store.create(admin)
        yield* store.create(plain)
        assert.deepStrictEqual(yield* stored(admin.id), admin)
        assert.deepStrictEqual(yield* stored(plain.id), plain)
        assert.strictEqual(admin.adminUntil?.toISOString(), "2026-06-01T08:10:00.123Z")
        assert.isNull(plain.adminUntil)
        assert.isNull(yield* stored(unique("ses_")))
      }))

    it.effect("revoke ends one session: true the first time, false after; the user's other sessions stay", () =>
      Effect.gen(function*() {
        const store = yield* SessionStore
        const userId = unique("carol-")
        const [first, second] = [aSession(userId), aSession(userId)]
        yield* store.create(first)
        yield* store.create(second)
        assert.deepStrictEqual(yield* stored(first.id), first)
        assert.isTrue(yield* store.revoke(first.id))
        assert.isNull(yield* stored(first.id))
        assert.isFalse(yield* store.revoke(first.id))
        assert.isFalse(yield* store.revoke(unique("ses_")))
        assert.deepStrictEqual(yield* stored(second.id), second)
      }))

    it.effect("revokeAllOf ends every session of exactly that user id (case and spaces count), and says how many", () =>
      Effect.gen(function*() {
        const store = yield* SessionStore
        const userId = unique("dave-")
        const mine = [aSession(userId), aSession(userId, plusSeconds(T0, 5), true), aSession(userId, plusSeconds(T0, 9))]
        const others = [aSession(userId.toUpperCase()), aSession(`${userId} `), aSession(unique("erin-"))]
        for (const session of [...mine, ...others]) yield* store.create(session)
        for (const session of [...mine, ...others]) assert.deepStrictEqual(yield* stored(session.id), session)
        assert.strictEqual(yield* store.revokeAllOf(userId), 3)
        for (const session of mine) assert.isNull(yield* stored(session.id))
        for (const session of others) assert.deepStrictEqual(yield* stored(session.id), session)
        assert.strictEqual(yield* store.revokeAllOf(userId), 0)
      }))

    it.effect("a user's next create forgets their expired sessions; get answers other expired ones (callers judge expiry)", () =>
      Effect.gen(function*() {
        const store = yield* SessionStore
        const userId = unique("frank-")
        const expired = aSession(userId)
        const stillLive = aSession(userId, plusSeconds(T0, 10))
        const someoneElses = aSession(unique("grace-"))
        for (const session of [expired, stillLive, someoneElses]) yield* store.create(session)

        const next = aSession(userId, plusSeconds(T0, SESSION_TTL_SECONDS))
        yield* store.create(next)
        assert.isNull(yield* stored(expired.id), "expired exactly at the new session's start: forgotten")
        assert.deepStrictEqual(yield* stored(stillLive.id), stillLive)
        assert.deepStrictEqual(yield* stored(someoneElses.id), someoneElses, "expired too, but another user's")
        assert.deepStrictEqual(yield* stored(next.id), next)
      }))
  })
