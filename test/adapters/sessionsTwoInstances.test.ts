// Two instances sharing one MariaDB (the run's, test/setup/global.ts) and the session key, each with its session cache
// on a clock the test moves: a session ended on one instance is refused there at once, and on the other once that
// instance's cached answer is 5 s old — the test moves the second instance's cache clock instead of waiting.
import { createHash } from "node:crypto"
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import { layerCachedSessions, SESSION_CACHE_MS } from "../../adapters/cache/CachedSessions.ts"
import { SESSION_COOKIE } from "../../adapters/http/session.ts"
import { layerSqlDatabase } from "../../adapters/sql/SqlDatabase.ts"
import { layerSqlSessionStore } from "../../adapters/sql/SqlSessionStore.ts"
import { SessionStore } from "../../ports/SessionStore.ts"
import { freshDatabase } from "../setup/mariadb.ts"
import { makeTestApp, TEST_BASE_URL, type TestApp } from "../support/testApp.ts"

const url = await freshDatabase(inject("mariadbUrl"), "sessions")
/** Sessions on the shared database, as one instance opens it (its own pool). */
const sessionsOnTheDatabase = () => Layer.orDie(layerSqlSessionStore.pipe(Layer.provide(layerSqlDatabase({ target: { kind: "mysql", url } }))))

const sessionKey = crypto.getRandomValues(new Uint8Array(32))
let first: TestApp
let second: TestApp
let secondCacheNow = 1_000_000
/** What the database holds, read without any cache. */
let database: ManagedRuntime.ManagedRuntime<SessionStore, never>

beforeAll(async () => {
  first = await makeTestApp({ sessionKey, override: layerCachedSessions().pipe(Layer.provide(sessionsOnTheDatabase())) })
  second = await makeTestApp({
    sessionKey,
    override: layerCachedSessions({ now: () => secondCacheNow }).pipe(Layer.provide(sessionsOnTheDatabase())),
  })
  database = ManagedRuntime.make(sessionsOnTheDatabase())
})
afterAll(async () => {
  await Promise.all([first.dispose(), second.dispose(), database.dispose()])
})

/** A browser session started on the first instance; its `name=value` cookie. */
const signInOnFirst = async (userId: string) => {
  const started = await first.api.call("POST", "/api/session", { token: await first.token(userId) })
  expect(started.status).toBe(200)
  return started.headers.get("set-cookie")!.split(";")[0]!
}

const myGames = (instance: TestApp, cookie: string) => instance.api.call("GET", "/api/me/games", { headers: { cookie } })

const storedSession = async (cookie: string) => {
  const sessionId = await first.sessions.open(cookie.slice(SESSION_COOKIE.length + 1))
  expect(sessionId).not.toBeNull()
  return Option.getOrNull(await database.runPromise(SessionStore.use((store) => store.get(sessionId!))))
}

describe("sessions shared by two instances", () => {
  test("a cookie from one instance signs in on the other (the session is in the database)", async () => {
    const cookie = await signInOnFirst("roaming")
    expect(await storedSession(cookie)).toMatchObject({ userId: "roaming" })
    expect(await myGames(second, cookie)).toMatchObject({ status: 200 })
  })

  test("an administrator ends a user's sessions on one instance: refused there at once, on the other within 5 s of its read", async () => {
    const seenBySecond = await signInOnFirst("leaver")
    const neverSeenBySecond = await signInOnFirst("leaver")
    expect((await myGames(second, seenBySecond)).status).toBe(200)

    const ended = await first.api.call("DELETE", "/api/admin/users/leaver/sessions", { token: await first.token("root", { admin: true }) })
    expect(ended.status).toBe(204)
    expect(await storedSession(seenBySecond)).toBeNull()
    expect(await storedSession(neverSeenBySecond)).toBeNull()
    expect((await myGames(first, seenBySecond)).status).toBe(401)
    expect((await myGames(second, neverSeenBySecond)).status).toBe(401)

    // The second instance read this session just before: it may answer from memory, for 5 s from that read at most.
    expect((await myGames(second, seenBySecond)).status).toBe(200)
    secondCacheNow += SESSION_CACHE_MS
    expect(await myGames(second, seenBySecond)).toMatchObject({ status: 401, body: { error: "sign_in_required" } })
  })

  test("signing out on one instance: a copy of the cookie is refused on the other within 5 s of its read", async () => {
    const cookie = await signInOnFirst("commuter")
    expect((await myGames(second, cookie)).status).toBe(200)
    const out = await first.api.call("DELETE", "/api/session", { headers: { cookie, origin: TEST_BASE_URL } })
    expect(out.status).toBe(204)
    expect(await storedSession(cookie)).toBeNull()
    expect((await myGames(first, cookie)).status).toBe(401)
    secondCacheNow += SESSION_CACHE_MS
    expect((await myGames(second, cookie)).status).toBe(401)
  })

  test("the database holds the session under a digest of the cookie's secret, never the secret itself", async () => {
    const cookie = await signInOnFirst("careful")
    const secret = cookie.slice(SESSION_COOKIE.length + 1).split(".")[1]!
    const digest = createHash("sha256").update(Buffer.from(secret, "base64url")).digest("base64url")
    const read = (id: string) => database.runPromise(SessionStore.use((store) => store.get(id)).pipe(Effect.map(Option.getOrNull)))
    expect(await read(digest)).toMatchObject({ id: digest, userId: "careful" })
    expect(await read(secret)).toBeNull()
  })
})
