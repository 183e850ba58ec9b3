// The file ByteSource serves small reads from aligned blocks it read once (docs/performance.md, "Small reads of a
// pack file in blocks"): whatever the reads, one at a time or at once, its answers are the file's bytes at those
// places, never a block's bytes elsewhere, and a caller changing an answer changes no later one.
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import fc from "fast-check"
import { afterAll, describe, expect, it } from "vitest"
import { openFileByteSource } from "../../adapters/scanner/fileByteSource.ts"

const dir = mkdtempSync(join(tmpdir(), "file-byte-source-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

let files = 0
const fileOf = (bytes: Uint8Array): string => {
  const path = join(dir, `f${files++}`)
  writeFileSync(path, bytes)
  return path
}

/** What a read of `length` at `offset` must answer: the file's bytes there, fewer at its end. */
const expected = (bytes: Uint8Array, offset: number, length: number): Uint8Array => bytes.subarray(Math.min(offset, bytes.length), Math.min(bytes.length, offset + length))

const reads = (size: number) => fc.array(fc.tuple(fc.nat({ max: size + 40 }), fc.nat({ max: 300 })), { minLength: 1, maxLength: 40 })

describe("file ByteSource, small reads from blocks", () => {
  it("answers every read with the file's bytes at that place, for any block size and number of blocks kept", async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: 1200 }), fc.integer({ min: 0, max: 130 }), fc.integer({ min: 1, max: 4 }), fc.boolean(), fc.gen(), async (size, blockBytes, keptBlocks, atOnce, gen) => {
        const bytes = new Uint8Array(randomBytes(size))
        const asked = gen(reads, size)
        const source = await openFileByteSource(fileOf(bytes), { blockBytes, keptBlocks })
        try {
          const answers = atOnce ? await Promise.all(asked.map(([o, l]) => source.read(o, l))) : await asked.reduce(async (done, [o, l]) => [...(await done), await source.read(o, l)], Promise.resolve([] as Array<Uint8Array>))
          for (const [i, [offset, length]] of asked.entries()) expect(answers[i], `read(${offset}, ${length})`).toEqual(expected(bytes, offset, length))
        } finally {
          await source.close()
        }
      }),
      { numRuns: 150 },
    )
  })

  it("reads each block once while it is kept, and exactly what is asked with blocks off", async () => {
    const bytes = new Uint8Array(randomBytes(10_000))
    const blocks = await openFileByteSource(fileOf(bytes), { blockBytes: 1024, keptBlocks: 4 })
    for (let offset = 0; offset < 1024; offset += 100) await blocks.read(offset, 20)
    await blocks.read(1020, 10) // crosses into the second block
    expect(blocks.bytesFromFile).toBe(2048)
    await blocks.read(9990, 50) // the last block is short: 10,000 - 9 * 1024 bytes
    expect(blocks.bytesFromFile).toBe(2048 + (10_000 - 9 * 1024))
    await blocks.read(3000, 4096) // a block or more goes to the file as asked
    expect(blocks.bytesFromFile).toBe(2048 + (10_000 - 9 * 1024) + 4096)
    await blocks.close()

    const exact = await openFileByteSource(fileOf(bytes), { blockBytes: 0 })
    for (let offset = 0; offset < 1024; offset += 100) await exact.read(offset, 20)
    expect(exact.bytesFromFile).toBe(11 * 20)
    await exact.close()
  })

  it("drops the least recently used block beyond those kept, and reads it again when asked", async () => {
    const bytes = new Uint8Array(randomBytes(8192))
    const source = await openFileByteSource(fileOf(bytes), { blockBytes: 1024, keptBlocks: 2 })
    await source.read(0, 8)
    await source.read(1024, 8)
    await source.read(0, 8) // block 0 used last: block 1 goes first
    await source.read(2048, 8)
    expect(source.bytesFromFile).toBe(3 * 1024)
    await source.read(0, 8)
    expect(source.bytesFromFile).toBe(3 * 1024)
    await source.read(1024, 8)
    expect(source.bytesFromFile).toBe(4 * 1024)
    await source.close()
  })

  it("hands out copies: changing an answer changes no later read", async () => {
    const bytes = new Uint8Array(randomBytes(4096))
    const source = await openFileByteSource(fileOf(bytes), { blockBytes: 1024 })
    const first = await source.read(10, 100)
    first.fill(0)
    expect(await source.read(10, 100)).toEqual(bytes.subarray(10, 110))
    const crossing = await source.read(1000, 100)
    crossing.fill(0)
    expect(await source.read(1000, 100)).toEqual(bytes.subarray(1000, 1100))
    await source.close()
  })

  it("rejects a read after close that needs the file (the scanner reports it as the source's failure)", async () => {
    const bytes = new Uint8Array(randomBytes(4096))
    const source = await openFileByteSource(fileOf(bytes), { blockBytes: 1024 })
    await source.read(0, 10)
    await source.close()
    await expect(source.read(2048, 10)).rejects.toThrow()
    await expect(source.read(3000, 2000)).rejects.toThrow()
  })
})
