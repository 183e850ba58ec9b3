import { mkdtempSync } from "node:fs"
import { join } from "node:path"
import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { inject } from "vitest"
import { layerManualClock, ManualClock } from "../../adapters/memory/MemoryClock.ts"
import { layerMemoryRecords } from "../../adapters/memory/MemoryRecords.ts"
import { layerMemoryObjectStorage } from "../../adapters/memory/MemoryObjectStorage.ts"
import { SignedUrls } from "../../adapters/signed-urls/SignedUrls.ts"
import { layerSqlRecords } from "../../adapters/sql/index.ts"
import { sweep } from "../../domain/maintenance/Sweep.ts"
import { tempObjectKey } from "../../domain/release/ObjectKey.ts"
import type { UploadIntent } from "../../domain/release/Release.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { freshDatabase } from "../setup/mariadb.ts"
import { aGame, anIntent, aReleaseFor } from "../support/fixtures.ts"
import { bytes, streamOf } from "../support/streams.ts"

const T0 = new Date("2026-07-01T00:00:00.000Z")
const HOUR = 3600
const sha = (n: number) => n.toString(16).padStart(64, "0")

const sweepCase = (name: string, records: () => Layer.Layer<GameStore | ReleaseStore, unknown>) => {
  const storage = layerMemoryObjectStorage.pipe(Layer.provide(SignedUrls.layer(new Uint8Array(32), () => "http://localhost")))
  layer(Layer.mergeAll(records(), storage).pipe(Layer.provideMerge(layerManualClock(new Date(T0.getTime() - 2 * HOUR * 1000)))), { timeout: 60_000 })(
    `sweep: ${name}`,
    (it) => {
      it.effect("deletes expired intents and unreferenced objects past the grace period; never a referenced or recent one", () =>
        Effect.gen(function*() {
          const clock = yield* ManualClock
          const store = yield* ReleaseStore
          const objects = yield* ObjectStorage
          const game = aGame()
          yield* (yield* GameStore).insert(game, "system")
          const put = (key: string) => objects.put(key, streamOf(bytes(`bytes of ${key}`)), { maxBytes: 1000 })
          const intent = (n: number, expiresAt: Date): UploadIntent => anIntent(game.id, { version: `1.0.${n}`, sha256: sha(n), expiresAt })
          const keys = () => Effect.map(Effect.all([objects.list("releases/"), objects.list("tmp/")]), ([r, t]) => [...r, ...t].map((o) => o.key).sort())

          // Two hours before the sweep: a released artifact, an upload with a live intent, one whose intent expired,
          // an object no intent ever named, and an abandoned temp file.
          const released = intent(1, new Date(T0.getTime() + 24 * HOUR * 1000))
          const live = intent(2, new Date(T0.getTime() + 24 * HOUR * 1000))
          const expired = intent(3, new Date(T0.getTime() - 1000))
          for (const i of [released, live, expired]) {
            yield* store.recordIntent(i)
            yield* put(i.objectKey)
          }
          yield* store.finalize(released.id, aReleaseFor(released))
          const stray = `releases/${game.id}/9.9.9/${sha(9)}.pck`
          const abandoned = tempObjectKey("abandoned-upload")
          yield* put(stray)
          yield* put(abandoned)
          // A minute before: an upload still landing and a temp file a scan is reading.
          clock.set(new Date(T0.getTime() - 60_000))
          const landing = `releases/${game.id}/9.9.8/${sha(8)}.pck`
          const scanning = tempObjectKey("scan-in-progress")
          yield* put(landing)
          yield* put(scanning)

          clock.set(T0)
          const first = yield* sweep(HOUR)
          assert.strictEqual(first.expiredIntents, 1)
          assert.deepStrictEqual([...first.deletedObjects].sort(), [expired.objectKey, stray, abandoned].sort())
          assert.deepStrictEqual(yield* keys(), [released.objectKey, live.objectKey, landing, scanning].sort())
          assert.isTrue(Option.isNone(yield* store.findIntent(expired, new Date(T0.getTime() - 2 * HOUR * 1000))), "the expired intent is gone")
          assert.deepStrictEqual((yield* sweep(HOUR)).deletedObjects, [], "a second sweep finds nothing more")

          // Past the grace period the recent orphans go too; the live intent's upload and the release stay.
          clock.advance(2 * HOUR)
          assert.deepStrictEqual([...(yield* sweep(HOUR)).deletedObjects].sort(), [landing, scanning].sort())
          // Past the intent's 24 hours its never-finalized upload goes as well; the released artifact never does.
          clock.advance(24 * HOUR)
          const last = yield* sweep(HOUR)
          assert.deepStrictEqual([last.expiredIntents, last.deletedObjects], [1, [live.objectKey]])
          assert.deepStrictEqual(yield* keys(), [released.objectKey])
          assert.isTrue(Option.isSome(yield* store.get(game.id, released.version)))
        }))
    },
  )
}

const dir = mkdtempSync(join(inject("runDir"), "sweep-"))
const mariadbUrl = await freshDatabase(inject("mariadbUrl"), "sweep")
sweepCase("memory records", () => layerMemoryRecords)
sweepCase("SQLite records", () => layerSqlRecords({ target: { kind: "sqlite", path: join(dir, "sweep.sqlite") } }))
sweepCase("MariaDB records", () => layerSqlRecords({ target: { kind: "mysql", url: mariadbUrl } }))
