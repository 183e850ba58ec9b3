import { mkdtempSync, readdirSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Layer } from "effect"
import { expect, test } from "vitest"
import { layerManualClock } from "../../adapters/memory/MemoryClock.ts"
import { SignedUrls } from "../../adapters/signed-urls/SignedUrls.ts"
import { layerLocalDiskStorage } from "../../adapters/storage-local/LocalDiskStorage.ts"
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

// Runs after the contract above (tests in a file run in order): its refused and cut-off uploads left no partial files.
test("local disk: refused and interrupted uploads leave no files in incoming/", () => {
  expect(readdirSync(join(root, "incoming"))).toEqual([])
  expect(readdirSync(join(root, "objects", "releases")).length).toBeGreaterThan(0)
})
