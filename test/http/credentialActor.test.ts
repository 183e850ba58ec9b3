// The timeline records the credential a release or a game was made with, derived in one place (domain/auth/Actor.ts):
// a trusted publisher's token → `publisher:<id>`, an API key → `api_key:<id>`, the owner's own token → `user:<id>`.
import { afterAll, beforeAll, expect, test } from "vitest"
import { ciIssuer, layerJoseCiIdentity } from "../../adapters/identity/JoseCiIdentity.ts"
import { artifact } from "../support/api.ts"
import { type CiIssuerDouble, startCiIssuer } from "../support/ciIssuer.ts"
import { makeTestApp, newGame, type TestApp } from "../support/testApp.ts"

let issuer: CiIssuerDouble
let t: TestApp

beforeAll(async () => {
  issuer = await startCiIssuer()
  t = await makeTestApp({
    override: layerJoseCiIdentity({ issuers: [ciIssuer("github", issuer.githubIssuer), ciIssuer("gitlab", issuer.gitlabIssuer)], audience: "pckgate" }),
  })
})
afterAll(async () => {
  await t.dispose()
  await issuer.close()
})

const PUBLISHER = { provider: "github", repository: "octo-org/space-game", workflow: "release.yml", environment: "production", ref: "refs/heads/main" }

test("releases through a publishing token, an API key and the owner's token are recorded under each credential", async () => {
  const owner = await t.token("actor-owner")
  const gameId = await newGame(t, owner, "Actor Game")
  const publisher = await t.api.call("POST", `/api/games/${gameId}/trusted-publishers`, { token: owner, body: PUBLISHER })
  expect(publisher.status).toBe(201)
  const minted = await t.api.call("POST", "/api/auth/trusted-publishing/token", { body: { token: await issuer.github() } })
  expect(minted.status).toBe(200)
  expect((await t.api.uploadRelease(minted.body.token, gameId, artifact(4096, "1.0.0"))).status).toBe(201)

  const key = await t.api.call("POST", "/api/me/api-keys", { token: owner, body: { name: "ci", games: [gameId], scopes: ["release"] } })
  expect(key.status).toBe(201)
  expect((await t.api.uploadRelease(key.body.key, gameId, artifact(4096, "1.1.0"))).status).toBe(201)
  expect((await t.api.uploadRelease(owner, gameId, artifact(4096, "1.2.0"))).status).toBe(201)

  const timeline = await t.api.call("GET", `/api/games/${gameId}/timeline`, { token: owner })
  expect(timeline.status).toBe(200)
  const byVersion = (version: string) =>
    timeline.body.events.filter((e: { version: string | null; kind: string }) => e.version === version && ["upload_url_issued", "finalized"].includes(e.kind))
      .map((e: { kind: string; actor: string }) => [e.kind, e.actor])
  expect(byVersion("1.0.0")).toEqual([["upload_url_issued", `publisher:${publisher.body.id}`], ["finalized", `publisher:${publisher.body.id}`]])
  expect(byVersion("1.1.0")).toEqual([["upload_url_issued", `api_key:${key.body.id}`], ["finalized", `api_key:${key.body.id}`]])
  expect(byVersion("1.2.0")).toEqual([["upload_url_issued", "user:actor-owner"], ["finalized", "user:actor-owner"]])

  // Credential changes are on the timeline of the games they concern, with the credential's id as the reason.
  expect((await t.api.call("DELETE", `/api/me/api-keys/${key.body.id}`, { token: owner })).status).toBe(204)
  expect((await t.api.call("DELETE", `/api/games/${gameId}/trusted-publishers/${publisher.body.id}`, { token: owner })).status).toBe(204)
  const after = await t.api.call("GET", `/api/games/${gameId}/timeline`, { token: owner })
  const credentialEvents = after.body.events.filter((e: { kind: string }) => /^(api_key|trusted_publisher)_/.test(e.kind))
    .map((e: { kind: string; actor: string; reason: string }) => [e.kind, e.actor, e.reason])
  expect(credentialEvents).toEqual([
    ["trusted_publisher_added", "user:actor-owner", publisher.body.id],
    ["api_key_created", "user:actor-owner", key.body.id],
    ["api_key_revoked", "user:actor-owner", key.body.id],
    ["trusted_publisher_removed", "user:actor-owner", publisher.body.id],
  ])
})

test("a game is recorded as created by whoever created it: an administrator registering it for an owner, an API key for all games", async () => {
  const admin = await t.token("actor-admin", { admin: true })
  const registered = await t.api.call("POST", "/api/admin/games", { token: admin, body: { name: "Registered For Bob", kind: "engine", ownerId: "actor-bob" } })
  expect(registered.status).toBe(201)
  const alice = await t.token("actor-alice")
  const key = await t.api.call("POST", "/api/me/api-keys", { token: alice, body: { name: "ci", games: "all", scopes: ["release"] } })
  expect(key.status).toBe(201)
  const created = await t.api.createGame(key.body.key, { name: "Made By A Key" })
  expect([created.status, created.body.ownerId]).toEqual([201, "actor-alice"])
  const createdBy = async (gameId: string) => {
    const timeline = await t.api.call("GET", `/api/games/${gameId}/timeline`, { token: admin })
    expect(timeline.status).toBe(200)
    return timeline.body.events.filter((e: { kind: string }) => e.kind === "game_created").map((e: { actor: string }) => e.actor)
  }
  expect(await createdBy(registered.body.gameId)).toEqual(["user:actor-admin"])
  expect(await createdBy(created.body.gameId)).toEqual([`api_key:${key.body.id}`])
})
