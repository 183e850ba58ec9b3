// The lifecycle on the server-rendered pages (issue 16): timelines past their first 100 events are paged with links on
// /creator and the admin release page, /creator reads the review queue once per page (not once per pending
// release), and the pages say why the active release is active.
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { creatorPage } from "../../adapters/http/pages/creatorPage.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { artifact } from "../support/api.ts"
import { makePagesApp } from "../support/pagesApp.ts"
import { makeTestApp, newGame, release, TEST_BASE_URL, type TestApp } from "../support/testApp.ts"

let t: TestApp
let pages: { fetch: (request: Request) => Promise<Response> }

beforeAll(async () => {
  t = await makeTestApp()
  pages = await makePagesApp(t)
})
afterAll(() => t.dispose())

const pageHtml = async (path: string, token: string) => {
  const response = await pages.fetch(new Request(`${TEST_BASE_URL}${path}`, { headers: { authorization: `Bearer ${token}` } }))
  return { status: response.status, text: await response.text() }
}

/** The timeline section of the game whose heading is `headingId`: its events and its links. */
const timelineOf = (text: string, headingId: string) => {
  const section = new RegExp(`<details class="timeline"( open)?><summary id="${headingId}">[\\s\\S]*?</details>`).exec(text)
  if (section === null) throw new Error(`no timeline ${headingId} in the page`)
  const link = (rel: string) => new RegExp(`<a href="([^"]+)" rel="${rel}">`).exec(section[0])?.[1]?.replaceAll("&amp;", "&") ?? null
  return { open: section[1] !== undefined, events: section[0].match(/<li>/g)?.length ?? 0, next: link("next"), first: link("first") }
}

describe("timeline paging on the pages", () => {
  test("/creator and the admin release page show 100 events, link to the next ones, and back to the first", async () => {
    const owner = await t.token("pager")
    const admin = await t.token("pager-admin", { admin: true })
    const gameId = await newGame(t, owner, "Long History")
    const pck = artifact(2048, "1.0.0")
    // Each upload URL asked for is an event: 1 game_created + 130 upload_url_issued + 1 finalized + 1 scanned.
    for (let i = 0; i < 129; i++) expect((await t.api.uploadUrl(owner, gameId, pck.declaration)).status).toBe(200)
    expect((await release(t, owner, gameId, pck)).status).toBe(201)
    await t.api.scanned(owner, gameId, "1.0.0") // the background scan's event, before counting
    const timeline = (cursor: string | null) =>
      t.api.call("GET", `/api/games/${gameId}/timeline?limit=100${cursor === null ? "" : `&cursor=${cursor}`}`, { token: owner })
    const head = (await timeline(null)).body
    const total = head.events.length + (await timeline(head.nextCursor)).body.events.length
    expect(total).toBeGreaterThan(100)

    const heading = `timeline-${gameId}`
    const first = timelineOf((await pageHtml("/creator", owner)).text, heading)
    expect(first).toMatchObject({ open: false, events: 100, first: null })
    expect(first.next).toMatch(new RegExp(`^/creator\\?timeline=${gameId}&timelineCursor=[^&#]+#${heading}$`))
    const secondPage = await pageHtml(first.next!.split("#")[0]!, owner)
    expect(secondPage.status).toBe(200)
    const second = timelineOf(secondPage.text, heading)
    expect(second).toMatchObject({ open: true, events: total - 100, next: null, first: `/creator#${heading}` })

    const releasePage = `/admin/games/${gameId}/releases/1.0.0`
    const adminFirst = timelineOf((await pageHtml(releasePage, admin)).text, "timeline-heading")
    expect(adminFirst).toMatchObject({ events: 100, first: null })
    expect(adminFirst.next).toMatch(new RegExp(`^${releasePage}\\?timelineCursor=[^&#]+#timeline-heading$`))
    const adminSecond = timelineOf((await pageHtml(adminFirst.next!.split("#")[0]!, admin)).text, "timeline-heading")
    expect(adminSecond).toMatchObject({ open: true, events: total - 100, next: null, first: `${releasePage}#timeline-heading` })
    expect((await pageHtml(`${releasePage}?timelineCursor=broken`, admin)).status).toBe(400)
    expect((await pageHtml(`/creator?timeline=${gameId}&timelineCursor=broken`, owner)).status).toBe(400)
  })
})

describe("/creator and the review queue", () => {
  test("the queue and the last decisions are read once per page, whatever the number of pending releases", async () => {
    const owner = await t.token("queue-reader")
    for (const name of ["Queue A", "Queue B"]) {
      const gameId = await newGame(t, owner, name)
      for (const v of ["1.0.0", "1.1.0", "1.2.0"]) expect((await release(t, owner, gameId, artifact(2048, v))).status).toBe(201)
    }
    const reads = await t.runtime.runPromise(Effect.gen(function*() {
      const store = yield* ReleaseStore
      const counts = { listPending: 0, recentDecisions: 0 }
      const counting = ReleaseStore.of({
        ...store,
        listPending: () => (counts.listPending++, store.listPending()),
        recentDecisions: (limit) => (counts.recentDecisions++, store.recentDecisions(limit)),
      })
      const response = yield* creatorPage({ userId: "queue-reader", isAdmin: false }).pipe(Effect.provideService(ReleaseStore, counting))
      const text = yield* Effect.promise(() => response.text())
      return { ...counts, positions: text.match(/data-queue-position="\d+"/g)?.length ?? 0 }
    }))
    expect(reads).toEqual({ listPending: 1, recentDecisions: 1, positions: 6 })
  })

  test("a page with no pending release does not read the queue at all", async () => {
    await t.token("nothing-pending")
    const reads = await t.runtime.runPromise(Effect.gen(function*() {
      const store = yield* ReleaseStore
      let count = 0
      const counting = ReleaseStore.of({ ...store, listPending: () => (count++, store.listPending()) })
      yield* creatorPage({ userId: "nothing-pending", isAdmin: false }).pipe(Effect.provideService(ReleaseStore, counting))
      return count
    }))
    expect(reads).toBe(0)
  })
})

describe("why the active release is active, on the pages", () => {
  test("/creator and the admin release page name the cause, the actor and the time", async () => {
    const owner = await t.token("reasons")
    const admin = await t.token("reasons-admin", { admin: true })
    const gameId = await newGame(t, owner, "Reasons")
    for (const v of ["1.0.0", "2.0.0"]) {
      expect((await release(t, owner, gameId, artifact(2048, v))).status).toBe(201)
      expect((await t.api.approveScanned(admin, gameId, v)).status).toBe(200)
    }
    const creator = (await pageHtml("/creator", owner)).text
    expect(creator).toMatch(/data-active-cause="approval">activated on approval by <code>user:reasons-admin<\/code>/)
    await t.api.call("POST", `/api/games/${gameId}/releases/1.0.0/activate`, { token: owner, body: { reason: "rollback" } })
    const adminPage = (await pageHtml(`/admin/games/${gameId}/releases/2.0.0`, admin)).text
    expect(adminPage).toMatch(/<dd id="active-reason"> <span class="active-reason" data-active-cause="activation">made active by <code>user:reasons<\/code>/)
  })
})
