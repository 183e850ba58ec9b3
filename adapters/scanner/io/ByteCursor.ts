import { MalformedData } from "./errors.ts"
import type { RandomAccess } from "./RandomAccess.ts"

/** No single field (string, array, script) the scanner reads may be larger than this. */
export const MAX_FIELD_BYTES = 16 * 1024 * 1024

/**
 * Sequential reader with read-ahead over a RandomAccess. Every read is bounds-checked against the
 * source size before anything is allocated, so a hostile length fails fast as MalformedData.
 */
export class ByteCursor {
  readonly #src: RandomAccess
  readonly #maxChunk: number
  #chunk: number
  #buf: Uint8Array = new Uint8Array(0)
  #view: DataView = new DataView(this.#buf.buffer)
  #bufStart = 0
  #pos: number
  littleEndian = true

  /** Read-ahead starts at `chunk` bytes and doubles per refill up to `maxChunk`: small structures cost little, long ones few reads. */
  constructor(src: RandomAccess, start = 0, chunk = 4096, maxChunk = 256 * 1024) {
    this.#src = src
    this.#pos = start
    this.#chunk = chunk
    this.#maxChunk = Math.max(chunk, maxChunk)
  }

  get position(): number {
    return this.#pos
  }

  get size(): number {
    return this.#src.size
  }

  get remaining(): number {
    return this.#src.size - this.#pos
  }

  seek(position: number): void {
    if (!(position >= 0 && position <= this.#src.size)) {
      throw new MalformedData(`offset ${position} lies outside ${this.#src.size} bytes`)
    }
    this.#pos = position
  }

  skip(count: number): void {
    this.seek(this.#pos + count)
  }

  async #need(count: number): Promise<number> {
    if (count > MAX_FIELD_BYTES) throw new MalformedData(`a field of ${count} bytes exceeds the ${MAX_FIELD_BYTES}-byte limit`)
    if (this.#pos + count > this.#src.size) {
      throw new MalformedData(`needs ${count} bytes at offset ${this.#pos} but only ${this.remaining} remain`)
    }
    const offset = this.#pos - this.#bufStart
    if (offset >= 0 && offset + count <= this.#buf.length) return offset
    const want = Math.min(Math.max(count, this.#chunk), this.#src.size - this.#pos)
    this.#chunk = Math.min(this.#chunk * 2, this.#maxChunk)
    const bytes = await this.#src.read(this.#pos, want)
    if (bytes.length < count) throw new MalformedData(`expected ${count} bytes at offset ${this.#pos}, got ${bytes.length}`)
    this.#buf = bytes
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    this.#bufStart = this.#pos
    return 0
  }

  async bytes(count: number): Promise<Uint8Array> {
    const at = await this.#need(count)
    this.#pos += count
    return this.#buf.subarray(at, at + count)
  }

  async u8(): Promise<number> {
    const at = await this.#need(1)
    this.#pos += 1
    return this.#view.getUint8(at)
  }

  async u16(): Promise<number> {
    const at = await this.#need(2)
    this.#pos += 2
    return this.#view.getUint16(at, this.littleEndian)
  }

  async u32(): Promise<number> {
    const at = await this.#need(4)
    this.#pos += 4
    return this.#view.getUint32(at, this.littleEndian)
  }

  /** Values above 2^53 lose precision but stay larger than any real file offset, which is all callers compare. */
  async u64(): Promise<number> {
    const at = await this.#need(8)
    this.#pos += 8
    const a = this.#view.getUint32(at, this.littleEndian)
    const b = this.#view.getUint32(at + 4, this.littleEndian)
    return this.littleEndian ? b * 2 ** 32 + a : a * 2 ** 32 + b
  }

  /** A u64 exactly (resource ids). */
  async u64Exact(): Promise<bigint> {
    const at = await this.#need(8)
    this.#pos += 8
    return this.#view.getBigUint64(at, this.littleEndian)
  }
}

const utf8 = new TextDecoder("utf-8")

/** UTF-8 with U+FFFD for invalid sequences: a hostile name must still become a printable string. */
export const decodeUtf8 = (bytes: Uint8Array): string => utf8.decode(bytes)

/** Strict UTF-8: null when the bytes are not valid UTF-8. */
export const decodeUtf8Strict = (bytes: Uint8Array): string | null => {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes)
  } catch {
    return null
  }
}
