// The release lifecycle over HTTP (issue 16): activation rules, staged publish, activate/rollback, withdraw,
// takedown and reinstate (one release, a whole game), each allowed and refused, and the 404 rule.
import { describe, expect, test } from "vitest"
import { artifact } from "../support/api.ts"
import { makeTestApp, newGame, release, type TestAppOptions } from "../support/testApp.ts"
import { Effect } from "effect"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"

const setup = async (options: TestAppOptions = {}) => {
  const t = await makeTestApp(options)
  const owner = await t.token("owner")
  const admin = await t.token("admin", { admin: true })
  const stranger = await t.token("stranger")
  const gameId = await newGame(t, owner, "Lifecycle Game")
  const ship = async (version: string, publish?: "manual" | "on_approval") => {
    const pck = artifact(2048, version)
    const declaration = publish === undefined ? pck.declaration : { ...pck.declaration, publish }
    const finalized = await release(t, owner, gameId, { bytes: pck.bytes, declaration })
    expect(finalized.status).toBe(201)
    return pck
  }
  const post = (path: string, token: string, body?: unknown) =>
    t.api.call("POST", path, body === undefined ? { token } : { token, body })
  const rel = (version: string, verb: string) => `/api/games/${gameId}/releases/${version}/${verb}`
  const adminRel = (version: string, verb: string) => `/api/admin/games/${gameId}/releases/${version}/${verb}`
  const game = async (token = owner) => (await t.api.call("GET", `/api/games/${gameId}`, { token })).body
  const catalogIds = async () => (await t.api.call("GET", "/api/catalog")).body.games.map((g: { gameId: string }) => g.gameId)
  return { t, owner, admin, stranger, gameId, ship, post, rel, adminRel, game, catalogIds }
}

describe("approval activates only newer releases published on approval", () => {
  test("approving 0.5.0 after 1.0.0 keeps 1.0.0 active (lower_than_active)", async () => {
    const { t, admin, gameId, ship, game } = await setup()
    await ship("1.0.0")
    await ship("0.5.0")
    expect((await t.api.approveScanned(admin, gameId, "1.0.0")).body).toMatchObject({ activated: true, activeVersion: "1.0.0" })
    const lower = await t.api.approveScanned(admin, gameId, "0.5.0")
    expect(lower.body).toMatchObject({ status: "approved", activated: false, activationNote: "lower_than_active", activeVersion: "1.0.0" })
    expect((await game()).activeVersion).toBe("1.0.0")
    await t.dispose()
  })

  test("a manual release stays approved and inactive until activate; the public sees the old one meanwhile", async () => {
    const { t, admin, stranger, gameId, ship, post, rel, game } = await setup()
    await ship("1.0.0")
    await t.api.approveScanned(admin, gameId, "1.0.0")
    await ship("2.0.0", "manual")
    const staged = await t.api.approveScanned(admin, gameId, "2.0.0")
    expect(staged.body).toMatchObject({ activated: false, activationNote: "staged", activeVersion: "1.0.0", publishMode: "manual" })
    expect((await t.api.downloadUrl(stranger, gameId, "2.0.0")).status).toBe(404)
    const live = await post(rel("2.0.0", "activate"), (await t.token("owner")), { reason: "launch day" })
    expect(live.status).toBe(200)
    expect(live.body).toMatchObject({ activeVersion: "2.0.0", activated: true, gameStatus: "published" })
    expect(live.body).not.toHaveProperty("activationNote")
    expect((await t.api.downloadUrl(stranger, gameId, "2.0.0")).status).toBe(200)
    expect((await game()).activeVersion).toBe("2.0.0")
    await t.dispose()
  })

  test("the publish mode is part of the upload intent: finalize with another one is no_upload_intent", async () => {
    const { t, owner, gameId } = await setup()
    const pck = artifact(2048, "1.0.0")
    const presigned = await t.api.uploadUrl(owner, gameId, { ...pck.declaration, publish: "manual" })
    expect(presigned.status).toBe(200)
    expect((await t.api.put(presigned.body.uploadUrl, presigned.body.headers, pck.bytes)).status).toBe(200)
    expect((await t.api.finalize(owner, gameId, pck.declaration)).body.error).toBe("no_upload_intent")
    expect((await t.api.finalize(owner, gameId, { ...pck.declaration, publish: "on_approval" })).body.error).toBe("no_upload_intent")
    expect((await t.api.finalize(owner, gameId, { ...pck.declaration, publish: "manual" })).status).toBe(201)
    expect((await t.api.uploadUrl(owner, gameId, { ...artifact(2048, "2.0.0").declaration, publish: "later" })).body.error).toBe("invalid_request")
    await t.dispose()
  })
})

