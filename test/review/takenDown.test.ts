// A taken-down release stays readable by reviewers (issue 15): its object waits at the quarantine key, and /files,
// /file, /diff and the admin release page (which holds the Reinstate panel) read it there. A read racing the move of a
// takedown or a reinstatement finds the object at the other key. Packs exported by godot3-server in this run.
import { readFileSync } from "node:fs"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import { quarantineObjectKey, releaseObjectKey } from "../../domain/release/ObjectKey.ts"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { READING_MAIN_1_0 } from "../scanner/fixtures/godotProjects.ts"
import { fixturePackPath } from "../setup/godot.ts"
import "../setup/provided.ts"
import { makeTestApp, type TestApp } from "../support/testApp.ts"
import { pagesOf, readingGame, sha256Hex, shipPack } from "./support.ts"

const root = inject("godotFixtures")
const exported = (name: string) => new Uint8Array(readFileSync(fixturePackPath(root, name)))
const MAIN = `file?path=${encodeURIComponent("res://game/main.gd")}`

let t: TestApp
let who: Awaited<ReturnType<typeof readingGame>>
let pages: Awaited<ReturnType<typeof pagesOf>>
const get = (path: string) => t.api.call("GET", `/api/admin/games/${who.gameId}/releases/${path}`, { token: who.admin })
const keysOf = (version: string) => {
  const sha256 = sha256Hex(exported(`reading-${version}`))
  return { own: releaseObjectKey(who.gameId, version, sha256), quarantine: quarantineObjectKey(who.gameId, version, sha256) }
}
/** Moves the stored object behind the records' back, as a takedown or reinstatement does before recording it. */
const moveObject = (from: string, to: string) => t.runtime.runPromise(ObjectStorage.use((s) => s.move(from, to)))

beforeAll(async () => {
  t = await makeTestApp()
  pages = await pagesOf(t)
  who = await readingGame(t)
  for (const version of ["1.0.0", "1.1.0"]) {
    await shipPack(t, who.owner, who.gameId, version, exported(`reading-${version}`))
    expect((await t.api.approveScanned(who.admin, who.gameId, version)).status).toBe(200)
  }
  const down = await t.api.call("POST", `/api/admin/games/${who.gameId}/releases/1.0.0/takedown`, { token: who.admin, body: { reason: "a complaint to check" } })
  expect([down.status, down.body.releases?.[0]?.status]).toEqual([200, "taken_down"])
})
afterAll(() => t.dispose())

describe("a taken-down release is read from its quarantine key", () => {
  test("/files, /file and /diff of the taken-down release answer 200", async () => {
    const files = await get("1.0.0/files")
    expect(files.status, JSON.stringify(files.body)).toBe(200)
    expect(files.body.files.map((f: { path: string }) => f.path)).toContain("res://game/main.gd")
    const main = await get(`1.0.0/${MAIN}`)
    expect([main.status, main.body.text]).toEqual([200, READING_MAIN_1_0])
    const diff = await get("1.0.0/diff?against=1.1.0")
    expect(diff.status, JSON.stringify(diff.body)).toBe(200)
    expect(diff.body.files.map((f: { path: string; change: string }) => `${f.change} ${f.path}`)).toContain("modified res://game/main.gd")
  })

  test("/diff of another release against the taken-down one answers 200 with the changed lines", async () => {
    const diff = await get("1.1.0/diff?against=1.0.0")
    expect(diff.status, JSON.stringify(diff.body)).toBe(200)
    expect(diff.body.files[0].unified).toContain('-\tprint("round one")\n+\tprint("round two")\n')
  })

  test("the admin release page of the taken-down release shows its files and the Reinstate panel", async () => {
    const admin = await pages.signIn("root", true)
    const page = await pages.get(`/admin/games/${who.gameId}/releases/1.0.0`, admin)
    expect(page.status).toBe(200)
    const markup = await page.text()
    expect(markup).toContain('<h2 id="takedown-heading">Reinstate</h2>')
    expect(markup).toContain('<nav aria-label="Files in the pack">')
    expect(markup).toContain("a complaint to check")
  })
})

describe("a read racing a takedown or a reinstatement", () => {
  test("the object moved to quarantine before the takedown is recorded: the read finds it there", async () => {
    const { own, quarantine } = keysOf("1.1.0")
    await moveObject(own, quarantine)
    try {
      const main = await get(`1.1.0/${MAIN}`)
      expect(main.status, JSON.stringify(main.body)).toBe(200)
      expect(main.body.text).toContain('print("round two")')
      expect((await get("1.1.0/diff?against=1.0.0")).status).toBe(200)
    } finally {
      await moveObject(quarantine, own)
    }
  })

  test("the object moved back before the reinstatement is recorded: the read finds it at its own key", async () => {
    const { own, quarantine } = keysOf("1.0.0")
    await moveObject(quarantine, own)
    try {
      const main = await get(`1.0.0/${MAIN}`)
      expect([main.status, main.body.text]).toEqual([200, READING_MAIN_1_0])
    } finally {
      await moveObject(own, quarantine)
    }
  })
})
