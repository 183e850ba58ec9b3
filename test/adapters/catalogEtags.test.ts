// ETag, 304 and HEAD of GET /api/catalog over HTTP, on memory, SQLite and MariaDB, with the records cached as the server
// runs them (serialized pages kept and answered by the route's shortcut, dropped by this instance's decisions): the tag
// names the page, 304 only for the current tag, a decision changes it, and every request, shortcut or not, is counted
// on GET /metrics (requests by status, and the catalog cache's hits and misses).
import { mkdtempSync } from "node:fs"
import { join } from "node:path"
import { Effect, Layer } from "effect"
import parsePrometheus from "parse-prometheus-text-format"
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import { ChangeFollower, layerGameViewCache } from "../../adapters/cache/index.ts"
import { layerMemoryRecords } from "../../adapters/memory/MemoryRecords.ts"
import { layerSqlRecords } from "../../adapters/sql/index.ts"
import { ChangeFeed } from "../../ports/ChangeFeed.ts"
import { artifact } from "../support/api.ts"
import { freshDatabase } from "../setup/mariadb.ts"
import { packWithManifest } from "../submit/fixtures.ts"
import { makeTestApp, newGame, release, submitPack, TEST_BASE_URL, type TestApp } from "../support/testApp.ts"

const METRICS_TOKEN = "catalog-etags-metrics"

const STORES: ReadonlyArray<readonly [string, () => Promise<Layer.Layer<any, unknown>>]> = [
  ["memory", async () => layerMemoryRecords],
  ["SQLite", async () => layerSqlRecords({ target: { kind: "sqlite", path: join(mkdtempSync(join(inject("runDir"), "catalog-etags-")), "records.sqlite") } })],
  ["MariaDB", async () => layerSqlRecords({ target: { kind: "mysql", url: await freshDatabase(inject("mariadbUrl"), "catalogetags") } })],
]