describe("activate: go-live and rollback", () => {
  test("the owner rolls back to an earlier approved build; only approved releases can be activated", async () => {
    const { t, owner, admin, stranger, gameId, ship, post, rel } = await setup()
    await ship("1.0.0")
    await ship("2.0.0")
    await t.api.approveScanned(admin, gameId, "1.0.0")
    await t.api.approveScanned(admin, gameId, "2.0.0")
    const back = await post(rel("1.0.0", "activate"), owner, {})
    expect(back.body).toMatchObject({ activeVersion: "1.0.0", activated: true })
    expect((await t.api.downloadUrl(stranger, gameId, "1.0.0")).status).toBe(200)
    expect((await t.api.downloadUrl(stranger, gameId, "2.0.0")).status).toBe(404)
    // Administrators may too; activating the active release again is fine.
    expect((await post(rel("2.0.0", "activate"), admin)).body.activeVersion).toBe("2.0.0")
    await ship("3.0.0")
    const pending = await post(rel("3.0.0", "activate"), owner)
    expect([pending.status, pending.body.error]).toEqual([409, "release_not_activatable"])
    await t.api.reject(admin, gameId, "3.0.0", "no")
    expect((await post(rel("3.0.0", "activate"), owner)).body.error).toBe("release_not_activatable")
    // 404 rule: another user, an unknown version.
    expect([(await post(rel("1.0.0", "activate"), stranger)).status, (await post(rel("1.0.0", "activate"), stranger)).body.error])
      .toEqual([404, "game_not_found_or_forbidden"])
    expect((await post(rel("9.9.9", "activate"), owner)).body.error).toBe("not_found")
    expect((await t.api.call("POST", rel("1.0.0", "activate"))).status).toBe(401)
    await t.dispose()
  })
})

describe("a path that cannot name one of ours", () => {
  test("a game id that cannot be ours is game_not_found_or_forbidden, like an unknown one; an impossible version of a game is not_found", async () => {
    const { t, owner, admin, gameId, post } = await setup()
    const body = { reason: "r" }
    const routes = (game: string, version: string) => [
      [`/api/games/${game}/releases/${version}/withdraw`, owner],
      [`/api/games/${game}/releases/${version}/activate`, owner],
      [`/api/admin/games/${game}/releases/${version}/takedown`, admin],
      [`/api/admin/games/${game}/releases/${version}/reinstate`, admin],
      [`/api/admin/games/${game}/takedown`, admin],
      [`/api/admin/games/${game}/reinstate`, admin],
    ] as const
    for (const game of ["not!an!id", "%ZZ", "gm_unknown"]) {
      for (const [path, token] of routes(game, "1.0.0")) {
        const answer = await post(path, token, body)
        expect([path, answer.status, answer.body.error]).toEqual([path, 404, "game_not_found_or_forbidden"])
      }
    }
    for (const [path, token] of routes(gameId, "not!a!version").slice(0, 4)) {
      const answer = await post(path, token, body)
      expect([path, answer.status, answer.body.error]).toEqual([path, 404, "not_found"])
    }
    await t.dispose()
  })
})

