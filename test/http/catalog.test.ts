// GET /api/catalog (paged, searchable, tagged) and GET /api/games/by-slug/{slug} over the memory adapters.
import { describe, expect, test } from "vitest"
import { artifact } from "../support/api.ts"
import { makeTestApp, newGame, release, type TestApp } from "../support/testApp.ts"

const published = async (t: TestApp, owner: string, admin: string, name: string, version = "1.0.0") => {
  const gameId = await newGame(t, owner, name)
  expect((await release(t, owner, gameId, artifact(2048, version))).status).toBe(201)
  expect((await t.api.approveScanned(admin, gameId, version)).status).toBe(200)
  t.clock.advance(1)
  return gameId
}

const setup = async () => {
  const t = await makeTestApp()
  return { t, owner: await t.token("owner"), admin: await t.token("admin", { admin: true }) }
}

describe("GET /api/catalog", () => {
  test("pages of published games, newest first publication first; the items carry the active release; an update keeps the place", async () => {
    const { t, owner, admin } = await setup()
    const ids = []
    for (let i = 0; i < 5; i++) ids.push(await published(t, owner, admin, `Catalog Game ${i}`))
    await newGame(t, owner, "Never Published")
    const first = await t.api.call("GET", "/api/catalog?limit=2")
    expect(first.status).toBe(200)
    expect(first.body.games.map((g: any) => g.gameId)).toEqual([ids[4], ids[3]])
    expect(first.body.games[0]).toMatchObject({
      name: "Catalog Game 4",
      status: "published",
      activeVersion: "1.0.0",
      sizeBytes: 2048,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      firstPublishedAt: expect.stringMatching(/Z$/),
      activeRelease: { version: "1.0.0", sizeBytes: 2048 },
    })
    // An update of the newest-but-one: it stays where it was.
    expect((await release(t, owner, ids[3]!, artifact(4096, "2.0.0"))).status).toBe(201)
    expect((await t.api.approveScanned(admin, ids[3]!, "2.0.0")).status).toBe(200)
    const all: Array<any> = []
    let cursor: string | null = null
    do {
      const page: any = await t.api.call("GET", `/api/catalog?limit=2${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`)
      all.push(...page.body.games)
      cursor = page.body.nextCursor
    } while (cursor !== null)
    expect(all.map((g) => g.gameId)).toEqual([...ids].reverse())
    expect(all[1]).toMatchObject({ activeVersion: "2.0.0", sizeBytes: 4096 })
    await t.dispose()
  })

  test("ETag and Cache-Control; If-None-Match with the current tag is 304 without a body; a decision changes the tag", async () => {
    const { t, owner, admin } = await setup()
    await published(t, owner, admin, "Tagged")
    const page = await t.api.call("GET", "/api/catalog")
    const etag = page.headers.get("etag")
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/)
    expect(page.headers.get("cache-control")).toBe("public, max-age=5")
    for (const header of [etag!, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const response = await t.app.fetch(new Request("http://pckgate.test/api/catalog", { headers: { "if-none-match": header } }))
      expect(response.status, header).toBe(304)
      expect(await response.text()).toBe("")
      expect(response.headers.get("etag")).toBe(etag)
    }
    expect((await t.api.call("GET", "/api/catalog", { headers: { "if-none-match": '"stale"' } })).status).toBe(200)
    // Another page (a different limit) has its own tag.
    expect((await t.api.call("GET", "/api/catalog?limit=1")).headers.get("etag")).not.toBe(null)
    await published(t, owner, admin, "Newer")
    const after = await t.api.call("GET", "/api/catalog", { headers: { "if-none-match": etag! } })
    expect(after.status).toBe(200)
    expect(after.headers.get("etag")).not.toBe(etag)
    expect(after.body.games.map((g: any) => g.name)).toEqual(["Newer", "Tagged"])
    await t.dispose()
  })

  test("q: a case-insensitive prefix of the name or slug; the same paging", async () => {
    const { t, owner, admin } = await setup()
    await published(t, owner, admin, "Space Race")
    await published(t, owner, admin, "spacewar!")
    await published(t, owner, admin, "Über Space")
    await published(t, owner, admin, "Outer Space")
    const names = async (query: string) => (await t.api.call("GET", `/api/catalog?${query}`)).body.games.map((g: any) => g.name)
    expect(await names("q=SPACE")).toEqual(["spacewar!", "Space Race"])
    expect(await names("q=%C3%BCber")).toEqual(["Über Space"])
    expect(await names(`q=${encodeURIComponent("U\u0308BER")}`)).toEqual(["Über Space"])
    expect(await names("q=outer-sp")).toEqual(["Outer Space"]) // the slug
    expect(await names("q=%20")).toHaveLength(4)
    const firstOfTwo = await t.api.call("GET", "/api/catalog?q=space&limit=1")
    expect(firstOfTwo.body.games.map((g: any) => g.name)).toEqual(["spacewar!"])
    const second = await t.api.call("GET", `/api/catalog?q=space&limit=1&cursor=${encodeURIComponent(firstOfTwo.body.nextCursor)}`)
    expect([second.body.games.map((g: any) => g.name), second.body.nextCursor]).toEqual([["Space Race"], null])
    await t.dispose()
  })

  test("a bad limit, cursor or q is 400 invalid_request", async () => {
    const { t } = await setup()
    for (const query of ["limit=0", "limit=101", "limit=x", "cursor=bad", `cursor=${btoa(JSON.stringify(["review-queue", "2026-01-01T00:00:00.000Z", "gm_1", "1.0.0"]))}`, `q=${"a".repeat(81)}`]) {
      const reply = await t.api.call("GET", `/api/catalog?${query}`)
      expect([reply.status, reply.body.error], query).toEqual([400, "invalid_request"])
    }
    await t.dispose()
  })
})

describe("GET /api/games/by-slug/{slug}", () => {
  test("a published game's public record; 404 game_not_found_or_forbidden for unknown and unpublished games, also to their owner; not_found for what cannot be a slug", async () => {
    const { t, owner, admin } = await setup()
    const gameId = await published(t, owner, admin, "Slug Game")
    const waiting = await newGame(t, owner, "Waiting Game")
    const found = await t.api.call("GET", "/api/games/by-slug/slug-game")
    expect(found.status).toBe(200)
    expect(found.body).toMatchObject({ gameId, name: "Slug Game", slug: "slug-game", activeVersion: "1.0.0", sizeBytes: 2048, firstPublishedAt: expect.any(String) })
    expect(found.body).not.toHaveProperty("ownerId")
    for (const [slug, token] of [["waiting-game", undefined], ["waiting-game", owner], ["no-such-game", undefined]] as const) {
      const reply = await t.api.call("GET", `/api/games/by-slug/${slug}`, token === undefined ? {} : { token })
      expect([reply.status, reply.body.error], slug).toEqual([404, "game_not_found_or_forbidden"])
    }
    // What cannot be a slug (malformed percent-encoding, a bidirectional control) names no game: not_found, nothing echoed.
    for (const slug of ["%FF", "%ff", "%E2%80%AEevil", "Not%20A%20Slug"]) {
      const reply = await t.api.call("GET", `/api/games/by-slug/${slug}`)
      expect([reply.status, reply.body.error], slug).toEqual([404, "not_found"])
      expect(reply.body.detail, slug).toBe("No game here, or you may not see it; check the identifiers and your sign-in.")
    }
    expect(waiting).toMatch(/^gm_/)
    await t.dispose()
  })
})
