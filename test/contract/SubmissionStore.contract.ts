import { assert, layer } from "@effect/vitest"
import { Effect, Exit, type Layer, Option } from "effect"
import type { ScanReport } from "../../domain/scan/ScanReport.ts"
import { ChangeFeed } from "../../ports/ChangeFeed.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { ScanStore } from "../../ports/ScanStore.ts"
import { type SubmissionCommit, SubmissionStore } from "../../ports/SubmissionStore.ts"
import { aGame, anIntent, aReleaseFor, SHA_B, unique } from "../support/fixtures.ts"

const NOW = new Date("2026-03-04T12:00:00.123Z")

const aReport = (scannerVersion = "contract-1"): ScanReport => ({
  ok: true,
  findings: [],
  summary: { countsByRule: {}, errors: 0, warnings: 0, packFormat: 1, engineVersion: "3.2.3", entryCount: 3, packBytes: 4096, bytesRead: 4096 },
  files: [{ path: "res://manifest.json", sizeBytes: 120 }],
  manifest: null,
  scannerVersion,
})

/** A multipart submission of a new game (its own manifest id and slug unless given), version 1.0.0. */
const aNewGameCommit = (overrides: { manifestId?: string; slug?: string; version?: string; sha256?: string } = {}): SubmissionCommit => {
  const game = aGame({ manifestId: overrides.manifestId ?? unique("mf-"), ownerId: unique("creator-"), ...(overrides.slug !== undefined ? { slug: overrides.slug } : {}) })
  return commitFor(game, overrides.version ?? "1.0.0", overrides.sha256)
}

/** The records of `version` of `game` as a submission writes them. */
const commitFor = (game: SubmissionCommit["game"], version: string, sha256?: string, newGame = true): SubmissionCommit => {
  const intent = anIntent(game.id, { version, ...(sha256 !== undefined ? { sha256 } : {}), createdBy: game.ownerId })
  return {
    game,
    newGame,
    release: aReleaseFor(intent, { source: "multipart", createdAt: NOW }),
    submission: { id: unique("sub_"), gameId: game.id, version, createdBy: game.ownerId, createdAt: NOW },
    scan: { gameId: game.id, version, report: aReport(), scannedAt: NOW },
  }
}

/** A report with an error, a warning, an unreadable-pack finding (an error to the gate) and two capabilities. */
const aReportWithFindings = (): ScanReport => ({
  ...aReport(),
  ok: false,
  findings: [
    { file: "res://a.gd", line: 3, column: 1, rule: "banned-api", pattern: "OS.execute", message: "no", severity: "error", fingerprint: "fp-a" },
    { file: "res://b.gd", line: 4, column: 1, rule: "banned-api", pattern: "HTTPRequest", message: "hm", severity: "warning", fingerprint: "fp-b" },
    { file: "(pack)", line: null, column: null, rule: "pack-truncated", pattern: "directory", message: "cut", severity: "warning" },
  ],
  capabilities: {
    shell: [{ file: "res://a.gd", line: 3, column: 1, api: "OS.execute", verdict: "error" }],
    network: [{ file: "res://b.gd", line: 4, column: 1, api: "HTTPRequest", verdict: "warning" }],
  },
})

/** What the stores hold of one commit's rows. */
const rowsOf = (commit: SubmissionCommit) =>
  Effect.gen(function*() {
    return {
      game: Option.getOrNull(yield* GameStore.use((g) => g.get(commit.game.id))),
      release: Option.getOrNull(yield* ReleaseStore.use((r) => r.get(commit.release.gameId, commit.release.version))),
      scan: Option.getOrNull(yield* ScanStore.use((s) => s.get(commit.scan.gameId, commit.scan.version))),
      submission: Option.getOrNull(yield* SubmissionStore.use((s) => s.get(commit.submission.id))),
    }
  })

const nothingOf = (commit: SubmissionCommit) =>
  Effect.gen(function*() {
    const rows = yield* rowsOf(commit)
    assert.deepStrictEqual({ release: rows.release, scan: rows.scan, submission: rows.submission }, { release: null, scan: null, submission: null })
    if (commit.newGame) assert.isNull(rows.game, "the new game was not written")
  })