describe("GET /api/games/{gameId} says which release is active and why", () => {
  test("activated on approval, activated by the owner, the fallback after a takedown; nothing without an active release; not in the public view", async () => {
    const { t, owner, admin, stranger, gameId, ship, post, rel, adminRel, game } = await setup()
    expect((await game()).activeReason).toBeNull()
    await ship("1.0.0")
    await ship("2.0.0")
    await t.api.approveScanned(admin, gameId, "1.0.0")
    const approvedAt = t.clock.current().toISOString()
    expect(await game()).toMatchObject({ activeVersion: "1.0.0", activeReason: { cause: "approval", actor: "user:admin", at: approvedAt } })
    await t.api.approveScanned(admin, gameId, "2.0.0")
    t.clock.advance(60)
    await post(rel("1.0.0", "activate"), owner, { reason: "2.0.0 crashes on start" })
    expect((await game(admin)).activeReason).toEqual({ cause: "activation", actor: "user:owner", at: t.clock.current().toISOString() })
    await post(rel("2.0.0", "activate"), owner)
    await post(adminRel("2.0.0", "takedown"), admin, { reason: "malware" })
    expect(await game()).toMatchObject({ activeVersion: "1.0.0", activeReason: { cause: "takedown_fallback", actor: "user:admin" } })
    const mine = (await t.api.call("GET", "/api/me/games", { token: owner })).body.games[0]
    expect(mine.activeReason).toMatchObject({ cause: "takedown_fallback" })
    expect((await game(stranger))).not.toHaveProperty("activeReason")
    await post(adminRel("1.0.0", "takedown"), admin, { reason: "malware" })
    expect(await game()).toMatchObject({ activeVersion: null, activeReason: null })
    await t.dispose()
  })
})

describe("withdraw", () => {
  test("a pending release leaves the queue as withdrawn; its version stays used; only pending ones can be withdrawn", async () => {
    const { t, owner, admin, stranger, gameId, ship, post, rel, game } = await setup()
    await ship("1.0.0")
    expect((await post(rel("1.0.0", "withdraw"), stranger)).status).toBe(404)
    expect((await post(rel("1.0.0", "withdraw"), admin)).body.error).toBe("game_not_found_or_forbidden")
    const withdrawn = await post(rel("1.0.0", "withdraw"), owner)
    expect(withdrawn.body).toMatchObject({ gameStatus: "review", releases: [{ version: "1.0.0", status: "withdrawn" }] })
    const queue = (await t.api.call("GET", "/api/admin/review-queue", { token: admin })).body.items
    expect(queue.filter((i: { gameId: string }) => i.gameId === gameId)).toEqual([])
    const again = await post(rel("1.0.0", "withdraw"), owner)
    expect([again.status, again.body.error]).toEqual([409, "release_not_pending"])
    expect(again.body.detail).toBe(`Release '1.0.0' is already withdrawn; only a pending release can be withdrawn. Reload the game's releases (GET /api/games/${gameId}).`)
    const approval = await t.api.approve(admin, gameId, "1.0.0")
    expect([approval.body.error, approval.body.detail]).toEqual(["release_not_pending", "Release '1.0.0' is already withdrawn; only pending releases can be approved or rejected. Reload the review queue."])
    expect((await t.api.uploadUrl(owner, gameId, artifact(2048, "1.0.0").declaration)).body.error).toBe("version_exists")
    expect((await game()).status).toBe("review")
    await t.dispose()
  })
})

