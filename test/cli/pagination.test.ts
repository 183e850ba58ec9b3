// The CLI follows `nextCursor` to the end of a list (api-conventions.md) and reads every reply with the server's wire
// Schemas, against a fake service that paginates (the real one does not yet).
import { createHash, randomBytes } from "node:crypto"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { runCli } from "../support/cli.ts"
import { type FakeRequest, ownerGame, queueItem, startFakeService, TIMESTAMP } from "./support/fakeService.ts"

const created: Array<string> = []
const uploaded = new Map<string, Buffer>()

const finalized = (gameId: string) => (request: FakeRequest) => {
  const declared = JSON.parse(request.body.toString()) as { version: string; sha256: string; sizeBytes: number }
  const stored = uploaded.get(gameId)
  if (stored === undefined || createHash("sha256").update(stored).digest("hex") !== declared.sha256) {
    return { status: 409, body: { error: "artifact_missing", detail: "nothing stored under that digest" } }
  }
  return { status: 201, body: { gameId, ...declared, status: "pending_review", createdAt: TIMESTAMP } }
}

let fake: Awaited<ReturnType<typeof startFakeService>>
const routes = (base: () => string) => ({
  // Three pages; the last says null.
  "GET /api/me/games": { status: 200, body: { games: [ownerGame("gm_1", "One"), ownerGame("gm_2", "Two")], nextCursor: "p2" } },
  "GET /api/me/games?cursor=p2": { status: 200, body: { games: [ownerGame("gm_3", "Three")], nextCursor: "p/3" } },
  "GET /api/me/games?cursor=p%2F3": { status: 200, body: { games: [ownerGame("gm_4", "Far Away")], nextCursor: null } },
  // Two pages; the last has no nextCursor at all (as the server answers today).
  "GET /api/admin/review-queue": { status: 200, body: { items: [queueItem("gm_1", "1.0.0")], nextCursor: "q2" } },
  "GET /api/admin/review-queue?cursor=q2": { status: 200, body: { items: [queueItem("gm_2", "2.0.0"), queueItem("gm_3", "3.0.0")] } },
  "POST /api/games/engine": (request: FakeRequest) => {
    const { name } = JSON.parse(request.body.toString()) as { name: string }
    created.push(name)
    return { status: 201, body: { ...ownerGame("gm_new", name), uploadUrlEndpoint: "/api/games/gm_new/releases/upload-url", releases: undefined, activeVersion: undefined, updatedAt: undefined } }
  },
  ...Object.fromEntries(["gm_4", "gm_new"].flatMap((gameId) => [
    [`POST /api/games/${gameId}/releases/upload-url`, () => ({ status: 200, body: { uploadUrl: `${base()}/upload/${gameId}`, headers: { "if-none-match": "*" }, expiresAt: TIMESTAMP } })],
    [`PUT /upload/${gameId}`, (request: FakeRequest) => (uploaded.set(gameId, request.body), { status: 200 })],
    [`POST /api/games/${gameId}/releases/finalize`, finalized(gameId)],
  ])),
  // Replies the service must never send: the CLI says so instead of printing nonsense or looping.
  "GET /api/games/gm_malformed": { status: 200, body: { gameId: "gm_malformed", name: 7 } },
  "GET /api/games/gm_loop/releases/1.0.0": { status: 200, body: "<html>not json</html>" },
})

beforeAll(async () => {
  let url = ""
  fake = await startFakeService(routes(() => url))
  url = fake.url
})
afterAll(() => fake.stop())

const env = () => ({ PCKGATE_URL: fake.url, PCKGATE_TOKEN: "fake-token" })
const pack = () => {
  const path = join(mkdtempSync(join(tmpdir(), "pckgate-pages-")), "game.pck")
  writeFileSync(path, randomBytes(4096))
  return path
}

describe("lists that the service paginates", () => {
  test("status without a game lists every page of the caller's games", async () => {
    const run = await runCli(["status", "--json"], env())
    expect(run.code, run.stderr).toBe(0)
    expect(run.json().games.map((g: { gameId: string }) => g.gameId)).toEqual(["gm_1", "gm_2", "gm_3", "gm_4"])
    const human = await runCli(["status"], env())
    expect(human.stdout.trim().split("\n")).toHaveLength(4)
    expect(human.stdout).toContain("Far Away (gm_4): review, active version none")
  })

  test("review list follows nextCursor and stops where it is absent", async () => {
    const run = await runCli(["review", "list", "--json"], env())
    expect(run.code, run.stderr).toBe(0)
    expect(run.json().items.map((i: { version: string }) => i.version)).toEqual(["1.0.0", "2.0.0", "3.0.0"])
  })

  test("release --name finds a game on the last page instead of creating a second one", async () => {
    const run = await runCli(["release", pack(), "--name", "Far Away", "--version", "1.0.0", "--skip-check", "--no-verify", "--json"], env())
    expect(run.code, run.stderr).toBe(0)
    expect(run.json()).toMatchObject({ ok: true, gameId: "gm_4", status: "pending_review", verified: null })
    expect(created).toEqual([])
  })

  test("release --name creates the game once no page has it", async () => {
    const run = await runCli(["release", pack(), "--name", "Brand New", "--version", "1.0.0", "--skip-check", "--no-verify", "--json"], env())
    expect(run.code, run.stderr).toBe(0)
    expect(run.json()).toMatchObject({ ok: true, gameId: "gm_new" })
    expect(created).toEqual(["Brand New"])
  })
})

describe("replies that do not fit the wire Schemas", () => {
  test("a success body of the wrong shape is unexpected_response (exit 3), not a half-printed game", async () => {
    const run = await runCli(["status", "gm_malformed"], env())
    expect([run.code, run.stdout]).toEqual([3, ""])
    expect(run.stderr).toMatch(/^error: unexpected_response — GET \/api\/games\/gm_malformed answered 200 with a body this CLI cannot read \(.*name/)
    const notJson = await runCli(["status", "gm_loop", "--version", "1.0.0", "--json"], env())
    expect(notJson.code).toBe(3)
    expect(notJson.json()).toMatchObject({ ok: false, error: "unexpected_response" })
  })

  test("a cursor handed out twice ends the listing with exit 3 instead of looping", async () => {
    const looping = await startFakeService({
      "GET /api/admin/review-queue": { status: 200, body: { items: [], nextCursor: "again" } },
      "GET /api/admin/review-queue?cursor=again": { status: 200, body: { items: [queueItem("gm_1", "1.0.0")], nextCursor: "again" } },
    })
    const run = await runCli(["review", "list"], { PCKGATE_URL: looping.url, PCKGATE_TOKEN: "t" })
    await looping.stop()
    expect([run.code, run.stderr.trim()]).toEqual([3, "error: unexpected_response — GET /api/admin/review-queue returned the cursor 'again' twice"])
  })
})
