// Concurrent first submissions of one new manifest.id, through the HTTP app on each store: exactly one creates the
// game, and every other one is decided as an update of that game (same creator and a new version: a release of it;
// the same version: 409 version_exists; another creator: 404) — and no object of a refused submission stays behind.
import { mkdtempSync } from "node:fs"
import { join } from "node:path"
import { Context, Effect, Layer, Option } from "effect"
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import { layerMemoryRecords } from "../../adapters/memory/MemoryRecords.ts"
import { layerSqlRecords } from "../../adapters/sql/index.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { ScanStore } from "../../ports/ScanStore.ts"
import { SubmissionStore } from "../../ports/SubmissionStore.ts"
import { freshDatabase } from "../setup/mariadb.ts"
import { makeTestApp, submitPack, type TestApp } from "../support/testApp.ts"
import { sha256Hex } from "../support/streams.ts"
import { packWithManifest } from "./fixtures.ts"

/** At most the uploads one account may run at once (the app's default upload slots per account). */
const RACERS = 4

/**
 * Holds the first `count` commits until all of them have arrived, so every racer has read "no game with this manifest
 * id" before any of them writes: the race happens every time, not by luck. Later commits (the losers' second tries)
 * pass straight through. A racer that never arrives releases the others after a few seconds.
 */
const makeCommitGate = () => {
  let expected = 0
  let waiting: Array<() => void> = []
  let filled = false
  const release = () => {
    expected = 0
    for (const go of waiting) go()
    waiting = []
  }
  return {
    arm: (count: number) => {
      expected = count
      waiting = []
      filled = false
    },
    /** True once all the armed commits were held together: the race did happen. */
    filled: () => filled,
    pass: Effect.promise(() => {
      if (expected === 0) return Promise.resolve()
      const arrived = new Promise<void>((resolve) => waiting.push(resolve))
      if (waiting.length >= expected) {
        filled = true
        release()
      }
      const timer = setTimeout(release, 5000)
      return arrived.finally(() => clearTimeout(timer))
    }),
  }
}
type CommitGate = ReturnType<typeof makeCommitGate>

/** The store's records with every SubmissionStore.commit passing the gate first. */
const gated = (records: Layer.Layer<GameStore | ReleaseStore | ScanStore | SubmissionStore, unknown>, gate: CommitGate) =>
  Layer.effectContext(Effect.gen(function*() {
    const context = yield* Layer.build(records)
    const inner = Context.get(context, SubmissionStore)
    return Context.add(context, SubmissionStore, SubmissionStore.of({ ...inner, commit: (input) => Effect.andThen(gate.pass, inner.commit(input)) }))
  })).pipe(Layer.orDie)

const STORES: ReadonlyArray<readonly [string, () => Promise<Layer.Layer<GameStore | ReleaseStore | ScanStore | SubmissionStore, unknown>>]> = [
  ["memory", async () => layerMemoryRecords],
  ["SQLite", async () => layerSqlRecords({ target: { kind: "sqlite", path: join(mkdtempSync(join(inject("runDir"), "race-")), "records.sqlite") } })],
  ["MariaDB", async () => layerSqlRecords({ target: { kind: "mysql", url: await freshDatabase(inject("mariadbUrl"), "race") } })],
]