describe("takedown and reinstate", () => {
  test("taking the active release down falls back to the newest approved one; issued URLs fail at once; the owner can still download", async () => {
    const { t, owner, admin, stranger, gameId, ship, post, adminRel, game } = await setup()
    await ship("1.0.0")
    const v2 = await ship("2.0.0")
    await t.api.approveScanned(admin, gameId, "1.0.0")
    await t.api.approveScanned(admin, gameId, "2.0.0")
    const issued = (await t.api.downloadUrl(stranger, gameId, "2.0.0")).body.url
    expect((await t.api.get(issued)).status).toBe(200)

    expect((await post(adminRel("2.0.0", "takedown"), admin, {})).body.error).toBe("invalid_request")
    expect((await post(adminRel("2.0.0", "takedown"), owner, { reason: "x" })).status).toBe(404)
    const down = await post(adminRel("2.0.0", "takedown"), admin, { reason: "Ships a cryptominer" })
    expect(down.body).toMatchObject({ activeVersion: "1.0.0", gameStatus: "published", releases: [{ version: "2.0.0", status: "taken_down", takedownReason: "Ships a cryptominer" }] })
    expect((await t.api.get(issued)).status).toBe(404)
    expect((await t.api.downloadUrl(stranger, gameId, "2.0.0")).status).toBe(404)
    const forOwner = await t.api.downloadUrl(owner, gameId, "2.0.0")
    expect(forOwner.body.sha256).toBe(v2.declaration.sha256)
    const bytes = new Uint8Array(await (await t.api.get(forOwner.body.url)).arrayBuffer())
    expect(bytes).toEqual(v2.bytes)
    const view = await game()
    expect(view.releases.find((r: { version: string }) => r.version === "2.0.0")).toMatchObject({ status: "taken_down", takedownReason: "Ships a cryptominer" })

    expect((await post(adminRel("2.0.0", "takedown"), admin, { reason: "again" })).body.error).toBe("release_not_approved")
    expect((await post(adminRel("1.0.0", "reinstate"), admin, { reason: "x" })).body.error).toBe("release_not_taken_down")
    const back = await post(adminRel("2.0.0", "reinstate"), admin, { reason: "False positive" })
    expect(back.body).toMatchObject({ activeVersion: "1.0.0", releases: [{ version: "2.0.0", status: "approved", takedownReason: null }] })
    expect((await t.api.downloadUrl(stranger, gameId, "2.0.0")).status).toBe(404)
    await t.dispose()
  })

  test("taking the only release down takes the game out of the catalog with status taken_down", async () => {
    const { t, admin, stranger, gameId, ship, post, adminRel, game, catalogIds } = await setup()
    await ship("1.0.0")
    await t.api.approveScanned(admin, gameId, "1.0.0")
    expect(await catalogIds()).toContain(gameId)
    await post(adminRel("1.0.0", "takedown"), admin, { reason: "malware" })
    expect(await catalogIds()).not.toContain(gameId)
    expect((await game()).status).toBe("taken_down")
    expect((await t.api.call("GET", `/api/games/${gameId}`, { token: stranger })).status).toBe(404)
    await ship("1.0.1")
    expect((await game()).status).toBe("review")
    await t.dispose()
  })

  test("a game-wide takedown takes every approved release down at once; its reinstate reverses it", async () => {
    const { t, admin, stranger, gameId, ship, post, game, catalogIds } = await setup()
    for (const v of ["1.0.0", "1.1.0", "1.2.0"]) {
      await ship(v)
      await t.api.approveScanned(admin, gameId, v)
    }
    await ship("2.0.0")
    const down = await post(`/api/admin/games/${gameId}/takedown`, admin, { reason: "malicious publisher" })
    expect(down.body.activeVersion).toBeNull()
    expect(down.body.releases.map((r: { version: string; status: string }) => [r.version, r.status]))
      .toEqual([["1.0.0", "taken_down"], ["1.1.0", "taken_down"], ["1.2.0", "taken_down"]])
    expect(down.body.gameStatus).toBe("review") // 2.0.0 is still pending
    expect(await catalogIds()).not.toContain(gameId)
    expect((await post(`/api/admin/games/${gameId}/takedown`, admin, { reason: "again" })).body.error).toBe("release_not_approved")
    const back = await post(`/api/admin/games/${gameId}/reinstate`, admin, { reason: "cleared" })
    expect(back.body).toMatchObject({ activeVersion: "1.2.0", gameStatus: "published" })
    expect((await t.api.downloadUrl(stranger, gameId, "1.2.0")).status).toBe(200)
    expect((await game()).releases.map((r: { status: string }) => r.status)).toEqual(["approved", "approved", "approved", "pending_review"])
    expect((await post(`/api/admin/games/${gameId}/reinstate`, stranger, { reason: "x" })).status).toBe(404)
    await t.dispose()
  })
})

