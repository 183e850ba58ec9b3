// API keys look like `pckg_<32 base62 characters>_<6 base62 characters>`: a fixed prefix secret scanners can search
// for, about 190 bits of randomness, and a CRC32 of the random part so a scanner (or this service, before any
// database read) tells a real key from a lookalike offline. The checksum proves nothing about validity: only the
// stored hash does.

export const API_KEY_PREFIX = "pckg_"
export const API_KEY_RANDOM_LENGTH = 32
const CHECKSUM_LENGTH = 6
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
const SHAPE = /^pckg_([0-9A-Za-z]{32})_([0-9A-Za-z]{6})$/

const CRC_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

/** CRC-32 (IEEE 802.3, as zlib computes it) of the text's UTF-8 bytes. */
export const crc32 = (text: string): number => {
  let crc = 0xffffffff
  for (const byte of new TextEncoder().encode(text)) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

const base62 = (value: number, width: number): string => {
  let out = ""
  for (let rest = value; out.length < width; rest = Math.floor(rest / 62)) out = BASE62[rest % 62]! + out
  return out
}

/** Random base62 characters from random bytes, without modulo bias (bytes 248-255 are skipped). */
export const base62FromBytes = (bytes: Uint8Array, length: number): string | null => {
  let out = ""
  for (const byte of bytes) {
    if (byte >= 248) continue
    out += BASE62[byte % 62]
    if (out.length === length) return out
  }
  return null
}

/** The whole key for a random part. */
export const apiKeyFor = (random: string): string => `${API_KEY_PREFIX}${random}_${base62(crc32(random), CHECKSUM_LENGTH)}`

/** True when the text has a key's shape and its checksum matches: worth a database read. */
export const looksLikeApiKey = (text: string): boolean => {
  const match = SHAPE.exec(text)
  return match !== null && base62(crc32(match[1]!), CHECKSUM_LENGTH) === match[2]
}

/** What lists show to tell keys apart: the prefix and the first 8 random characters (never enough to use). */
export const apiKeyDisplayPrefix = (key: string): string => key.slice(0, API_KEY_PREFIX.length + 8)
