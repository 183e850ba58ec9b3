import { assert, layer } from "@effect/vitest"
import { Effect, Exit, type Layer, Option } from "effect"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { unique } from "../support/fixtures.ts"
import { brokenStreamOf, bytes, generatedStream, readAll, sha256Hex, streamOf } from "../support/streams.ts"

export interface ObjectStorageContractOptions {
  /** Stores that keep objects out of process memory must stream a large object with bounded memory. */
  readonly largeObjectBytes?: number
}

const key = () => `releases/${unique("gm_")}/1.0.0/${"c".repeat(64)}.pck`

export const objectStorageContract = (
  name: string,
  makeLayer: () => Layer.Layer<ObjectStorage, unknown>,
  options: ObjectStorageContractOptions = {},
) =>
  layer(makeLayer(), { timeout: 300_000 })(`ObjectStorage contract: ${name}`, (it) => {
    it.effect("put, head, digest, read, ranged read, list and delete", () =>
      Effect.gen(function*() {
        const storage = yield* ObjectStorage
        const k = key()
        const content = bytes("0123456789".repeat(500))
        const stored = yield* storage.put(k, streamOf(content.subarray(0, 1000), content.subarray(1000)), { maxBytes: content.length })
        assert.strictEqual(stored.sizeBytes, content.length)
        assert.strictEqual(Option.getOrThrow(yield* storage.head(k)).sizeBytes, content.length)
        assert.deepStrictEqual(Option.getOrThrow(yield* storage.digest(k)), { sha256: sha256Hex(content), sizeBytes: content.length })
        assert.deepStrictEqual(yield* Effect.promise(async () => readAll(await Effect.runPromise(storage.read(k)))), content)
        assert.deepStrictEqual(yield* storage.readRange(k, 4995, 10), content.subarray(4995), "a range past the end is cut short")
        assert.deepStrictEqual(yield* storage.readRange(k, 12, 5), content.subarray(12, 17))
        assert.include((yield* storage.list(k.slice(0, 20))).map((o) => o.key), k)
        yield* storage.delete(k)
        assert.isTrue(Option.isNone(yield* storage.head(k)))
        assert.isTrue(Option.isNone(yield* storage.digest(k)))
        yield* storage.delete(k) // deleting a missing object is not an error
        assert.strictEqual((yield* Effect.flip(storage.readRange(k, 0, 1)))._tag, "ObjectNotFound")
        assert.strictEqual((yield* Effect.flip(storage.read(k)))._tag, "ObjectNotFound")
      }))

    it.effect("keys are write-once: a second put fails with ObjectExists and the first bytes stay", () =>
      Effect.gen(function*() {
        const storage = yield* ObjectStorage
        const k = key()
        yield* storage.put(k, streamOf(bytes("first")), { maxBytes: 100 })
        const error = yield* Effect.flip(storage.put(k, streamOf(bytes("second")), { maxBytes: 100 }))
        assert.strictEqual(error._tag, "ObjectExists")
        assert.deepStrictEqual(yield* storage.readRange(k, 0, 100), bytes("first"))
      }))

    it.effect("concurrent puts to one key: exactly one wins", () =>
      Effect.gen(function*() {
        const storage = yield* ObjectStorage
        const k = key()
        const exits = yield* Effect.all(
          Array.from({ length: 8 }, (_, i) => Effect.exit(storage.put(k, streamOf(bytes(`writer ${i}`)), { maxBytes: 100 }))),
          { concurrency: "unbounded" },
        )
        assert.strictEqual(exits.filter(Exit.isSuccess).length, 1)
      }))

    it.effect("a body over the limit fails with ObjectTooLarge and leaves nothing", () =>
      Effect.gen(function*() {
        const storage = yield* ObjectStorage
        const k = key()
        const error = yield* Effect.flip(storage.put(k, streamOf(new Uint8Array(60), new Uint8Array(60)), { maxBytes: 100 }))
        assert.strictEqual(error._tag, "ObjectTooLarge")
        assert.isTrue(Option.isNone(yield* storage.head(k)))
        yield* storage.put(k, streamOf(new Uint8Array(100)), { maxBytes: 100 }) // exactly the limit is fine, and the key is still free
      }))

    it.effect("an upload cut off midway leaves nothing at the key", () =>
      Effect.gen(function*() {
        const storage = yield* ObjectStorage
        const k = key()
        const error = yield* Effect.flip(storage.put(k, brokenStreamOf(new Uint8Array(1000), new Uint8Array(1000)), { maxBytes: 1 << 20 }))
        assert.strictEqual(error._tag, "UploadAborted")
        assert.isTrue(Option.isNone(yield* storage.head(k)))
        assert.notInclude((yield* storage.list("releases/")).map((o) => o.key), k)
      }))

    it.effect("a put that may bypass the cache stores the same bytes, at sizes around 4 KiB and 4 MiB boundaries", () =>
      Effect.gen(function*() {
        const storage = yield* ObjectStorage
        const MiB = 2 ** 20
        const source = new Uint8Array(8 * MiB + 8192).map((_, i) => (i * 2654435761) >>> 24)
        const pieces = (data: Uint8Array) => Array.from({ length: Math.ceil(data.length / 65_000) }, (_, i) => data.subarray(i * 65_000, (i + 1) * 65_000))
        for (const size of [0, 1, 4095, 4096, 4097, 4 * MiB - 1, 4 * MiB, 4 * MiB + 4097, 8 * MiB + 8192]) {
          const k = key()
          const content = source.subarray(0, size)
          assert.strictEqual((yield* storage.put(k, streamOf(...pieces(content)), { maxBytes: size, bypassCache: true })).sizeBytes, size)
          assert.deepStrictEqual(Option.getOrThrow(yield* storage.digest(k)), { sha256: sha256Hex(content), sizeBytes: size })
          yield* storage.delete(k)
        }
        const k = key()
        const tooLarge = yield* Effect.flip(storage.put(k, streamOf(...pieces(source.subarray(0, 5 * MiB))), { maxBytes: 5 * MiB - 1, bypassCache: true }))
        assert.strictEqual(tooLarge._tag, "ObjectTooLarge")
        const cut = yield* Effect.flip(storage.put(k, brokenStreamOf(...pieces(source.subarray(0, 5 * MiB))), { maxBytes: 8 * MiB, bypassCache: true }))
        assert.strictEqual(cut._tag, "UploadAborted")
        assert.isTrue(Option.isNone(yield* storage.head(k)))
      }))

    it.effect("move puts the object at an empty key and refuses an occupied one", () =>
      Effect.gen(function*() {
        const storage = yield* ObjectStorage
        const from = `tmp/${unique("up")}`
        const to = key()
        yield* storage.put(from, streamOf(bytes("payload")), { maxBytes: 100 })
        yield* storage.move(from, to)
        assert.isTrue(Option.isNone(yield* storage.head(from)))
        assert.deepStrictEqual(yield* storage.readRange(to, 0, 100), bytes("payload"))
        const other = `tmp/${unique("up")}`
        yield* storage.put(other, streamOf(bytes("other")), { maxBytes: 100 })
        assert.strictEqual((yield* Effect.flip(storage.move(other, to)))._tag, "ObjectExists")
        assert.deepStrictEqual(yield* storage.readRange(to, 0, 100), bytes("payload"))
        assert.strictEqual((yield* Effect.flip(storage.move(`tmp/${unique("none")}`, key())))._tag, "ObjectNotFound")
      }))

    it.effect("presigned URLs name the key, expire when asked, and PUT URLs come with exactly two headers", () =>
      Effect.gen(function*() {
        const storage = yield* ObjectStorage
        const k = key()
        const now = new Date()
        const put = yield* storage.presignPut(k, { sizeBytes: 4096, now, expiresInSeconds: 3600 })
        assert.include(decodeURIComponent(new URL(put.url).pathname), k)
        assert.strictEqual(Object.keys(put.headers).length, 2)
        assert.strictEqual(put.headers["content-type"], "application/octet-stream")
        for (const name of Object.keys(put.headers)) assert.strictEqual(name, name.toLowerCase())
        assert.strictEqual(put.expiresAt.getTime(), now.getTime() + 3600_000)
        const get = yield* storage.presignGet(k, { now, expiresInSeconds: 300 })
        assert.include(decodeURIComponent(new URL(get.url).pathname), k)
        assert.strictEqual(get.expiresAt.getTime(), now.getTime() + 300_000)
      }))

    const large = options.largeObjectBytes
    if (large !== undefined) {
      it.effect(`streams a ${Math.round(large / 2 ** 20)} MiB object in and out with bounded memory`, () =>
        Effect.gen(function*() {
          const storage = yield* ObjectStorage
          const k = key()
          globalThis.gc?.()
          const before = process.memoryUsage().rss
          const source = generatedStream(large)
          yield* storage.put(k, source.stream, { maxBytes: large })
          const digest = Option.getOrThrow(yield* storage.digest(k))
          assert.deepStrictEqual(digest, { sha256: source.sha256(), sizeBytes: large })
          const grownMiB = (process.memoryUsage().rss - before) / 2 ** 20
          assert.isBelow(grownMiB, Math.min(100, large / 2 ** 20 / 2), `RSS grew ${grownMiB.toFixed(0)} MiB while streaming`)
          yield* storage.delete(k)
        }))
    }
  })