describe.each(STORES)("racing first submissions of one new manifest.id (%s)", (_name, makeRecords) => {
  let t: TestApp
  const gate = makeCommitGate()
  beforeAll(async () => {
    t = await makeTestApp({ override: gated(await makeRecords(), gate) as Layer.Layer<never> })
  })
  afterAll(() => t.dispose())

  const submit = (token: string, p: { bytes: Uint8Array; manifestText: string }) => submitPack(t, token, p)

  /** All submissions at once, their commits held until every one has reached its commit. */
  const race = async (entries: ReadonlyArray<{ token: string; pack: { bytes: Uint8Array; manifestText: string } }>) => {
    gate.arm(entries.length)
    const replies = await Promise.all(entries.map((e) => submit(e.token, e.pack)))
    expect(gate.filled(), "every racer reached its commit having found no game").toBe(true)
    return replies
  }

  const stored = (manifestId: string) =>
    t.runtime.runPromise(Effect.gen(function*() {
      const game = Option.getOrNull(yield* GameStore.use((g) => g.findByManifestId(manifestId)))
      const releases = game === null ? [] : yield* ReleaseStore.use((r) => r.listByGame(game.id))
      const scans = game === null ? [] : yield* ScanStore.use((s) => s.listByGame(game.id))
      return { game, releases, scans }
    }))
  const gamesOf = (userId: string) => t.runtime.runPromise(GameStore.use((g) => g.listByOwner(userId)))
  const submission = (id: string) => t.runtime.runPromise(SubmissionStore.use((s) => s.get(id)))
  /** Every object in storage belongs to a release of a game: nothing temporary, nothing of a refused submission. */
  const allObjects = () => t.runtime.runPromise(ObjectStorage.use((s) => s.list(""))).then((objects) => objects.map((o) => o.key).sort())

  test("same creator, distinct versions: one game; each loser is decided as an update arriving second", async () => {
    const creator = await t.token("racer-a")
    const versions = Array.from({ length: RACERS }, (_, i) => `1.${RACERS - i}.0`)
    const highest = versions[0]!
    const packs = await Promise.all(versions.map((version) => packWithManifest({ id: "race-a", version })))
    const replies = await race(packs.map((p) => ({ token: creator, pack: p })))

    // Whichever commits first creates the game; every other one is an update of it, accepted only when its version
    // is higher than the newest stored when it is decided. The highest version therefore always gets in.
    const accepted = versions.filter((_, i) => replies[i]!.status === 200)
    expect(accepted).toContain(highest)
    for (const [i, reply] of replies.entries()) {
      if (reply.status !== 200) expect([versions[i], reply.status, reply.body.error]).toEqual([versions[i], 409, "version_exists"])
    }
    const { game, releases, scans } = await stored("race-a")
    expect(game).toMatchObject({ ownerId: "racer-a", manifestId: "race-a", slug: "fixture-game" })
    expect(new Set(replies.filter((r) => r.status === 200).map((r) => r.body.gameId))).toEqual(new Set([game!.id]))
    expect(await gamesOf("racer-a")).toHaveLength(1)
    expect(releases.map((r) => r.version).sort()).toEqual([...accepted].sort())
    for (const [i, r] of releases.entries()) {
      const p = packs[versions.indexOf(r.version)]!
      expect([r.gameId, r.sha256, r.sizeBytes, r.source, r.status], `release ${i}`).toEqual([game!.id, sha256Hex(p.bytes), p.bytes.length, "multipart", "pending_review"])
    }
    expect(scans.map((s) => s.version).sort()).toEqual([...accepted].sort())
    for (const reply of replies.filter((r) => r.status === 200)) {
      expect(Option.getOrNull(await submission(reply.body.submissionId))).toMatchObject({ gameId: game!.id, createdBy: "racer-a" })
    }
    expect(await allObjects()).toEqual(releases.map((r) => r.objectKey).sort())
  })

  test("same creator, same version: one 200, the others 409 version_exists, one release", async () => {
    const creator = await t.token("racer-b")
    const p = await packWithManifest({ id: "race-b", version: "2.0.0" })
    const before = await allObjects()
    const replies = await race(Array.from({ length: RACERS }, () => ({ token: creator, pack: p })))

    expect(replies.map((r) => r.status).sort()).toEqual([200, ...Array(RACERS - 1).fill(409)])
    for (const r of replies.filter((r) => r.status === 409)) expect(r.body).toMatchObject({ ok: false, error: "version_exists" })
    const { game, releases } = await stored("race-b")
    expect(game).toMatchObject({ ownerId: "racer-b" })
    expect(replies.find((r) => r.status === 200)!.body.gameId).toBe(game!.id)
    expect(await gamesOf("racer-b")).toHaveLength(1)
    expect(releases.map((r) => [r.version, r.sha256])).toEqual([["2.0.0", sha256Hex(p.bytes)]])
    expect(await allObjects()).toEqual([...before, releases[0]!.objectKey].sort())
  })

  test("different creators: one 200, the others 404 game_not_found_or_forbidden, nothing recorded for them", async () => {
    const creators = Array.from({ length: RACERS }, (_, i) => `racer-c${i}`)
    const tokens = await Promise.all(creators.map((c) => t.token(c)))
    const packs = await Promise.all(creators.map((_, i) => packWithManifest({ id: "race-c", version: `3.${i}.0` })))
    const before = await allObjects()
    const replies = await race(tokens.map((token, i) => ({ token, pack: packs[i]! })))

    expect(replies.map((r) => r.status).sort()).toEqual([200, ...Array(RACERS - 1).fill(404)])
    for (const r of replies.filter((r) => r.status === 404)) expect(r.body).toMatchObject({ ok: false, error: "game_not_found_or_forbidden" })
    const winner = replies.findIndex((r) => r.status === 200)
    const { game, releases } = await stored("race-c")
    expect(game).toMatchObject({ id: replies[winner]!.body.gameId, ownerId: creators[winner] })
    expect(releases.map((r) => r.version)).toEqual([`3.${winner}.0`])
    for (const [i, c] of creators.entries()) expect(await gamesOf(c), c).toHaveLength(i === winner ? 1 : 0)
    expect(await allObjects()).toEqual([...before, releases[0]!.objectKey].sort())
  })
})
