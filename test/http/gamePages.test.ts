// /games and /games/{slug}: the public catalog's pages over app.fetch (memory adapters), anonymous and signed in.
import { beforeAll, describe, expect, test } from "vitest"
import { makeApp } from "../../adapters/http/App.ts"
import { browserRoutes } from "../../adapters/http/pages/index.ts"
import { makeSessionCodec } from "../../adapters/http/session.ts"
import { artifact } from "../support/api.ts"
import { makeTestApp, newGame, release, TEST_BASE_URL, type TestApp } from "../support/testApp.ts"

const HOSTILE = `<script>alert("x")</script>"' Game`

let t: TestApp
let pages: { fetch: (request: Request) => Promise<Response> }
let hostileSlug = ""

beforeAll(async () => {
  t = await makeTestApp()
  pages = makeApp({
    runtime: t.runtime,
    baseUrl: () => TEST_BASE_URL,
    sessions: await makeSessionCodec(crypto.getRandomValues(new Uint8Array(32))),
    routes: browserRoutes({ signIn: { kind: "dev" }, secret: crypto.getRandomValues(new Uint8Array(32)), submitApiUrl: () => `${TEST_BASE_URL}/submit-api` }),
  })
  const owner = await t.token("page-owner")
  const admin = await t.token("page-admin", { admin: true })
  for (const name of ["Moon Lander", "Moonshot", "Sunrise", HOSTILE]) {
    const gameId = await newGame(t, owner, name)
    expect((await release(t, owner, gameId, artifact(3000, "1.2.3"))).status).toBe(201)
    expect((await t.api.approveScanned(admin, gameId, "1.2.3")).status).toBe(200)
    if (name === HOSTILE) hostileSlug = (await t.api.call("GET", `/api/games/${gameId}`)).body.slug
    t.clock.advance(1)
  }
  await newGame(t, owner, "Unpublished Secret")
})

const get = async (path: string) => {
  const response = await pages.fetch(new Request(`${TEST_BASE_URL}${path}`))
  return { status: response.status, headers: response.headers, text: await response.text() }
}

describe("public game pages", () => {
  test("/games lists published games newest first, escapes names, links each game page; strict CSP; no sign-in needed", async () => {
    const listing = await get("/games")
    expect(listing.status).toBe(200)
    expect(listing.headers.get("content-security-policy")).toContain("script-src 'self'")
    expect(listing.text).not.toContain("<script>alert")
    expect(listing.text).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;")
    const names = [...listing.text.matchAll(/<h2><a href="\/games\/[^"]+">([^<]+)<\/a><\/h2>/g)].map((m) => m[1])
    expect(names).toEqual(["&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&quot;&#39; Game", "Sunrise", "Moonshot", "Moon Lander"])
    expect(listing.text).not.toContain("Unpublished Secret")
    expect(listing.text).toContain('<form class="search" method="get" action="/games"')
  })

  test("/games?q= searches by prefix and pages with the query kept in the links", async () => {
    const found = await get("/games?q=MOON&limit=1")
    expect(found.text).toContain("Moonshot")
    expect(found.text).not.toContain("Moon Lander")
    expect(found.text).toContain('value="MOON"')
    const next = /<a href="([^"]+)" rel="next">/.exec(found.text)![1]!.replace(/&amp;/g, "&")
    expect(next).toMatch(/^\/games\?q=MOON&cursor=/)
    const second = await get(`${next}&limit=1`)
    expect(second.text).toContain("Moon Lander")
    expect((await get("/games?q=zzz")).text).toContain("starts with “zzz”")
    expect((await get("/games?cursor=broken")).status).toBe(400)
  })

  test("/games/{slug}: a published game's facts; 404 for unpublished and unknown slugs", async () => {
    const game = await get("/games/moon-lander")
    expect(game.status).toBe(200)
    expect(game.text).toContain('<dd id="active-version">1.2.3</dd>')
    expect(game.text).toMatch(/2\.9 KiB \(3000 bytes\)/)
    expect(game.text).toContain("Sign in</a> to download")
    const hostile = await get(`/games/${hostileSlug}`)
    expect(hostile.status).toBe(200)
    expect(hostile.text).not.toContain("<script>alert")
    for (const slug of ["unpublished-secret", "no-such-game", "%FF"]) expect((await get(`/games/${slug}`)).status, slug).toBe(404)
  })
})
