// The reader and checks must run on Node and Deno and over any byte source: no runtime imports
// outside the three small files meant for them.
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../..", import.meta.url))
const filesUnder = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : name.endsWith(".ts") ? [path] : []
  })

/**
 * Files allowed to touch the runtime: decompressors, the file byte source, the layer that wires the decompressors, and
 * the reviewer listing's entry hasher (the pack readers take it as a parameter).
 */
const RUNTIME_FILES = [
  "adapters/scanner/nodeDecompressors.ts",
  "adapters/scanner/fileByteSource.ts",
  "adapters/scanner/layer.ts",
  "adapters/scanner/packFiles/nodeSha256.ts",
]

describe("scanner portability", () => {
  it("only nodeDecompressors.ts, fileByteSource.ts and packFiles/nodeSha256.ts import node: modules", () => {
    const offenders = filesUnder(join(root, "adapters/scanner"))
      .map((path) => relative(root, path))
      .filter((path) => !RUNTIME_FILES.includes(path))
      .filter((path) => /from\s+"node:|import\("node:|\bBuffer\b|process\./.test(readFileSync(join(root, path), "utf8")))
    expect(offenders).toEqual([])
  })

  it("the layer imports node only through nodeDecompressors.ts", () => {
    expect(readFileSync(join(root, "adapters/scanner/layer.ts"), "utf8")).not.toMatch(/from\s+"node:/)
  })

  it("domain/scan, domain/manifest and the port stay pure", () => {
    const files = [...filesUnder(join(root, "domain/scan")), ...filesUnder(join(root, "domain/manifest")), join(root, "ports/PackScanner.ts")]
    for (const path of files) expect(readFileSync(path, "utf8"), path).not.toMatch(/from\s+"node:|\bBuffer\b|Date\.now|Math\.random/)
  })
})
