// Staged go-live on the multipart path (issue 16): the optional text part `publish` of a real submission (a pack the
// Godot engine exported). `manual` keeps the approved release inactive until activate; a bad value is refused.
import { afterEach, beforeEach, expect, test } from "vitest"
import { makeTestApp, TEST_BASE_URL, type TestApp } from "../support/testApp.ts"
import { pack } from "./fixtures.ts"

let t: TestApp
beforeEach(async () => {
  t = await makeTestApp()
})
afterEach(async () => {
  await t.dispose()
})

const submit = async (token: string, publish: string | null) => {
  const clean = pack("clean")
  const form = new FormData()
  form.append("manifest", new Blob([clean.manifestText], { type: "application/json" }), "manifest.json")
  if (publish !== null) form.append("publish", publish)
  form.append("pck", new Blob([clean.bytes]), "game.pck")
  const response = await t.app.fetch(new Request(`${TEST_BASE_URL}/submit-api/games/submit`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form }))
  return { status: response.status, body: await response.json() as { gameId: string; error?: string } }
}

test("a multipart submission with publish=manual stays approved and inactive after approval, until the owner activates it", async () => {
  const owner = await t.token("staged-submitter")
  const admin = await t.token("staged-admin", { admin: true })
  const stranger = await t.token("staged-stranger")
  const submitted = await submit(owner, "manual")
  expect(submitted.status).toBe(200)
  const { gameId } = submitted.body
  const version = JSON.parse(pack("clean").manifestText).version as string
  const game = async () => (await t.api.call("GET", `/api/games/${gameId}`, { token: owner })).body
  expect((await game()).releases).toMatchObject([{ version, status: "pending_review", publishMode: "manual", source: "multipart" }])

  const approved = await t.api.approveScanned(admin, gameId, version)
  expect(approved.status).toBe(200)
  expect(approved.body).toMatchObject({ status: "approved", activated: false, activationNote: "staged", activeVersion: null, gameStatus: "review" })
  expect(await game()).toMatchObject({ status: "review", activeVersion: null, activeReason: null })
  expect((await t.api.downloadUrl(stranger, gameId, version)).status).toBe(404)
  expect((await t.api.call("GET", "/api/catalog")).body.games.map((g: { gameId: string }) => g.gameId)).not.toContain(gameId)

  const live = await t.api.call("POST", `/api/games/${gameId}/releases/${version}/activate`, { token: owner, body: { reason: "launch" } })
  expect(live.body).toMatchObject({ activeVersion: version, activated: true, gameStatus: "published" })
  expect(await game()).toMatchObject({ status: "published", activeReason: { cause: "activation", actor: "user:staged-submitter" } })
  expect((await t.api.downloadUrl(stranger, gameId, version)).status).toBe(200)
})

test("without the publish part the release goes live on approval; an unknown publish value is 400 and records nothing", async () => {
  const owner = await t.token("default-submitter")
  const admin = await t.token("default-admin", { admin: true })
  const refused = await submit(owner, "later")
  expect([refused.status, refused.body.error]).toEqual([400, "invalid_request"])
  expect((await t.api.call("GET", "/api/me/games", { token: owner })).body.games).toEqual([])
  const submitted = await submit(owner, null)
  expect(submitted.status).toBe(200)
  const version = JSON.parse(pack("clean").manifestText).version as string
  const approved = await t.api.approveScanned(admin, submitted.body.gameId, version)
  expect(approved.body).toMatchObject({ activated: true, activeVersion: version, publishMode: "on_approval" })
})
