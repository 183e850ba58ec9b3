import { assert, layer } from "@effect/vitest"
import { Effect, Exit, type Layer, Option, Schema } from "effect"
import type { Release } from "../../domain/release/Release.ts"
import { RecordedManifest, type ScanReport } from "../../domain/scan/ScanReport.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { type ScanRecord, ScanStore } from "../../ports/ScanStore.ts"
import { aGame, anIntent, aReleaseFor, unique } from "../support/fixtures.ts"

/** A report with every kind of field: findings with and without positions, embedded scripts, a manifest, non-Latin text. */
const aReport = (scannerVersion: string): ScanReport => ({
  ok: false,
  findings: [
    { file: "res://scripts/main.gd", line: 12, column: 5, rule: "banned-api", pattern: "OS.execute", message: "OS.execute runs programs ✋", severity: "error" },
    {
      file: "res://game/main.tscn",
      line: 3,
      column: 1,
      rule: "banned-api",
      pattern: "JavaScript.eval",
      message: "built-in script",
      severity: "warning",
      storedPath: "res://.import/main.scn",
      embeddedIn: { resource: "res://game/main.tscn", subResource: "GDScript_k3x9a" },
    },
    { file: "res://sdk/", line: null, column: null, rule: "reserved-path", pattern: "sdk/", message: "reserved folder", severity: "error" },
  ],
  summary: { countsByRule: { "banned-api": 2, "reserved-path": 1 }, errors: 2, warnings: 1, packFormat: 2, engineVersion: "4.2.1", entryCount: 7, packBytes: 3_000_000_000, bytesRead: 65_536 },
  files: [{ path: "res://manifest.json", sizeBytes: 120 }, { path: "res://ゲーム/画面.tscn", sizeBytes: 4096 }],
  manifest: Schema.decodeUnknownSync(RecordedManifest)({
    id: "com.example.game",
    name: "Ünïcode Gamé 🎮",
    version: "1.0.0",
    engine_sdk: "4.2",
    entry_scene: "res://game/main.tscn",
    min_players: 1,
    max_players: 4,
  }),
  scannerVersion,
})

/** A game with one finalized release per version, created at the given instants; the store under test needs the rows. */
const releasesOf = (versions: ReadonlyArray<readonly [string, Date]>) =>
  Effect.gen(function*() {
    const game = aGame()
    yield* GameStore.use((g) => g.insert(game, "system"))
    const releases: Array<Release> = []
    for (const [version, createdAt] of versions) {
      const intent = anIntent(game.id, { version, createdBy: game.ownerId })
      yield* ReleaseStore.use((r) => r.recordIntent(intent))
      releases.push(yield* ReleaseStore.use((r) => r.finalize(intent.id, aReleaseFor(intent, { createdAt }))))
    }
    return { game, releases }
  })

const recordFor = (release: Release, scannedAt: Date, scannerVersion = "contract-1"): ScanRecord => ({
  gameId: release.gameId,
  version: release.version,
  report: aReport(scannerVersion),
  scannedAt,
})

const SCANNED_AT = new Date("2026-03-04T12:00:00.123Z")