describe("refusals and re-verification", () => {
  test("each step refused from a status that does not allow it, with its 409 code, and nothing changes", async () => {
    const { t, owner, admin, gameId, ship, post, rel, adminRel, game } = await setup()
    for (const v of ["1.0.0", "2.0.0", "3.0.0", "4.0.0"]) await ship(v)
    await t.api.approveScanned(admin, gameId, "1.0.0")
    await t.api.approveScanned(admin, gameId, "2.0.0")
    await t.api.reject(admin, gameId, "3.0.0", "Crashes on start")
    await post(adminRel("2.0.0", "takedown"), admin, { reason: "malware" })
    const before = await game()
    const refusals: Array<[string, string, string]> = [
      ["reject of an approved release", "release_not_pending", "reject 1.0.0"],
      ["reject of a rejected release", "release_not_pending", "reject 3.0.0"],
      ["activate of a taken-down release", "release_not_activatable", "activate 2.0.0"],
      ["activate of a rejected release", "release_not_activatable", "activate 3.0.0"],
      ["activate of a pending release", "release_not_activatable", "activate 4.0.0"],
      ["takedown of a pending release", "release_not_approved", "takedown 4.0.0"],
      ["takedown of a rejected release", "release_not_approved", "takedown 3.0.0"],
      ["takedown of a taken-down release", "release_not_approved", "takedown 2.0.0"],
      ["reinstate of an approved release", "release_not_taken_down", "reinstate 1.0.0"],
      ["reinstate of a pending release", "release_not_taken_down", "reinstate 4.0.0"],
      ["reinstate of a rejected release", "release_not_taken_down", "reinstate 3.0.0"],
      ["withdraw of an approved release", "release_not_pending", "withdraw 1.0.0"],
    ]
    for (const [what, code, action] of refusals) {
      const [verb, version] = action.split(" ") as [string, string]
      const answer = verb === "reject"
        ? await t.api.reject(admin, gameId, version, "again")
        : verb === "activate" || verb === "withdraw"
        ? await post(rel(version, verb), owner, verb === "activate" ? {} : undefined)
        : await post(adminRel(version, verb), admin, { reason: "r" })
      expect([answer.status, answer.body.error], what).toEqual([409, code])
    }
    expect(await game()).toEqual(before)
    await t.dispose()
  })

  test("activate and reinstate re-verify the stored bytes: tampered is 409 checksum_mismatch, deleted is 409 artifact_missing", async () => {
    const { t, owner, admin, gameId, ship, post, rel, adminRel, game } = await setup()
    for (const v of ["1.0.0", "2.0.0", "3.0.0"]) {
      await ship(v)
      await t.api.approveScanned(admin, gameId, v)
    }
    const storage = await t.runtime.runPromise(ObjectStorage.use(Effect.succeed))
    const stored = async (version: string) => (await game()).releases.find((r: { version: string }) => r.version === version)
    const keyOf = async (version: string, prefix = "releases") => `${prefix}/${gameId}/${version}/${(await stored(version)).sha256}.pck`
    const tamper = (key: string) =>
      t.runtime.runPromise(Effect.andThen(storage.delete(key), storage.put(key, new Blob([artifact(2048, "other").bytes]).stream(), { maxBytes: 4096 })))
    await tamper(await keyOf("1.0.0"))
    expect((await post(rel("1.0.0", "activate"), owner)).body.error).toBe("checksum_mismatch")
    await t.runtime.runPromise(storage.delete(await keyOf("2.0.0")))
    const missing = await post(rel("2.0.0", "activate"), owner)
    expect([missing.status, missing.body.error]).toEqual([409, "artifact_missing"])
    expect(missing.body.detail).toContain("the release stays approved and the game's active release is unchanged")
    expect((await game()).activeVersion).toBe("3.0.0")

    await post(adminRel("3.0.0", "takedown"), admin, { reason: "check" })
    await tamper(await keyOf("3.0.0", "quarantine"))
    const mismatch = await post(adminRel("3.0.0", "reinstate"), admin, { reason: "cleared" })
    expect([mismatch.status, mismatch.body.error]).toEqual([409, "checksum_mismatch"])
    expect(mismatch.body.detail).toContain("the release stays taken down")
    expect((await stored("3.0.0")).status).toBe("taken_down")
    await t.runtime.runPromise(storage.delete(await keyOf("3.0.0", "quarantine")))
    expect((await post(adminRel("3.0.0", "reinstate"), admin, { reason: "cleared" })).body.error).toBe("artifact_missing")
    expect((await stored("3.0.0")).status).toBe("taken_down")
    await t.dispose()
  })
})

