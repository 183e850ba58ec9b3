// Two app instances on one MariaDB, each with the serialized catalog page cache as the server runs it (kept an hour
// here, far longer than the test): only the change feed can change what the second instance serves after a decision
// on the first. The test waits until the second instance's follower has applied the decision's feed entry, then
// asserts that the page, its ETag and a revalidation with the old tag all changed; it never waits for a time. A rename
// by a multipart submission changes pages and search the same way.
import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import { ChangeFollower, layerGameViewCache } from "../../adapters/cache/index.ts"
import { layerSqlRecords } from "../../adapters/sql/index.ts"
import { ChangeFeed } from "../../ports/ChangeFeed.ts"
import { artifact } from "../support/api.ts"
import { freshDatabase } from "../setup/mariadb.ts"
import { packWithManifest } from "../submit/fixtures.ts"
import { makeTestApp, newGame, release, submitPack, type TestApp } from "../support/testApp.ts"

const url = await freshDatabase(inject("mariadbUrl"), "catalogtags")
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

const newestChange = (instance: TestApp) => instance.runtime.runPromise(ChangeFeed.use((feed) => feed.latest) as Effect.Effect<number, never, never>)
const applied = (instance: TestApp, seq: number) => instance.runtime.runPromise(ChangeFollower.use((follower) => follower.reached(seq)) as Effect.Effect<void>)
const catalog = async (instance: TestApp, etag?: string) => {
  const reply = await instance.api.call("GET", "/api/catalog?limit=10", etag === undefined ? {} : { headers: { "if-none-match": etag } })
  return { status: reply.status, etag: reply.headers.get("etag")!, games: reply.status === 200 ? (reply.body.games as Array<{ name: string; activeVersion: string }>) : [] }
}

describe("catalog pages shared by two instances through the change feed", () => {
  test("an approval, an activation and a takedown on one instance change the other's page and tag once it has read the feed", async () => {
    const owner = await first.token("tags-owner")
    const admin = await first.token("tags-admin", { admin: true })
    const gameId = await newGame(first, owner, "Tagged Across")
    for (const version of ["1.0.0", "1.1.0"]) expect((await release(first, owner, gameId, artifact(2048, version))).status).toBe(201)
    await applied(second, await newestChange(first))
    const empty = await catalog(second)
    expect(empty.games).toEqual([])
    expect((await catalog(second, empty.etag)).status).toBe(304)

    expect((await first.api.approveScanned(admin, gameId, "1.0.0")).status).toBe(200)
    await applied(second, await newestChange(first))
    const published = await catalog(second, empty.etag)
    expect([published.status, published.games.map((g) => `${g.name} ${g.activeVersion}`)]).toEqual([200, ["Tagged Across 1.0.0"]])
    expect(published.etag).not.toBe(empty.etag)
    expect((await catalog(second, published.etag)).status).toBe(304)

    expect((await first.api.approveScanned(admin, gameId, "1.1.0")).status).toBe(200)
    await applied(second, await newestChange(first))
    const updated = await catalog(second, published.etag)
    expect([updated.status, updated.games.map((g) => g.activeVersion)]).toEqual([200, ["1.1.0"]])

    // A rollback to 1.0.0 (activate), then a takedown of it: each changes the page on the other instance.
    expect((await first.api.call("POST", `/api/games/${gameId}/releases/1.0.0/activate`, { token: owner, body: {} })).status).toBe(200)
    await applied(second, await newestChange(first))
    const rolledBack = await catalog(second, updated.etag)
    expect([rolledBack.status, rolledBack.games.map((g) => g.activeVersion)]).toEqual([200, ["1.0.0"]])

    const takedown = await first.api.call("POST", `/api/admin/games/${gameId}/takedown`, { token: admin, body: { reason: "Legal request" } })
    expect(takedown.status, JSON.stringify(takedown.body)).toBe(200)
    await applied(second, await newestChange(first))
    const gone = await catalog(second, rolledBack.etag)
    expect([gone.status, gone.games]).toEqual([200, []])
    expect(gone.etag).toBe(empty.etag)
    expect((await second.api.call("GET", "/api/games/by-slug/tagged-across")).status).toBe(404)
  })

  test("a submission that renames a published game changes the other instance's page, tag and search once it has read the feed", async () => {
    const owner = await first.token("rename-owner")
    const admin = await first.token("rename-admin", { admin: true })
    const submitted = await submitPack(first, owner, await packWithManifest({ id: "rename-across", version: "1.0.0", name: "Before Rename" }))
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200)
    const gameId = submitted.body.gameId as string
    expect((await first.api.approveScanned(admin, gameId, "1.0.0")).status).toBe(200)
    await applied(second, await newestChange(first))
    const names = async (instance: TestApp, q: string) =>
      (await instance.api.call("GET", `/api/catalog?q=${encodeURIComponent(q)}`)).body.games.map((g: { name: string }) => g.name)
    const before = await catalog(second)
    expect(before.games.map((g) => g.name)).toContain("Before Rename")
    expect([await names(second, "before"), await names(second, "after")]).toEqual([["Before Rename"], []])
    expect([await names(first, "before"), await names(first, "after")]).toEqual([["Before Rename"], []])

    const seqBefore = await newestChange(first)
    const update = await submitPack(first, owner, await packWithManifest({ id: "rename-across", version: "1.1.0", name: "After Rename" }))
    expect([update.status, update.body.gameId]).toEqual([200, gameId])
    // This instance answers its own rename at once (the slug stays, so "before" still finds it, under its new name).
    expect([await names(first, "before"), await names(first, "after")]).toEqual([["After Rename"], ["After Rename"]])
    // One change in the feed announces it; once the other instance has read it, its page, tag and search follow.
    expect(await newestChange(first)).toBe(seqBefore + 1)
    await applied(second, seqBefore + 1)
    const renamed = await catalog(second, before.etag)
    expect(renamed.status).toBe(200)
    expect(renamed.etag).not.toBe(before.etag)
    expect(renamed.games.map((g) => `${g.name} ${g.activeVersion}`)).toContain("After Rename 1.0.0")
    expect([await names(second, "before"), await names(second, "after")]).toEqual([["After Rename"], ["After Rename"]])

    // An update that keeps the name announces nothing.
    const same = await submitPack(first, owner, await packWithManifest({ id: "rename-across", version: "1.2.0", name: "After Rename" }))
    expect(same.status).toBe(200)
    expect(await newestChange(first)).toBe(seqBefore + 1)
  })
})
