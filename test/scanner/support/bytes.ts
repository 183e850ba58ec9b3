// Little-endian byte building for the test writers.

export class ByteBuilder {
  #chunks: Array<Uint8Array> = []
  #length = 0

  get length(): number {
    return this.#length
  }

  bytes(data: Uint8Array | ReadonlyArray<number>): this {
    const b = data instanceof Uint8Array ? data : Uint8Array.from(data)
    this.#chunks.push(b)
    this.#length += b.length
    return this
  }

  u8(v: number): this {
    return this.bytes([v & 0xff])
  }

  u16(v: number): this {
    const b = new Uint8Array(2)
    new DataView(b.buffer).setUint16(0, v, true)
    return this.bytes(b)
  }

  u32(v: number): this {
    const b = new Uint8Array(4)
    new DataView(b.buffer).setUint32(0, v >>> 0, true)
    return this.bytes(b)
  }

  i32(v: number): this {
    const b = new Uint8Array(4)
    new DataView(b.buffer).setInt32(0, v, true)
    return this.bytes(b)
  }

  u64(v: number): this {
    const b = new Uint8Array(8)
    const view = new DataView(b.buffer)
    view.setUint32(0, v % 2 ** 32, true)
    view.setUint32(4, Math.floor(v / 2 ** 32), true)
    return this.bytes(b)
  }

  ascii(s: string): this {
    return this.bytes(new TextEncoder().encode(s))
  }

  zeros(n: number): this {
    return this.bytes(new Uint8Array(n))
  }

  padTo(multiple: number): this {
    const extra = (multiple - (this.#length % multiple)) % multiple
    return this.zeros(extra)
  }

  build(): Uint8Array {
    const out = new Uint8Array(this.#length)
    let at = 0
    for (const c of this.#chunks) {
      out.set(c, at)
      at += c.length
    }
    return out
  }
}

export const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s)

export const concat = (...parts: ReadonlyArray<Uint8Array>): Uint8Array => {
  const b = new ByteBuilder()
  for (const p of parts) b.bytes(p)
  return b.build()
}

/** Deterministic pseudo-random bytes (tests must not depend on Math.random). */
export const pseudoRandomBytes = (length: number, seed: number): Uint8Array => {
  const out = new Uint8Array(length)
  let x = seed >>> 0 || 1
  for (let i = 0; i < length; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    out[i] = x & 0xff
  }
  return out
}
