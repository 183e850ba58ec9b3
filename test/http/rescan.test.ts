import { Option } from "effect"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { ScanStore } from "../../ports/ScanStore.ts"
import { artifact } from "../support/api.ts"
import { makeTestApp, newGame, type TestApp } from "../support/testApp.ts"
import { scanUnscannedReleases } from "../../domain/scan/ScanReleases.ts"

// POST /api/admin/games/{gameId}/releases/{version}/rescan: the release goes back to the scan queue (its record is
// dropped), and the next scan pass writes a new report.

describe("POST …/rescan", () => {
  let t: TestApp
  let creator: string
  let admin: string
  let gameId: string
  const scanOf = (version: string) => t.runtime.runPromise(ScanStore.use((s) => s.get(gameId, version)))
  beforeAll(async () => {
    t = await makeTestApp()
    creator = await t.token("rescan-creator")
    admin = await t.token("rescan-admin", { admin: true })
    gameId = await newGame(t, creator, "Rescanned Game")
    expect((await t.api.uploadRelease(creator, gameId, artifact(4096, "1.0.0"))).status).toBe(201)
    await t.runtime.runPromise(scanUnscannedReleases())
  })
  afterAll(() => t.dispose())

  test("an administrator's request answers 202 and queues the release: its scan reads pending until the next pass", async () => {
    const first = Option.getOrThrow(await scanOf("1.0.0"))
    const queued = await t.api.call("POST", `/api/admin/games/${gameId}/releases/1.0.0/rescan`, { token: admin })
    expect([queued.status, queued.body]).toEqual([202, { gameId, version: "1.0.0", scan: "queued" }])
    expect(Option.isNone(await scanOf("1.0.0"))).toBe(true)
    expect((await t.api.call("GET", `/api/games/${gameId}/releases/1.0.0/scan`, { token: creator })).body.status).toBe("pending")
    t.clock.advance(60)
    const pass = await t.runtime.runPromise(scanUnscannedReleases())
    expect(pass.scanned.map((s) => [s.gameId, s.version])).toContainEqual([gameId, "1.0.0"])
    const second = Option.getOrThrow(await scanOf("1.0.0"))
    expect(second.scannedAt.getTime()).toBeGreaterThan(first.scannedAt.getTime())
    expect(second.report.findings).toEqual(first.report.findings)
  })

  test("anyone else is told the route does not exist, and nothing is queued; unknown releases are 404", async () => {
    for (const token of [creator, await t.token("rescan-stranger")]) {
      const refused = await t.api.call("POST", `/api/admin/games/${gameId}/releases/1.0.0/rescan`, { token })
      expect([refused.status, refused.body.error]).toEqual([404, "not_found"])
    }
    expect(Option.isSome(await scanOf("1.0.0"))).toBe(true)
    expect((await t.api.call("POST", `/api/admin/games/${gameId}/releases/1.0.0/rescan`)).status).toBe(401)
    for (const path of [`/api/admin/games/${gameId}/releases/9.9.9/rescan`, `/api/admin/games/no!such/releases/1.0.0/rescan`, `/api/admin/games/${gameId}/releases/a..b/rescan`]) {
      const unknown = await t.api.call("POST", path, { token: admin })
      expect([path, unknown.status, unknown.body.error]).toEqual([path, 404, "not_found"])
    }
  })
  test("a taken-down release is rescanned from its quarantine key: the pass writes its report again", async () => {
    expect((await t.api.uploadRelease(creator, gameId, artifact(4096, "2.0.0"))).status).toBe(201)
    await t.runtime.runPromise(scanUnscannedReleases())
    expect((await t.api.approveScanned(admin, gameId, "2.0.0")).status).toBe(200)
    const down = await t.api.call("POST", `/api/admin/games/${gameId}/releases/2.0.0/takedown`, { token: admin, body: { reason: "a complaint" } })
    expect(down.status).toBe(200)
    const first = Option.getOrThrow(await scanOf("2.0.0"))
    expect((await t.api.call("POST", `/api/admin/games/${gameId}/releases/2.0.0/rescan`, { token: admin })).status).toBe(202)
    t.clock.advance(60)
    const pass = await t.runtime.runPromise(scanUnscannedReleases())
    expect(pass.failed).toEqual([])
    const second = Option.getOrThrow(await scanOf("2.0.0"))
    expect(second.scannedAt.getTime()).toBeGreaterThan(first.scannedAt.getTime())
    expect(second.report.summary).toEqual(first.report.summary)
  })

  test("a release whose bytes are gone fails its scan with a reason that says so, and stays queued", async () => {
    expect((await t.api.uploadRelease(creator, gameId, artifact(4096, "3.0.0"))).status).toBe(201)
    await t.runtime.runPromise(scanUnscannedReleases())
    const release = Option.getOrThrow(await t.runtime.runPromise(ReleaseStore.use((r) => r.get(gameId, "3.0.0"))))
    await t.runtime.runPromise(ObjectStorage.use((s) => s.delete(release.objectKey)))
    expect((await t.api.call("POST", `/api/admin/games/${gameId}/releases/3.0.0/rescan`, { token: admin })).status).toBe(202)
    const pass = await t.runtime.runPromise(scanUnscannedReleases())
    const failed = pass.failed.find((f) => f.version === "3.0.0")
    expect(failed?.reason).toContain(`failed: no object at ${release.objectKey} nor at quarantine/`)
    expect(Option.isNone(await scanOf("3.0.0"))).toBe(true)
  })
})