/** Behaviour every ScanStore must have, with the GameStore and ReleaseStore over the same records. */
export const scanStoreContract = (name: string, makeLayer: () => Layer.Layer<ScanStore | GameStore | ReleaseStore, unknown>) =>
  layer(makeLayer(), { timeout: 120_000 })(`ScanStore contract: ${name}`, (it) => {
    it.effect("saves a record and reads it back with every field intact; an unknown release has none", () =>
      Effect.gen(function*() {
        const { game, releases } = yield* releasesOf([["1.0.0", new Date("2026-03-01T00:00:00.000Z")]])
        const record = recordFor(releases[0]!, SCANNED_AT)
        yield* ScanStore.use((s) => s.save(record))
        assert.deepStrictEqual(Option.getOrNull(yield* ScanStore.use((s) => s.get(game.id, "1.0.0"))), record)
        assert.isTrue(Option.isNone(yield* ScanStore.use((s) => s.get(game.id, "1.0.1"))))
        assert.isTrue(Option.isNone(yield* ScanStore.use((s) => s.get(unique("gm_"), "1.0.0"))))
      }))

    it.effect("a rescan replaces the record: one record per release, the newest report", () =>
      Effect.gen(function*() {
        const { game, releases } = yield* releasesOf([["2.0.0", new Date("2026-03-01T00:00:00.000Z")]])
        yield* ScanStore.use((s) => s.save(recordFor(releases[0]!, SCANNED_AT, "contract-1")))
        const rescan = recordFor(releases[0]!, new Date("2026-03-05T08:09:10.456Z"), "contract-2")
        yield* ScanStore.use((s) => s.save(rescan))
        assert.deepStrictEqual(yield* ScanStore.use((s) => s.listByGame(game.id)), [rescan])
      }))

    it.effect("listByGame holds that game's records only, by version text", () =>
      Effect.gen(function*() {
        const at = new Date("2026-03-01T00:00:00.000Z")
        const { game, releases } = yield* releasesOf([["1.2.0", at], ["1.10.0", at], ["0.9.0", at]])
        const other = yield* releasesOf([["1.2.0", at]])
        for (const release of [...releases, ...other.releases]) yield* ScanStore.use((s) => s.save(recordFor(release, SCANNED_AT)))
        assert.deepStrictEqual((yield* ScanStore.use((s) => s.listByGame(game.id))).map((r) => [r.gameId, r.version]), [
          [game.id, "0.9.0"],
          [game.id, "1.10.0"],
          [game.id, "1.2.0"],
        ])
        assert.deepStrictEqual(yield* ScanStore.use((s) => s.listByGame(unique("gm_"))), [])
      }))

    // The queue is shared by every release of the store: these are created before any other case's, so they lead it.
    it.effect("unscanned lists releases without a record, oldest first and at most `limit`; a saved scan leaves it", () =>
      Effect.gen(function*() {
        const { releases } = yield* releasesOf([
          ["3.0.0", new Date("1990-01-03T00:00:00.000Z")],
          ["1.0.0", new Date("1990-01-01T00:00:00.000Z")],
          ["2.0.0", new Date("1990-01-02T00:00:00.000Z")],
        ])
        const queued = (limit: number) => ScanStore.use((s) => s.unscanned(limit)).pipe(Effect.map((rs) => rs.map((r) => r.version)))
        assert.deepStrictEqual(yield* queued(2), ["1.0.0", "2.0.0"])
        assert.deepStrictEqual((yield* ScanStore.use((s) => s.unscanned(1)))[0], releases[1], "the whole release, every field intact")
        yield* ScanStore.use((s) => s.save(recordFor(releases[1]!, SCANNED_AT)))
        assert.deepStrictEqual(yield* queued(2), ["2.0.0", "3.0.0"])
        assert.deepStrictEqual(yield* ScanStore.use((s) => s.unscanned(0)), [])
      }))

    it.effect("countsOf answers the gate's counts and capability ids kept with each record; a rescan replaces them", () =>
      Effect.gen(function*() {
        const { game, releases } = yield* releasesOf([["5.0.0", new Date("2026-03-01T00:00:00.000Z")], ["5.1.0", new Date("2026-03-01T00:00:00.000Z")]])
        const withCapabilities: ScanReport = {
          ...aReport("contract-caps"),
          capabilities: {
            shell: [{ file: "res://a.gd", line: 1, column: 1, api: "OS.execute", verdict: "error" }],
            network: [{ file: "res://b.gd", line: 2, column: 3, api: "HTTPRequest", verdict: "allowed" }],
          },
        }
        yield* ScanStore.use((s) => s.save({ ...recordFor(releases[0]!, SCANNED_AT), report: withCapabilities }))
        const wanted = [{ gameId: game.id, version: "5.0.0" }, { gameId: game.id, version: "5.1.0" }, { gameId: unique("gm_"), version: "5.0.0" }]
        assert.deepStrictEqual(yield* ScanStore.use((s) => s.countsOf(wanted)), [
          { gameId: game.id, version: "5.0.0", errors: 2, warnings: 1, capabilities: ["network", "shell"] },
        ])
        const clean: ScanReport = { ...aReport("contract-clean"), ok: true, findings: [] }
        yield* ScanStore.use((s) => s.save({ ...recordFor(releases[0]!, SCANNED_AT), report: clean }))
        assert.deepStrictEqual(yield* ScanStore.use((s) => s.countsOf(wanted.slice(0, 1))), [
          { gameId: game.id, version: "5.0.0", errors: 0, warnings: 0, capabilities: [] },
        ])
      }))

    it.effect("remove drops the record and puts the release back in the queue; removing again, or an unknown release, is false", () =>
      Effect.gen(function*() {
        // Older than every other case's release, so it leads the shared queue once its record is gone.
        const { game, releases } = yield* releasesOf([["5.0.0", new Date("1980-01-01T00:00:00.000Z")]])
        const other = yield* releasesOf([["5.0.0", new Date("1980-01-01T00:00:00.000Z")]])
        yield* ScanStore.use((s) => s.save(recordFor(releases[0]!, SCANNED_AT)))
        yield* ScanStore.use((s) => s.save(recordFor(other.releases[0]!, SCANNED_AT)))
        const queued = () => ScanStore.use((s) => s.unscanned(1000)).pipe(Effect.map((rs) => rs.map((r) => `${r.gameId} ${r.version}`)))
        assert.notInclude(yield* queued(), `${game.id} 5.0.0`)
        assert.isTrue(yield* ScanStore.use((s) => s.remove(game.id, "5.0.0")))
        assert.isTrue(Option.isNone(yield* ScanStore.use((s) => s.get(game.id, "5.0.0"))))
        assert.include(yield* queued(), `${game.id} 5.0.0`)
        assert.isTrue(Option.isSome(yield* ScanStore.use((s) => s.get(other.game.id, "5.0.0"))), "another game's record of the same version stays")
        assert.isFalse(yield* ScanStore.use((s) => s.remove(game.id, "5.0.0")))
        assert.isFalse(yield* ScanStore.use((s) => s.remove(unique("gm_"), "5.0.0")))
        yield* ScanStore.use((s) => s.save(recordFor(releases[0]!, SCANNED_AT)))
        assert.notInclude(yield* queued(), `${game.id} 5.0.0`)
      }))

    it.effect("8 concurrent rescans of one release all succeed and leave exactly one of their records", () =>
      Effect.gen(function*() {
        const { game, releases } = yield* releasesOf([["4.0.0", new Date("2026-03-01T00:00:00.000Z")]])
        const rescans = Array.from({ length: 8 }, (_, i) => recordFor(releases[0]!, new Date(SCANNED_AT.getTime() + i), `contract-race-${i}`))
        const exits = yield* Effect.all(rescans.map((r) => Effect.exit(ScanStore.use((s) => s.save(r)))), { concurrency: "unbounded" })
        assert.deepStrictEqual(exits.filter(Exit.isFailure).map(String), [])
        const stored = yield* ScanStore.use((s) => s.listByGame(game.id))
        assert.strictEqual(stored.length, 1)
        assert.deepInclude(rescans, stored[0]!)
      }))
  })
