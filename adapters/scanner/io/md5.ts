// MD5 (RFC 1321), incremental, in plain TypeScript: the pack directory records an MD5 per entry,
// and the reader must verify it on every runtime without node:crypto. Not used for security.

const S = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21]
const K = Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) >>> 0)

export class Md5 {
  #a = 0x67452301
  #b = 0xefcdab89
  #c = 0x98badcfe
  #d = 0x10325476
  readonly #block = new Uint8Array(64)
  #blockLength = 0
  #totalLength = 0
  readonly #words = new Uint32Array(16)

  update(data: Uint8Array): this {
    this.#totalLength += data.length
    let i = 0
    while (i < data.length) {
      const take = Math.min(64 - this.#blockLength, data.length - i)
      this.#block.set(data.subarray(i, i + take), this.#blockLength)
      this.#blockLength += take
      i += take
      if (this.#blockLength === 64) {
        this.#compress()
        this.#blockLength = 0
      }
    }
    return this
  }

  digest(): Uint8Array {
    const bits = this.#totalLength * 8
    const padding = new Uint8Array(((this.#blockLength < 56 ? 56 : 120) - this.#blockLength) + 8)
    padding[0] = 0x80
    const view = new DataView(padding.buffer)
    view.setUint32(padding.length - 8, bits >>> 0, true)
    view.setUint32(padding.length - 4, Math.floor(bits / 2 ** 32), true)
    this.update(padding)
    const out = new Uint8Array(16)
    const o = new DataView(out.buffer)
    o.setUint32(0, this.#a, true)
    o.setUint32(4, this.#b, true)
    o.setUint32(8, this.#c, true)
    o.setUint32(12, this.#d, true)
    return out
  }

  #compress(): void {
    const w = this.#words
    for (let j = 0; j < 16; j++) {
      const k = j * 4
      w[j] = ((this.#block[k] ?? 0) | ((this.#block[k + 1] ?? 0) << 8) | ((this.#block[k + 2] ?? 0) << 16) | ((this.#block[k + 3] ?? 0) << 24)) >>> 0
    }
    let a = this.#a
    let b = this.#b
    let c = this.#c
    let d = this.#d
    for (let i = 0; i < 64; i++) {
      let f: number
      let g: number
      if (i < 16) {
        f = (b & c) | (~b & d)
        g = i
      } else if (i < 32) {
        f = (d & b) | (~d & c)
        g = (5 * i + 1) % 16
      } else if (i < 48) {
        f = b ^ c ^ d
        g = (3 * i + 5) % 16
      } else {
        f = c ^ (b | ~d)
        g = (7 * i) % 16
      }
      const sum = (a + f + (K[i] ?? 0) + (w[g] ?? 0)) >>> 0
      const shift = S[(i >> 4) * 4 + (i % 4)] ?? 0
      a = d
      d = c
      c = b
      b = (b + ((sum << shift) | (sum >>> (32 - shift)))) >>> 0
    }
    this.#a = (this.#a + a) >>> 0
    this.#b = (this.#b + b) >>> 0
    this.#c = (this.#c + c) >>> 0
    this.#d = (this.#d + d) >>> 0
  }
}

export const toHex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")
