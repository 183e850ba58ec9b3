// The background scan queue (releases without a scan record): a release whose bytes cannot be read is retried later,
// with a doubling delay, and never holds up the releases queued behind it.
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { layerMemory } from "../../adapters/memory/index.ts"
import { layerPackScanner } from "../../adapters/scanner/index.ts"
import { makeScanRetries, scanKey, scanUnscannedReleases } from "../../domain/scan/ScanReleases.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { ScanStore } from "../../ports/ScanStore.ts"
import { aGame, anIntent, aReleaseFor, SHA_B } from "../support/fixtures.ts"

const layer = Layer.mergeAll(layerMemory(), layerPackScanner)

const bytesStream = (bytes: Uint8Array) => new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(bytes), c.close()) })

describe("the background scan queue", () => {
  it.effect("a release whose bytes are missing is deferred; the next pass scans the release behind it", () =>
    Effect.gen(function*() {
      const game = aGame()
      yield* GameStore.use((g) => g.insert(game, "system"))
      const releases = yield* ReleaseStore
      // The older release's object was never stored; the newer one's is (4096 bytes that are no pack).
      const missing = anIntent(game.id, { version: "1.0.0", createdAt: new Date("2026-01-01T00:00:00.000Z") })
      const present = anIntent(game.id, { version: "1.1.0", sha256: SHA_B, createdAt: new Date("2026-01-02T00:00:00.000Z") })
      for (const [intent, createdAt] of [[missing, "2026-01-01T00:00:00.000Z"], [present, "2026-01-02T00:00:00.000Z"]] as const) {
        yield* releases.recordIntent(intent)
        yield* releases.finalize(intent.id, aReleaseFor(intent, { createdAt: new Date(createdAt) }))
      }
      yield* ObjectStorage.use((s) => s.put(present.objectKey, bytesStream(new Uint8Array(4096).fill(7)), { maxBytes: 4096 }))

      const retries = makeScanRetries(1000, 8000)
      const first = yield* scanUnscannedReleases({ limit: 1, deferred: retries.deferred(0) })
      assert.deepStrictEqual(first.scanned, [])
      assert.deepStrictEqual(first.failed.map(scanKey), [scanKey(missing)])
      assert.deepStrictEqual([...retries.record(first, 0)], [[scanKey(missing), 1000]])

      const second = yield* scanUnscannedReleases({ limit: 1, deferred: retries.deferred(500) })
      assert.deepStrictEqual(second.scanned.map(scanKey), [scanKey(present)])
      assert.isTrue(Option.isSome(yield* ScanStore.use((s) => s.get(game.id, "1.1.0"))))
      retries.record(second, 500)

      // Once its delay is over it is tried again; each failure doubles the delay, up to the maximum.
      assert.isFalse(retries.deferred(1000).has(scanKey(missing)))
      const delays: Array<number> = []
      for (let at = 1000; delays.length < 4; at += 10_000) {
        delays.push(retries.record(yield* scanUnscannedReleases({ limit: 1, deferred: retries.deferred(at) }), at).get(scanKey(missing))!)
      }
      assert.deepStrictEqual(delays, [2000, 4000, 8000, 8000])
    }).pipe(Effect.provide(layer)))
})
