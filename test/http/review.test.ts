import { Effect } from "effect"
import { describe, expect, test } from "vitest"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { artifact } from "../support/api.ts"
import { streamOf } from "../support/streams.ts"
import { makeTestApp, newGame, release } from "../support/testApp.ts"

const setup = async () => {
  const t = await makeTestApp()
  const owner = await t.token("owner")
  const admin = await t.token("admin", { admin: true })
  const gameId = await newGame(t, owner, "Reviewed Game")
  const ship = async (version: string) => {
    const pck = artifact(2048, version)
    expect((await release(t, owner, gameId, pck)).status).toBe(201)
    return pck
  }
  const game = async (token = owner) => (await t.api.call("GET", `/api/games/${gameId}`, { token })).body
  return { t, owner, admin, gameId, ship, game }
}

describe("review: approve and reject (spec §3)", () => {
  test("a game with no release is in review; approval publishes it and points the active version at the release", async () => {
    const { t, admin, gameId, ship, game } = await setup()
    expect((await game()).status).toBe("review")
    await ship("1.0.0")
    const approved = await t.api.approveScanned(admin, gameId, "1.0.0")
    expect(approved.status).toBe(200)
    expect(approved.body).toMatchObject({ gameId, version: "1.0.0", status: "approved", gameStatus: "published", activeVersion: "1.0.0" })
    expect(await game()).toMatchObject({ status: "published", activeVersion: "1.0.0" })
    const twice = await t.api.approveScanned(admin, gameId, "1.0.0")
    expect([twice.status, twice.body.error]).toEqual([409, "release_not_pending"])
    await t.dispose()
  })

  test("a rejection needs a reason, shows it to the creator, and keeps the previously approved release active", async () => {
    const { t, owner, admin, gameId, ship, game } = await setup()
    await ship("1.0.0")
    await t.api.approveScanned(admin, gameId, "1.0.0")
    await ship("1.1.0")
    for (const reason of [undefined, "", "   ", "x".repeat(2001), 5]) {
      const bad = await t.api.call("POST", `/api/admin/games/${gameId}/releases/1.1.0/reject`, { token: admin, body: reason === undefined ? {} : { reason } })
      expect([bad.status, bad.body.error]).toEqual([400, "invalid_request"])
    }
    const reason = "Calls OS.execute in res://main.gd:12 — remove it <b>please</b>"
    const rejected = await t.api.reject(admin, gameId, "1.1.0", reason)
    expect(rejected.body).toMatchObject({ status: "rejected", rejectionReason: reason, gameStatus: "published", activeVersion: "1.0.0" })
    const view = await game()
    expect(view.releases.find((r: { version: string }) => r.version === "1.1.0")).toMatchObject({ status: "rejected", rejectionReason: reason })
    const mine = (await t.api.call("GET", "/api/me/games", { token: owner })).body.games
    expect(mine[0].releases[1]).toMatchObject({ version: "1.1.0", rejectionReason: reason })
    expect((await t.api.approveScanned(admin, gameId, "1.1.0")).body.error).toBe("release_not_pending")
    await t.dispose()
  })

  test("a game with no approved release becomes rejected, unless another release is pending", async () => {
    const { t, admin, gameId, ship, game } = await setup()
    await ship("1.0.0")
    await ship("1.1.0")
    expect((await t.api.reject(admin, gameId, "1.0.0", "broken")).body.gameStatus).toBe("review")
    expect((await t.api.reject(admin, gameId, "1.1.0", "still broken")).body.gameStatus).toBe("rejected")
    expect((await game()).status).toBe("rejected")
    await ship("1.2.0")
    expect((await game()).status).toBe("review")
    await t.dispose()
  })

  test("approving a version lower than the active one never moves the pointer (issue 16)", async () => {
    const { t, admin, gameId, ship, game } = await setup()
    await ship("2.0.0")
    await ship("1.5.0")
    expect((await t.api.approveScanned(admin, gameId, "2.0.0")).body).toMatchObject({ activeVersion: "2.0.0", activated: true })
    t.clock.advance(1)
    const lower = await t.api.approveScanned(admin, gameId, "1.5.0")
    expect(lower.body).toMatchObject({ status: "approved", activeVersion: "2.0.0", activated: false, activationNote: "lower_than_active" })
    expect((await game()).activeVersion).toBe("2.0.0")
    await t.dispose()
  })

  test("approval re-verifies the stored bytes: a replaced object is 409 checksum_mismatch and the release stays pending", async () => {
    const { t, admin, gameId, ship, game } = await setup()
    const pck = await ship("1.0.0")
    const key = `releases/${gameId}/1.0.0/${pck.declaration.sha256}.pck`
    await t.runtime.runPromise(ObjectStorage.use((s) =>
      Effect.andThen(s.delete(key), s.put(key, streamOf(new Uint8Array(2048)), { maxBytes: 2048 }))
    ))
    const reply = await t.api.approveScanned(admin, gameId, "1.0.0")
    expect([reply.status, reply.body.error]).toEqual([409, "checksum_mismatch"])
    await t.runtime.runPromise(ObjectStorage.use((s) => s.delete(key)))
    const missing = await t.api.approveScanned(admin, gameId, "1.0.0")
    expect([missing.status, missing.body.error]).toEqual([409, "artifact_missing"])
    expect((await game()).releases[0].status).toBe("pending_review")
    await t.dispose()
  })

  test("non-administrators get 404 on every admin endpoint; the queue lists pending releases oldest first", async () => {
    const { t, owner, admin, gameId, ship } = await setup()
    await ship("1.0.0")
    t.clock.advance(60)
    await ship("1.1.0")
    for (const [method, path] of [["GET", "/api/admin/review-queue"], ["POST", `/api/admin/games/${gameId}/releases/1.0.0/approve`], ["POST", `/api/admin/games/${gameId}/releases/1.0.0/reject`]] as const) {
      const reply = await t.api.call(method, path, method === "GET" ? { token: owner } : { token: owner, body: { reason: "x" } })
      expect([path, reply.status, reply.body.error]).toEqual([path, 404, "not_found"])
    }
    t.clock.advance(30)
    const queue = (await t.api.call("GET", "/api/admin/review-queue", { token: admin })).body.items
    expect(queue.map((i: { version: string }) => i.version)).toEqual(["1.0.0", "1.1.0"])
    expect(queue.map((i: { waitingSeconds: number }) => i.waitingSeconds)).toEqual([90, 30])
    expect(queue[0]).toMatchObject({ gameId, gameName: "Reviewed Game", ownerId: "owner" })
    expect((await t.api.approveScanned(admin, gameId, "7.7.7")).status).toBe(404)
    await t.dispose()
  })
})

