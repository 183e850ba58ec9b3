import type { ByteSource } from "../../../ports/PackScanner.ts"
import { SourceFailure } from "./errors.ts"
import type { RandomAccess } from "./RandomAccess.ts"

/** Recent reads kept to answer overlapping re-reads (header then directory, directory then small entries). */
const CACHED_READS = 8
const CACHEABLE_BYTES = 1024 * 1024

/**
 * The scanner's only door to the caller's bytes: it clamps reads to the file, counts the distinct
 * bytes read (the summary's `bytesRead`: a range read again counts once, so it never exceeds the
 * file's size), answers re-reads of recent ranges from memory (a ranged GCS
 * read is a request each) and marks storage failures so they surface as `Unavailable`.
 */
export class CountingSource implements RandomAccess {
  readonly size: number
  readonly #read = new ReadRanges()
  readonly #source: ByteSource
  readonly #recent: Array<{ readonly offset: number; readonly bytes: Uint8Array }> = []

  constructor(source: ByteSource) {
    this.#source = source
    this.size = Number.isSafeInteger(source.size) && source.size > 0 ? source.size : 0
  }

  get bytesRead(): number {
    return this.#read.total
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    const want = Math.max(0, Math.min(length, this.size - offset))
    if (want === 0 || offset < 0) return new Uint8Array(0)
    const end = offset + want
    const hit = this.#recent.find((r) => r.offset <= offset && offset < r.offset + r.bytes.length)
    if (hit !== undefined && end <= hit.offset + hit.bytes.length) return hit.bytes.subarray(offset - hit.offset, end - hit.offset)
    // Only fetch what the recent reads do not already hold.
    const cachedPrefix = hit === undefined ? new Uint8Array(0) : hit.bytes.subarray(offset - hit.offset)
    const fresh = await this.#fetch(offset + cachedPrefix.length, want - cachedPrefix.length)
    const got = cachedPrefix.length === 0 ? fresh : join(cachedPrefix, fresh)
    if (got.length <= CACHEABLE_BYTES) {
      this.#recent.push({ offset, bytes: got })
      if (this.#recent.length > CACHED_READS) this.#recent.shift()
    }
    return got
  }

  async #fetch(offset: number, want: number): Promise<Uint8Array> {
    let bytes: Uint8Array
    try {
      bytes = await this.#source.read(offset, want)
    } catch (error) {
      throw new SourceFailure(`reading ${want} bytes at offset ${offset} failed`, error)
    }
    const got = bytes.length > want ? bytes.subarray(0, want) : bytes
    this.#read.add(offset, offset + got.length)
    return got
  }
}

const join = (a: Uint8Array, b: Uint8Array): Uint8Array => {
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}

/** Byte ranges read so far, sorted and merged (`[starts[i], ends[i])`), and how many bytes they cover. */
export class ReadRanges {
  readonly #starts: Array<number> = []
  readonly #ends: Array<number> = []
  #total = 0

  get total(): number {
    return this.#total
  }

  add(start: number, end: number): void {
    if (end <= start) return
    // The first range that ends at or after `start`: it and those after it that start by `end` merge with the new one.
    let lo = 0
    let hi = this.#ends.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if ((this.#ends[mid] as number) < start) lo = mid + 1
      else hi = mid
    }
    let merged = { start, end }
    let covered = 0
    let last = lo
    for (; last < this.#starts.length && (this.#starts[last] as number) <= end; last++) {
      const s = this.#starts[last] as number
      const e = this.#ends[last] as number
      covered += e - s
      merged = { start: Math.min(merged.start, s), end: Math.max(merged.end, e) }
    }
    this.#starts.splice(lo, last - lo, merged.start)
    this.#ends.splice(lo, last - lo, merged.end)
    this.#total += merged.end - merged.start - covered
  }
}