describe("bytes planted at a taken-down release's key", () => {
  test("a creator PUTs other bytes through the upload URL kept from before: reinstate serves the release's bytes, never the planted ones", async () => {
    const { t, owner, admin, stranger, gameId, post, rel, adminRel } = await setup()
    const pck = artifact(2048, "1.0.0")
    const presigned = await t.api.uploadUrl(owner, gameId, pck.declaration)
    expect((await t.api.put(presigned.body.uploadUrl, presigned.body.headers, pck.bytes)).status).toBe(200)
    expect((await t.api.finalize(owner, gameId, pck.declaration)).status).toBe(201)
    await t.api.approveScanned(admin, gameId, "1.0.0")
    expect((await post(adminRel("1.0.0", "takedown"), admin, { reason: "malware" })).status).toBe(200)
    const planted = artifact(2048, "planted").bytes
    expect((await t.api.put(presigned.body.uploadUrl, presigned.body.headers, planted)).status).toBe(200)
    const downloaded = async (token: string) => {
      const url = await t.api.downloadUrl(token, gameId, "1.0.0")
      expect(url.status).toBe(200)
      return new Uint8Array(await (await t.api.get(url.body.url)).arrayBuffer())
    }
    expect(await downloaded(owner)).toEqual(pck.bytes)
    const back = await post(adminRel("1.0.0", "reinstate"), admin, { reason: "cleared" })
    expect([back.status, back.body.releases?.[0]?.status]).toEqual([200, "approved"])
    expect((await post(rel("1.0.0", "activate"), owner)).status).toBe(200)
    expect(await downloaded(stranger)).toEqual(pck.bytes)
    await t.dispose()
  })
})

describe("game-wide takedown and reinstate", () => {
  test("the game-wide reinstate reverses only the game-wide takedown: a release taken down alone stays down, the release active then is active again", async () => {
    const { t, admin, stranger, gameId, ship, post, adminRel, game } = await setup()
    await ship("1.0.0")
    await ship("2.0.0")
    await t.api.approveScanned(admin, gameId, "1.0.0")
    await t.api.approveScanned(admin, gameId, "2.0.0")
    expect((await post(adminRel("2.0.0", "takedown"), admin, { reason: "Ships malware" })).body.activeVersion).toBe("1.0.0")
    const down = await post(`/api/admin/games/${gameId}/takedown`, admin, { reason: "Publisher account compromised" })
    expect(down.body.releases.map((r: { version: string }) => r.version)).toEqual(["1.0.0"])
    expect(down.body).toMatchObject({ activeVersion: null, gameStatus: "taken_down" })
    const back = await post(`/api/admin/games/${gameId}/reinstate`, admin, { reason: "Account recovered" })
    expect(back.status).toBe(200)
    expect(back.body).toMatchObject({ activeVersion: "1.0.0", gameStatus: "published", releases: [{ version: "1.0.0", status: "approved" }] })
    const view = await game()
    expect(view.releases.map((r: { version: string; status: string }) => [r.version, r.status])).toEqual([["1.0.0", "approved"], ["2.0.0", "taken_down"]])
    expect(view.activeReason).toMatchObject({ cause: "game_reinstate", actor: "user:admin" })
    expect((await t.api.downloadUrl(stranger, gameId, "2.0.0")).status).toBe(404)
    expect((await t.api.downloadUrl(stranger, gameId, "1.0.0")).status).toBe(200)
    const again = await post(`/api/admin/games/${gameId}/reinstate`, admin, { reason: "again" })
    expect([again.status, again.body.error]).toEqual([409, "release_not_taken_down"])
    await t.dispose()
  })
})

