// Migration 0006 (the review gate) on a database that already has scans: their counts and capability ids are filled
// in from the reports, and running it again (a start-up killed midway) changes nothing.
import { mkdtempSync } from "node:fs"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { Effect, Schema } from "effect"
import { expect, inject, test } from "vitest"
import { layerSqlRecords } from "../../adapters/sql/index.ts"
import { RecordedManifest } from "../../domain/scan/ScanReport.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { ScanStore } from "../../ports/ScanStore.ts"
import { aGame, anIntent, aReleaseFor } from "../support/fixtures.ts"

test("0006 backfills the scan counts of reports recorded before it, and runs again without harm", async () => {
  const path = join(mkdtempSync(join(inject("runDir"), "migration-0006-")), "records.sqlite")
  const records = () => layerSqlRecords({ target: { kind: "sqlite", path } })
  const game = aGame()
  const report = {
    ok: false,
    findings: [
      { file: "(pack)", line: null, column: null, rule: "pack-not-godot", pattern: "GDPC", message: "not a pack", severity: "warning" as const },
      { file: "res://a.gd", line: 3, column: 1, rule: "banned-api", pattern: "OS.execute", message: "no", severity: "error" as const },
      { file: "res://b.gd", line: 4, column: 1, rule: "banned-api", pattern: "HTTPRequest", message: "hm", severity: "warning" as const },
    ],
    summary: { countsByRule: {}, errors: 1, warnings: 2, packFormat: 1, engineVersion: "3.5.3", entryCount: 2, packBytes: 4096, bytesRead: 100 },
    files: [],
    manifest: Schema.decodeUnknownSync(RecordedManifest)({ id: "g", name: "G", version: "1.0.0", engine_sdk: "3.5", entry_scene: "res://m.tscn", min_players: 1, max_players: 2 }),
    scannerVersion: "pckgate-scanner/2",
    capabilities: { shell: [{ file: "res://a.gd", line: 3, column: 1, api: "OS.execute", verdict: "error" as const }] },
  }
  await Effect.runPromise(Effect.gen(function*() {
    yield* GameStore.use((g) => g.insert(game, "system"))
    const intent = anIntent(game.id)
    yield* ReleaseStore.use((r) => r.recordIntent(intent))
    yield* ReleaseStore.use((r) => r.finalize(intent.id, aReleaseFor(intent)))
    yield* ScanStore.use((s) => s.save({ gameId: game.id, version: "1.0.0", report, scannedAt: new Date("2026-01-01T00:00:00.000Z") }))
  }).pipe(Effect.provide(records())))

  // As a database written before 0006: the columns empty, the migration not recorded.
  const raw = new DatabaseSync(path)
  raw.prepare("UPDATE scans SET error_count = NULL, warning_count = NULL, capability_ids = NULL").run()
  raw.prepare("DELETE FROM kysely_migration WHERE name = '0006_review_gate'").run()
  raw.close()

  const counts = await Effect.runPromise(ScanStore.use((s) => s.countsOf([{ gameId: game.id, version: "1.0.0" }])).pipe(Effect.provide(records())))
  // pack-not-godot counts as an error whatever its severity: the gate never takes an unreadable pack for a clean one.
  expect(counts).toEqual([{ gameId: game.id, version: "1.0.0", errors: 2, warnings: 1, capabilities: ["shell"] }])
  const applied = new DatabaseSync(path).prepare("SELECT name FROM kysely_migration WHERE name = '0006_review_gate'").all()
  expect(applied).toHaveLength(1)
})
