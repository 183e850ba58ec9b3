// GET /api/admin/review-queue and GET /api/me/games page by opaque keyset cursors (api-conventions.md), and the
// /admin and /creator pages link through them.
import { describe, expect, test } from "vitest"
import { makeApp } from "../../adapters/http/App.ts"
import { browserRoutes } from "../../adapters/http/pages/index.ts"
import { makeSessionCodec } from "../../adapters/http/session.ts"
import { artifact } from "../support/api.ts"
import { makeTestApp, newGame, release, TEST_BASE_URL, type TestApp } from "../support/testApp.ts"

const everyPage = async (t: TestApp, token: string, path: string, field: string, limit: number) => {
  const items: Array<any> = []
  const cursors: Array<string> = []
  let cursor: string | null = null
  do {
    const query: string = `?limit=${limit}${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`
    const page = await t.api.call("GET", `${path}${query}`, { token })
    expect(page.status, JSON.stringify(page.body)).toBe(200)
    expect(page.body[field].length).toBeLessThanOrEqual(limit)
    items.push(...page.body[field])
    cursor = page.body.nextCursor
    expect(cursor === null || typeof cursor === "string").toBe(true)
    if (cursor !== null) cursors.push(cursor)
  } while (cursor !== null)
  return { items, cursors }
}

describe("paginated lists of administrators and creators", () => {
  test("me/games: every game once, oldest first, in pages of the limit; the last page says null; others' games never", async () => {
    const t = await makeTestApp()
    const owner = await t.token("owner")
    const other = await t.token("other")
    const ids: Array<string> = []
    for (let i = 0; i < 7; i++) {
      ids.push(await newGame(t, owner, `Game ${i}`))
      t.clock.advance(i % 2 === 0 ? 0 : 1) // some share a creation time: ties go by id
    }
    await newGame(t, other, "Not Yours")
    const { items, cursors } = await everyPage(t, owner, "/api/me/games", "games", 3)
    expect(cursors).toHaveLength(2)
    expect(new Set(items.map((g) => g.gameId))).toEqual(new Set(ids))
    expect(items).toHaveLength(7)
    const order = items.map((g) => `${g.createdAt} ${g.gameId}`)
    expect(order).toEqual([...order].sort())
    const single = await t.api.call("GET", "/api/me/games", { token: owner })
    expect([single.body.games.length, single.body.nextCursor]).toEqual([7, null])
    await t.dispose()
  })

  test("review queue: oldest first across pages, releases submitted between pages are listed once", async () => {
    const t = await makeTestApp()
    const owner = await t.token("owner")
    const admin = await t.token("admin", { admin: true })
    const gameId = await newGame(t, owner, "Queued")
    for (let i = 0; i < 5; i++) {
      expect((await release(t, owner, gameId, artifact(1024, `1.0.${i}`))).status).toBe(201)
      t.clock.advance(1)
    }
    const first = await t.api.call("GET", "/api/admin/review-queue?limit=2", { token: admin })
    expect(first.body.items.map((i: any) => i.version)).toEqual(["1.0.0", "1.0.1"])
    expect((await release(t, owner, gameId, artifact(1024, "2.0.0"))).status).toBe(201)
    const rest = await everyPage(t, admin, "/api/admin/review-queue", "items", 2)
    expect(rest.items.map((i) => i.version)).toEqual(["1.0.0", "1.0.1", "1.0.2", "1.0.3", "1.0.4", "2.0.0"])
    const second = await t.api.call("GET", `/api/admin/review-queue?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`, { token: admin })
    expect(second.body.items.map((i: any) => i.version)).toEqual(["1.0.2", "1.0.3"])
    expect((await t.api.call("GET", "/api/admin/review-queue", { token: owner })).status).toBe(404)
    await t.dispose()
  })

  test("a bad limit or cursor is 400 invalid_request naming the parameter; one list's cursor is refused by another", async () => {
    const t = await makeTestApp()
    const owner = await t.token("owner")
    const admin = await t.token("admin", { admin: true })
    for (let i = 0; i < 3; i++) await newGame(t, admin, `Admin game ${i}`)
    const gamesCursor = (await t.api.call("GET", "/api/me/games?limit=1", { token: admin })).body.nextCursor
    expect(typeof gamesCursor).toBe("string")
    for (const query of ["limit=0", "limit=101", "limit=-1", "limit=abc", "limit=", "limit=1.5"]) {
      for (const [path, token] of [["/api/me/games", owner], ["/api/admin/review-queue", admin]] as const) {
        const bad = await t.api.call("GET", `${path}?${query}`, { token })
        expect([bad.status, bad.body.error], `${path}?${query}`).toEqual([400, "invalid_request"])
        expect(bad.body.detail).toContain("limit")
      }
    }
    for (const cursor of ["", "nonsense", "%%%", "W10", btoa(JSON.stringify(["my-games", "yesterday", "gm_1"])), "x".repeat(2000)]) {
      const bad = await t.api.call("GET", `/api/me/games?cursor=${encodeURIComponent(cursor)}`, { token: owner })
      expect([bad.status, bad.body.error], cursor).toEqual([400, "invalid_request"])
      expect(bad.body.detail).toContain("cursor")
    }
    const crossed = await t.api.call("GET", `/api/admin/review-queue?cursor=${encodeURIComponent(gamesCursor)}`, { token: admin })
    expect([crossed.status, crossed.body.error]).toEqual([400, "invalid_request"])
    await t.dispose()
  })

  test("/admin and /creator link to the next page and back to the first, server-rendered", async () => {
    const t = await makeTestApp()
    const owner = await t.token("owner")
    const admin = await t.token("admin", { admin: true })
    const gameId = await newGame(t, owner, "Paged <Game>")
    for (let i = 0; i < 3; i++) expect((await release(t, owner, gameId, artifact(1024, `1.0.${i}`))).status).toBe(201)
    for (let i = 0; i < 2; i++) await newGame(t, owner, `More ${i}`)
    const pages = makeApp({
      runtime: t.runtime,
      baseUrl: () => TEST_BASE_URL,
      sessions: await makeSessionCodec(crypto.getRandomValues(new Uint8Array(32))),
      routes: browserRoutes({ signIn: { kind: "dev" }, secret: crypto.getRandomValues(new Uint8Array(32)), submitApiUrl: () => `${TEST_BASE_URL}/submit-api` }),
    })
    const pageHtml = async (path: string, token: string) => {
      const response = await pages.fetch(new Request(`http://pckgate.test${path}`, { headers: { authorization: `Bearer ${token}` } }))
      return { status: response.status, text: await response.text() }
    }
    const queue = await pageHtml("/admin?limit=2", admin)
    expect(queue.status).toBe(200)
    expect(queue.text).toContain("Paged &lt;Game&gt; 1.0.0")
    expect(queue.text).not.toContain("1.0.2")
    const next = /<a href="([^"]+)" rel="next">/.exec(queue.text)?.[1]?.replace(/&amp;/g, "&")
    expect(next).toMatch(/^\/admin\?cursor=/)
    const second = await pageHtml(`${next!}&limit=2`, admin)
    expect(second.text).toContain("Paged &lt;Game&gt; 1.0.2")
    expect(second.text).toContain('rel="first"')
    expect(second.text).not.toContain('rel="next"')
    const mine = await pageHtml("/creator?limit=2", owner)
    expect(mine.text).toContain("Paged &lt;Game&gt;")
    expect(mine.text).not.toContain("More 1")
    expect(mine.text).toContain('rel="next"')
    expect((await pageHtml("/creator?cursor=broken", owner)).status).toBe(400)
    await t.dispose()
  })
})
