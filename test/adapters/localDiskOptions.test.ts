import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Context, Effect, Layer, Option } from "effect"
import { afterAll, describe, expect, test } from "vitest"
import { layerManualClock } from "../../adapters/memory/MemoryClock.ts"
import { SignedUrls } from "../../adapters/signed-urls/SignedUrls.ts"
import { layerLocalDiskStorage, type LocalDiskOptions } from "../../adapters/storage-local/LocalDiskStorage.ts"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { sha256Hex } from "../support/streams.ts"

// The local store's speed options (docs/performance.md) and their failure paths: whatever they do, the bytes stored
// are the bytes sent, and nothing is left in incoming/.

const roots: Array<string> = []
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true })
})

const storageWith = async (options: LocalDiskOptions) => {
  const root = mkdtempSync(join(tmpdir(), "pckgate-disk-options-"))
  roots.push(root)
  const storage = await Effect.runPromise(
    Effect.scoped(Layer.build(layerLocalDiskStorage(root, options).pipe(
      Layer.provide(SignedUrls.layer(new Uint8Array(32), () => "http://localhost")),
      Layer.provide(layerManualClock()),
    ))).pipe(Effect.map((context) => Context.get(context, ObjectStorage))),
  )
  return { root, storage }
}

/** `mebibytes` MiB (and 7 bytes) derived from `seed`, a MiB per pull; the first pull waits for `firstPull()` if given. */
const body = (seed: number, mebibytes: number, firstPull?: () => Promise<void>) => {
  const chunk = (i: number) => new Uint8Array(2 ** 20).fill((seed * 31 + i) & 0xff)
  let sent = 0
  const all = new Uint8Array(mebibytes * 2 ** 20 + 7)
  for (let i = 0; i < mebibytes; i++) all.set(chunk(i), i * 2 ** 20)
  all.fill(seed & 0xff, mebibytes * 2 ** 20)
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent === 0 && firstPull !== undefined) await firstPull()
      if (sent < mebibytes) controller.enqueue(chunk(sent))
      else if (sent === mebibytes) controller.enqueue(all.subarray(mebibytes * 2 ** 20))
      else return controller.close()
      sent++
    },
  })
  return { stream, sha256: sha256Hex(all), size: all.length }
}

describe("local disk options", () => {
  test("more direct writes at once than the aligned buffers serve: every one is stored intact (the rest written the usual way)", async () => {
    const { root, storage } = await storageWith({ directWrites: true })
    const writers = 12
    // A writer reads its body only once it has its buffers (or found none): holding every first read until all the
    // writers are reading makes them all run at once.
    let reading = 0
    let allReading: () => void = () => undefined
    const gate = new Promise<void>((resolve) => (allReading = resolve))
    const arrive = () => {
      if (++reading === writers) allReading()
      return gate
    }
    const bodies = Array.from({ length: writers }, (_, i) => body(i + 1, 9, arrive))
    const puts = bodies.map((b, i) => Effect.runPromise(storage.put(`tmp/direct-${i}`, b.stream, { maxBytes: b.size, bypassCache: true })))
    await Promise.all(puts)
    for (const [i, b] of bodies.entries()) {
      expect(Option.getOrThrow(await Effect.runPromise(storage.digest(`tmp/direct-${i}`)))).toEqual({ sha256: b.sha256, sizeBytes: b.size })
    }
    expect(readdirSync(join(root, "incoming"))).toEqual([])
  })

  test("a runtime whose gc refuses the forced minor collection does not fail the write", async () => {
    const runtime = globalThis as { gc?: unknown }
    const previous = runtime.gc
    runtime.gc = () => {
      throw new Error("no collection here")
    }
    try {
      for (const directWrites of [true, false]) {
        const { root, storage } = await storageWith({ directWrites, collectGarbageAfterWrites: true })
        const b = body(7, 9)
        await Effect.runPromise(storage.put("tmp/gc", b.stream, { maxBytes: b.size, bypassCache: true }))
        expect(Option.getOrThrow(await Effect.runPromise(storage.digest("tmp/gc")))).toEqual({ sha256: b.sha256, sizeBytes: b.size })
        expect(readdirSync(join(root, "incoming"))).toEqual([])
      }
    } finally {
      runtime.gc = previous
    }
  })
})
