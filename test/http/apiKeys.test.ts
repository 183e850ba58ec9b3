// API keys over HTTP on the memory adapters: creation, the scope table, games, revocation, expiry, budgets, and the
// per-account limit under concurrent creations (on SQLite, MariaDB and the real server: test/e2e/credentialRaces.test.ts).
import { createHash } from "node:crypto"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { ApiKeyStore } from "../../ports/ApiKeyStore.ts"
import { artifact } from "../support/api.ts"
import { createKeysConcurrently } from "../support/credentialRaces.ts"
import { makeTestApp, newGame, type TestApp } from "../support/testApp.ts"

const KEY_SHAPE = /^pckg_[0-9A-Za-z]{32}_[0-9A-Za-z]{6}$/

let t: TestApp
beforeAll(async () => {
  t = await makeTestApp()
})
afterAll(() => t.dispose())

const createKey = async (token: string, body: object) => {
  const created = await t.api.call("POST", "/api/me/api-keys", { token, body })
  if (created.status !== 201) throw new Error(`key creation failed: ${JSON.stringify(created.body)}`)
  return created.body as { id: string; key: string; prefix: string; games: unknown; scopes: Array<string>; expiresAt: string }
}

describe("POST /api/me/api-keys", () => {
  test("answers the key once, shaped pckg_<32>_<6>, with its games, scopes and a 90-day expiry; the store keeps only its SHA-256", async () => {
    const token = await t.token("keymaker")
    const gameId = await newGame(t, token)
    const now = t.clock.current()
    const created = await t.api.call("POST", "/api/me/api-keys", { token, body: { name: "CI ☃", games: [gameId], scopes: ["release"] } })
    expect(created.status).toBe(201)
    expect(created.headers.get("cache-control")).toBe("no-store")
    expect(created.body).toMatchObject({ name: "CI ☃", games: [gameId], scopes: ["release"] })
    expect(created.body.key).toMatch(KEY_SHAPE)
    expect(created.body.prefix).toBe(created.body.key.slice(0, 13))
    expect(Date.parse(created.body.expiresAt) - now.getTime()).toBe(90 * 86_400_000)
    const stored = await t.runtime.runPromise(ApiKeyStore.use((store) => store.listByOwner("keymaker")))
    expect(stored.map((key) => key.keyHash)).toEqual([createHash("sha256").update(created.body.key).digest("hex")])
    expect(JSON.stringify(stored)).not.toContain(created.body.key.slice(13))
  })

  test("games must be the caller's own (404 game_not_found_or_forbidden); scopes, names and expiry are checked (400)", async () => {
    const token = await t.token("picky")
    const theirs = await newGame(t, await t.token("someone-else"))
    const foreign = await t.api.call("POST", "/api/me/api-keys", { token, body: { name: "x", games: [theirs], scopes: ["read"] } })
    expect([foreign.status, foreign.body.error]).toEqual([404, "game_not_found_or_forbidden"])
    for (const body of [
      { name: "x", games: "all", scopes: [] },
      { name: "x", games: "all", scopes: ["admin"] },
      { name: "x", games: [], scopes: ["read"] },
      { name: "a\u202Eb", games: "all", scopes: ["read"] },
      { name: "x", games: "all", scopes: ["read"], expiresInDays: 0 },
      { name: "x", games: "some", scopes: ["read"] },
    ]) {
      const bad = await t.api.call("POST", "/api/me/api-keys", { token, body })
      expect([JSON.stringify(body), bad.status, bad.body.error]).toEqual([JSON.stringify(body), 400, "invalid_request"])
    }
  })
})

