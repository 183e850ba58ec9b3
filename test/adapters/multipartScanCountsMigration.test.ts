// Migration 0012 on a database whose multipart submissions were recorded without their scan counts (the submission
// store left error_count, warning_count and capability_ids NULL): the columns are filled from each stored report;
// rows that have their counts are left alone, and running it again changes nothing.
import { mkdtempSync } from "node:fs"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { Effect } from "effect"
import { expect, inject, test } from "vitest"
import { layerSqlRecords } from "../../adapters/sql/index.ts"
import type { ScanReport } from "../../domain/scan/ScanReport.ts"
import { ScanStore } from "../../ports/ScanStore.ts"
import { SubmissionStore } from "../../ports/SubmissionStore.ts"
import { aGame, anIntent, aReleaseFor, unique } from "../support/fixtures.ts"

const AT = new Date("2026-02-01T00:00:00.000Z")

const report: ScanReport = {
  ok: false,
  findings: [
    { file: "res://a.gd", line: 3, column: 1, rule: "banned-api", pattern: "OS.execute", message: "no", severity: "error" },
    { file: "res://b.gd", line: 4, column: 1, rule: "banned-api", pattern: "HTTPRequest", message: "hm", severity: "warning" },
    { file: "res://c.gd", line: 5, column: 1, rule: "banned-api", pattern: "File", message: "hm", severity: "warning" },
  ],
  summary: { countsByRule: {}, errors: 1, warnings: 2, packFormat: 1, engineVersion: "3.5.3", entryCount: 3, packBytes: 4096, bytesRead: 100 },
  files: [],
  manifest: null,
  scannerVersion: "pckgate-scanner/2",
  capabilities: { shell: [{ file: "res://a.gd", line: 3, column: 1, api: "OS.execute", verdict: "error" }] },
}

/** A multipart submission of a new game, as the submission store commits it. */
const submission = () => {
  const game = aGame({ manifestId: unique("mf-") })
  const intent = anIntent(game.id, { createdBy: game.ownerId })
  return {
    game,
    newGame: true,
    release: aReleaseFor(intent, { source: "multipart", createdAt: AT }),
    submission: { id: unique("sub_"), gameId: game.id, version: intent.version, createdBy: game.ownerId, createdAt: AT },
    scan: { gameId: game.id, version: intent.version, report, scannedAt: AT },
  }
}

test("0012 fills the scan counts multipart submissions left empty, keeps the rows that have theirs, and runs again without harm", async () => {
  const path = join(mkdtempSync(join(inject("runDir"), "migration-0012-")), "records.sqlite")
  const records = () => layerSqlRecords({ target: { kind: "sqlite", path } })
  const [empty, kept] = [submission(), submission()]
  await Effect.runPromise(Effect.gen(function*() {
    for (const commit of [empty, kept]) expect(yield* SubmissionStore.use((s) => s.commit(commit))).toBe("committed")
  }).pipe(Effect.provide(records())))

  // As the submission store wrote them before the fix: no counts. The other row's counts stand for ones already right.
  const raw = new DatabaseSync(path)
  raw.prepare("UPDATE scans SET error_count = NULL, warning_count = NULL, capability_ids = NULL WHERE game_id = ?").run(empty.game.id)
  raw.prepare("UPDATE scans SET error_count = 9, warning_count = 9, capability_ids = '[\"kept\"]' WHERE game_id = ?").run(kept.game.id)
  raw.prepare("DELETE FROM kysely_migration WHERE name = '0012_multipart_scan_counts'").run()
  raw.close()

  const keys = [empty, kept].map((c) => ({ gameId: c.game.id, version: c.release.version }))
  const countsAfter = () => Effect.runPromise(ScanStore.use((s) => s.countsOf(keys)).pipe(Effect.provide(records())))
  const byGame = (rows: ReadonlyArray<{ gameId: string }>) => new Map(rows.map((r) => [r.gameId, r]))
  const migrated = byGame(await countsAfter())
  expect(migrated.get(empty.game.id)).toEqual({ gameId: empty.game.id, version: "1.0.0", errors: 1, warnings: 2, capabilities: ["shell"] })
  expect(migrated.get(kept.game.id)).toMatchObject({ errors: 9, warnings: 9, capabilities: ["kept"] })
  const applied = new DatabaseSync(path).prepare("SELECT name FROM kysely_migration WHERE name = '0012_multipart_scan_counts'").all()
  expect(applied).toHaveLength(1)

  // Again, as a start-up killed after the backfill but before the migration was recorded.
  const again = new DatabaseSync(path)
  again.prepare("DELETE FROM kysely_migration WHERE name = '0012_multipart_scan_counts'").run()
  again.close()
  expect(byGame(await countsAfter())).toEqual(migrated)
})
