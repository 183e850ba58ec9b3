import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { PackFileEntry } from "../../domain/review/PackFile.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { type ReleaseEntries, ReleaseEntryStore } from "../../ports/ReleaseEntryStore.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { aGame, anIntent, aReleaseFor, unique } from "../support/fixtures.ts"

const ENTRIES: ReadonlyArray<PackFileEntry> = [
  { path: "res://main.gd", sizeBytes: 120, kind: "script", sha256: "a".repeat(64) },
  { path: "res://main.tscn", storedPath: "res://.godot/exported/133200997/export-1-main.scn", sizeBytes: 4096, kind: "scene", sha256: "b".repeat(64) },
  { path: "res://main.tscn::GDScript_k3x9a", embeddedIn: "res://main.tscn", sizeBytes: 33, kind: "script", sha256: "c".repeat(64) },
  { path: "res://ゲーム/画面.png", sizeBytes: 0, kind: "binary", sha256: "d".repeat(64) },
]

const aRelease = (version: string) =>
  Effect.gen(function*() {
    const game = aGame()
    yield* GameStore.use((g) => g.insert(game, "system"))
    const intent = anIntent(game.id, { version, createdBy: game.ownerId })
    yield* ReleaseStore.use((r) => r.recordIntent(intent))
    return yield* ReleaseStore.use((r) => r.finalize(intent.id, aReleaseFor(intent)))
  })

/** Behaviour every ReleaseEntryStore must have, with the GameStore and ReleaseStore over the same records. */
export const releaseEntryStoreContract = (name: string, makeLayer: () => Layer.Layer<ReleaseEntryStore | GameStore | ReleaseStore, unknown>) =>
  layer(makeLayer(), { timeout: 120_000 })(`ReleaseEntryStore contract: ${name}`, (it) => {
    it.effect("saves a release's entries and reads them back with every field; other releases have none", () =>
      Effect.gen(function*() {
        const release = yield* aRelease("1.0.0")
        const record: ReleaseEntries = { gameId: release.gameId, version: "1.0.0", entries: ENTRIES, computedAt: new Date("2026-03-04T12:00:00.123Z") }
        yield* ReleaseEntryStore.use((s) => s.save(record))
        assert.deepStrictEqual(Option.getOrNull(yield* ReleaseEntryStore.use((s) => s.get(release.gameId, "1.0.0"))), record)
        assert.isTrue(Option.isNone(yield* ReleaseEntryStore.use((s) => s.get(release.gameId, "1.0.1"))))
        assert.isTrue(Option.isNone(yield* ReleaseEntryStore.use((s) => s.get(unique("gm_"), "1.0.0"))))
      }))

    it.effect("saving again (two instances computing at once) keeps one record, the last", () =>
      Effect.gen(function*() {
        const release = yield* aRelease("2.0.0")
        const first: ReleaseEntries = { gameId: release.gameId, version: "2.0.0", entries: ENTRIES, computedAt: new Date("2026-03-04T12:00:00.000Z") }
        const second: ReleaseEntries = { ...first, entries: ENTRIES.slice(0, 1), computedAt: new Date("2026-03-04T12:00:01.000Z") }
        yield* Effect.all([ReleaseEntryStore.use((s) => s.save(first)), ReleaseEntryStore.use((s) => s.save(second))], { concurrency: "unbounded" })
        const stored = Option.getOrNull(yield* ReleaseEntryStore.use((s) => s.get(release.gameId, "2.0.0")))
        assert.isTrue(stored !== null && (stored.entries.length === 1 || stored.entries.length === ENTRIES.length))
      }))
  })