describe("what a key may do", () => {
  test("release for all games: creates a game and releases it as its owner; the owner's budget is spent", async () => {
    const token = await t.token("releaser")
    const { key } = await createKey(token, { name: "all", games: "all", scopes: ["release"] })
    const created = await t.api.createGame(key, { name: "Keyed Game" })
    expect([created.status, created.body.ownerId]).toEqual([201, "releaser"])
    const pck = artifact()
    expect((await t.api.uploadRelease(key, created.body.gameId, pck)).status).toBe(201)
    const download = await t.api.downloadUrl(key, created.body.gameId, "1.0.0")
    expect(download.status).toBe(200)
    const mine = await t.api.call("GET", "/api/me/games", { token })
    expect(mine.body.games.map((g: { gameId: string }) => g.gameId)).toEqual([created.body.gameId])
  })

  test("a key for some games: other games are 404 game_not_found_or_forbidden, creating a game 404 not_found, /api/me/games shows only its games", async () => {
    const token = await t.token("listed")
    const [mine, other] = [await newGame(t, token, "Mine"), await newGame(t, token, "Other")]
    const { key } = await createKey(token, { name: "one game", games: [mine], scopes: ["release"] })
    const pck = artifact()
    expect((await t.api.uploadUrl(key, mine, pck.declaration)).status).toBe(200)
    const elsewhere = await t.api.uploadUrl(key, other, pck.declaration)
    expect([elsewhere.status, elsewhere.body.error]).toEqual([404, "game_not_found_or_forbidden"])
    const read = await t.api.call("GET", `/api/games/${other}`, { token: key })
    expect([read.status, read.body.error]).toEqual([404, "game_not_found_or_forbidden"])
    const create = await t.api.createGame(key, { name: "New" })
    expect([create.status, create.body.error]).toEqual([404, "not_found"])
    const games = await t.api.call("GET", "/api/me/games", { token: key })
    expect(games.body.games.map((g: { gameId: string }) => g.gameId)).toEqual([mine])
    expect((await t.api.call("GET", "/api/me/games", { token })).body.games).toHaveLength(2)
  })

  test("read: GETs and download-url, never upload-url, finalize, create or the multipart endpoint", async () => {
    const token = await t.token("reader")
    const gameId = await newGame(t, token)
    const { key } = await createKey(token, { name: "read", games: "all", scopes: ["read"] })
    expect((await t.api.call("GET", `/api/games/${gameId}`, { token: key })).status).toBe(200)
    expect((await t.api.call("GET", "/api/me/games", { token: key })).status).toBe(200)
    const pck = artifact()
    for (const refused of [
      await t.api.uploadUrl(key, gameId, pck.declaration),
      await t.api.finalize(key, gameId, pck.declaration),
      await t.api.createGame(key, { name: "No" }),
      await t.api.call("POST", "/submit-api/games/submit", { token: key }),
    ]) expect([refused.status, refused.body.error]).toEqual([404, "not_found"])
  })

  test("never administrator endpoints, key management or sessions, even an administrator's key", async () => {
    const admin = await t.token("boss", { admin: true })
    const { key, id } = await createKey(admin, { name: "admin's key", games: "all", scopes: ["read", "release", "submit"] })
    for (const [method, path] of [
      ["GET", "/api/admin/review-queue"],
      ["POST", "/api/admin/games"],
      ["DELETE", "/api/admin/users/someone/sessions"],
      ["GET", "/api/me/api-keys"],
      ["POST", "/api/me/api-keys"],
      ["DELETE", `/api/me/api-keys/${id}`],
      ["POST", "/api/session"],
    ] as const) {
      const refused = await t.api.call(method, path, { token: key, body: method === "POST" ? { name: "x", games: "all", scopes: ["read"] } : undefined })
      expect([path, refused.status, refused.body?.error]).toEqual([path, 404, "not_found"])
    }
    expect((await t.api.call("GET", "/api/me/api-keys", { token: admin })).body.keys.map((k: { id: string }) => k.id)).toEqual([id])
  })

  test("budgets stay per account: a key spends its owner's", async () => {
    const limited = await makeTestApp({ budget: { count: 1, windowSeconds: 3600 } })
    try {
      const token = await limited.token("frugal")
      const created = await limited.api.call("POST", "/api/me/api-keys", { token, body: { name: "k", games: "all", scopes: ["release"] } })
      expect((await limited.api.createGame(token, { name: "First" })).status).toBe(201)
      const second = await limited.api.createGame(created.body.key, { name: "Second" })
      expect([second.status, second.body.error]).toEqual([429, "rate_limited"])
    } finally {
      await limited.dispose()
    }
  })
})

