// Who may claim, unclaim, accept and withdraw an acceptance (issue 15, api-conventions.md): administrators only; the
// owner and other users get 404 not_found, anonymous callers 401; for an administrator an unknown game is 404
// game_not_found_or_forbidden on every one of them, an unknown version or finding 404 not_found. A refused call
// changes nothing.
import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { ReviewGateStore } from "../../ports/ReviewGateStore.ts"
import { makeTestApp, type TestApp } from "../support/testApp.ts"
import { MAIN_V1, readingGame, readingPack, shipPack } from "./support.ts"

let t: TestApp
let who: Awaited<ReturnType<typeof readingGame>>
let fingerprint: string

beforeAll(async () => {
  t = await makeTestApp()
  who = await readingGame(t)
  await shipPack(t, who.owner, who.gameId, "1.0.0", readingPack("1.0.0", MAIN_V1))
  const scan = await t.api.scanned(who.owner, who.gameId, "1.0.0")
  fingerprint = scan.report.findings.find((f: { rule: string }) => f.rule === "banned-api").fingerprint
  expect(typeof fingerprint).toBe("string")
})
afterAll(() => t.dispose())

const claimPath = (gameId: string, version = "1.0.0") => `/api/admin/games/${gameId}/releases/${version}/claim`
const acceptPath = (gameId: string, fp = fingerprint) => `/api/admin/games/${gameId}/findings/${fp}/accept`

interface Endpoint {
  readonly name: string
  readonly method: "POST" | "DELETE"
  readonly path: (gameId: string) => string
  readonly body?: unknown
  readonly success: number
  /** The same call naming a sub-resource that does not exist (a version, a finding). */
  readonly unknownPath: () => string
  /** Makes the admin's successful call possible (DELETE of an acceptance needs one), and undoes it after. */
  readonly before?: () => Promise<void>
}

const accept = () => t.api.call("POST", acceptPath(who.gameId), { token: who.admin, body: { reason: "reviewed: the shell call is the editor's" } })

const endpoints = (): ReadonlyArray<Endpoint> => [
  { name: "claim", method: "POST", path: (g) => claimPath(g), success: 200, unknownPath: () => claimPath(who.gameId, "7.7.7") },
  { name: "unclaim", method: "DELETE", path: (g) => claimPath(g), success: 204, unknownPath: () => claimPath(who.gameId, "7.7.7") },
  {
    name: "accept",
    method: "POST",
    path: (g) => acceptPath(g),
    body: { reason: "reviewed: the shell call is the editor's" },
    success: 200,
    unknownPath: () => acceptPath(who.gameId, "no-such-finding"),
  },
  {
    name: "withdraw acceptance",
    method: "DELETE",
    path: (g) => acceptPath(g),
    success: 204,
    unknownPath: () => acceptPath(who.gameId, "no-such-finding"),
    before: async () => expect((await accept()).status).toBe(200),
  },
]

/** What the gate holds for the game: its claim of 1.0.0 and its acceptances. */
const gateRecords = () =>
  t.runtime.runPromise(Effect.gen(function*() {
    const gate = yield* ReviewGateStore
    const claim = Option.getOrNull(yield* gate.getClaim(who.gameId, "1.0.0"))
    const acceptances = yield* gate.acceptances(who.gameId)
    return { claimedBy: claim?.by ?? null, accepted: acceptances.map((a) => a.fingerprint) }
  }))

describe("the review gate's endpoints answer by the 404 rule", () => {
  test.each(endpoints().map((e) => [e.name, e] as const))("%s", async (_, endpoint) => {
    const call = (path: string, token: string | undefined) =>
      t.api.call(endpoint.method, path, { ...(token === undefined ? {} : { token }), ...(endpoint.body === undefined ? {} : { body: endpoint.body }) })
    await endpoint.before?.()
    const before = await gateRecords()
    for (const token of [who.owner, who.stranger]) {
      for (const gameId of [who.gameId, "gm_unknown"]) {
        const refused = await call(endpoint.path(gameId), token)
        expect([refused.status, refused.body.error], `${token === who.owner ? "owner" : "other user"} on ${gameId}`).toEqual([404, "not_found"])
        expect(refused.body.detail).toEqual(expect.any(String))
      }
    }
    const anonymous = await call(endpoint.path(who.gameId), undefined)
    expect([anonymous.status, anonymous.body.error]).toEqual([401, "sign_in_required"])
    expect(await gateRecords(), "a refused call changes nothing").toEqual(before)

    for (const gameId of ["gm_unknown", "not a game id"]) {
      const unknownGame = await call(endpoint.path(encodeURIComponent(gameId)), who.admin)
      expect([unknownGame.status, unknownGame.body.error], gameId).toEqual([404, "game_not_found_or_forbidden"])
    }
    const unknown = await call(endpoint.unknownPath(), who.admin)
    expect([unknown.status, unknown.body.error]).toEqual([404, "not_found"])
    expect(await gateRecords()).toEqual(before)

    const done = await call(endpoint.path(who.gameId), who.admin)
    expect(done.status, JSON.stringify(done.body)).toBe(endpoint.success)
    const after = await gateRecords()
    if (endpoint.name === "claim") expect(after.claimedBy).toBe("admin")
    if (endpoint.name === "unclaim") expect(after.claimedBy).toBeNull()
    if (endpoint.name === "accept") expect(after.accepted).toEqual([fingerprint])
    if (endpoint.name === "withdraw acceptance") expect(after.accepted).toEqual([])
  })
})

describe("approve and reject answer an administrator by the same rule as the gate's other endpoints", () => {
  test("an unknown or impossible game is 404 game_not_found_or_forbidden, then an unknown version 404 not_found, then release_not_pending", async () => {
    const decide = (decision: "approve" | "reject", gameId: string, version: string) =>
      t.api.call("POST", `/api/admin/games/${encodeURIComponent(gameId)}/releases/${version}/${decision}`, {
        token: who.admin,
        ...(decision === "reject" ? { body: { reason: "not this one" } } : {}),
      })
    await shipPack(t, who.owner, who.gameId, "3.0.0", readingPack("3.0.0", MAIN_V1))
    expect((await t.api.call("POST", `/api/games/${who.gameId}/releases/3.0.0/withdraw`, { token: who.owner })).status).toBe(200)
    for (const decision of ["approve", "reject"] as const) {
      for (const gameId of ["gm_unknown", "not a game id"]) {
        const unknownGame = await decide(decision, gameId, "1.0.0")
        expect([unknownGame.status, unknownGame.body.error], `${decision} ${gameId}`).toEqual([404, "game_not_found_or_forbidden"])
      }
      const unknownVersion = await decide(decision, who.gameId, "7.7.7")
      expect([unknownVersion.status, unknownVersion.body.error], decision).toEqual([404, "not_found"])
      const withdrawn = await decide(decision, who.gameId, "3.0.0")
      expect([withdrawn.status, withdrawn.body.error], decision).toEqual([409, "release_not_pending"])
    }
    const release = await t.api.call("GET", `/api/games/${who.gameId}/releases/1.0.0`, { token: who.admin })
    expect(release.body.status, "nothing was decided").toBe("pending_review")
  })
})
