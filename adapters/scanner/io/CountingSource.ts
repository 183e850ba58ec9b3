import type { ByteSource } from "../../../ports/PackScanner.ts"
import { SourceFailure } from "./errors.ts"
import type { RandomAccess } from "./RandomAccess.ts"

/** Recent reads kept to answer overlapping re-reads (header then directory, directory then small entries). */
const CACHED_READS = 8
const CACHEABLE_BYTES = 1024 * 1024

/**
 * The scanner's only door to the caller's bytes: it clamps reads to the file, counts what was
 * read (the summary's `bytesRead`), answers re-reads of recent ranges from memory (a ranged GCS
 * read is a request each) and marks storage failures so they surface as `Unavailable`.
 */
export class CountingSource implements RandomAccess {
  readonly size: number
  #bytesRead = 0
  readonly #source: ByteSource
  readonly #recent: Array<{ readonly offset: number; readonly bytes: Uint8Array }> = []

  constructor(source: ByteSource) {
    this.#source = source
    this.size = Number.isSafeInteger(source.size) && source.size > 0 ? source.size : 0
  }

  get bytesRead(): number {
    return this.#bytesRead
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
    this.#bytesRead += got.length
    return got
  }
}

const join = (a: Uint8Array, b: Uint8Array): Uint8Array => {
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}