/** Behaviour every SubmissionStore must have, with the GameStore, ReleaseStore, ScanStore and ChangeFeed over the same records. */
export const submissionStoreContract = (name: string, makeLayer: () => Layer.Layer<SubmissionStore | GameStore | ReleaseStore | ScanStore | ChangeFeed, unknown>) =>
  layer(makeLayer(), { timeout: 120_000 })(`SubmissionStore contract: ${name}`, (it) => {
    it.effect("commits a new game with its release, scan and submission, every field intact", () =>
      Effect.gen(function*() {
        const commit = aNewGameCommit({ version: "1.0.0-β" })
        assert.strictEqual(yield* SubmissionStore.use((s) => s.commit(commit)), "committed")
        const rows = yield* rowsOf(commit)
        assert.deepStrictEqual(rows.game, commit.game)
        assert.deepStrictEqual(rows.release, commit.release)
        assert.deepStrictEqual(rows.scan, commit.scan)
        assert.deepStrictEqual(rows.submission, commit.submission)
        assert.deepStrictEqual(Option.getOrNull(yield* GameStore.use((g) => g.findByManifestId(commit.game.manifestId!))), commit.game)
      }))

    it.effect("a multipart scan's gate counts and capability ids are stored with it, as ScanStore.save stores them", () =>
      Effect.gen(function*() {
        const commit = aNewGameCommit()
        const scan = { ...commit.scan, report: aReportWithFindings() }
        assert.strictEqual(yield* SubmissionStore.use((s) => s.commit({ ...commit, scan })), "committed")
        const expected = { gameId: commit.game.id, version: "1.0.0", errors: 2, warnings: 1, capabilities: ["network", "shell"] }
        assert.deepStrictEqual(yield* ScanStore.use((s) => s.countsOf([{ gameId: commit.game.id, version: "1.0.0" }])), [expected])
        assert.deepStrictEqual(Option.getOrNull(yield* ScanStore.use((s) => s.get(commit.game.id, "1.0.0"))), scan)
        // The same report saved by the scan store (a rescan) gives the same counts.
        yield* ScanStore.use((s) => s.save(scan))
        assert.deepStrictEqual(yield* ScanStore.use((s) => s.countsOf([{ gameId: commit.game.id, version: "1.0.0" }])), [expected])
      }))

    it.effect("an update renames the game (the slug stays) and adds the version", () =>
      Effect.gen(function*() {
        const first = aNewGameCommit()
        yield* SubmissionStore.use((s) => s.commit(first))
        const renamed = { ...first.game, name: "Renamed Game", updatedAt: new Date("2026-03-05T00:00:00.456Z") }
        const update = commitFor(renamed, "1.1.0", SHA_B, false)
        assert.strictEqual(yield* SubmissionStore.use((s) => s.commit(update)), "renamed")
        const rows = yield* rowsOf(update)
        assert.deepStrictEqual(rows.game, renamed)
        assert.deepStrictEqual([rows.release, rows.scan, rows.submission], [update.release, update.scan, update.submission])
        assert.deepStrictEqual((yield* ReleaseStore.use((r) => r.listByGame(first.game.id))).map((r) => r.version).sort(), ["1.0.0", "1.1.0"])
      }))

    it.effect("a rename is announced in the change feed (the catalog shows names) and answered renamed; an update keeping the name and a new game are not", () =>
      Effect.gen(function*() {
        const feed = yield* ChangeFeed
        const first = aNewGameCommit()
        const start = yield* feed.latest
        assert.strictEqual(yield* SubmissionStore.use((s) => s.commit(first)), "committed")
        const sameName = { ...first.game, updatedAt: new Date("2026-03-05T00:00:00.456Z") }
        assert.strictEqual(yield* SubmissionStore.use((s) => s.commit(commitFor(sameName, "1.1.0", SHA_B, false))), "committed", "the name stays")
        assert.deepStrictEqual(yield* feed.since(start, 10), [], "nothing to announce yet")
        const renamedAt = new Date("2026-03-06T00:00:00.789Z")
        const renamed = commitFor({ ...sameName, name: "Renamed Again", updatedAt: renamedAt }, "1.2.0", SHA_B, false)
        assert.strictEqual(yield* SubmissionStore.use((s) => s.commit(renamed)), "renamed")
        const changes = yield* feed.since(start, 10)
        assert.deepStrictEqual(changes.map(({ seq: _, ...change }) => change), [{ gameId: first.game.id, kind: "renamed", at: renamedAt }])
        assert.strictEqual(changes[0]!.seq, start + 1)
        assert.strictEqual(yield* feed.latest, start + 1)
      }))

    it.effect("a version that exists fails with VersionExists and writes nothing: the name, scan and release stay", () =>
      Effect.gen(function*() {
        const first = aNewGameCommit()
        yield* SubmissionStore.use((s) => s.commit(first))
        const again = commitFor({ ...first.game, name: "Not Applied" }, "1.0.0", SHA_B, false)
        const error = yield* Effect.flip(SubmissionStore.use((s) => s.commit({ ...again, scan: { ...again.scan, report: aReport("contract-2") } })))
        assert.deepStrictEqual([error._tag, error._tag === "VersionExists" && error.version], ["VersionExists", "1.0.0"])
        const rows = yield* rowsOf(first)
        assert.deepStrictEqual(rows, { game: first.game, release: first.release, scan: first.scan, submission: first.submission })
        assert.isTrue(Option.isNone(yield* SubmissionStore.use((s) => s.get(again.submission.id))), "no submission row")
      }))

    it.effect("a slug in use fails with SlugTaken and writes nothing", () =>
      Effect.gen(function*() {
        const first = aNewGameCommit()
        yield* SubmissionStore.use((s) => s.commit(first))
        const clash = aNewGameCommit({ slug: first.game.slug })
        const error = yield* Effect.flip(SubmissionStore.use((s) => s.commit(clash)))
        assert.deepStrictEqual([error._tag, error._tag === "SlugTaken" && error.slug], ["SlugTaken", first.game.slug])
        yield* nothingOf(clash)
      }))

    it.effect("a new game whose manifest id is in use ends as manifest_id_taken and writes nothing, also when its slug is taken too", () =>
      Effect.gen(function*() {
        const first = aNewGameCommit()
        yield* SubmissionStore.use((s) => s.commit(first))
        for (const racer of [aNewGameCommit({ manifestId: first.game.manifestId! }), aNewGameCommit({ manifestId: first.game.manifestId!, slug: first.game.slug })]) {
          assert.strictEqual(yield* SubmissionStore.use((s) => s.commit(racer)), "manifest_id_taken")
          yield* nothingOf(racer)
        }
        assert.deepStrictEqual(Option.getOrNull(yield* GameStore.use((g) => g.findByManifestId(first.game.manifestId!))), first.game)
        assert.deepStrictEqual((yield* rowsOf(first)).release, first.release)
      }))

    it.effect("12 concurrent new games with one manifest id and one slug: one committed, the rest manifest_id_taken with nothing written", () =>
      Effect.gen(function*() {
        const manifestId = unique("mf-race-")
        const slug = unique("race-slug-")
        const racers = Array.from({ length: 12 }, () => aNewGameCommit({ manifestId, slug }))
        const exits = yield* Effect.all(racers.map((c) => Effect.exit(SubmissionStore.use((s) => s.commit(c)))), { concurrency: "unbounded" })
        const outcomes = exits.map((exit) => (Exit.isSuccess(exit) ? exit.value : `failed: ${String(exit.cause)}`))
        assert.deepStrictEqual([...outcomes].sort(), ["committed", ...Array<string>(11).fill("manifest_id_taken")])
        const winner = racers[outcomes.indexOf("committed")]!
        assert.deepStrictEqual(Option.getOrNull(yield* GameStore.use((g) => g.findByManifestId(manifestId))), winner.game)
        assert.deepStrictEqual(yield* rowsOf(winner), { game: winner.game, release: winner.release, scan: winner.scan, submission: winner.submission })
        for (const loser of racers.filter((c) => c !== winner)) yield* nothingOf(loser)
      }))
  })