describe("GET /api/games/{gameId}/timeline", () => {
  test("owner and administrators read every change oldest first, page by page; others get 404; bad paging is 400", async () => {
    const { t, owner, admin, stranger, gameId, ship, post, adminRel } = await setup()
    await ship("1.0.0")
    await t.api.approveScanned(admin, gameId, "1.0.0")
    await post(adminRel("1.0.0", "takedown"), admin, { reason: "Phishing page in the menu" })
    const url = `/api/games/${gameId}/timeline`
    const all = await t.api.call("GET", url, { token: owner })
    expect(all.status).toBe(200)
    expect(all.body.events.map((e: { kind: string }) => e.kind)).toEqual(["game_created", "upload_url_issued", "finalized", "scanned", "approved", "activated", "taken_down"])
    expect(all.body.events.at(-1)).toMatchObject({ version: "1.0.0", actor: "user:admin", reason: "Phishing page in the menu" })
    expect(all.body.events[0]).toMatchObject({ actor: "user:owner", version: null, reason: null })
    expect(all.body.nextCursor).toBeNull()
    const pages: Array<string> = []
    let cursor: string | null = null
    do {
      const page: { body: { events: Array<{ kind: string }>; nextCursor: string | null } } = await t.api.call("GET", `${url}?limit=4${cursor ? `&cursor=${cursor}` : ""}`, { token: admin })
      pages.push(...page.body.events.map((e) => e.kind))
      cursor = page.body.nextCursor
    } while (cursor !== null)
    expect(pages).toEqual(all.body.events.map((e: { kind: string }) => e.kind))
    expect((await t.api.call("GET", url, { token: stranger })).body.error).toBe("game_not_found_or_forbidden")
    expect((await t.api.call("GET", url)).status).toBe(401)
    for (const query of ["?limit=0", "?limit=101", "?limit=x", "?cursor=bogus"]) {
      expect((await t.api.call("GET", `${url}${query}`, { token: owner })).body.error).toBe("invalid_request")
    }
    await t.dispose()
  })
})

describe("queue position on a pending release's detail", () => {
  test("the owner sees position, ahead, waiting time and the median-based estimate (null with fewer than 5 decisions)", async () => {
    const { t, owner, admin, stranger, gameId, ship } = await setup()
    const other = await t.token("other-creator")
    const otherGame = await newGame(t, other, "Queue Neighbour")
    const shipOther = async (version: string) => expect((await release(t, other, otherGame, artifact(2048, version))).status).toBe(201)
    await shipOther("0.1.0")
    t.clock.advance(1)
    await ship("1.0.0")
    const detail = async (token = owner) => (await t.api.call("GET", `/api/games/${gameId}/releases/1.0.0`, { token })).body
    expect((await detail()).queue).toEqual({ position: 2, ahead: 1, waitingSeconds: 0, estimatedWaitSeconds: null })
    // Five decisions that took 101, 200, 300, 400 and 500 seconds: the median is 300.
    for (const v of ["0.2.0", "0.3.0", "0.4.0", "0.5.0"]) await shipOther(v)
    for (const v of ["0.1.0", "0.2.0", "0.3.0", "0.4.0", "0.5.0"]) {
      t.clock.advance(100)
      expect((await t.api.approveScanned(admin, otherGame, v)).status).toBe(200)
    }
    // 1.0.0 was submitted 500 s ago now: past the median, so nothing more is expected.
    expect((await detail()).queue).toEqual({ position: 1, ahead: 0, waitingSeconds: 500, estimatedWaitSeconds: 0 })
    await ship("1.1.0")
    t.clock.advance(50)
    const fresh = (await t.api.call("GET", `/api/games/${gameId}/releases/1.1.0`, { token: admin })).body
    expect(fresh.queue).toEqual({ position: 2, ahead: 1, waitingSeconds: 50, estimatedWaitSeconds: 250 })
    expect((await t.api.call("GET", `/api/games/${gameId}/releases/1.0.0`, { token: stranger })).status).toBe(404)
    await t.api.approveScanned(admin, gameId, "1.0.0")
    expect((await detail()).queue).toBeUndefined()
    await t.dispose()
  })
})

