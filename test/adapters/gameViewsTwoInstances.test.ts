// Two app instances on one MariaDB (the run's, test/setup/global.ts), each with the game view cache and the change
// follower as the server runs them (adapters/cache/index.ts), and a view lifetime far longer than the test: only the
// change feed can make a decision on one instance show on the other. The test waits until the other instance's
// follower has applied the decision's feed entry, then asserts; it never waits for a time.
import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import { ChangeFollower, layerGameViewCache } from "../../adapters/cache/index.ts"
import { layerSqlRecords } from "../../adapters/sql/index.ts"
import { ChangeFeed } from "../../ports/ChangeFeed.ts"
import { artifact } from "../support/api.ts"
import { freshDatabase } from "../setup/mariadb.ts"
import { makeTestApp, newGame, release, type TestApp } from "../support/testApp.ts"

const url = await freshDatabase(inject("mariadbUrl"), "views")
/** One instance's records: its own pool on the shared database, with the cache and the follower in front. */
const instanceRecords = () => Layer.orDie(layerGameViewCache({ ttlMs: 3_600_000 }).pipe(Layer.provideMerge(layerSqlRecords({ target: { kind: "mysql", url } }))))

let first: TestApp
let second: TestApp
beforeAll(async () => {
  first = await makeTestApp({ override: instanceRecords() })
  second = await makeTestApp({ override: instanceRecords() })
})
afterAll(async () => {
  await Promise.all([first.dispose(), second.dispose()])
})

/** The sequence of the newest change in the feed (read on `instance`, from the shared database). */
const newestChange = (instance: TestApp) => instance.runtime.runPromise(ChangeFeed.use((feed) => feed.latest) as Effect.Effect<number, never, never>)
/** Resolves once `instance` has applied every change up to `seq` to its cache. */
const applied = (instance: TestApp, seq: number) => instance.runtime.runPromise(ChangeFollower.use((follower) => follower.reached(seq)) as Effect.Effect<void>)

const catalogVersions = async (instance: TestApp, gameId: string) =>
  ((await instance.api.call("GET", "/api/catalog")).body.games as Array<{ gameId: string; activeVersion: string }>)
    .filter((game) => game.gameId === gameId).map((game) => game.activeVersion)

describe("game views shared by two instances through the change feed", () => {
  test("an approval on one instance shows on the other once it has applied the feed entry; a rejection changes nothing", async () => {
    const creator = await first.token("creator-feed")
    const admin = await first.token("admin-feed", { admin: true })
    const stranger = await second.token("stranger-feed")
    const gameId = await newGame(first, creator, "Feed Game")
    for (const version of ["1.0.0", "1.1.0", "1.2.0"]) expect((await release(first, creator, gameId, artifact(4096, version))).status).toBe(201)
    expect((await first.api.approveScanned(admin, gameId, "1.0.0")).status).toBe(200)
    await applied(second, await newestChange(first))
    // The second instance now holds the game's view and the catalog, with 1.0.0 active, for an hour.
    expect((await second.api.downloadUrl(stranger, gameId, "1.0.0")).status).toBe(200)
    expect((await second.api.downloadUrl(stranger, gameId, "1.1.0")).status).toBe(404)
    expect(await catalogVersions(second, gameId)).toEqual(["1.0.0"])

    expect((await first.api.approveScanned(admin, gameId, "1.1.0")).status).toBe(200)
    // At once on the instance that decided.
    expect((await first.api.downloadUrl(await first.token("stranger-feed"), gameId, "1.1.0")).status).toBe(200)
    await applied(second, await newestChange(first))
    expect((await second.api.downloadUrl(stranger, gameId, "1.1.0")).status).toBe(200)
    expect((await second.api.downloadUrl(stranger, gameId, "1.0.0")).status).toBe(404)
    expect(await catalogVersions(second, gameId)).toEqual(["1.1.0"])

    expect((await first.api.reject(admin, gameId, "1.2.0", "Crashes on start")).status).toBe(200)
    await applied(second, await newestChange(first))
    expect((await second.api.downloadUrl(stranger, gameId, "1.1.0")).status).toBe(200)
    expect((await second.api.downloadUrl(stranger, gameId, "1.2.0")).status).toBe(404)
    expect(await catalogVersions(second, gameId)).toEqual(["1.1.0"])
  })
})
