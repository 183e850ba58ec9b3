import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
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

/** The local disk store at `dir`, built outside a layer, for tests that want their own root. */
const diskStorageAt = (dir: string) =>
  Effect.runPromise(
    Effect.scoped(Layer.build(layerLocalDiskStorage(dir).pipe(
      Layer.provide(SignedUrls.layer(new Uint8Array(32), () => "http://localhost")),
      Layer.provide(layerManualClock()),
    ))).pipe(Effect.map((context) => Context.get(context, ObjectStorage))),
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
    const storage = await diskStorageAt(shm)
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

// A move is link(), fsync, then unlink() of the source: a crash between them leaves the object at both keys.
test("local disk: a move retried after a crash left it half done completes; a different object at the destination still refuses it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "pckgate-move-"))
  try {
    const storage = await diskStorageAt(dir)
    const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(Effect.result(effect))
    const path = (key: string) => join(dir, "objects", ...key.split("/"))
    const put = (key: string, bytes: Uint8Array) => run(storage.put(key, streamOf(bytes), { maxBytes: bytes.length }))
    const content = new Uint8Array(70_000).fill(7)
    const digest = { sha256: sha256Hex(content), sizeBytes: content.length }

    // Half done: linked to the destination (the same file), the source not yet unlinked.
    await put("releases/a.pck", content)
    mkdirSync(dirname(path("quarantine/a.pck")), { recursive: true })
    linkSync(path("releases/a.pck"), path("quarantine/a.pck"))
    expect((await run(storage.move("releases/a.pck", "quarantine/a.pck")))._tag).toBe("Success")
    expect(existsSync(path("releases/a.pck"))).toBe(false)
    expect(Option.getOrThrow(await Effect.runPromise(storage.digest("quarantine/a.pck")))).toEqual(digest)

    // The same bytes in another file at the destination (a copying store's half-done move) complete it too.
    await put("releases/b.pck", content)
    await put("quarantine/b.pck", content)
    expect((await run(storage.move("releases/b.pck", "quarantine/b.pck")))._tag).toBe("Success")
    expect(existsSync(path("releases/b.pck"))).toBe(false)
    expect(Option.getOrThrow(await Effect.runPromise(storage.digest("quarantine/b.pck")))).toEqual(digest)

    // Other bytes at the destination: refused, both objects kept as they were.
    const other = new Uint8Array(70_000).fill(8)
    await put("releases/c.pck", content)
    await put("quarantine/c.pck", other)
    const refused = await run(storage.move("releases/c.pck", "quarantine/c.pck"))
    expect(refused._tag === "Failure" && refused.failure._tag).toBe("ObjectExists")
    expect(Option.getOrThrow(await Effect.runPromise(storage.digest("releases/c.pck")))).toEqual(digest)
    expect(Option.getOrThrow(await Effect.runPromise(storage.digest("quarantine/c.pck"))).sha256).toBe(sha256Hex(other))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
