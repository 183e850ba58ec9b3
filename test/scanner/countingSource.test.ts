// The summary's `bytesRead` counts each byte of the pack once, however often the scanner reads it: a red
// team's repacked pack (16 entries, 4840 bytes) was reported as "read 7850 of 4840 bytes" when ranges read
// again after they left the recent-reads cache were counted twice.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { CountingSource, ReadRanges } from "../../adapters/scanner/io/CountingSource.ts"

const sourceOf = (size: number): { readonly source: { readonly size: number; read(offset: number, length: number): Promise<Uint8Array> }; readonly fetched: () => number } => {
  let fetched = 0
  return {
    source: {
      size,
      read: async (offset, length) => {
        fetched += length
        return Uint8Array.from({ length }, (_, i) => (offset + i) & 0xff)
      },
    },
    fetched: () => fetched,
  }
}

describe("CountingSource.bytesRead", () => {
  it("counts a range read again, after the recent-reads cache dropped it, once", async () => {
    const { source, fetched } = sourceOf(4096)
    const counting = new CountingSource(source)
    await counting.read(0, 100)
    // Twelve other ranges push the first out of the cache (it keeps eight).
    for (let i = 1; i <= 12; i++) await counting.read(i * 200, 50)
    await counting.read(0, 100)
    await counting.read(50, 100)
    // The storage was asked for the first range twice, and for part of the last one again.
    expect(fetched()).toBeGreaterThan(100 + 12 * 50 + 100)
    expect(counting.bytesRead).toBe(150 + 12 * 50)
  })

  it("never exceeds the file's size and equals the bytes any read covered", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2000 }), fc.array(fc.tuple(fc.integer({ min: -10, max: 2100 }), fc.integer({ min: 0, max: 400 })), { maxLength: 40 }), async (size, reads) => {
        const counting = new CountingSource(sourceOf(size).source)
        const covered = new Set<number>()
        for (const [offset, length] of reads) {
          const got = await counting.read(offset, length)
          if (offset >= 0) for (let i = 0; i < got.length; i++) covered.add(offset + i)
        }
        expect(counting.bytesRead).toBe(covered.size)
        expect(counting.bytesRead).toBeLessThanOrEqual(size)
      }),
    )
  })
})

describe("ReadRanges", () => {
  it("merges ranges that touch or overlap, in any order", () => {
    const ranges = new ReadRanges()
    ranges.add(100, 200)
    ranges.add(0, 10)
    ranges.add(300, 310)
    expect(ranges.total).toBe(120)
    ranges.add(5, 305)
    expect(ranges.total).toBe(310)
    ranges.add(200, 200)
    ranges.add(0, 310)
    expect(ranges.total).toBe(310)
  })
})
