import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Context, Effect, Layer, Option } from "effect"
import { expect, test } from "vitest"
import { layerManualClock } from "../../adapters/memory/MemoryClock.ts"
import { SignedUrls } from "../../adapters/signed-urls/SignedUrls.ts"
import { openDirect } from "../../adapters/storage-local/directWrite.ts"
import { layerLocalDiskStorage } from "../../adapters/storage-local/LocalDiskStorage.ts"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { sha256Hex, streamOf } from "../support/streams.ts"
import { objectStorageContract } from "../contract/ObjectStorage.contract.ts"

const root = mkdtempSync(join(tmpdir(), "pckgate-disk-"))

objectStorageContract(
  "local disk",
  () =>
    layerLocalDiskStorage(root).pipe(
      Layer.provide(SignedUrls.layer(new Uint8Array(32), () => "http://localhost")),
      Layer.provide(layerManualClock()),
    ),
  { largeObjectBytes: 512 * 2 ** 20 },
)

// Direct writes need a file system that does O_DIRECT: ext4 here does, and so does tmpfs on this kernel (Linux 6.6 and
// later); where one does not, the store writes through the page cache instead (a branch no file system here reaches).
test("local disk: direct writes on the temporary directory's file system and on tmpfs store the same bytes", async () => {
  const onDisk = await openDirect(join(root, "direct-probe"))
  expect(onDisk).not.toBeNull()
  await onDisk!.handle.close()
  rmSync(join(root, "direct-probe"))
  if (!existsSync("/dev/shm")) throw new Error("this test needs tmpfs at /dev/shm")
  const shm = mkdtempSync("/dev/shm/pckgate-disk-")
  try {
    const storage = await Effect.runPromise(
      Effect.scoped(Layer.build(layerLocalDiskStorage(shm).pipe(
        Layer.provide(SignedUrls.layer(new Uint8Array(32), () => "http://localhost")),
        Layer.provide(layerManualClock()),
      ))).pipe(Effect.map((context) => Context.get(context, ObjectStorage))),
    )
    const content = new Uint8Array(5 * 2 ** 20 + 3).fill(9)
    const k = "tmp/on-tmpfs.pck"
    await Effect.runPromise(storage.put(k, streamOf(content), { maxBytes: content.length, bypassCache: true }))
    expect(Option.getOrThrow(await Effect.runPromise(storage.digest(k)))).toEqual({ sha256: sha256Hex(content), sizeBytes: content.length })
  } finally {
    rmSync(shm, { recursive: true, force: true })
  }
})

// Runs after the contract above (tests in a file run in order): its refused and cut-off uploads left no partial files.
test("local disk: refused and interrupted uploads leave no files in incoming/", () => {
  expect(readdirSync(join(root, "incoming"))).toEqual([])
  expect(readdirSync(join(root, "objects", "releases")).length).toBeGreaterThan(0)
})