describe("refused keys and the list", () => {
  test("revoked, expired, unknown and lookalike keys are 401 sign_in_required", async () => {
    const token = await t.token("revoker")
    const revoked = await createKey(token, { name: "to revoke", games: "all", scopes: ["read"] })
    expect((await t.api.call("GET", "/api/me/games", { token: revoked.key })).status).toBe(200)
    expect((await t.api.call("DELETE", `/api/me/api-keys/${revoked.id}`, { token })).status).toBe(204)
    const again = await t.api.call("DELETE", `/api/me/api-keys/${revoked.id}`, { token })
    expect([again.status, again.body.error]).toEqual([404, "not_found"])
    const afterRevoke = await t.api.call("GET", "/api/me/games", { token: revoked.key })
    expect([afterRevoke.status, afterRevoke.body.error]).toEqual([401, "sign_in_required"])
    expect(afterRevoke.body.detail).toContain("revoked")

    const expiring = await createKey(token, { name: "short", games: "all", scopes: ["read"], expiresInDays: 1 })
    expect((await t.api.call("GET", "/api/me/games", { token: expiring.key })).status).toBe(200)
    t.clock.advance(86_400)
    const expired = await t.api.call("GET", "/api/me/games", { token: expiring.key })
    expect([expired.status, expired.body.error, expired.body.detail.includes("expired")]).toEqual([401, "sign_in_required", true])

    const unknown = `pckg_${"A".repeat(32)}_`
    for (const key of [`${revoked.key.slice(0, -6)}000000`, `${unknown}000000`, "pckg_short"]) {
      const refused = await t.api.call("GET", "/api/me/games", { token: key })
      expect([refused.status, refused.body.error]).toEqual([401, "sign_in_required"])
    }
  })

  test("someone else's key cannot be revoked (404) and keeps working; the list shows lastUsedAt and not revoked keys", async () => {
    const owner = await t.token("lister")
    const used = await createKey(owner, { name: "used", games: "all", scopes: ["read"] })
    const unused = await createKey(owner, { name: "unused", games: "all", scopes: ["read"] })
    const stranger = await t.api.call("DELETE", `/api/me/api-keys/${used.id}`, { token: await t.token("stranger") })
    expect([stranger.status, stranger.body.error]).toEqual([404, "not_found"])
    expect((await t.api.call("GET", "/api/me/games", { token: used.key })).status).toBe(200)
    const listed = await t.api.call("GET", "/api/me/api-keys", { token: owner })
    expect(listed.status).toBe(200)
    const byId = new Map(listed.body.keys.map((k: { id: string; lastUsedAt: string | null }) => [k.id, k.lastUsedAt]))
    expect(byId.get(used.id)).toBe(t.clock.current().toISOString())
    expect(byId.get(unused.id)).toBeNull()
    expect(JSON.stringify(listed.body)).not.toContain(used.key)
    await t.api.call("DELETE", `/api/me/api-keys/${unused.id}`, { token: owner })
    expect((await t.api.call("GET", "/api/me/api-keys", { token: owner })).body.keys.map((k: { id: string }) => k.id)).toEqual([used.id])
  })
})

describe("submit keys and manifest ids", () => {
  const submitWith = async (key: string, manifestId: string) => {
    const form = new FormData()
    const manifest = { id: manifestId, name: "Keyed", version: "1.0.0", engine_sdk: "4.2", entry_scene: "res://main.tscn", min_players: 1, max_players: 2 }
    form.append("manifest", new Blob([JSON.stringify(manifest)], { type: "application/json" }), "manifest.json")
    form.append("pck", new Blob([new Uint8Array(4096).fill(7)]), "game.pck")
    const response = await t.app.fetch(new Request("http://pckgate.test/submit-api/games/submit", { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form }))
    return { status: response.status, body: await response.json() as { error: string } }
  }

  test("a submit key for some games cannot create a game by a new manifest.id (404); one for all games gets as far as the scanner", async () => {
    const token = await t.token("submitter")
    const gameId = await newGame(t, token)
    const limited = await createKey(token, { name: "limited", games: [gameId], scopes: ["submit"] })
    const everything = await createKey(token, { name: "all", games: "all", scopes: ["submit"] })
    const refused = await submitWith(limited.key, "brand-new-game")
    expect([refused.status, refused.body.error]).toEqual([404, "game_not_found_or_forbidden"])
    const scanned = await submitWith(everything.key, "brand-new-game")
    expect([scanned.status, scanned.body.error]).toEqual([422, "Static analysis failed"])
  })
})

describe("the limit of live keys per account", () => {
  test("holds when creations race", async () => {
    await createKeysConcurrently(t.api, await t.token("hoarder"))
  })
})