describe.each(STORES)("GET /api/catalog's entity tags over HTTP (%s, pages cached as the server keeps them)", (_name, records) => {
  let t: TestApp
  beforeAll(async () => {
    // The follower's lag bound is wide here: a loaded machine must not turn a kept page into a read of the store.
    const cached = layerGameViewCache({ ttlMs: 3_600_000, maxLagMs: 600_000 }).pipe(Layer.provideMerge(await records()))
    t = await makeTestApp({ override: Layer.orDie(cached), metricsToken: METRICS_TOKEN })
  })
  afterAll(() => t.dispose())

  /**
   * Waits until this instance's change follower has applied every change in the feed: it forgets the pages again when
   * it reads this instance's own decisions, and the counts below must not depend on when that round runs.
   */
  const settled = async () => {
    const newest = await t.runtime.runPromise(ChangeFeed.use((feed) => feed.latest) as Effect.Effect<number, never, never>)
    await t.runtime.runPromise(ChangeFollower.use((follower) => follower.reached(newest)) as Effect.Effect<void>)
  }
  const publish = async (name: string) => {
    const owner = await t.token("etag-owner")
    const gameId = await newGame(t, owner, name)
    expect((await release(t, owner, gameId, artifact(2048, "1.0.0"))).status).toBe(201)
    expect((await t.api.approveScanned(await t.token("etag-admin", { admin: true }), gameId, "1.0.0")).status).toBe(200)
    t.clock.advance(1)
    await settled()
  }
  const get = (headers: Record<string, string> = {}, method = "GET") => t.app.fetch(new Request(`${TEST_BASE_URL}/api/catalog?limit=10`, { method, headers }))
  /** This app's counts, as GET /metrics reports them. */
  const counts = async () => {
    const scraped = await t.app.fetch(new Request(`${TEST_BASE_URL}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }))
    const families = new Map(parsePrometheus(await scraped.text()).map((family) => [family.name, family.metrics]))
    const value = (family: string, labels: Record<string, string>) =>
      Number(families.get(family)?.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))?.value ?? 0)
    return {
      notModified: value("pckgate_http_requests_total", { route: "GET /api/catalog", status: "304" }),
      ok: value("pckgate_http_requests_total", { route: "GET /api/catalog", status: "200" }),
      hits: value("pckgate_cache_lookups_total", { cache: "catalog", result: "hit" }),
      misses: value("pckgate_cache_lookups_total", { cache: "catalog", result: "miss" }),
    }
  }

  test("the tag and Cache-Control on GET and HEAD; 304 without a body only for the current tag; a decision changes it; all counted", async () => {
    await publish("Tagged")
    const first = await get()
    const etag = first.headers.get("etag")!
    expect([first.status, first.headers.get("cache-control")]).toEqual([200, "public, max-age=5"])
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/)
    const body = await first.text()
    expect(JSON.parse(body).games.map((g: { name: string }) => g.name)).toEqual(["Tagged"])

    // Series are registered by the first request of each status (another app of this process may hold the name before).
    expect((await get({ "if-none-match": etag })).status).toBe(304)
    const before = await counts()
    const again = await get()
    expect([again.status, again.headers.get("etag"), await again.text()]).toEqual([200, etag, body])
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const reply = await get({ "if-none-match": header })
      expect([reply.status, await reply.text(), reply.headers.get("etag"), reply.headers.get("cache-control")], header)
        .toEqual([304, "", etag, "public, max-age=5"])
    }
    const head = await get({}, "HEAD")
    expect([head.status, await head.text(), head.headers.get("etag"), head.headers.get("content-type")]).toEqual([200, "", etag, "application/json; charset=utf-8"])
    const headRevalidated = await get({ "if-none-match": etag }, "HEAD")
    expect([headRevalidated.status, await headRevalidated.text()]).toEqual([304, ""])
    const stale = await get({ "if-none-match": '"stale"' })
    expect([stale.status, stale.headers.get("etag"), await stale.text()]).toEqual([200, etag, body])
    // Eight requests, each answered from the kept page, each counted once.
    const after = await counts()
    expect([after.notModified - before.notModified, after.ok - before.ok, after.hits - before.hits, after.misses - before.misses]).toEqual([5, 3, 8, 0])

    // A decision on this instance: the kept page goes at once, the old tag is answered with the new page.
    await publish("Newer")
    const changed = await get({ "if-none-match": etag })
    const newEtag = changed.headers.get("etag")!
    expect([changed.status, newEtag === etag]).toEqual([200, false])
    expect((await changed.json()).games.map((g: { name: string }) => g.name)).toEqual(["Newer", "Tagged"])
    expect((await get({ "if-none-match": newEtag })).status).toBe(304)
    expect((await get({ "if-none-match": etag })).status).toBe(200)
  })

  test("an update submission keeps the kept pages unless it renames the game: then they are read again, with the new name", async () => {
    const owner = await t.token("rename-owner")
    const first = await submitPack(t, owner, await packWithManifest({ id: "etag-rename", version: "1.0.0", name: "Kept Name" }))
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect((await t.api.approveScanned(await t.token("etag-admin", { admin: true }), first.body.gameId, "1.0.0")).status).toBe(200)
    await settled()
    const names = async () => (JSON.parse(await (await get()).text()).games as Array<{ name: string }>).map((g) => g.name)
    expect(await names()).toContain("Kept Name")
    const kept = await counts()
    const sameName = await submitPack(t, owner, await packWithManifest({ id: "etag-rename", version: "1.1.0", name: "Kept Name" }))
    expect([sameName.status, sameName.body.gameId]).toEqual([200, first.body.gameId])
    await settled()
    expect(await names()).toContain("Kept Name")
    const afterSameName = await counts()
    expect([afterSameName.hits - kept.hits, afterSameName.misses - kept.misses], "the page kept from before the update").toEqual([1, 0])
    const renamed = await submitPack(t, owner, await packWithManifest({ id: "etag-rename", version: "1.2.0", name: "New Name" }))
    expect(renamed.status).toBe(200)
    await settled()
    const shown = await names()
    expect([shown.includes("New Name"), shown.includes("Kept Name")]).toEqual([true, false])
    const afterRename = await counts()
    expect([afterRename.hits - afterSameName.hits, afterRename.misses - afterSameName.misses], "read again after the rename").toEqual([0, 1])
  })
})