describe("creator webhooks: POST/GET/DELETE /api/me/webhooks", () => {
  test("https URLs only, at most 5, the whsec_ secret shown once, another account's id is 404", async () => {
    const { t, owner, stranger } = await setup()
    const call = (method: string, path: string, token: string, body?: unknown) =>
      t.api.call(method, path, body === undefined ? { token } : { token, body })
    for (const url of ["http://hooks.example/x", "ftp://hooks.example", "https://user:pw@hooks.example/", "not a url", ""]) {
      expect((await call("POST", "/api/me/webhooks", owner, { url })).body.error).toBe("invalid_request")
    }
    const ids: Array<string> = []
    for (let i = 0; i < 5; i++) {
      const created = await call("POST", "/api/me/webhooks", owner, { url: `https://hooks.example/${i}` })
      expect(created.status).toBe(201)
      expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
      ids.push(created.body.id)
    }
    const sixth = await call("POST", "/api/me/webhooks", owner, { url: "https://hooks.example/6" })
    expect([sixth.status, sixth.body.error]).toEqual([409, "webhook_limit_reached"])
    const listed = await call("GET", "/api/me/webhooks", owner)
    expect(listed.body.webhooks.map((w: { url: string }) => w.url)).toEqual([0, 1, 2, 3, 4].map((i) => `https://hooks.example/${i}`))
    expect(JSON.stringify(listed.body)).not.toContain("whsec_")
    expect((await call("GET", "/api/me/webhooks", stranger)).body.webhooks).toEqual([])
    expect((await call("DELETE", `/api/me/webhooks/${ids[0]}`, stranger)).status).toBe(404)
    expect((await call("DELETE", `/api/me/webhooks/${ids[0]}`, owner)).status).toBe(204)
    expect((await call("DELETE", `/api/me/webhooks/${ids[0]}`, owner)).status).toBe(404)
    expect((await call("POST", "/api/me/webhooks", owner, { url: "https://hooks.example/again" })).status).toBe(201)
    expect((await t.api.call("GET", "/api/me/webhooks")).status).toBe(401)
    await t.dispose()
  })
})

describe("concurrent lifecycle requests on one release", () => {
  // Each object move takes a while after it happened, as a slow store's would: the other request runs meanwhile.
  const slowMoves: TestAppOptions = {
    wrapStorage: (storage) => ({ ...storage, move: (from, to) => Effect.tap(storage.move(from, to), () => Effect.sleep("50 millis")) }),
  }

  test("a game-wide takedown and an approval at once: the approved release is taken down too, or approved after the takedown", async () => {
    const { t, owner, admin, gameId, ship, post, adminRel, game } = await setup(slowMoves)
    await ship("1.0.0")
    await ship("1.1.0")
    await ship("2.0.0")
    await t.api.approveScanned(admin, gameId, "1.0.0")
    await t.api.approveScanned(admin, gameId, "1.1.0")
    const [down, approved] = await Promise.all([
      post(`/api/admin/games/${gameId}/takedown`, admin, { reason: "publisher compromised" }),
      t.api.approveScanned(admin, gameId, "2.0.0"),
    ])
    expect([down.status, approved.status]).toEqual([200, 200])
    const view = await game()
    const events = (await t.api.call("GET", `/api/games/${gameId}/timeline?limit=100`, { token: owner })).body.events
      .map((e: { kind: string; version: string | null }) => `${e.kind} ${e.version}`)
    const two = view.releases.find((r: { version: string }) => r.version === "2.0.0")
    if (two.status === "taken_down") {
      expect(view).toMatchObject({ activeVersion: null, status: "taken_down" })
    } else {
      expect(events.indexOf("approved 2.0.0")).toBeGreaterThan(events.indexOf("taken_down 1.1.0"))
      expect(view.activeVersion).toBe("2.0.0")
    }
    expect((await post(adminRel("2.0.0", "takedown"), admin, { reason: "also" })).status).toBe(two.status === "taken_down" ? 409 : 200)
    await t.dispose()
  })

  test("two takedowns at once: one wins, the other is refused, and the release stays quarantined", async () => {
    const { t, owner, admin, stranger, gameId, ship, post, adminRel } = await setup(slowMoves)
    await ship("1.0.0")
    const v2 = await ship("2.0.0")
    await t.api.approveScanned(admin, gameId, "1.0.0")
    await t.api.approveScanned(admin, gameId, "2.0.0")
    const issued = (await t.api.downloadUrl(stranger, gameId, "2.0.0")).body.url
    const answers = await Promise.all([1, 2].map((n) => post(adminRel("2.0.0", "takedown"), admin, { reason: `malware ${n}` })))
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409])
    expect(answers.find((a) => a.status === 409)!.body.error).toBe("release_not_approved")
    expect((await t.api.get(issued)).status).toBe(404)
    const forOwner = await t.api.downloadUrl(owner, gameId, "2.0.0")
    const bytes = new Uint8Array(await (await t.api.get(forOwner.body.url)).arrayBuffer())
    expect(bytes).toEqual(v2.bytes)
    await t.dispose()
  })
})