describe("creator area and catalog", () => {
  test("the public sees only published games and only their active release; owners see everything", async () => {
    const { t, owner, admin, gameId, ship } = await setup()
    const stranger = await t.token("stranger")
    await ship("1.0.0")
    expect((await t.api.call("GET", `/api/games/${gameId}`)).status).toBe(404)
    expect((await t.api.call("GET", `/api/games/${gameId}`, { token: stranger })).status).toBe(404)
    expect((await t.api.call("GET", "/api/catalog")).body.games).toEqual([])
    await t.api.approveScanned(admin, gameId, "1.0.0")
    await ship("1.1.0")
    const anonymous = await t.api.call("GET", `/api/games/${gameId}`)
    expect(anonymous.body).toMatchObject({ status: "published", activeVersion: "1.0.0", activeRelease: { version: "1.0.0" } })
    expect(anonymous.body.releases).toBeUndefined()
    expect(anonymous.body.ownerId).toBeUndefined()
    expect((await t.api.call("GET", `/api/games/${gameId}/releases/1.1.0`)).status).toBe(404)
    expect((await t.api.call("GET", `/api/games/${gameId}/releases/1.0.0`)).body).toMatchObject({ version: "1.0.0" })
    expect((await t.api.call("GET", `/api/games/${gameId}/releases/1.1.0`, { token: owner })).body).toMatchObject({ status: "pending_review" })
    expect((await t.api.call("GET", `/api/games/${gameId}`, { token: owner })).body.releases).toHaveLength(2)
    const catalog = (await t.api.call("GET", "/api/catalog")).body.games
    expect(catalog).toEqual([expect.objectContaining({ gameId, name: "Reviewed Game", activeVersion: "1.0.0" })])
    await t.dispose()
  })
})
