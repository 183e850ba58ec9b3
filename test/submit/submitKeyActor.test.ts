// A multipart submission made with a submit key is recorded under the key (domain/auth/Actor.ts), over HTTP with a real
// Godot pack (outside test/http: the Deno subset has no Godot fixtures).
import { afterAll, beforeAll, expect, test } from "vitest"
import { makeTestApp, TEST_BASE_URL, type TestApp } from "../support/testApp.ts"
import { pack } from "./fixtures.ts"

let t: TestApp
beforeAll(async () => {
  t = await makeTestApp()
})
afterAll(async () => {
  await t.dispose()
})

test("a multipart submission made with a submit key is recorded under the key", async () => {
  const owner = await t.token("actor-submitter")
  const key = await t.api.call("POST", "/api/me/api-keys", { token: owner, body: { name: "submit", games: "all", scopes: ["submit"] } })
  expect(key.status).toBe(201)
  const clean = pack("clean")
  const form = new FormData()
  form.append("manifest", new Blob([clean.manifestText], { type: "application/json" }), "manifest.json")
  form.append("pck", new Blob([clean.bytes]), "game.pck")
  const response = await t.app.fetch(new Request(`${TEST_BASE_URL}/submit-api/games/submit`, { method: "POST", headers: { authorization: `Bearer ${key.body.key}` }, body: form }))
  const body = await response.json() as { gameId: string }
  expect(response.status).toBe(200)
  const timeline = await t.api.call("GET", `/api/games/${body.gameId}/timeline`, { token: owner })
  const actors = timeline.body.events.filter((e: { kind: string }) => ["game_created", "submitted"].includes(e.kind))
    .map((e: { kind: string; actor: string }) => [e.kind, e.actor])
  expect(actors).toEqual([["game_created", `api_key:${key.body.id}`], ["submitted", `api_key:${key.body.id}`]])
})
