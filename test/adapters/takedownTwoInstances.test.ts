// Takedown across two app instances on one MariaDB (issue 16), each with the game view cache and the change follower
// as the server runs them, sharing one object store. The view lifetime is far longer than the test: only the change
// feed can make the takedown show on the other instance. The test waits until that instance's follower has applied the
// takedown's feed entry, then asserts; it never waits for a time. URLs issued before the takedown fail at once, before
// any follower has seen anything, because the object has left its key. The instances share one object store, whose
// signed URLs the first instance serves (as one bucket serves every instance's URLs).
import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import { ChangeFollower, layerGameViewCache } from "../../adapters/cache/index.ts"
import { layerSqlRecords } from "../../adapters/sql/index.ts"
import { ChangeFeed } from "../../ports/ChangeFeed.ts"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { artifact } from "../support/api.ts"
import { freshDatabase } from "../setup/mariadb.ts"
import { makeTestApp, newGame, release, type TestApp } from "../support/testApp.ts"

const url = await freshDatabase(inject("mariadbUrl"), "takedown")
const instanceRecords = () => Layer.orDie(layerGameViewCache({ ttlMs: 3_600_000 }).pipe(Layer.provideMerge(layerSqlRecords({ target: { kind: "mysql", url } }))))

let first: TestApp
let second: TestApp
beforeAll(async () => {
  first = await makeTestApp({ override: instanceRecords() })
  const shared = await first.runtime.runPromise(ObjectStorage.use(Effect.succeed) as Effect.Effect<ObjectStorage["Service"]>)
  second = await makeTestApp({ override: instanceRecords(), wrapStorage: () => shared })
})
afterAll(async () => {
  await Promise.all([first.dispose(), second.dispose()])
})

const newestChange = (instance: TestApp) => instance.runtime.runPromise(ChangeFeed.use((feed) => feed.latest) as Effect.Effect<number, never, never>)
const applied = (instance: TestApp, seq: number) => instance.runtime.runPromise(ChangeFollower.use((follower) => follower.reached(seq)) as Effect.Effect<void>)
const listed = async (instance: TestApp, gameId: string) =>
  ((await instance.api.call("GET", "/api/catalog")).body.games as Array<{ gameId: string; activeVersion: string }>)
    .filter((game) => game.gameId === gameId).map((game) => game.activeVersion)

describe("takedown seen by another instance through the change feed", () => {
  test("the other instance answers 404 once it applied the entry, the catalog drops the game, and issued URLs fail at once", async () => {
    const creator = await first.token("creator-td")
    const admin = await first.token("admin-td", { admin: true })
    const stranger = await second.token("stranger-td")
    const gameId = await newGame(first, creator, "Takedown Game")
    for (const version of ["1.0.0", "2.0.0"]) {
      expect((await release(first, creator, gameId, artifact(4096, version))).status).toBe(201)
      expect((await first.api.approveScanned(admin, gameId, version)).status).toBe(200)
    }
    await applied(second, await newestChange(first))
    const issued = await second.api.downloadUrl(stranger, gameId, "2.0.0")
    expect(issued.status).toBe(200)
    expect((await first.api.get(issued.body.url)).status).toBe(200)
    expect(await listed(second, gameId)).toEqual(["2.0.0"])

    const down = await first.api.call("POST", `/api/admin/games/${gameId}/releases/2.0.0/takedown`, { token: admin, body: { reason: "malware" } })
    expect(down.body).toMatchObject({ activeVersion: "1.0.0" })
    // At once, on either instance: the URL names a key that no longer holds the object.
    expect((await first.api.get(issued.body.url)).status).toBe(404)
    await applied(second, await newestChange(first))
    expect((await second.api.downloadUrl(stranger, gameId, "2.0.0")).status).toBe(404)
    expect((await second.api.call("GET", `/api/games/${gameId}/releases/2.0.0`, { token: stranger })).status).toBe(404)
    expect(await listed(second, gameId)).toEqual(["1.0.0"])
    // The owner still gets the taken-down bytes, from quarantine, on the other instance too.
    const forOwner = await second.api.downloadUrl(await second.token("creator-td"), gameId, "2.0.0")
    expect((await first.api.get(forOwner.body.url)).status).toBe(200)

    const last = await second.api.downloadUrl(stranger, gameId, "1.0.0")
    expect((await first.api.call("POST", `/api/admin/games/${gameId}/takedown`, { token: admin, body: { reason: "whole game" } })).status).toBe(200)
    expect((await first.api.get(last.body.url)).status).toBe(404)
    await applied(second, await newestChange(first))
    expect(await listed(second, gameId)).toEqual([])
    expect((await second.api.downloadUrl(stranger, gameId, "1.0.0")).status).toBe(404)
    expect((await second.api.call("GET", `/api/games/${gameId}`, { token: stranger })).status).toBe(404)
  })
})
